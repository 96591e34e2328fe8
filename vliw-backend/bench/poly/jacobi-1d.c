/* jacobi-1d: T time steps of the 3-point Jacobi stencil on a 1-D array,
 * alternating between A and B (N points). */
#include "poly.h"

#ifdef MEDIUM
#define N 12000
#define T 20
#else
#define N 400
#define T 20
#endif

static float A[N], B[N];

NOINLINE void kernel_jacobi_1d(void) {
    for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
        for (int i = 1; i < N - 1; i++)
            A[i] = 0.33333f * (B[i - 1] + B[i] + B[i + 1]);
    }
}

int main(void) {
    for (int i = 0; i < N; i++) {
        A[i] = poly_init(i + 2, N);
        B[i] = poly_init(i + 3, N);
    }
    kernel_jacobi_1d();
    poly_print("A", A, N);
    poly_print("B", B, N);
    return 0;
}

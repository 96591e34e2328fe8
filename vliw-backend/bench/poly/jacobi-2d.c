/* jacobi-2d: T time steps of the 5-point Jacobi stencil on an N x N grid,
 * alternating between A and B. */
#include "poly.h"

#ifdef MEDIUM
#define N 120
#define T 20
#else
#define N 30
#define T 10
#endif

static float A[N][N], B[N][N];

NOINLINE void kernel_jacobi_2d(void) {
    for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = poly_init(i * (j + 2) + 2, N);
            B[i][j] = poly_init(i * (j + 3) + 3, N);
        }
    kernel_jacobi_2d();
    poly_print("A", A, N * N);
    poly_print("B", B, N * N);
    return 0;
}

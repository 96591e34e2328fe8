/* seidel-2d: T sweeps of the 9-point Gauss-Seidel stencil on an N x N grid
 * in place (each point the mean of its 3 x 3 neighbourhood, the new values
 * of the points before it already used). */
#include "poly.h"

#ifdef MEDIUM
#define N 140
#define T 8
#else
#define N 30
#define T 10
#endif

static float A[N][N];

NOINLINE void kernel_seidel_2d(void) {
    for (int t = 0; t < T; t++)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0f;
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = poly_init(i * (j + 2) + 2, N);
    kernel_seidel_2d();
    poly_print("A", A, N * N);
    return 0;
}

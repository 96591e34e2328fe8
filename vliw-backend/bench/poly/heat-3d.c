/* heat-3d: T time steps of the explicit heat equation on an N x N x N grid
 * (the 7-point stencil: second differences along each axis, scaled by 1/8,
 * plus the point), alternating between A and B. */
#include "poly.h"

#ifdef MEDIUM
#define N 24
#define T 10
#else
#define N 10
#define T 10
#endif

static float A[N][N][N], B[N][N][N];

NOINLINE void kernel_heat_3d(void) {
    for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    B[i][j][k] = 0.125f * (A[i + 1][j][k] - 2.0f * A[i][j][k] + A[i - 1][j][k])
                               + 0.125f * (A[i][j + 1][k] - 2.0f * A[i][j][k] + A[i][j - 1][k])
                               + 0.125f * (A[i][j][k + 1] - 2.0f * A[i][j][k] + A[i][j][k - 1])
                               + A[i][j][k];
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    A[i][j][k] = 0.125f * (B[i + 1][j][k] - 2.0f * B[i][j][k] + B[i - 1][j][k])
                               + 0.125f * (B[i][j + 1][k] - 2.0f * B[i][j][k] + B[i][j - 1][k])
                               + 0.125f * (B[i][j][k + 1] - 2.0f * B[i][j][k] + B[i][j][k - 1])
                               + B[i][j][k];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                A[i][j][k] = B[i][j][k] = poly_init(i + j + (N - k), N) * 10.0f;
    kernel_heat_3d();
    poly_print("A", A, N * N * N);
    poly_print("B", B, N * N * N);
    return 0;
}

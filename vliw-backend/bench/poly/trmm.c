/* trmm: B = alpha * A^T * B with A unit lower triangular (the diagonal and
 * upper part of A are not read; A: M x M, B: M x N). Row i of the result
 * needs rows k > i of B not yet overwritten, so i runs upwards. */
#include "poly.h"

#ifdef MEDIUM
#define M 96
#define N 112
#else
#define M 20
#define N 24
#endif

static float A[M][M], B[M][N];

NOINLINE void kernel_trmm(float alpha) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            for (int k = i + 1; k < M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

int main(void) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = poly_init(i * j + 1, M);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = poly_init(N + i - j + M, N);
    kernel_trmm(1.5f);
    poly_print("B", B, M * N);
    return 0;
}

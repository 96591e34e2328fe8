/* syr2k: C = alpha * A * B^T + alpha * B * A^T + beta * C on the lower
 * triangle of C (A, B: N x M, C: N x N symmetric). */
#include "poly.h"

#ifdef MEDIUM
#define N 96
#define M 80
#else
#define N 24
#define M 20
#endif

static float A[N][M], B[N][M], C[N][N];

NOINLINE void kernel_syr2k(float alpha, float beta) {
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int k = 0; k < M; k++) {
            A[i][k] = poly_init(i * k + 1, N);
            B[i][k] = poly_init(i * k + 2, M);
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = poly_init(i * j + 3, N);
    kernel_syr2k(1.5f, 1.25f);
    poly_print("C", C, N * N);
    return 0;
}

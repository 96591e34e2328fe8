/* syrk: C = alpha * A * A^T + beta * C on the lower triangle of C
 * (A: N x M, C: N x N symmetric). */
#include "poly.h"

#ifdef MEDIUM
#define N 112
#define M 96
#else
#define N 24
#define M 20
#endif

static float A[N][M], C[N][N];

NOINLINE void kernel_syrk(float alpha, float beta) {
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = poly_init(i * k + 1, N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = poly_init(i * j + 2, M);
    kernel_syrk(1.5f, 1.25f);
    poly_print("C", C, N * N);
    return 0;
}

/* cholesky: A = L L^T in place, L in the lower triangle (A: N x N,
 * symmetric and diagonally dominant, hence positive definite). */
#include <math.h>
#include "poly.h"

#ifdef MEDIUM
#define N 144
#else
#define N 32
#endif

static float A[N][N];

NOINLINE void kernel_cholesky(void) {
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (int k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrtf(A[i][i]);
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++) {
            A[i][j] = i == j ? (float)N : poly_init(i * j + i + j, N);
            A[j][i] = A[i][j];
        }
    kernel_cholesky();
    /* The lower triangle with the diagonal, row by row. */
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++) {
        h ^= bench_hash(A[i], i + 1);
        h *= 16777619u;
    }
    printf("L %08x\n", (unsigned)h);
    return 0;
}

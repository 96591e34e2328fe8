/* mmm: the product of two N x N matrices (seed 001 Fig. 5). One instance
 * computes one element C[i][j]: the dot product of row i of A (uniform
 * across the instances of a row) and column j of B (consecutive across
 * them). */
#include "wfv.h"

#define N 48

float a[N * N] ALIGNED, b[N * N] ALIGNED, c[N * N] ALIGNED;

#pragma simd declare vec-function uniform(x, y, i, n) linear(j) alignment(y:64) nomask
VECFN float dot_col(const float *x, const float *y, int i, int j, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += x[i * n + k] * y[k * n + j];
    return s;
}

int order = N;

NOINLINE void kernel(int n) {
    for (int i = 0; i < n; i++) {
        #pragma simd vec-function
        for (int j = 0; j < n; j++)
            c[i * n + j] = dot_col(a, b, i, j, n);
    }
}

int main(void) {
    for (int i = 0; i < N * N; i++) {
        a[i] = lcg_unit() - 0.5f;
        b[i] = lcg_unit() - 0.5f;
    }
    kernel(order);
    printf("mmm %dx%d: checksum 0x%08x\n", N, N, (unsigned)wfv_hash(c, N * N));
    return 0;
}

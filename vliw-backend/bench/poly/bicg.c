/* bicg: the BiCG sub-kernel: s = A^T r and q = A p (A: N x M). */
#include "poly.h"

#ifdef MEDIUM
#define N 200
#define M 180
#else
#define N 42
#define M 38
#endif

static float A[N][M], s[M], q[N], p[M], r[N];

NOINLINE void kernel_bicg(void) {
    for (int j = 0; j < M; j++)
        s[j] = 0.0f;
    for (int i = 0; i < N; i++) {
        q[i] = 0.0f;
        for (int j = 0; j < M; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}

int main(void) {
    for (int j = 0; j < M; j++)
        p[j] = poly_init(j, M);
    for (int i = 0; i < N; i++) {
        r[i] = poly_init(i, N);
        for (int j = 0; j < M; j++)
            A[i][j] = poly_init(i * (j + 1), N);
    }
    kernel_bicg();
    poly_print("s", s, M);
    poly_print("q", q, N);
    return 0;
}

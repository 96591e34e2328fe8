/* atax: y = A^T (A x) (A: M x N), through t = A x. */
#include "poly.h"

#ifdef MEDIUM
#define M 180
#define N 200
#else
#define M 38
#define N 42
#endif

static float A[M][N], x[N], y[N], t[M];

NOINLINE void kernel_atax(void) {
    for (int j = 0; j < N; j++)
        y[j] = 0.0f;
    for (int i = 0; i < M; i++) {
        t[i] = 0.0f;
        for (int j = 0; j < N; j++)
            t[i] = t[i] + A[i][j] * x[j];
        for (int j = 0; j < N; j++)
            y[j] = y[j] + A[i][j] * t[i];
    }
}

int main(void) {
    for (int j = 0; j < N; j++)
        x[j] = 1.0f + poly_init(j, N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = poly_init(i + j, N) * 0.2f;
    kernel_atax();
    poly_print("t", t, M);
    poly_print("y", y, N);
    return 0;
}

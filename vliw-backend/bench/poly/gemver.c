/* gemver: A' = A + u1 v1^T + u2 v2^T; x = x + beta A'^T y + z;
 * w = w + alpha A' x (A: N x N). */
#include "poly.h"

#ifdef MEDIUM
#define N 200
#else
#define N 40
#endif

static float A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];

NOINLINE void kernel_gemver(float alpha, float beta) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x[i] = x[i] + beta * A[j][i] * y[j];
    for (int i = 0; i < N; i++)
        x[i] = x[i] + z[i];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            w[i] = w[i] + alpha * A[i][j] * x[j];
}

int main(void) {
    for (int i = 0; i < N; i++) {
        u1[i] = poly_init(i, N);
        u2[i] = poly_init(i + 1, N) * 0.5f;
        v1[i] = poly_init(i + 1, N) * 0.25f;
        v2[i] = poly_init(i + 1, N) * 0.125f;
        y[i] = poly_init(i + 1, N) * 0.0625f;
        z[i] = poly_init(i + 1, N) * 0.03125f;
        x[i] = 0.0f;
        w[i] = 0.0f;
        for (int j = 0; j < N; j++)
            A[i][j] = poly_init(i * j, N);
    }
    kernel_gemver(1.5f, 1.25f);
    poly_print("A", A, N * N);
    poly_print("x", x, N);
    poly_print("w", w, N);
    return 0;
}

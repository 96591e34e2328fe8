/* mvt: x1 = x1 + A y1; x2 = x2 + A^T y2 (A: N x N). */
#include "poly.h"

#ifdef MEDIUM
#define N 200
#else
#define N 40
#endif

static float A[N][N], x1[N], x2[N], y1[N], y2[N];

NOINLINE void kernel_mvt(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x1[i] = x1[i] + A[i][j] * y1[j];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x2[i] = x2[i] + A[j][i] * y2[j];
}

int main(void) {
    for (int i = 0; i < N; i++) {
        x1[i] = poly_init(i, N);
        x2[i] = poly_init(i + 1, N);
        y1[i] = poly_init(i + 3, N);
        y2[i] = poly_init(i + 4, N);
        for (int j = 0; j < N; j++)
            A[i][j] = poly_init(i * j, N);
    }
    kernel_mvt();
    poly_print("x1", x1, N);
    poly_print("x2", x2, N);
    return 0;
}

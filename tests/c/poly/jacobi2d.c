// jacobi2d: the 2-d Jacobi stencil over 11x9 points for 3 steps, skewed and tiled by dsp-pluto.
// dsp-cflags: -fpolyhedral --tile-sizes=3,3,3
#include <stdio.h>

#define T 3
#define N 11
#define M 9

static float A[N][M], B[N][M];

__attribute__((noinline)) void kernel(void) {
    for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < M - 1; j++)
                B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < M - 1; j++)
                A[i][j] = B[i][j];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            A[i][j] = (float)((i * 5 + j * 3) % 7);
            B[i][j] = 0.0f;
        }
    kernel();
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++)
            printf("%.5f ", A[i][j]);
        printf("\n");
    }
    return 0;
}

// seidel2d: the 2-d Gauss-Seidel stencil (in place), skewed (t, t+i, 2t+i+j) and tiled by dsp-pluto.
// dsp-cflags: -fpolyhedral --tile-sizes=2,4,4
#include <stdio.h>

#define T 4
#define N 10

static double A[N][N];

__attribute__((noinline)) void kernel(void) {
    for (int t = 0; t < T; t++)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i * j + 3) % 10) / 3.0;
    kernel();
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            printf("%.9f ", A[i][j]);
        printf("\n");
    }
    return 0;
}

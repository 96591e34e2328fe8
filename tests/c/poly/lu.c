// lu: in-place LU decomposition without pivoting (triangular, imperfect nest), tiled by dsp-pluto.
// dsp-cflags: -fpolyhedral --tile-sizes=3,3,3
#include <stdio.h>

#define N 9

static double A[N][N];

__attribute__((noinline)) void kernel(void) {
    for (int k = 0; k < N; k++) {
        for (int j = k + 1; j < N; j++)
            A[k][j] = A[k][j] / A[k][k];
        for (int i = k + 1; i < N; i++)
            for (int j = k + 1; j < N; j++)
                A[i][j] = A[i][j] - A[i][k] * A[k][j];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i == j) ? N + 1.0 : (double)((i + 2 * j) % 5) / 4.0;
    kernel();
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            printf("%.9f ", A[i][j]);
        printf("\n");
    }
    return 0;
}

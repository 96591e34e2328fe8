// if_nest: a loop nest with an affine if/else in its body and a triangular bound, through dsp-pluto.
// dsp-cflags: -fpolyhedral --tile-sizes=4,4
#include <stdio.h>

#define N 15

static int A[N][N], B[N][N];

__attribute__((noinline)) void kernel(void) {
    for (int i = 1; i < N; i++)
        for (int j = 0; j <= i; j++) {
            if (i + j < N)
                A[i][j] = A[i - 1][j] + B[i][j];
            else
                A[i][j] = A[i - 1][j] - 2 * B[j][i];
        }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = i * N + j;
            B[i][j] = (i * 3 + j) % 7 - 3;
        }
    kernel();
    long sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum = sum * 7 + A[i][j];
    printf("%ld\n", sum);
    for (int i = 0; i < N; i++)
        printf("%d %d\n", A[i][i], A[N - 1][i]);
    return 0;
}

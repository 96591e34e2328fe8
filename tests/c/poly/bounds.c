// bounds: parametric nests (n unknown at compile time) run by dsp-pluto's code at sizes 0, 1, 2, odd and larger than a tile.
// dsp-cflags: -fpolyhedral --tile-sizes=4,4,4
#include <stdio.h>

#define MAX 21

static int A[MAX][MAX], B[MAX][MAX], C[MAX][MAX], V[MAX + 2];

__attribute__((noinline)) void matmul(int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
}

__attribute__((noinline)) void stencil(int t_steps, int n) {
    for (int t = 0; t < t_steps; t++)
        for (int i = 1; i < n - 1; i++)
            V[i] = (V[i - 1] + 2 * V[i] + V[i + 1]) % 1001;
}

__attribute__((noinline)) void transpose_add(int n, int m) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[j][i] += B[i][j];
}

int main(void) {
    static const int sizes[] = {0, 1, 2, 3, 5, 7, 13, 21};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int i = 0; i < MAX; i++)
            for (int j = 0; j < MAX; j++) {
                A[i][j] = (i + 2 * j) % 9 - 4;
                B[i][j] = (3 * i + j) % 7 - 3;
                C[i][j] = i ^ j;
            }
        for (int i = 0; i < MAX + 2; i++)
            V[i] = i * i % 17;
        matmul(n);
        stencil(3, n);
        transpose_add(n, n > 2 ? n - 2 : n);
        long sum = 0;
        for (int i = 0; i < MAX; i++)
            for (int j = 0; j < MAX; j++)
                sum = sum * 3 + C[i][j] + A[i][j];
        for (int i = 0; i < MAX + 2; i++)
            sum = sum * 5 + V[i];
        printf("n=%d %ld\n", n, sum);
    }
    return 0;
}

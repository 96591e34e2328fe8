// auto_tiles: arrays larger than L1D, no tile sizes given: dsp-pluto's own sizes (seed 004's model, innermost loop whole) and an interchange (doitgen).
// dsp-cflags: -fpolyhedral
#include <stdio.h>

#define NI 72
#define NJ 80
#define NK 64
#define NR 12
#define NQ 10
#define NP 64

static int A[NI][NK], B[NK][NJ], C[NI][NJ];
static int X[NR][NQ][NP], W[NP][NP], S[NR][NQ][NP];

__attribute__((noinline)) void matmul(void) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++)
                C[i][j] += A[i][k] * B[k][j];
}

__attribute__((noinline)) void doitgen(void) {
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++) {
                S[r][q][p] = 0;
                for (int s = 0; s < NP; s++)
                    S[r][q][p] += X[r][q][s] * W[s][p];
            }
}

int main(void) {
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (i * 3 + k * 5) % 17 - 8;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (k * 7 + j * 2) % 13 - 6;
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                X[r][q][p] = (r + 2 * q + 3 * p) % 11 - 5;
    for (int s = 0; s < NP; s++)
        for (int p = 0; p < NP; p++)
            W[s][p] = (s * p + 1) % 7 - 3;
    matmul();
    doitgen();
    long sum = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            sum = (sum * 31 + C[i][j]) % 1000000007;
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                sum = (sum * 7 + S[r][q][p]) % 1000000007;
    printf("%ld\n", sum);
    return 0;
}

// matmul: C += A * B on integers (exact), tiled by dsp-pluto with tiles of 4 over 13x11x7.
// dsp-cflags: -fpolyhedral --tile-sizes=4,4,4
#include <stdio.h>

#define NI 13
#define NJ 11
#define NK 7

static int A[NI][NK], B[NK][NJ], C[NI][NJ];

__attribute__((noinline)) void kernel(void) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++)
                C[i][j] += A[i][k] * B[k][j];
}

int main(void) {
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (i * 3 + k * 5) % 17 - 8;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (k * 7 + j * 2) % 13 - 6;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = i - j;
    kernel();
    long sum = 0;
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++) {
            sum = sum * 31 + C[i][j];
            printf("%d ", C[i][j]);
        }
        printf("\n");
    }
    printf("sum %ld\n", sum);
    return 0;
}

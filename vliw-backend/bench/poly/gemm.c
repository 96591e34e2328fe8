/* gemm: C = alpha * A * B + beta * C (A: NI x NK, B: NK x NJ, C: NI x NJ). */
#include "poly.h"

#ifdef MEDIUM
#define NI 96
#define NJ 104
#define NK 88
#else
#define NI 20
#define NJ 24
#define NK 22
#endif

static float A[NI][NK], B[NK][NJ], C[NI][NJ];

NOINLINE void kernel_gemm(float alpha, float beta) {
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++)
            C[i][j] *= beta;
        for (int k = 0; k < NK; k++)
            for (int j = 0; j < NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

int main(void) {
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = poly_init(i * k + 1, NK);
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = poly_init(k * (j + 1) + 2, NJ);
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = poly_init(i * j + 3, NI);
    kernel_gemm(1.5f, 1.25f);
    poly_print("C", C, NI * NJ);
    return 0;
}

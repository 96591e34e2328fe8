/* 2mm: D = alpha * A * B * C + beta * D, through T = alpha * A * B
 * (A: NI x NK, B: NK x NJ, C: NJ x NL, D: NI x NL). Dot-product loop order. */
#include "poly.h"

#ifdef MEDIUM
#define NI 64
#define NJ 72
#define NK 80
#define NL 88
#else
#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#endif

static float A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], T[NI][NJ];

NOINLINE void kernel_2mm(float alpha, float beta) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            T[i][j] = 0.0f;
            for (int k = 0; k < NK; k++)
                T[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++) {
            D[i][l] *= beta;
            for (int j = 0; j < NJ; j++)
                D[i][l] += T[i][j] * C[j][l];
        }
}

int main(void) {
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = poly_init(i * k + 1, NI);
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = poly_init(k * (j + 1), NJ);
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++)
            C[j][l] = poly_init(j * (l + 3) + 1, NL);
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            D[i][l] = poly_init(i * (l + 2), NK);
    kernel_2mm(1.5f, 1.25f);
    poly_print("T", T, NI * NJ);
    poly_print("D", D, NI * NL);
    return 0;
}

/* 3mm: G = (A * B) * (C * D), through E = A * B and F = C * D
 * (A: NI x NK, B: NK x NJ, C: NJ x NM, D: NM x NL). Dot-product loop order. */
#include "poly.h"

#ifdef MEDIUM
#define NI 56
#define NJ 60
#define NK 64
#define NL 68
#define NM 72
#else
#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#define NM 24
#endif

static float A[NI][NK], B[NK][NJ], C[NJ][NM], D[NM][NL];
static float E[NI][NJ], F[NJ][NL], G[NI][NL];

NOINLINE void kernel_3mm(void) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            E[i][j] = 0.0f;
            for (int k = 0; k < NK; k++)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++) {
            F[j][l] = 0.0f;
            for (int m = 0; m < NM; m++)
                F[j][l] += C[j][m] * D[m][l];
        }
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++) {
            G[i][l] = 0.0f;
            for (int j = 0; j < NJ; j++)
                G[i][l] += E[i][j] * F[j][l];
        }
}

int main(void) {
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = poly_init(i * k + 1, 5 * NI);
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = poly_init(k * (j + 1) + 2, 5 * NJ);
    for (int j = 0; j < NJ; j++)
        for (int m = 0; m < NM; m++)
            C[j][m] = poly_init(j * (m + 3), 5 * NL);
    for (int m = 0; m < NM; m++)
        for (int l = 0; l < NL; l++)
            D[m][l] = poly_init(m * (l + 2) + 2, 5 * NK);
    kernel_3mm();
    poly_print("E", E, NI * NJ);
    poly_print("F", F, NJ * NL);
    poly_print("G", G, NI * NL);
    return 0;
}

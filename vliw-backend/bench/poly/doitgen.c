/* doitgen: the multiresolution analysis kernel (MADNESS): every row
 * A[r][q][*] is replaced by A[r][q][*] x C4 (A: NR x NQ x NP, C4: NP x NP),
 * through the row buffer sum. */
#include "poly.h"

#ifdef MEDIUM
#define NR 20
#define NQ 24
#define NP 56
#else
#define NR 8
#define NQ 10
#define NP 12
#endif

static float A[NR][NQ][NP], C4[NP][NP], sum[NP];

NOINLINE void kernel_doitgen(void) {
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
            for (int p = 0; p < NP; p++) {
                sum[p] = 0.0f;
                for (int s = 0; s < NP; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int p = 0; p < NP; p++)
                A[r][q][p] = sum[p];
        }
}

int main(void) {
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                A[r][q][p] = poly_init(r * q + p, NP);
    for (int s = 0; s < NP; s++)
        for (int p = 0; p < NP; p++)
            C4[s][p] = poly_init(s * p, NP);
    kernel_doitgen();
    poly_print("A", A, NR * NQ * NP);
    return 0;
}

/* autocorr: the first LAGS autocorrelation lags of an integer signal of SIZE
 * samples: r[k] = sum over i from k to SIZE-1 of x[i] x[i-k].
 * Essential work: LAGS SIZE - LAGS (LAGS-1) / 2 multiply-accumulates (i32),
 * SIZE loads, LAGS stores. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif
#define LAGS 16

int32_t sig[SIZE] ALIGNED, r[LAGS] ALIGNED;

NOINLINE void autocorr_i32(const int32_t *restrict x, int32_t *restrict out, int n) {
    for (int k = 0; k < LAGS; k++) {
        int32_t s = 0;
        for (int i = k; i < n; i++)
            s += x[i] * x[i - k];
        out[k] = s;
    }
}

int main(void) {
    for (int i = 0; i < SIZE; i++)
        sig[i] = bench_i8();
    autocorr_i32(sig, r, SIZE);
    printf("autocorr size %d lags %d: r0 %d checksum 0x%08x\n", SIZE, LAGS, (int)r[0],
           (unsigned)bench_hash(r, LAGS));
    return 0;
}

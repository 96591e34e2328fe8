/* fir_q15: a TAPS-tap fixed-point FIR filter over SIZE output samples:
 * Q15 samples and taps (int16_t), an int32_t accumulator,
 * out[i] = (sum over k of h[k] * in[i + k]) >> 15, the input holding
 * SIZE + TAPS - 1 samples. The inputs are kept small (|sample| <= 4096,
 * |tap| <= 2048) so that no sum can overflow: |acc| < 16 * 2^23 = 2^27.
 * Essential work: SIZE * TAPS multiply-accumulates (i16 x i16 widened to
 * i32), SIZE + 2 TAPS - 1 loads (i16), SIZE stores (i16). */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif
#define TAPS 16

int16_t in[SIZE + TAPS - 1] ALIGNED, h[TAPS] ALIGNED, out[SIZE] ALIGNED;

NOINLINE void fir_q15(const int16_t *restrict x, const int16_t *restrict c, int16_t *restrict y, int n) {
    for (int i = 0; i < n; i++) {
        int32_t acc = 0;
        for (int k = 0; k < TAPS; k++)
            acc += (int32_t)c[k] * (int32_t)x[i + k];
        y[i] = (int16_t)(acc >> 15);
    }
}

int main(void) {
    for (int i = 0; i < SIZE + TAPS - 1; i++)
        in[i] = (int16_t)(bench_i8() * 32);
    for (int k = 0; k < TAPS; k++)
        h[k] = (int16_t)(bench_i8() * 16);
    fir_q15(in, h, out, SIZE);
    /* SIZE is even: the int16_t outputs hashed as SIZE / 2 words. */
    printf("fir_q15 size %d taps %d: out[0] %d checksum 0x%08x\n", SIZE, TAPS, (int)out[0],
           (unsigned)bench_hash(out, SIZE / 2));
    return 0;
}

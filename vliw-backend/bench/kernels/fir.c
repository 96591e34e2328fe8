/* fir: a TAPS-tap FIR filter (single precision) over SIZE output samples:
 * out[i] = sum over k of h[k] * in[i + k], the input holding SIZE + TAPS - 1
 * samples.
 * Essential work: SIZE * TAPS multiply-accumulates (f32), SIZE + 2 TAPS - 1
 * loads, SIZE stores. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif
#define TAPS 16

float in[SIZE + TAPS - 1] ALIGNED, h[TAPS] ALIGNED, out[SIZE] ALIGNED;

NOINLINE void fir_f32(const float *restrict x, const float *restrict c, float *restrict y, int n) {
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = 0; k < TAPS; k++)
            acc = MACF(c[k], x[i + k], acc);
        y[i] = acc;
    }
}

int main(void) {
    for (int i = 0; i < SIZE + TAPS - 1; i++)
        in[i] = bench_f32();
    for (int k = 0; k < TAPS; k++)
        h[k] = bench_f32() * 0.125f;
    fir_f32(in, h, out, SIZE);
    printf("fir size %d taps %d: checksum 0x%08x\n", SIZE, TAPS, (unsigned)bench_hash(out, SIZE));
    return 0;
}

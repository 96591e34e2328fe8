/* dot_f32: single-precision dot product of two SIZE-element vectors, one
 * fused multiply-add per element in source order (C does not allow the
 * compiler to reassociate the sum).
 * Essential work: SIZE multiply-accumulates (f32), 2 SIZE loads. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif

float x[SIZE] ALIGNED, y[SIZE] ALIGNED;

NOINLINE float dot_f32(const float *restrict a, const float *restrict b, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s = MACF(a[i], b[i], s);
    return s;
}

int main(void) {
    for (int i = 0; i < SIZE; i++) {
        x[i] = bench_f32();
        y[i] = bench_f32();
    }
    float s = dot_f32(x, y, SIZE);
    printf("dot_f32 size %d: %.9g (0x%08x)\n", SIZE, (double)s, (unsigned)bench_bits(s));
    return 0;
}

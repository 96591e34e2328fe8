/* saxpy: y = a x + y over SIZE single-precision elements, one fused
 * multiply-add per element (the elements are independent).
 * Essential work: SIZE multiply-accumulates (f32), 2 SIZE loads, SIZE stores. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif

float x[SIZE] ALIGNED, y[SIZE] ALIGNED;

NOINLINE void saxpy(float a, const float *restrict xs, float *restrict ys, int n) {
    for (int i = 0; i < n; i++)
        ys[i] = MACF(a, xs[i], ys[i]);
}

int main(void) {
    for (int i = 0; i < SIZE; i++) {
        x[i] = bench_f32();
        y[i] = bench_f32();
    }
    saxpy(0.75f, x, y, SIZE);
    printf("saxpy size %d: checksum 0x%08x\n", SIZE, (unsigned)bench_hash(y, SIZE));
    return 0;
}

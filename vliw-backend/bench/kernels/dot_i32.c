/* dot_i32: integer dot product of two SIZE-element vectors.
 * Essential work: SIZE multiply-accumulates (i32), 2 SIZE loads. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif

int32_t x[SIZE] ALIGNED, y[SIZE] ALIGNED;

NOINLINE int32_t dot_i32(const int32_t *restrict a, const int32_t *restrict b, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

int main(void) {
    for (int i = 0; i < SIZE; i++) {
        x[i] = bench_i8();
        y[i] = bench_i8();
    }
    int32_t s = dot_i32(x, y, SIZE);
    printf("dot_i32 size %d: %d\n", SIZE, (int)s);
    return 0;
}

/* matmul: C = A B for SIZE x SIZE single-precision matrices, the textbook
 * i-j-k loop nest (the k loop is a dot product; its sum is kept in source
 * order, as C requires).
 * Essential work: SIZE^3 multiply-accumulates (f32), 2 SIZE^2 loads,
 * SIZE^2 stores. */
#include "bench.h"

#ifndef SIZE
#define SIZE 16
#endif

float a[SIZE * SIZE] ALIGNED, b[SIZE * SIZE] ALIGNED, c[SIZE * SIZE] ALIGNED;

NOINLINE void matmul_f32(const float *restrict x, const float *restrict y, float *restrict z, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s = MACF(x[i * n + k], y[k * n + j], s);
            z[i * n + j] = s;
        }
}

int main(void) {
    for (int i = 0; i < SIZE * SIZE; i++) {
        a[i] = bench_f32();
        b[i] = bench_f32();
    }
    matmul_f32(a, b, c, SIZE);
    printf("matmul size %d: checksum 0x%08x\n", SIZE, (unsigned)bench_hash(c, SIZE * SIZE));
    return 0;
}

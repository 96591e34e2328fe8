/* transpose: the transpose of an N x N matrix by 32x32 tiles (seed 001
 * Fig. 5). One instance moves one element: column x of the output row is
 * row x of the input column, a strided read (a gather) and a consecutive
 * write. */
#include "wfv.h"

#define N 128
#define T 32

int in[N * N] ALIGNED, out[N * N] ALIGNED;

#pragma simd declare vec-function uniform(src, dst, y, n) linear(x) nomask
VECFN void move(const int *src, int *dst, int x, int y, int n) {
    dst[y * n + x] = src[x * n + y];
}

int order = N, tile = T;

NOINLINE void kernel(int n, int t) {
    for (int ty = 0; ty < n; ty += t)
        for (int tx = 0; tx < n; tx += t)
            for (int y = ty; y < ty + t; y++) {
                #pragma simd vec-function
                for (int x = tx; x < tx + t; x++)
                    move(in, out, x, y, n);
            }
}

int main(void) {
    for (int i = 0; i < N * N; i++)
        in[i] = (int)lcg_next();
    kernel(order, tile);
    printf("transpose %dx%d: out[1] = %d, checksum 0x%08x\n", N, N, out[1],
           (unsigned)wfv_hash(out, N * N));
    return 0;
}

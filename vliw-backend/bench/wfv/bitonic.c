/* bitonic: bitonic sort of N integers (seed 001 Table 1). The sorting
 * network's stages run in the kernel; one stage's compare-exchanges, one
 * per pair of elements, are the vector function's instances (p: the pair;
 * j: the partner distance; k: the size of the bitonic sequences being
 * merged, which sets each pair's direction). */
#include "wfv.h"

#define N 1024

int keys[N] ALIGNED;

#pragma simd declare vec-function uniform(a, j, k) linear(p) nomask
VECFN void cmpx(int *a, int p, int j, int k) {
    int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
    int l = i + j;
    int x = a[i], y = a[l];
    int up = (i & k) == 0;
    if ((x > y) == up) {
        a[i] = y;
        a[l] = x;
    }
}

int keys_n = N;

NOINLINE void kernel(int n) {
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            #pragma simd vec-function
            for (int p = 0; p < n / 2; p++)
                cmpx(keys, p, j, k);
        }
}

int main(void) {
    for (int i = 0; i < N; i++)
        keys[i] = (int)lcg_below(100000) - 50000;
    kernel(keys_n);
    int sorted = 1;
    for (int i = 1; i < N; i++)
        sorted &= keys[i - 1] <= keys[i];
    printf("bitonic %d keys: sorted %d, min %d, max %d, checksum 0x%08x\n", N, sorted, keys[0],
           keys[N - 1], (unsigned)wfv_hash(keys, N));
    return !sorted;
}

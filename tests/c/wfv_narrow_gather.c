// wfv_narrow_gather: bytes and half-words loaded at lane-varying addresses in
// vector functions (the 32-bit gather of their aligned words, then shifted
// and truncated per lane): signed and unsigned, every offset within a word,
// under divergent control flow (masked lanes), and consecutive bytes (one
// narrow vector load).
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdint.h>
#include <stdio.h>

#define N 203
int8_t sb[N + 8];
uint8_t ub[N + 8];
int16_t sh[N + 8];
uint16_t uh[N + 8];
int out[N];

#pragma omp declare simd uniform(k) linear(i) notinbranch
__attribute__((noinline)) int mix(int i, int k) {
    int j = (i * 7 + k) % N;          /* lane-varying, any offset in a word */
    int r = sb[j] + 3 * ub[j];
    if (j & 1)                        /* divergent: masked gathers */
        r += sh[(j * 5) % N] - uh[j / 3];
    else
        r -= ub[i];                   /* consecutive bytes */
    return r;
}

__attribute__((noinline)) void run(int k) {
#pragma omp simd
    for (int i = 0; i < N; i++)
        out[i] = mix(i, k);
}

int main(void) {
    uint32_t s = 99;
    for (int i = 0; i < N + 8; i++) {
        s = s * 1664525u + 1013904223u;
        sb[i] = (int8_t)(s >> 24);
        ub[i] = (uint8_t)(s >> 16);
        sh[i] = (int16_t)(s >> 8);
        uh[i] = (uint16_t)s;
    }
    for (int k = 0; k < 3; k++) {
        run(k);
        long sum = 0;
        for (int i = 0; i < N; i++)
            sum = sum * 31 + out[i];
        printf("k=%d sum %ld out[5] %d out[100] %d\n", k, sum, out[5], out[100]);
    }
    return 0;
}

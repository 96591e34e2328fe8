/* mersenne: G independent Mersenne Twister (MT19937) generators, one per
 * instance (seed 001 Table 1): each is seeded with its own seed, regenerates
 * its 624-word state once (the twist, with the tempering-matrix branch on
 * each word's low bit) and returns the sum of its 624 tempered outputs. The
 * states are interleaved (word k of generator g at st[k * G + g]) so the
 * instances access consecutive words. */
#include "wfv.h"

#define G 32
#define MT_N 624
#define MT_M 397

uint32_t state[MT_N * G] ALIGNED;
uint32_t seeds[G] ALIGNED, sums[G] ALIGNED;

#pragma simd declare vec-function uniform(st, gn) linear(g) nomask
VECFN uint32_t mt_run(uint32_t *st, int g, uint32_t seed, int gn) {
    st[g] = seed;
    for (int k = 1; k < MT_N; k++) {
        uint32_t p = st[(k - 1) * gn + g];
        st[k * gn + g] = 1812433253u * (p ^ (p >> 30)) + (uint32_t)k;
    }
    for (int k = 0; k < MT_N; k++) {
        int k1 = k + 1 < MT_N ? k + 1 : k + 1 - MT_N;
        int km = k + MT_M < MT_N ? k + MT_M : k + MT_M - MT_N;
        uint32_t y = (st[k * gn + g] & 0x80000000u) | (st[k1 * gn + g] & 0x7fffffffu);
        uint32_t v = st[km * gn + g] ^ (y >> 1);
        if (y & 1u)
            v ^= 0x9908b0dfu;
        st[k * gn + g] = v;
    }
    uint32_t sum = 0;
    for (int k = 0; k < MT_N; k++) {
        uint32_t y = st[k * gn + g];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        sum += y;
    }
    return sum;
}

int generators = G;

NOINLINE void kernel(int gn) {
    #pragma simd vec-function
    for (int g = 0; g < gn; g++)
        sums[g] = mt_run(state, g, seeds[g], gn);
}

int main(void) {
    for (int g = 0; g < G; g++)
        seeds[g] = lcg_next();
    kernel(generators);
    printf("mersenne %d generators: sum[0] = %u, checksum 0x%08x\n", G, (unsigned)sums[0],
           (unsigned)wfv_hash(sums, G));
    return 0;
}

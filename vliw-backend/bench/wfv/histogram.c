/* histogram: a 64-bin histogram of N 8-bit samples (seed 001 Table 1).
 * Each instance counts one slice of the data into its own sub-histogram
 * (interleaved: bin b of instance g at sub[b * G + g], so the instances
 * never write the same word); the kernel then adds the G sub-histograms.
 * The data are interleaved too (sample i of instance g at data[i * G + g]),
 * so the instances read consecutive bytes. The counting loop's trip count
 * is uniform: every instance runs it in step, and its stores need no mask
 * beyond the call's. */
#include "wfv.h"

#define G 64
#define PER 96
#define BINS 64

uint8_t data[G * PER] ALIGNED;
uint32_t sub[BINS * G] ALIGNED;
uint32_t hist[BINS] ALIGNED;

#pragma simd declare vec-function uniform(d, s, per, g_count) linear(g) nomask
VECFN void count_slice(const uint8_t *d, uint32_t *s, int g, int per, int g_count) {
    for (int b = 0; b < BINS; b++)
        s[b * g_count + g] = 0;
    for (int i = 0; i < per; i++) {
        int bin = d[i * g_count + g] >> 2;
        s[bin * g_count + g] += 1;
    }
}

int slices = G, per_slice = PER;

NOINLINE void kernel(int gn, int per) {
    #pragma simd vec-function
    for (int g = 0; g < gn; g++)
        count_slice(data, sub, g, per, gn);
    for (int b = 0; b < BINS; b++) {
        uint32_t t = 0;
        for (int g = 0; g < gn; g++)
            t += sub[b * gn + g];
        hist[b] = t;
    }
}

int main(void) {
    for (int i = 0; i < G * PER; i++) {
        /* a skewed distribution: the sum of two uniform bytes, halved */
        data[i] = (uint8_t)((lcg_below(256) + lcg_below(256)) >> 1);
    }
    kernel(slices, per_slice);
    printf("histogram %d samples, %d bins: bin 32 = %u, checksum 0x%08x\n", G * PER, BINS,
           (unsigned)hist[32], (unsigned)wfv_hash(hist, BINS));
    return 0;
}

/* dwthaar1d: the full 1D Haar wavelet decomposition of a signal of N
 * samples (seed 001 Table 1): each level halves the signal into averages
 * and details, (a + b) / sqrt(2) and (a - b) / sqrt(2), one instance per
 * output pair. The level's scale is a uniform parameter, so its square
 * root (sqrtf) is one uniform call per vector call, not one per instance
 * (the seed's example of what uniformity buys). */
#include "wfv.h"
#include <math.h>

#define N 4096

float input[N] ALIGNED, out[N] ALIGNED, tmp[N] ALIGNED;
float two = 2.0f;

#pragma simd declare vec-function uniform(in, o, half, scale) linear(t) nomask
VECFN void haar(const float *in, float *o, int t, int half, float scale) {
    float r = sqrtf(scale);
    float a = in[2 * t], b = in[2 * t + 1];
    o[t] = (a + b) / r;
    o[half + t] = (a - b) / r;
}

int samples = N;

NOINLINE void kernel(int n) {
    for (int i = 0; i < n; i++)
        tmp[i] = input[i];
    for (int len = n; len > 1; len >>= 1) {
        int half = len >> 1;
        #pragma simd vec-function
        for (int t = 0; t < half; t++)
            haar(tmp, out, t, half, two);
        for (int i = 0; i < len; i++)
            tmp[i] = out[i];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        input[i] = lcg_unit() * 2.0f - 1.0f;
    kernel(samples);
    printf("dwthaar1d %d samples: checksum 0x%08x\n", N, (unsigned)wfv_hash(out, N));
    return 0;
}

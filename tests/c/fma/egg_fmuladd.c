// egg_fmuladd: loops dsp-egg-isel lifts whose a*b+c the DSP build contracts to
// llvm.fmuladd (-ffp-contract=on), which the backend fuses on the MAC units:
// egg must keep them fused (the host reference calls fmaf). A FIR filter with
// a constant tap count (its tap loop unrolled into the sample loop) and a
// scaled sum; egg runs before LLVM's loop vectorizer here.
// dsp-cflags: -ffp-contract=on -fegg-isel
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef REF_FMA
#define MACF(a, b, c) fmaf((a), (b), (c))
#else
#define MACF(a, b, c) ((a) * (b) + (c))
#endif

#define N 150
#define TAPS 8
static float x[N + TAPS], h[TAPS], y[N];
static uint32_t st = 99;
static uint32_t rnd(void) { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; }

__attribute__((noinline)) void fir(const float *restrict in, const float *restrict c, float *restrict out, int n) {
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = 0; k < TAPS; k++)
            acc = MACF(c[k], in[i + k], acc);
        out[i] = acc;
    }
}

__attribute__((noinline)) void axpy(const float *restrict in, float a, float *restrict out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = MACF(a, in[i], out[i]);
}

int main(void) {
    for (int i = 0; i < N + TAPS; i++)
        x[i] = (float)(int32_t)(rnd() >> 8) * 0x1p-20f;
    for (int k = 0; k < TAPS; k++)
        h[k] = (float)(int32_t)(rnd() >> 8) * 0x1p-25f;
    static const int ns[] = {1, 15, 16, 17, 64, N};
    for (unsigned t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        memset(y, 0, sizeof y);
        fir(x, h, y, ns[t]);
        axpy(x, 0.3f, y, ns[t]);
        uint32_t hsh = 2166136261u;
        for (int i = 0; i < N; i++) {
            uint32_t u;
            memcpy(&u, &y[i], 4);
            hsh = (hsh ^ u) * 16777619u;
        }
        printf("n=%3d digest %08x y[0]=%.9g\n", ns[t], (unsigned)hsh, (double)y[0]);
    }
    return 0;
}

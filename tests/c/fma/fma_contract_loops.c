// fma_contract_loops: multiply-add loops; the DSP build contracts each a*b+c (-ffp-contract=on: fmuladd on the MAC units), the host reference calls fma().
// Every floating-point a*b+c here is meant to be fused; nothing else multiplies into an add (digests hash the bits).
// dsp-cflags: -ffp-contract=on
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef REF_FMA
#define MACF(a, b, c) fmaf((a), (b), (c))
#define MACD(a, b, c) fma((a), (b), (c))
#else
#define MACF(a, b, c) ((a) * (b) + (c))
#define MACD(a, b, c) ((a) * (b) + (c))
#endif

#define N 203
float x[N], y[N], z[N];
double dx[N], dy[N];
float coef[9] = {0.1f, -0.2f, 0.3f, 0.7f, 1.1f, 0.7f, 0.3f, -0.2f, 0.1f};

static uint32_t hash_f(const float *v, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], sizeof u);
        h = (h ^ u) * 16777619u;
    }
    return h;
}
static uint32_t hash_d(const double *v, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], sizeof u);
        h = (h ^ (uint32_t)u ^ (uint32_t)(u >> 32)) * 16777619u;
    }
    return h;
}
static void init(void) {
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17 - 8) / 3.0f;
        y[i] = (float)(i % 11) / 7.0f;
        z[i] = 0.0f;
        dx[i] = (double)(i % 13 - 6) / 9.0;
        dy[i] = (double)(i % 5) / 11.0;
    }
}

int main(void) {
    int lens[] = {1, 7, 16, 17, 33, 100, 203};
    for (unsigned k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        int n = lens[k];
        init();
        for (int i = 0; i < n; i++) /* saxpy: vectorizable, one MAC per element */
            y[i] = MACF(1.7f, x[i], y[i]);
        float dot = 0.0f; /* in-order dot product: a chain of MACs */
        for (int i = 0; i < n; i++)
            dot = MACF(x[i], y[i], dot);
        for (int i = 0; i < n; i++) /* daxpy */
            dy[i] = MACD(dx[i], 0.3, dy[i]);
        double ddot = 0.0;
        for (int i = 0; i < n; i++)
            ddot = MACD(dx[i], dy[i], ddot);
        printf("n=%3d y %08x dot %.9g dy %08x ddot %.17g\n", n, hash_f(y, N), (double)dot, hash_d(dy, N), ddot);
    }
    /* FIR filter: each output a chain of MACs over the taps. */
    init();
    for (int i = 0; i + 9 <= N; i++) {
        float acc = 0.0f;
        for (int t = 0; t < 9; t++)
            acc = MACF(coef[t], x[i + t], acc);
        z[i] = acc;
    }
    printf("fir %08x z[0] %.9g z[100] %.9g\n", hash_f(z, N), (double)z[0], (double)z[100]);
    /* Horner evaluation of a polynomial at many points, in float and double. */
    const double pc[6] = {1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125};
    for (int i = 0; i < N; i++) {
        double r = pc[5];
        for (int j = 4; j >= 0; j--)
            r = MACD(r, dx[i], pc[j]);
        dy[i] = r;
        float fr = (float)pc[5];
        for (int j = 4; j >= 0; j--)
            fr = MACF(fr, x[i], (float)pc[j]);
        z[i] = fr;
    }
    printf("horner %08x %08x %.17g %.9g\n", hash_d(dy, N), hash_f(z, N), dy[7], (double)z[7]);
    /* Element-wise multiply-add of three arrays (vectorizable). */
    init();
    for (int i = 0; i < N; i++)
        z[i] = MACF(x[i], y[i], z[i] + 0.5f);
    printf("ewise %08x\n", hash_f(z, N));
    return 0;
}

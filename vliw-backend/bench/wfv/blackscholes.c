/* blackscholes: European call and put prices of N options by the
 * Black-Scholes formula (seed 001 Table 1), the cumulative normal
 * distribution by the Abramowitz-Stegun polynomial with a branch on the
 * sign. expf, logf and sqrtf come from libm; the results are printed as
 * rounded sums (libm results may differ in the last bit from the host's). */
#include "wfv.h"
#include <math.h>

#define N 512

float spot[N] ALIGNED, strike[N] ALIGNED, years[N] ALIGNED;
float call[N] ALIGNED, put[N] ALIGNED;
float rate = 0.02f, volatility = 0.30f;

static inline float cnd(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f;
    const float a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = 0.39894228040f * expf(-0.5f * d * d) * poly;
    if (d > 0.0f)
        c = 1.0f - c;
    return c;
}

#pragma simd declare vec-function uniform(s, x, t, c, p, r, v) linear(i) nomask
VECFN void price(const float *s, const float *x, const float *t, float *c, float *p,
                 int i, float r, float v) {
    float sq = sqrtf(t[i]);
    float d1 = (logf(s[i] / x[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
    float d2 = d1 - v * sq;
    float disc = x[i] * expf(-r * t[i]);
    float n1 = cnd(d1), n2 = cnd(d2);
    c[i] = s[i] * n1 - disc * n2;
    p[i] = disc * (1.0f - n2) - s[i] * (1.0f - n1);
}

int options = N;

NOINLINE void kernel(int n) {
    #pragma simd vec-function
    for (int i = 0; i < n; i++)
        price(spot, strike, years, call, put, i, rate, volatility);
}

int main(void) {
    for (int i = 0; i < N; i++) {
        spot[i] = 10.0f + 90.0f * lcg_unit();
        strike[i] = 10.0f + 90.0f * lcg_unit();
        years[i] = 0.25f + 4.75f * lcg_unit();
    }
    kernel(options);
    double sc = 0, sp = 0;
    for (int i = 0; i < N; i++) {
        sc += call[i];
        sp += put[i];
    }
    printf("blackscholes %d options: calls %.5g puts %.5g\n", N, sc, sp);
    return 0;
}

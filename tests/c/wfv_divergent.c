// wfv_divergent: seed 001's function-level vectorizer: vector variants with divergent if/else, a loop with data-dependent exits, an early return, conditional stores, uniform/linear/aligned parameters, a gather, a call under a mask, called from #pragma simd vec-function loops (16/8/32 iterations per call, scalar remainder); the output must not depend on the vectorization.
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#pragma simd declare vec-function uniform(k) nomask
__attribute__((noinline)) int poly(int x, int k) {
    int r;
    if (x > k) r = x * 3 - k; else r = x + 7;   /* divergent if/else */
    return r;
}

#pragma simd declare vec-function uniform(limit)
__attribute__((noinline)) int steps(int x, int limit) {
    int n = 0;                                   /* data-dependent exits */
    while (x != 1 && n < limit) {
        if (x & 1) x = 3 * x + 1; else x = x / 2;
        n++;
    }
    return n;
}

#pragma simd declare vec-function uniform(out) linear(i)
__attribute__((noinline)) int early(int *out, int i, int v) {
    if (v < 0) return -1;                        /* early return */
    if (v % 3 == 0) out[i] = v * 2;              /* conditional store */
    return v + i;
}

#pragma simd declare vec-function uniform(tab) alignment(tab:64) nomask
__attribute__((noinline)) float scale(const float *tab, int i, float s) {
    return tab[i & 15] * s + 1.0f;               /* gather */
}

#pragma simd declare vec-function uniform(n)
__attribute__((noinline)) int inner(int x, int n) {
    return x > n ? steps(x, 50) : x;             /* call under a mask */
}

static int out[200];
static float tab[16] __attribute__((aligned(64)));

int main(void) {
    int a[200], b[200], c[200], d[200];
    float f[200];
    for (int i = 0; i < 16; i++) tab[i] = (float)i * 0.5f;
    volatile int nv = 131; int n = nv;
    #pragma simd vec-function
    for (int i = 0; i < n; i++) a[i] = poly(i * 7 % 23 - 5, 4);
    #pragma simd vec-function
    for (int i = 0; i < n; i++) b[i] = steps(i + 1, 40);
    #pragma simd vec-function
    for (int i = 0; i < n; i++) c[i] = early(out, i, (i * 13) % 17 - 4);
    #pragma simd vec-function
    for (int i = 0; i < n; i++) f[i] = scale(tab, i * 5, 0.25f);
    #pragma simd vec-function
    for (int i = 0; i < n; i++) d[i] = inner(i, 60);
    unsigned long long s = 0;
    for (int i = 0; i < n; i++) {
        s = s * 31u + (unsigned)a[i] + 3 * b[i] + 5 * c[i] + 7 * out[i] + 11 * d[i];
        if (i % 10 == 0) printf("%d: %d %d %d %d %d %g\n", i, a[i], b[i], c[i], out[i], d[i], f[i]);
    }
    printf("sum %llu\n", s);
    return 0;
}

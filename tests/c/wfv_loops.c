// wfv_loops: vec-function loops LLVM would otherwise reshape: a constant trip count (not unrolled first), an inclusive bound (InstCombine tests the counter itself), a vector function whose own loop LLVM's vectorizers would take, a libm call with a uniform argument (made once, errno as in scalar code) and libm's vector variants.
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#pragma simd declare vec-function uniform(w) nomask
__attribute__((noinline)) int mix(int x, int w) {
    int s = 0;
    for (int k = 0; k < 3; k++)
        s += (x * (k + 1)) ^ w;
    return s;
}

/* Its loop over a table would be vectorized by LLVM: the variant needs it scalar. */
#pragma simd declare vec-function uniform(tab) nomask
__attribute__((noinline)) uint32_t scramble(uint32_t seed, const uint32_t *tab) {
    uint32_t h = seed;
    for (int k = 0; k < 16; k++)
        h = (h ^ tab[k]) * 16777619u + (uint32_t)k;
    return h;
}

#pragma simd declare vec-function uniform(s) nomask
__attribute__((noinline)) float scaled(float x, float s) {
    /* sqrtf(s): once per call; sqrtf(x), floorf, fabsf: libm's vector variants. */
    return x * sqrtf(s) + 1.0f + sqrtf(x + 0.5f) + floorf(x * 0.37f) + fabsf(x - 9.5f);
}

int out[120];
float fout[120];
uint32_t hout[120];
uint32_t tab[16];

__attribute__((noinline)) void constant_trips(void) {
#pragma simd vec-function
    for (int x = 0; x < 100; x++)
        out[x] = mix(x, 9);
}

__attribute__((noinline)) void inclusive(int w) {
#pragma simd vec-function
    for (int x = 0; x <= w - 5; x++)
        out[x] = mix(x, w);
}

__attribute__((noinline)) void hashes(int n) {
#pragma simd vec-function
    for (int i = 0; i < n; i++)
        hout[i] = scramble((uint32_t)i * 2654435761u, tab);
}

__attribute__((noinline)) void scale_all(int n, float s) {
#pragma simd vec-function
    for (int i = 0; i < n; i++)
        fout[i] = scaled((float)i, s);
}

static uint32_t sum(const int *p, int n) {
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        s = s * 31u + (uint32_t)p[i];
    return s;
}

int main(void) {
    for (int k = 0; k < 16; k++)
        tab[k] = (uint32_t)k * 0x9e3779b9u + 7u;
    constant_trips();
    printf("constant %08x\n", (unsigned)sum(out, 100));
    for (int w = 5; w < 120; w += 13) {
        inclusive(w);
        printf("inclusive %3d %08x\n", w, (unsigned)sum(out, w - 4));
    }
    for (int n = 0; n < 120; n += 17) {
        hashes(n);
        printf("hashes %3d %08x\n", n, (unsigned)sum((const int *)hout, n));
    }
    for (int k = 0; k < 3; k++) {
        float s = k == 1 ? -4.0f : 2.25f * (float)(k + 1);
        errno = 0;
        scale_all(37, s);
        printf("scaled %.9g %.9g nan %d errno %s\n", isnan(fout[0]) ? 0.0 : (double)fout[0], isnan(fout[36]) ? 0.0 : (double)fout[36], isnan(fout[5]) != 0, errno == EDOM ? "EDOM" : errno == 0 ? "0" : "other");
    }
    return 0;
}

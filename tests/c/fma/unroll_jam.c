// unroll_jam: loop nests whose outer loop dsp-unroll-jam runs 2 or 4
// iterations at a time (independent reductions in the inner loop), with
// outer trip counts around the factor (the original nest runs what is
// left), rectangular and square shapes, a float sum of fused multiply-adds
// (each element's sum keeps its order: bit-exact), an integer sum, a row length longer than
// the middle loop (rows apart by more than a row), and nests that must not
// be jammed (a row shorter than the middle loop: rows overlap; a load of
// the stored array elsewhere; a value leaving the nest).
// The output must be the host's, bit for bit (the host calls fmaf).
// dsp-cflags: -ffp-contract=on
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef REF_FMA
#define MACF(a, b, c) fmaf((a), (b), (c))
#else
#define MACF(a, b, c) ((a) * (b) + (c))
#endif

#define M 37
static float a[M * M], b[M * M], c[M * M + M];
static int32_t ia[M * M], ib[M * M], ic[M * M + M];
static uint32_t st = 99;
static uint32_t rnd(void) { st = st * 1103515245u + 12345u; return st >> 9; }

__attribute__((noinline)) void mm(const float *restrict x, const float *restrict y, float *restrict z, int ni, int nj, int nk) {
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            float s = 0.0f;
            for (int k = 0; k < nk; k++)
                s = MACF(x[i * nk + k], y[k * nj + j], s);
            z[i * nj + j] = s;
        }
}
/* Rows of z `ld` elements apart, ld >= nj. */
__attribute__((noinline)) void mm_ld(const int32_t *restrict x, const int32_t *restrict y, int32_t *restrict z, int n, int ld) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int32_t s = 3;
            for (int k = 0; k < n; k++)
                s += x[i * n + k] * y[k * n + j];
            z[i * ld + j] = s;
        }
}
/* Rows of z shorter than the middle loop: consecutive i overlap. */
__attribute__((noinline)) void overlapping(const int32_t *restrict x, int32_t *restrict z, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int32_t s = z[i + j];
            for (int k = 0; k < n; k++)
                s += x[k * n + j] * (k + 1);
            z[i + j] = s;
        }
}
/* A value leaving the nest. */
__attribute__((noinline)) float last_sum(const float *restrict x, float *restrict z, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            s = 0.0f;
            for (int k = 0; k < n; k++)
                s = MACF(x[i * n + k], x[k * n + j], s);
            z[i * n + j] = s;
        }
    return s;
}

static uint32_t hash_f(const float *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &p[i], 4);
        h = (h ^ u) * 16777619u;
    }
    return h;
}
static uint32_t hash_i(const int32_t *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ (uint32_t)p[i]) * 16777619u;
    return h;
}

int main(void) {
    for (int i = 0; i < M * M; i++) {
        a[i] = (float)(rnd() % 2001) / 100.0f - 10.0f;
        b[i] = (float)(rnd() % 2001) / 100.0f - 10.0f;
        ia[i] = (int32_t)(rnd() % 2001) - 1000;
        ib[i] = (int32_t)(rnd() % 2001) - 1000;
    }
    static const int ns[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33};
    for (unsigned t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int n = ns[t];
        memset(c, 0, sizeof c);
        memset(ic, 0, sizeof ic);
        mm(a, b, c, n, n, n);
        uint32_t h1 = hash_f(c, M * M);
        mm(a, b, c, n, (n + 3) % 19, (n * 5) % 23);
        uint32_t h2 = hash_f(c, M * M);
        mm_ld(ia, ib, ic, n, n + 2);
        uint32_t h3 = hash_i(ic, M * M);
        overlapping(ia, ic, n);
        uint32_t h4 = hash_i(ic, M * M + M);
        float l = last_sum(a, c, n);
        uint32_t h5 = hash_f(c, M * M);
        printf("n=%2d: %08x %08x %08x %08x %08x %.6g\n", n, (unsigned)h1, (unsigned)h2, (unsigned)h3, (unsigned)h4, (unsigned)h5, (double)l);
    }
    return 0;
}

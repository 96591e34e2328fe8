// loop_dsp_kernels: DSP inner loops (Q15 multiply with rounding and saturation, complex multiply over arrays of structs, interleaved stereo, decimation, table lookups, a Q15 FIR with a 64-bit accumulator) at trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 4

uint32_t seed = 0x1badb002u;
int big_trip = 1000;

typedef struct {
    int16_t re, im;
} cplx16;
typedef struct {
    float re, im;
} cplxf;

int16_t q[2 * MAXN + 4 * PAD], r[2 * MAXN + 4 * PAD];
cplx16 ca[MAXN + PAD], cb[MAXN + PAD];
cplxf fa[MAXN + PAD], fb[MAXN + PAD];
int32_t acc32[MAXN + PAD];
uint8_t idx[MAXN + PAD];
int16_t table[256];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}
static uint32_t hash(const void *p, int bytes) {
    const unsigned char *c = p;
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 0x01000193u;
    return h;
}
static int16_t sat16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }

/* y = sat(round(x * g)) in Q15. */
NOINLINE void q15_gain(int16_t *y, const int16_t *x, int16_t g, int n) {
    for (int i = 0; i < n; i++)
        y[i] = sat16((x[i] * g + (1 << 14)) >> 15);
}
/* Saturating add of two Q15 streams. */
NOINLINE void q15_add(int16_t *y, const int16_t *x, const int16_t *z, int n) {
    for (int i = 0; i < n; i++)
        y[i] = sat16(x[i] + z[i]);
}
/* Complex multiply in Q15 over arrays of structs: c = a * conj(b). */
NOINLINE void cmul_conj(cplx16 *c, const cplx16 *a, const cplx16 *b, int n) {
    for (int i = 0; i < n; i++) {
        int32_t re = a[i].re * b[i].re + a[i].im * b[i].im;
        int32_t im = a[i].im * b[i].re - a[i].re * b[i].im;
        c[i].re = sat16(re >> 15);
        c[i].im = sat16(im >> 15);
    }
}
/* Float complex multiply, in place. */
NOINLINE void cmulf(cplxf *a, const cplxf *b, int n) {
    for (int i = 0; i < n; i++) {
        float re = a[i].re * b[i].re - a[i].im * b[i].im;
        float im = a[i].re * b[i].im + a[i].im * b[i].re;
        a[i].re = re;
        a[i].im = im;
    }
}
/* Interleaved stereo: swap and mix channels (stride-2 loads and stores). */
NOINLINE void stereo_mix(int16_t *lr, int n) {
    for (int i = 0; i < n; i++) {
        int16_t l = lr[2 * i], rr = lr[2 * i + 1];
        lr[2 * i] = (int16_t)((l + rr) >> 1);
        lr[2 * i + 1] = (int16_t)((l - rr) >> 1);
    }
}
/* Decimate by 2 with a 3-tap half-band filter. */
NOINLINE void decimate2(int16_t *y, const int16_t *x, int n) {
    for (int i = 0; i < n; i++)
        y[i] = (int16_t)((x[2 * i] + 2 * x[2 * i + 1] + x[2 * i + 2]) >> 2);
}
/* Table lookup through a data-dependent index. */
NOINLINE int32_t lookup_sum(int32_t *o, const uint8_t *ix, const int16_t *t, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        o[i] = t[ix[i]] * (i & 7);
        s += t[(uint8_t)(ix[i] + 1)];
    }
    return s;
}
/* Q15 FIR, 8 taps, 64-bit accumulator, saturated output. */
NOINLINE void fir_q15(int16_t *y, const int16_t *x, const int16_t *h, int n) {
    for (int i = 0; i < n; i++) {
        int64_t s = 0;
        for (int t = 0; t < 8; t++)
            s += (int32_t)x[i + t] * h[t];
        s = (s + (1 << 14)) >> 15;
        y[i] = (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
    }
}

static void init(int m) {
    for (int i = 0; i < 2 * m + PAD; i++) {
        q[i] = (int16_t)((int)(lcg() % 65536u) - 32768);
        r[i] = (int16_t)((int)(lcg() % 65536u) - 32768);
    }
    for (int i = 0; i < m; i++) {
        ca[i].re = (int16_t)((int)(lcg() % 65535u) - 32767); /* no -32768: a product sum must fit */
        ca[i].im = (int16_t)((int)(lcg() % 65535u) - 32767);
        cb[i].re = (int16_t)((int)(lcg() % 65536u) - 32768);
        cb[i].im = (int16_t)((int)(lcg() % 65536u) - 32768);
        fa[i].re = (float)((int)(lcg() % 2001u) - 1000) / 64.0f;
        fa[i].im = (float)((int)(lcg() % 2001u) - 1000) / 64.0f;
        fb[i].re = (float)(lcg() % 100u) / 128.0f;
        fb[i].im = -(float)(lcg() % 100u) / 128.0f;
        idx[i] = (uint8_t)lcg();
        acc32[i] = -1;
    }
    for (int i = 0; i < 256; i++)
        table[i] = (int16_t)(i * 200 - 25000);
}

static void run(int n) {
    int m = n + PAD;
    init(m);
    q15_gain(r, q, (int16_t)(-23170 + 997 * n % 40000), n);
    uint32_t h1 = hash(r, 4 * m);
    q15_add(q + 1, q, r, n);
    uint32_t h2 = hash(q, 4 * m);
    cmul_conj(cb, ca, cb, n);
    cmulf(fa, fb, n);
    uint32_t h3 = hash(cb, 4 * m), h4 = hash(fa, 8 * m);
    stereo_mix(r, n);
    uint32_t h5 = hash(r, 4 * m);
    decimate2(q, r, n);
    int32_t s = lookup_sum(acc32, idx, table, n);
    uint32_t h6 = hash(q, 4 * m), h7 = hash(acc32, 4 * m);
    fir_q15(r, q + 3, table + 100, n);
    printf("n=%4d %08x %08x %08x %08x %08x %08x %08x %d %08x\n", n, h1, h2, h3, h4, h5, h6, h7, (int)s,
           hash(r, 4 * m));
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

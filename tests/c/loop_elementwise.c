// loop_elementwise: b[i] = a[i]*k + c over int8/int16/int32/int64/uint32/float/double, copies and saxpy, at trip counts 0..25 and 1000 (software-pipelining candidates).
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 4

uint32_t seed = 0x2545f491u;
int big_trip = 1000;

int8_t a8[MAXN + PAD], b8[MAXN + PAD];
int16_t a16[MAXN + PAD], b16[MAXN + PAD];
int32_t a32[MAXN + PAD], b32[MAXN + PAD], w32[MAXN + PAD];
int64_t a64[MAXN + PAD], b64[MAXN + PAD];
uint32_t au[MAXN + PAD], bu[MAXN + PAD];
float af[MAXN + PAD], bf[MAXN + PAD], yf[MAXN + PAD];
double ad[MAXN + PAD], bd[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}
/* FNV-1a over the bytes of the first `bytes` bytes (n elements plus the guard zone). */
static uint32_t hash(const void *p, unsigned bytes) {
    const unsigned char *c = p;
    uint32_t h = 2166136261u;
    for (unsigned i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 16777619u;
    return h;
}

NOINLINE void ew_i8(int8_t *b, const int8_t *a, int8_t k, int8_t c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = (int8_t)(a[i] * k + c);
}
NOINLINE void ew_i16(int16_t *restrict b, const int16_t *restrict a, int16_t k, int16_t c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = (int16_t)(a[i] * k + c);
}
NOINLINE void ew_i32(int32_t *b, const int32_t *a, int32_t k, int32_t c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = a[i] * k + c;
}
NOINLINE void ew_i64(int64_t *restrict b, const int64_t *restrict a, int64_t k, int64_t c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = a[i] * k + c;
}
NOINLINE void ew_u32(uint32_t *b, const uint32_t *a, uint32_t k, uint32_t c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = a[i] * k + c;
}
NOINLINE void ew_f32(float *b, const float *a, float k, float c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = a[i] * k + c;
}
NOINLINE void ew_f64(double *restrict b, const double *restrict a, double k, double c, int n) {
    for (int i = 0; i < n; i++)
        b[i] = a[i] * k + c;
}
/* Widening copy (not a memcpy idiom) and a plain copy (may become memcpy). */
NOINLINE void widen_copy(int32_t *d, const int16_t *s, int n) {
    for (int i = 0; i < n; i++)
        d[i] = s[i];
}
NOINLINE void plain_copy(uint32_t *d, const uint32_t *s, int n) {
    for (int i = 0; i < n; i++)
        d[i] = s[i];
}
NOINLINE void saxpy(float *y, const float *x, float alpha, int n) {
    for (int i = 0; i < n; i++)
        y[i] = alpha * x[i] + y[i];
}
/* Two loads, two stores, mixed types in one body. */
NOINLINE void mixed(int32_t *restrict d, double *restrict e, const int16_t *restrict s, const float *restrict f, int n) {
    for (int i = 0; i < n; i++) {
        d[i] = s[i] * 3 - 7;
        e[i] = (double)f[i] * 0.5 + s[i];
    }
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a8[i] = (int8_t)((int)(lcg() % 21) - 10);
        a16[i] = (int16_t)((int)(lcg() % 2001) - 1000);
        a32[i] = (int32_t)(lcg() % 2097152u) - 1048576;
        a64[i] = ((int64_t)lcg() << 16) - ((int64_t)1 << 39);
        au[i] = lcg() * 2654435761u;
        af[i] = (float)((int)(lcg() % 20001) - 10000) / 64.0f;
        ad[i] = (double)((int)(lcg() % 2000001) - 1000000) / 1024.0;
        yf[i] = (float)(lcg() % 1000) * 0.25f;
        b8[i] = 0x55; b16[i] = 0x5555; b32[i] = 0x55555555; w32[i] = -1;
        b64[i] = 0x5555; bu[i] = 0x5555u; bf[i] = -1.0f; bd[i] = -1.0;
    }
}

static void run(int n) {
    unsigned m = (unsigned)n + PAD;
    init((int)m);
    ew_i8(b8, a8, -5, 37, n);
    ew_i16(b16, a16, 29, -999, n);
    ew_i32(b32, a32, -997, 12345, n);
    ew_i64(b64, a64, 1000003, -77, n);
    ew_u32(bu, au, 0x9e3779b1u, 0xdeadbeefu, n);
    ew_f32(bf, af, 1.375f, -3.25f, n);
    ew_f64(bd, ad, -0.8125, 1e6, n);
    printf("n=%4d ew %08x %08x %08x %08x %08x %08x %08x\n", n, hash(b8, m), hash(b16, 2 * m),
           hash(b32, 4 * m), hash(b64, 8 * m), hash(bu, 4 * m), hash(bf, 4 * m), hash(bd, 8 * m));
    widen_copy(w32, a16, n);
    plain_copy(bu, au, n);
    saxpy(yf, af, -2.5f, n);
    mixed(b32, bd, a16, af, n);
    printf("n=%4d cp %08x %08x %08x %08x %08x", n, hash(w32, 4 * m), hash(bu, 4 * m),
           hash(yf, 4 * m), hash(b32, 4 * m), hash(bd, 8 * m));
    if (n > 0)
        printf(" last %d %.9g %.17g", (int)w32[n - 1], (double)yf[n - 1], bd[n - 1]);
    printf("\n");
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    /* Self-overlapping saxpy (y == x + 1): the loop's own stores feed its next loads. */
    init(304);
    saxpy(yf + 1, yf, 0.5f, 300);
    printf("overlap %08x %.9g\n", hash(yf, 4 * 304), (double)yf[300]);
    return 0;
}

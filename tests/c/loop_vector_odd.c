// loop_vector_odd: loops the -O2 build vectorizes (int8/int16/int32/float; min/max, selects, widening and narrowing, int reductions) at odd trip counts around the lane counts, on misaligned start pointers, so vector, remainder and pipelined code all run.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1040

uint32_t seed = 0x600dcafeu;
int big_trip = 1000;
int extra_trips[] = {31, 33, 47, 63, 65, 95, 97, 127, 129, 255, 257};

int8_t b8[MAXN], c8[MAXN];
int16_t s16[MAXN], t16[MAXN], r16[MAXN];
int32_t w32[MAXN], v32[MAXN];
uint32_t u32[MAXN];
float f32[MAXN], g32[MAXN];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 9;
}
static uint32_t hash(const void *p, int bytes) {
    const unsigned char *c = p;
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 0x01000193u;
    return h;
}

NOINLINE void add_sat_i8(int8_t *restrict d, const int8_t *restrict x, const int8_t *restrict y, int n) {
    for (int i = 0; i < n; i++) {
        int v = x[i] + y[i];
        d[i] = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
    }
}
NOINLINE void minmax_i16(int16_t *restrict lo, int16_t *restrict hi, const int16_t *restrict x, int n) {
    for (int i = 0; i < n; i++) {
        int16_t a = x[i], b = hi[i];
        lo[i] = a < b ? a : b;
        hi[i] = a < b ? b : a;
    }
}
NOINLINE void widen_mul(int32_t *restrict d, const int16_t *restrict x, const int8_t *restrict y, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] * y[i] + (d[i] >> 2);
}
NOINLINE void narrow(int16_t *restrict d, const int32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (int16_t)((x[i] >> 4) & 0x7fff);
}
NOINLINE void shifts_sel(uint32_t *restrict d, const int32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] > 0 ? (uint32_t)x[i] << 3 : ((uint32_t)x[i] >> 7) ^ 0x5a5a5a5au;
}
NOINLINE void fpoly(float *restrict d, const float *restrict x, int n) {
    for (int i = 0; i < n; i++) {
        float v = x[i];
        d[i] = ((v * 0.25f - 1.5f) * v + 2.0f) * v - 0.125f;
    }
}
NOINLINE void fabs_max(float *restrict d, const float *restrict x, int n) {
    for (int i = 0; i < n; i++) {
        float v = x[i] < 0.0f ? -x[i] : x[i];
        d[i] = v > d[i] ? v : d[i];
    }
}
NOINLINE int32_t isum(const int32_t *x, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
NOINLINE uint32_t ixor_sum(const int16_t *x, const int8_t *y, int n) {
    uint32_t s = 0, t = 0;
    for (int i = 0; i < n; i++) {
        s += (uint32_t)(x[i] * y[i]);
        t ^= (uint32_t)x[i];
    }
    return s ^ (t << 16);
}
/* Not restrict-qualified: the vectorizer needs a runtime overlap check. */
NOINLINE void maybe_overlap(int32_t *d, const int32_t *x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (x[i] >> 2) * 3 - 3;
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        b8[i] = (int8_t)((int)(lcg() % 256u) - 128);
        c8[i] = (int8_t)((int)(lcg() % 256u) - 128);
        s16[i] = (int16_t)((int)(lcg() % 65536u) - 32768);
        t16[i] = (int16_t)((int)(lcg() % 65536u) - 32768);
        r16[i] = (int16_t)((int)(lcg() % 65536u) - 32768);
        w32[i] = (int32_t)(lcg() % 2000001u) - 1000000;
        v32[i] = (int32_t)(lcg() % 200001u) - 100000;
        u32[i] = 1;
        f32[i] = (float)((int)(lcg() % 4001u) - 2000) / 256.0f;
        g32[i] = (float)(lcg() % 100u) * 0.0625f;
    }
}

/* o: start offset (0 aligned, 1 and 3 misaligned). */
static void run(int n, int o) {
    int m = n + o + 4;
    init(m);
    add_sat_i8(c8 + o, b8, b8 + o + 1, n);
    minmax_i16(s16 + o, t16 + o, r16 + 1, n);
    widen_mul(w32 + o, t16, b8 + o, n);
    uint32_t h1 = hash(c8, m), h2 = hash(s16, 2 * m) ^ hash(t16, 2 * m), h3 = hash(w32, 4 * m);
    narrow(s16, w32 + o, n);
    shifts_sel(u32 + o, w32, n);
    fpoly(g32 + o, f32, n);
    fabs_max(f32 + o, g32 + 2, n);
    uint32_t h4 = hash(s16, 2 * m), h5 = hash(u32, 4 * m), h6 = hash(g32, 4 * m) ^ hash(f32, 4 * m);
    int32_t s = isum(v32 + o, n);
    uint32_t x = ixor_sum(t16 + o, c8, n);
    maybe_overlap(v32 + o, v32, n);
    printf("n=%4d o=%d %08x %08x %08x %08x %08x %08x %d %08x %08x\n", n, o, h1, h2, h3, h4, h5, h6, (int)s, x,
           hash(v32, 4 * m));
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n, n % 3 == 2 ? 3 : n % 3);
    for (int k = 0; k < (int)(sizeof extra_trips / sizeof extra_trips[0]); k++)
        for (int o = 0; o < 4; o += 3)
            run(extra_trips[k], o);
    run(big_trip - 1, 1);
    run(big_trip, 0);
    run(big_trip + 1, 3);
    return 0;
}

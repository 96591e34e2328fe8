// loop_reductions: sums (int, int64, unsigned), min/max/argmax, dot products, float sums in source order (no reassociation allowed) and several accumulators in one loop, at trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000

uint32_t seed = 0x1234567u;
int big_trip = 1000;

int32_t ai[MAXN], bi[MAXN];
int16_t s1[MAXN], s2[MAXN];
int64_t al[MAXN];
float af[MAXN], bf[MAXN];
double ad[MAXN];

static uint32_t lcg(void) {
    seed = seed * 1103515245u + 12345u;
    return seed >> 4;
}

NOINLINE int32_t sum_i32(const int32_t *a, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
NOINLINE int64_t sum_i64(const int64_t *a, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
NOINLINE uint32_t sum_wrap(const int32_t *a, int n) {
    uint32_t s = 0x80000000u;
    for (int i = 0; i < n; i++)
        s = s * 3u + (uint32_t)a[i];
    return s;
}
NOINLINE int32_t min_i32(const int32_t *a, int n) {
    int32_t m = INT32_MAX;
    for (int i = 0; i < n; i++)
        if (a[i] < m)
            m = a[i];
    return m;
}
NOINLINE int argmax_i32(const int32_t *a, int n) {
    int best = -1;
    int32_t m = INT32_MIN;
    for (int i = 0; i < n; i++)
        if (a[i] > m) {
            m = a[i];
            best = i;
        }
    return best;
}
NOINLINE int32_t dot_i16(const int16_t *x, const int16_t *y, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
NOINLINE int64_t dot_i32_wide(const int32_t *x, const int32_t *y, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += (int64_t)x[i] * y[i];
    return s;
}
NOINLINE float sum_f32(const float *a, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
NOINLINE float dot_f32(const float *x, const float *y, int n) {
    float s = 1.0f;
    for (int i = 0; i < n; i++)
        s = s + x[i] * y[i];
    return s;
}
NOINLINE double sum_f64_mixed(const double *a, const float *b, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s = s * 0.5 + a[i] - b[i];
    return s;
}
NOINLINE float max_f32(const float *a, int n) {
    float m = -1e30f;
    for (int i = 0; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}
/* Several accumulators carried at once. */
NOINLINE void stats(const int32_t *a, const float *f, int n, int32_t out[4], float fo[2]) {
    int32_t sum = 0, sq = 0, pos = 0;
    uint32_t x = 0;
    float fs = 0.0f, fa = 0.0f;
    for (int i = 0; i < n; i++) {
        int32_t v = a[i] % 100;
        sum += v;
        sq += v * v;
        pos += a[i] > 0;
        x ^= (uint32_t)a[i] << (i & 7);
        fs += f[i];
        fa -= f[i] * 0.25f;
    }
    out[0] = sum; out[1] = sq; out[2] = pos; out[3] = (int32_t)(x >> 1);
    fo[0] = fs; fo[1] = fa;
}
/* Constant trip counts. */
NOINLINE int32_t sum16(const int32_t *a) {
    int32_t s = 0;
    for (int i = 0; i < 16; i++)
        s += a[i] * (i + 1);
    return s;
}
NOINLINE float fsum100(const float *a) {
    float s = 0.0f;
    for (int i = 0; i < 100; i++)
        s += a[i];
    return s;
}

static void init(void) {
    for (int i = 0; i < MAXN; i++) {
        ai[i] = (int32_t)(lcg() % 2000001u) - 1000000;
        bi[i] = (int32_t)(lcg() % 4001u) - 2000;
        s1[i] = (int16_t)((int)(lcg() % 65536u) - 32768);
        s2[i] = (int16_t)((int)(lcg() % 65u) - 32);
        al[i] = (int64_t)ai[i] * 123457 - 5;
        af[i] = (float)((int)(lcg() % 200001u) - 100000) / 3.0f;
        bf[i] = (float)(lcg() % 1000u) * 0.001f;
        ad[i] = (double)((int)(lcg() % 2000001u) - 1000000) / 7.0;
    }
}

static void run(int n) {
    int32_t o[4];
    float fo[2];
    printf("n=%4d i %d %lld %08x %d %d %d %lld\n", n, (int)sum_i32(bi, n), (long long)sum_i64(al, n),
           sum_wrap(ai, n), (int)min_i32(ai, n), argmax_i32(bi, n), (int)dot_i16(s1, s2, n),
           (long long)dot_i32_wide(ai, bi, n));
    stats(ai, af, n, o, fo);
    printf("n=%4d f %.9g %.9g %.17g %.9g | %d %d %d %d %.9g %.9g\n", n, (double)sum_f32(af, n),
           (double)dot_f32(af, bf, n), sum_f64_mixed(ad, bf, n), (double)max_f32(af, n),
           (int)o[0], (int)o[1], (int)o[2], (int)o[3], (double)fo[0], (double)fo[1]);
}

int main(void) {
    init();
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 3);
    run(big_trip);
    printf("const %d %.9g\n", (int)sum16(bi), (double)fsum100(af));
    /* All equal elements: argmax keeps the first. */
    for (int i = 0; i < 40; i++)
        bi[i] = 7;
    printf("ties %d %d\n", argmax_i32(bi, 40), (int)min_i32(bi, 40));
    return 0;
}

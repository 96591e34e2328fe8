// loop_ifconv_compute: if-then-else loop bodies with computation on both sides, conditional accumulation into memory, conditional recurrences (compaction, counters, running extremes with their positions), 64-bit and float branches, and flags; the pipeliner if-converts them (selects for the joins, guarded stores); trip counts 0..30 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
/* Keeps a loop scalar (clang's vectorizer would otherwise make it a vector
   loop with one guarded store per lane). */
#ifdef __clang__
#define SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define SCALAR_LOOP
#endif
#define MAXN 1100
#define PAD 3

uint32_t seed = 0xc0ffeeu;
int big_trip = 1000;

int32_t a[MAXN + PAD], b[MAXN + PAD], c[MAXN + PAD], acc[MAXN + PAD];
int64_t wide[MAXN + PAD];
float fa[MAXN + PAD], fy[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 9;
}
static uint32_t hash(const void *p, int bytes) {
    const uint8_t *x = p;
    uint32_t v = 0x811c9dc5u;
    for (int i = 0; i < bytes; i++)
        v = (v ^ x[i]) * 0x01000193u;
    return v;
}

/* Computation on both sides, each side storing, and the joined value summed. */
NOINLINE int32_t both_sides(int32_t *p, int32_t *q, const int32_t *x, const int32_t *y, int n) {
    uint32_t s = 0;
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t v;
        if (x[i] > y[i]) {
            v = (x[i] - y[i]) * 3 + (x[i] >> 2);
            p[i] = v;
        } else {
            v = (y[i] ^ 0x55) - x[i] * 2;
            q[i] = v;
        }
        s += (uint32_t)v;
    }
    return (int32_t)s;
}
/* Conditional accumulation into memory: acc[i] is read in every iteration
   (the test), updated only under the condition. */
NOINLINE void acc_mem(int32_t *m, const int32_t *x, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t old = m[i];
        if (x[i] > old)
            m[i] = old + ((x[i] - old) >> 1);
        else if (x[i] < -old)
            m[i] = old - 1;
    }
}
/* Compaction: the output index is a conditional recurrence. */
NOINLINE int compact(int32_t *out, const int32_t *x, int32_t t, int n) {
    int k = 0;
    SCALAR_LOOP
    for (int i = 0; i < n; i++)
        if (x[i] > t) {
            out[k] = x[i] - t;
            k++;
        }
    return k;
}
/* Running maximum and minimum with positions, and a flag, stored at the end. */
NOINLINE void extremes(int32_t *res, const int32_t *x, int n) {
    int32_t hi = -1000000, lo = 1000000;
    int at_hi = -1, at_lo = -1, seen_zero = 0, lows = 0;
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v > hi) {
            hi = v;
            at_hi = i;
        } else if (v < lo) {
            lo = v;
            at_lo = i;
            lows++;
        }
        if (v == 0)
            seen_zero = 1;
    }
    res[0] = hi;
    res[1] = lo;
    res[2] = at_hi;
    res[3] = at_lo;
    res[4] = seen_zero;
    res[5] = lows;
}
/* 64-bit values on both sides (selects of the 64-bit file). */
NOINLINE int64_t wide_sides(int64_t *w, const int32_t *x, int n) {
    int64_t s = 0;
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int64_t v = x[i];
        if (v & 1) {
            v = v * 1000003;
            w[i] = v;
        } else {
            v = v * 1048576 - 12345;
        }
        s += v;
    }
    return s;
}
/* Float: soft threshold with a store per branch and a running sum. */
NOINLINE float fsides(float *y, const float *x, float t, int n) {
    float s = 0.0f;
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v > t) {
            v = v - t;
            y[i] = v;
        } else if (v < -t) {
            v = v + t;
            y[i] = v * 0.5f;
        } else {
            v = 0.0f;
        }
        s += v;
    }
    return s;
}
/* Left to the vectorizer: both sides computed, one stored. */
NOINLINE void vec_sides(int32_t *y, const int32_t *x, int n) {
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v > 10)
            y[i] = v * v - 7;
    }
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a[i] = (int32_t)(lcg() % 2001u) - 1000;
        b[i] = (int32_t)(lcg() % 2001u) - 1000;
        if (lcg() % 13u == 0)
            a[i] = 0;
        c[i] = 17;
        acc[i] = (int32_t)(lcg() % 201u) - 100;
        wide[i] = -3;
        fa[i] = (float)((int)(lcg() % 2001u) - 1000) * 0.25f;
        fy[i] = 1.5f;
    }
}

static void run(int n) {
    int m = n + PAD;
    init(m);
    int32_t r[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int32_t s1 = both_sides(c, acc, a, b, n);
    uint32_t h1 = hash(c, 4 * m) ^ (hash(acc, 4 * m) << 1);
    acc_mem(acc, a, n);
    acc_mem(acc, b, n);
    uint32_t h2 = hash(acc, 4 * m);
    int k = compact(c, a, 100, n);
    uint32_t h3 = hash(c, 4 * m);
    extremes(r, b, n);
    extremes(r + 1, a, n);
    int64_t s2 = wide_sides(wide, a, n);
    uint32_t h4 = hash(wide, 8 * m);
    float s3 = fsides(fy, fa, 60.0f, n);
    uint32_t h5 = hash(fy, 4 * m);
    vec_sides(acc, b, n);
    uint32_t h6 = hash(acc, 4 * m);
    printf("n=%4d %d %08x %08x %d %08x %lld %08x %.9g %08x %08x |", n, (int)s1, h1, h2, k, h3, (long long)s2, h4,
           (double)s3, h5, h6);
    for (int j = 0; j < 7; j++)
        printf(" %d", (int)r[j]);
    printf("\n");
}

int main(void) {
    for (int n = 0; n <= 30; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

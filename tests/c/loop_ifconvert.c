// loop_ifconvert: loops with if-then-else bodies (abs, clamp, conditional accumulation, select between arrays, guarded stores, compaction, continue) that a pipeliner if-converts; trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 4

uint32_t seed = 0xbeef1u;
int big_trip = 1000;

int32_t a[MAXN + PAD], b[MAXN + PAD], c[MAXN + PAD], d[MAXN + PAD];
float fa[MAXN + PAD], fb[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 10;
}
static uint32_t hash(const int32_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)x[i]) * 0x01000193u;
    return h;
}

NOINLINE void abs_arr(int32_t *y, const int32_t *x, int n) {
    for (int i = 0; i < n; i++) {
        if (x[i] < 0)
            y[i] = -x[i];
        else
            y[i] = x[i];
    }
}
NOINLINE void clamp(int32_t *y, const int32_t *x, int32_t lo, int32_t hi, int n) {
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v < lo)
            v = lo;
        else if (v > hi)
            v = hi;
        y[i] = v;
    }
}
NOINLINE int32_t cond_acc(const int32_t *x, const int32_t *y, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] > y[i])
            s += x[i] - y[i];
        else
            s -= (y[i] - x[i]) >> 1;
    }
    return s;
}
NOINLINE void select2(int32_t *z, const int32_t *x, const int32_t *y, int n) {
    for (int i = 0; i < n; i++)
        z[i] = (x[i] & 4) ? x[i] + 1 : y[i] * 3;
}
/* Guarded stores: b[i] written only where a[i] > 0 (the rest keeps its old value). */
NOINLINE void guarded(int32_t *y, const int32_t *x, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] > 0)
            y[i] = x[i] / 8 + 1;
}
/* Two different guarded stores in the two branches. */
NOINLINE void split(int32_t *p, int32_t *q, const int32_t *x, int n) {
    for (int i = 0; i < n; i++) {
        if (x[i] & 1)
            p[i] = x[i] >> 1;
        else
            q[i] = x[i] + p[i];
    }
}
/* Compaction: the output index is a conditional recurrence. */
NOINLINE int compact(int32_t *out, const int32_t *x, int n) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (x[i] % 3 == 0)
            out[k++] = x[i];
    return k;
}
NOINLINE int skip_continue(const int32_t *x, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] < -1000)
            continue;
        s += x[i] & 0x7f;
    }
    return s;
}
NOINLINE void fsel(float *y, const float *x, float t, int n) {
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v > t)
            y[i] = v - t;
        else if (v < -t)
            y[i] = v + t;
        else
            y[i] = 0.0f;
    }
}
/* A branch that also updates a running maximum and its position. */
NOINLINE int peak(const float *x, int n, float *best) {
    int at = -1;
    float m = -1e9f;
    for (int i = 0; i < n; i++)
        if (x[i] >= m) {
            m = x[i];
            at = i;
        }
    *best = m;
    return at;
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a[i] = (int32_t)(lcg() % 20001u) - 10000;
        b[i] = (int32_t)(lcg() % 20001u) - 10000;
        c[i] = -5;
        d[i] = 77;
        fa[i] = (float)((int)(lcg() % 2001u) - 1000) * 0.125f;
        fb[i] = 3.5f;
    }
}

static void run(int n) {
    int m = n + PAD;
    init(m);
    abs_arr(c, a, n);
    uint32_t h1 = hash(c, m);
    clamp(c, b, -2500, 4000, n);
    uint32_t h2 = hash(c, m);
    select2(d, a, b, n);
    uint32_t h3 = hash(d, m);
    guarded(c, a, n);
    uint32_t h4 = hash(c, m);
    split(c, d, b, n);
    uint32_t h5 = hash(c, m) ^ hash(d, m);
    printf("n=%4d %08x %08x %08x %08x %08x %d", n, h1, h2, h3, h4, h5, (int)cond_acc(a, b, n));
    int k = compact(d, a, n);
    uint32_t h6 = hash(d, m);
    fsel(fb, fa, 40.0f, n);
    float best;
    int at = peak(fb, n, &best);
    printf(" | %d %08x %d %d %.9g", k, h6, skip_continue(b, n), at, (double)best);
    if (n > 0)
        printf(" %.9g", (double)fb[n - 1]);
    printf("\n");
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

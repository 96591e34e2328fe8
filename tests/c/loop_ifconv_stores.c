// loop_ifconv_stores: loops whose if-then-else bodies store conditionally (a store in one branch, different stores in the two branches, nested ifs with three stores, stores of bytes and halves), scalar and vectorized, that the pipeliner if-converts into guarded stores; trip counts 0..30 and ~1000.
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

uint32_t seed = 0x5eed5u;
int big_trip = 1000;

int32_t a[MAXN + PAD], b[MAXN + PAD], c[MAXN + PAD], d[MAXN + PAD];
int16_t h[MAXN + PAD];
uint8_t u[MAXN + PAD];

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

/* A store in one branch only: the rest of y keeps its old values. */
NOINLINE void store_if(int32_t *y, const int32_t *x, int32_t t, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++)
        if (x[i] > t)
            y[i] = x[i] - t;
}
/* The same, left to the vectorizer (a vector loop with one guarded store per lane). */
NOINLINE void store_if_vec(int32_t *y, const int32_t *x, int32_t t, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] < t)
            y[i] = 3 * x[i] + 1;
}
/* Two different stores, one in each branch. */
NOINLINE void two_stores(int32_t *p, int32_t *q, const int32_t *x, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v & 1)
            p[i] = v >> 1;
        else
            q[i] = v * 5;
    }
}
/* Nested ifs: three stores under p1 & p2, p1 & !p2, !p1. */
NOINLINE void nested(int32_t *p, int32_t *q, int32_t *r, const int32_t *x, const int32_t *y, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t v = x[i], w = y[i];
        if (v > 0) {
            if (w > v)
                p[i] = w - v;
            else
                q[i] = v ^ w;
        } else {
            r[i] = v + w;
        }
    }
}
/* Nested ifs where an inner branch rejoins before the latch, with a store after the join. */
NOINLINE void nested_join(int32_t *p, int32_t *q, const int32_t *x, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v % 4 != 0) {
            if (v < -100)
                p[i] = -v;
            q[i] = v + 1000;
        }
    }
}
/* Narrow conditional stores (byte and halfword). */
NOINLINE void narrow(uint8_t *s, int16_t *t, const int32_t *x, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v >= 0)
            s[i] = (uint8_t)(v & 0xff);
        else
            t[i] = (int16_t)(v >> 4);
    }
}
/* Two stores to the same array from different branches (same address, either order). */
NOINLINE void same_target(int32_t *y, const int32_t *x, int n) {
    SCALAR_LOOP
    for (int i = 0; i < n; i++) {
        if (x[i] & 2)
            y[i] = x[i] + 7;
        else if (x[i] & 4)
            y[i] = x[i] - 7;
    }
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a[i] = (int32_t)(lcg() % 4001u) - 2000;
        b[i] = (int32_t)(lcg() % 4001u) - 2000;
        c[i] = -1;
        d[i] = 42;
        h[i] = 7;
        u[i] = 9;
    }
}

static void run(int n) {
    int m = n + PAD;
    init(m);
    store_if(c, a, 150, n);
    uint32_t h1 = hash(c, 4 * m);
    store_if_vec(d, b, -300, n);
    uint32_t h2 = hash(d, 4 * m);
    two_stores(c, d, a, n);
    uint32_t h3 = hash(c, 4 * m) ^ (hash(d, 4 * m) << 1);
    init(m);
    nested(c, d, b, a, b, n);
    uint32_t h4 = hash(c, 4 * m) ^ hash(d, 4 * m) ^ (hash(b, 4 * m) << 3);
    nested_join(c, d, a, n);
    uint32_t h5 = hash(c, 4 * m) ^ (hash(d, 4 * m) << 2);
    narrow(u, h, a, n);
    uint32_t h6 = hash(u, m) ^ hash(h, 2 * m);
    same_target(c, b, n);
    uint32_t h7 = hash(c, 4 * m);
    printf("n=%4d %08x %08x %08x %08x %08x %08x %08x", n, h1, h2, h3, h4, h5, h6, h7);
    if (n > 0)
        printf(" | %d %d %d %d", (int)c[n - 1], (int)d[n - 1], (int)h[n - 1], (int)u[n - 1]);
    printf("\n");
}

int main(void) {
    for (int n = 0; n <= 30; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

// loop_memdeps: loop-carried dependences through memory (distances 1, 2, 3 and a runtime distance), in-place updates, stores then loads of the same array in one iteration, indirect updates, at trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 8

uint32_t seed = 0xace1u;
int big_trip = 1000;

uint32_t a[MAXN + 2 * PAD], b[MAXN + 2 * PAD], c[MAXN + 2 * PAD];
float f[MAXN + 2 * PAD];
uint8_t idx[MAXN + 2 * PAD];
uint32_t hist[64];

static uint32_t lcg(void) {
    seed = seed * 134775813u + 1u;
    return seed >> 7;
}
static uint32_t hash(const void *p, unsigned words) {
    const unsigned char *c = p; /* bytes, so that float arrays can be hashed too */
    uint32_t h = 0x811c9dc5u;
    for (unsigned i = 0; i < 4 * words; i += 4)
        h = (h ^ (c[i] | (uint32_t)c[i + 1] << 8 | (uint32_t)c[i + 2] << 16 | (uint32_t)c[i + 3] << 24)) * 0x01000193u;
    return h;
}

NOINLINE void dist1(uint32_t *x, int n) {          /* x[i+1] = x[i] + 1 */
    for (int i = 0; i < n; i++)
        x[i + 1] = x[i] + 1u;
}
NOINLINE void dist2(uint32_t *x, int n) {          /* x[i] = x[i-2] * 3 */
    for (int i = 2; i < n; i++)
        x[i] = x[i - 2] * 3u;
}
NOINLINE void dist3(uint32_t *x, const uint32_t *y, int n) {
    for (int i = 3; i < n; i++)
        x[i] = (x[i - 3] ^ y[i]) + (x[i - 1] >> 3);
}
NOINLINE void dist_var(uint32_t *x, int k, int n) { /* distance k known only at run time */
    for (int i = 0; i < n; i++)
        x[i + k] = x[i] * 5u + 1u;
}
NOINLINE void ahead(uint32_t *x, int n) {          /* anti-dependence: read x[i+1] before it is written */
    for (int i = 0; i < n; i++)
        x[i] = x[i + 1] + (x[i] >> 1);
}
NOINLINE void inplace(float *x, int n) {
    for (int i = 0; i < n; i++)
        x[i] = x[i] * 0.75f - 2.0f;
}
/* Store, then load the same element (and the previous one) in the same iteration. */
NOINLINE uint32_t store_load(uint32_t *x, uint32_t *y, const uint32_t *z, int n) {
    uint32_t s = 0;
    for (int i = 1; i < n; i++) {
        x[i] = z[i] * 7u;
        y[i] = x[i] + x[i - 1];
        s += y[i] ^ x[i];
    }
    return s;
}
/* Two stores to the same array per iteration, the second one reread next iteration. */
NOINLINE void two_stores(uint32_t *x, int n) {
    for (int i = 0; i + 1 < n; i++) {
        x[i] = x[i] + 1u;
        x[i + 1] = x[i] * 2u + x[i + 1];
    }
}
/* Indirect updates: repeated indices must see each other's stores. */
NOINLINE void histogram(uint32_t *h, const uint8_t *ix, const uint32_t *w, int n) {
    for (int i = 0; i < n; i++)
        h[ix[i]] += w[i] & 0xff;
}
/* A pointer that may point into the array being read. */
NOINLINE void acc_through(uint32_t *x, uint32_t *acc, int n) {
    for (int i = 0; i < n; i++)
        *acc += x[i];
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a[i] = lcg();
        b[i] = lcg();
        c[i] = lcg() & 0xffff;
        f[i] = (float)(lcg() % 4000u) * 0.125f;
        idx[i] = (uint8_t)(lcg() % 64u);
    }
    for (int i = 0; i < 64; i++)
        hist[i] = 0;
}

static void run(int n) {
    unsigned m = (unsigned)n + 2 * PAD;
    init((int)m);
    dist1(a, n);
    dist2(b, n);
    dist3(c, a, n);
    printf("n=%4d d123 %08x %08x %08x", n, hash(a, m), hash(b, m), hash(c, m));
    for (int k = 0; k <= 4; k++) {
        dist_var(a + 4, k - 2, n);  /* x[i-2] .. x[i+2] */
        printf(" %08x", hash(a, m));
    }
    ahead(b, n);
    inplace(f, n);
    printf("\nn=%4d misc %08x %08x", n, hash(b, m), hash(f, m));
    uint32_t s = store_load(a, b, c, n);
    printf(" %08x %08x %08x", s, hash(a, m), hash(b, m));
    two_stores(c, n);
    histogram(hist, idx, b, n);
    uint32_t acc = 0;
    acc_through(c, &acc, n);
    printf(" %08x %08x %u", hash(c, m), hash(hist, 64), acc);
    acc_through(c, &c[n / 2], n);  /* *acc is also read as x[n/2] */
    printf(" %u\n", c[n / 2]);
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

// loop_int64: loops over 64-bit integers (add, multiply, variable shifts, compares and selects, 32x32->64 multiply-accumulate, a 64-bit LCG recurrence, uint64 hashing, 64-bit division) at trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 3

uint32_t seed = 0x2468aceu;
int big_trip = 1000;

int64_t a[MAXN + PAD], b[MAXN + PAD], c[MAXN + PAD];
uint64_t u[MAXN + PAD];
int32_t w[MAXN + PAD], v[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed;
}
static uint64_t hash64(const void *p, int n) { /* n 64-bit elements */
    const unsigned char *c8 = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 8 * n; i++)
        h = (h ^ c8[i]) * 0x100000001b3ull;
    return h;
}

NOINLINE void madd(int64_t *d, const int64_t *x, const int64_t *y, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] * 3 + (y[i] >> 5) - 12345678901ll;
}
NOINLINE void var_shift(uint64_t *d, const uint64_t *x, const int32_t *s, int n) {
    for (int i = 0; i < n; i++) {
        unsigned k = (unsigned)s[i] & 63u;
        d[i] = (x[i] << k) ^ (x[i] >> (63u - k)) ^ ((uint64_t)(int64_t)s[i] >> 1);
    }
}
NOINLINE int64_t minmax64(const int64_t *x, int n, int64_t *mx) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    *mx = hi;
    return lo;
}
NOINLINE int64_t mac32(const int32_t *x, const int32_t *y, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += (int64_t)x[i] * y[i];
    return s;
}
NOINLINE uint64_t umac32(const int32_t *x, int n) {
    uint64_t s = 1;
    for (int i = 0; i < n; i++)
        s += (uint64_t)(uint32_t)x[i] * (uint32_t)x[i] + (s >> 40);
    return s;
}
NOINLINE void lcg64(uint64_t *d, uint64_t state, int n) { /* a 64-bit register recurrence */
    for (int i = 0; i < n; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        d[i] = state ^ (state >> 29);
    }
}
NOINLINE void cmp_select(int64_t *d, const int64_t *x, const int64_t *y, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] > y[i] ? x[i] - y[i] : (x[i] == y[i] ? 7 : y[i] >> 1);
}
NOINLINE int64_t div64(const int64_t *x, const int32_t *y, int n) { /* a library call per iteration */
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] / (y[i] | 1) + x[i] % 1000003;
    return s;
}
NOINLINE void widen_narrow(int32_t *d, const int64_t *x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (int32_t)(x[i] >> 24) + (int32_t)(x[i] & 0xffff);
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a[i] = (int64_t)((uint64_t)lcg() << 21 | lcg() >> 11) - ((int64_t)1 << 51);
        b[i] = (int64_t)lcg() * 1000 - 2000000000000ll;
        c[i] = -1;
        u[i] = (uint64_t)lcg() << 32 | lcg();
        w[i] = (int32_t)(lcg() >> 1) - 0x40000000;
        v[i] = (int32_t)(lcg() % 200001u) - 100000;
    }
}

static void run(int n) {
    int m = n + PAD;
    init(m);
    int64_t mx, mn = minmax64(a, n, &mx);
    madd(c, a, b, n);
    uint64_t h1 = hash64(c, m);
    var_shift(u, u, v, n);
    uint64_t h2 = hash64(u, m);
    cmp_select(c, b, a, n);
    uint64_t h3 = hash64(c, m);
    printf("n=%4d %016llx %016llx %016llx %lld %lld", n, (unsigned long long)h1, (unsigned long long)h2,
           (unsigned long long)h3, (long long)mn, (long long)mx);
    int64_t mac = mac32(w, v, n);
    lcg64(u, 42u + (uint64_t)n, n);
    widen_narrow(v, a, n);
    printf(" | %lld %016llx %016llx %lld", (long long)mac, (unsigned long long)umac32(w, n),
           (unsigned long long)hash64(u, m), (long long)div64(b, w, n));
    uint32_t hv = 0;
    for (int i = 0; i < m; i++)
        hv = (hv ^ (uint32_t)v[i]) * 0x01000193u;
    printf(" %08x\n", hv);
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

// vec_reductions: integer reductions (sum, min, max, and, or, xor, count) over arrays, vectorizable at -O2/-O3.
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#define MAXN 500
int32_t v[MAXN];
uint32_t u[MAXN];
int64_t w[MAXN];
float f[MAXN];
int lengths[] = {1, 3, 15, 16, 17, 40, 64, 127, 128, 129, 333, 500};

static int32_t rsum(const int32_t *a, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
static int32_t rmin(const int32_t *a, int n) {
    int32_t m = INT_MAX;
    for (int i = 0; i < n; i++)
        m = a[i] < m ? a[i] : m;
    return m;
}
static int32_t rmax(const int32_t *a, int n) {
    int32_t m = INT_MIN;
    for (int i = 0; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}
static uint32_t rbits(const uint32_t *a, int n, uint32_t *and_out, uint32_t *or_out) {
    uint32_t x = 0, an = ~0u, o = 0;
    for (int i = 0; i < n; i++) {
        x ^= a[i];
        an &= a[i];
        o |= a[i];
    }
    *and_out = an;
    *or_out = o;
    return x;
}
static int count_gt(const int32_t *a, int n, int32_t t) {
    int c = 0;
    for (int i = 0; i < n; i++)
        c += a[i] > t;
    return c;
}
static int64_t rsum64(const int64_t *a, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
static int64_t dot_widen(const int32_t *a, const int32_t *b, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += (int64_t)a[i] * b[i];
    return s;
}
static uint32_t umax_r(const uint32_t *a, int n) {
    uint32_t m = 0;
    for (int i = 0; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}
/* A float max reduction is exact in any order. */
static float fmax_r(const float *a, int n) {
    float m = -1e30f;
    for (int i = 0; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}

int main(void) {
    for (int i = 0; i < MAXN; i++) {
        v[i] = (int32_t)((i * 2654435761u) >> 12) % 200001 - 100000;
        u[i] = (uint32_t)i * 0x9e3779b9u ^ 0x5bd1e995u;
        w[i] = (int64_t)v[i] * 1000003;
        f[i] = (float)v[i] / 3.0f;
    }
    for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        int n = lengths[k];
        uint32_t an, o;
        uint32_t x = rbits(u, n, &an, &o);
        printf("n=%3d sum %d min %d max %d xor %08x and %08x or %08x gt0 %d sum64 %lld dot %lld umax %u fmax %.9g\n",
               n, rsum(v, n), rmin(v, n), rmax(v, n), x, an, o, count_gt(v, n, 0), (long long)rsum64(w, n),
               (long long)dot_widen(v, v + 1, n - 1 > 0 ? n - 1 : 0), umax_r(u, n), (double)fmax_r(f, n));
    }
    return 0;
}

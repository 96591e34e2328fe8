// vec_int_loops: element-wise integer loops the loop vectorizer turns into SIMD code, at lengths that are not multiples of the lane count.
#include <stdint.h>
#include <stdio.h>

#define MAXN 300
int32_t a[MAXN], b[MAXN], c[MAXN];
uint32_t ua[MAXN], ub[MAXN];
int lengths[] = {0, 1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 300};

static void add(int32_t *restrict d, const int32_t *restrict x, const int32_t *restrict y, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] + y[i];
}
static void saxpy_int(int32_t *restrict d, const int32_t *restrict x, int32_t k, int n) {
    for (int i = 0; i < n; i++)
        d[i] = d[i] + k * x[i];
}
static void mix(uint32_t *restrict d, const uint32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = ((x[i] << 3) ^ (d[i] >> 2)) + (x[i] & 0xff) * 3u - (d[i] | 5u);
}
static void shifts(int32_t *restrict d, const int32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (x[i] >> 3) + (int32_t)((uint32_t)x[i] >> 29) - (x[i] & 7);
}
static void reverse_copy(int32_t *restrict d, const int32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[n - 1 - i];
}
static void scale_div(int32_t *restrict d, const int32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] / 4 + x[i] % 3;
}
static uint32_t checksum(const void *p, int n) {
    const uint32_t *w = p;
    uint32_t h = 0;
    for (int i = 0; i < n; i++)
        h = (h ^ w[i]) * 0x01000193u;
    return h;
}
static void init(void) {
    for (int i = 0; i < MAXN; i++) {
        a[i] = (i * 7919) % 2001 - 1000;
        b[i] = (i * 104729) % 3001 - 1500;
        c[i] = i;
        ua[i] = (uint32_t)i * 2654435761u;
        ub[i] = ~(uint32_t)i;
    }
}

int main(void) {
    for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        int n = lengths[k];
        init();
        add(c, a, b, n);
        uint32_t h1 = checksum(c, MAXN);
        saxpy_int(c, a, -3, n);
        uint32_t h2 = checksum(c, MAXN);
        mix(ub, ua, n);
        uint32_t h3 = checksum(ub, MAXN);
        shifts(c, b, n);
        uint32_t h4 = checksum(c, MAXN);
        reverse_copy(c, a, n);
        uint32_t h5 = checksum(c, MAXN);
        scale_div(b, a, n);
        uint32_t h6 = checksum(b, MAXN);
        printf("n=%3d: %08x %08x %08x %08x %08x %08x", n, h1, h2, h3, h4, h5, h6);
        if (n > 0)
            printf(" last %d %u", c[n - 1], ub[n - 1]);
        printf("\n");
    }
    /* In-place update with an offset (a loop-carried dependence at distance 1 is not vectorizable; distance 20 is). */
    init();
    for (int i = 20; i < MAXN; i++)
        a[i] = a[i - 20] + b[i];
    for (int i = 1; i < MAXN; i++)
        c[i] = c[i - 1] + a[i] % 10;
    printf("dependences: %08x %d %d\n", checksum(a, MAXN), a[MAXN - 1], c[MAXN - 1]);
    return 0;
}

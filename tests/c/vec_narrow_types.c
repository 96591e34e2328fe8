// vec_narrow_types: vectorizable loops over 8- and 16-bit data: widening sums, 16x16->32 products, narrowing stores.
#include <stdint.h>
#include <stdio.h>

#define N 403
uint8_t pix[N], pix2[N], out8[N];
int16_t s16[N], t16[N], out16[N];
int32_t out32[N];

static uint32_t sum_u8(const uint8_t *p, int n) {
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}
static int32_t dot16(const int16_t *a, const int16_t *b, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}
static void blend(uint8_t *restrict d, const uint8_t *restrict a, const uint8_t *restrict b, int alpha, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (uint8_t)((a[i] * alpha + b[i] * (256 - alpha)) >> 8);
}
static void sat_add16(int16_t *restrict d, const int16_t *restrict a, const int16_t *restrict b, int n) {
    for (int i = 0; i < n; i++) {
        int32_t s = a[i] + b[i];
        d[i] = (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
    }
}
static void widen_mul(int32_t *restrict d, const int16_t *restrict a, const int16_t *restrict b, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (int32_t)a[i] * b[i] + a[i];
}
static void threshold(uint8_t *restrict d, const uint8_t *restrict a, uint8_t t, int n) {
    for (int i = 0; i < n; i++)
        d[i] = a[i] > t ? 255 : 0;
}
static void abs_diff(uint8_t *restrict d, const uint8_t *restrict a, const uint8_t *restrict b, int n) {
    for (int i = 0; i < n; i++)
        d[i] = (uint8_t)(a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]);
}
static uint32_t h8(const uint8_t *p, int n) {
    uint32_t h = 0;
    for (int i = 0; i < n; i++)
        h = h * 31 + p[i];
    return h;
}
static uint32_t h16(const int16_t *p, int n) {
    uint32_t h = 0;
    for (int i = 0; i < n; i++)
        h = h * 31 + (uint16_t)p[i];
    return h;
}

int main(void) {
    for (int i = 0; i < N; i++) {
        pix[i] = (uint8_t)(i * 37 + 11);
        pix2[i] = (uint8_t)(255 - i * 3);
        s16[i] = (int16_t)((i * 2731) % 65536 - 32768);
        t16[i] = (int16_t)(i % 50 - 25);
    }
    int lens[] = {1, 13, 16, 31, 64, 65, 200, 403};
    for (unsigned k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        int n = lens[k];
        blend(out8, pix, pix2, 77, n);
        uint32_t hb = h8(out8, N);
        sat_add16(out16, s16, s16, n);
        uint32_t hs = h16(out16, N);
        widen_mul(out32, s16, t16, n);
        int64_t wsum = 0;
        for (int i = 0; i < n; i++)
            wsum += out32[i];
        threshold(out8, pix, 128, n);
        uint32_t ht = h8(out8, N);
        abs_diff(out8, pix, pix2, n);
        uint32_t ha = h8(out8, N);
        printf("n=%3d sum8 %u dot16 %d blend %08x sat %08x wide %lld thr %08x absd %08x\n", n, sum_u8(pix, n),
               dot16(t16, t16 + 1, n - 1 > 0 ? n - 1 : 0), hb, hs, (long long)wsum, ht, ha);
    }
    /* Histogram (not vectorizable: scattered updates) as a contrast. */
    unsigned hist[8] = {0};
    for (int i = 0; i < N; i++)
        hist[pix[i] >> 5]++;
    for (int b = 0; b < 8; b++)
        printf("%u%c", hist[b], b == 7 ? '\n' : ' ');
    return 0;
}

// loop_register_pressure: loop bodies with many live values (12 accumulators, 16 invariant coefficients, 8 double accumulators, six conditions at once, long chains in flight) that push a pipelined kernel past the register files; trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 16

uint32_t seed = 0x3c6ef372u;
int big_trip = 1000;

float x[MAXN + PAD], y[MAXN + PAD], z[MAXN + PAD];
int32_t k[MAXN + PAD], out[MAXN + PAD];
double dx[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 9;
}

/* Twelve independent float accumulators fed from three streams. */
NOINLINE float twelve_acc(const float *a, const float *b, const float *c, int n) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s8 = 0, s9 = 0, s10 = 0, s11 = 0;
    for (int i = 0; i < n; i++) {
        float p = a[i], q = b[i], r = c[i];
        s0 += p; s1 += q; s2 += r; s3 += p * q;
        s4 += q * r; s5 += r * p; s6 -= p * 0.5f; s7 += q * 0.25f;
        s8 += p - q; s9 += q - r; s10 += r - p; s11 += p * q * r;
    }
    return ((s0 + s1) * 0.5f + (s2 - s3) * 0.25f) + ((s4 + s5) + (s6 - s7)) + ((s8 * s9) - (s10 + s11));
}
/* Sixteen invariant coefficients: an unrolled 16-tap FIR. */
NOINLINE void fir16(float *o, const float *a, const float *h, int n) {
    float h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5], h6 = h[6], h7 = h[7];
    float h8 = h[8], h9 = h[9], h10 = h[10], h11 = h[11], h12 = h[12], h13 = h[13], h14 = h[14], h15 = h[15];
    for (int i = 0; i < n; i++)
        o[i] = h0 * a[i] + h1 * a[i + 1] + h2 * a[i + 2] + h3 * a[i + 3] + h4 * a[i + 4] + h5 * a[i + 5] +
               h6 * a[i + 6] + h7 * a[i + 7] + h8 * a[i + 8] + h9 * a[i + 9] + h10 * a[i + 10] +
               h11 * a[i + 11] + h12 * a[i + 12] + h13 * a[i + 13] + h14 * a[i + 14] + h15 * a[i + 15];
}
/* Eight double accumulators (64-bit register file). */
NOINLINE double eight_dacc(const double *a, int n) {
    double d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7;
    for (int i = 0; i < n; i++) {
        double v = a[i];
        d0 += v; d1 *= 0.9375; d2 -= v * 0.5; d3 += d0 * 0.125;
        d4 = d4 * 0.75 + v; d5 += d4; d6 -= d1; d7 += v * v;
    }
    return d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7;
}
/* Six conditions per iteration (predicate pressure), each guarding an update. */
NOINLINE uint32_t six_conds(const int32_t *a, int32_t *o, int n) {
    int32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
    for (int i = 0; i < n; i++) {
        int32_t v = a[i];
        if (v > 0) c0 += v;
        if (v & 1) c1++;
        if (v < -500) c2 -= v;
        if ((v & 6) == 6) c3 ^= v;
        if (v % 5 == 0) c4 += 2;
        int32_t w = v > c5 ? v - c5 : c5 - v;
        if (w > 1000) c5 = v;
        o[i] = (v > 100 && v < 5000) ? w : -w;
    }
    return (uint32_t)c0 ^ (uint32_t)c1 ^ ((uint32_t)c2 << 3) ^ ((uint32_t)c3 << 6) ^ ((uint32_t)c4 << 9) ^ (uint32_t)c5;
}
/* Integer mix with many temporaries alive across the body. */
NOINLINE uint32_t temps(const int32_t *a, int n) {
    uint32_t h = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v = (uint32_t)a[i];
        uint32_t t1 = v * 3u, t2 = v >> 3, t3 = v ^ 0x55u, t4 = v + 77u, t5 = v << 2, t6 = ~v;
        uint32_t t7 = t1 + t2, t8 = t3 - t4, t9 = t5 ^ t6, t10 = t1 * t4, t11 = t2 | t5, t12 = t3 & t6;
        h += (t7 ^ t8) + (t9 - t10) + (t11 ^ t12) + (t1 & t9) + (t2 * t8);
    }
    return h;
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        x[i] = (float)((int)(lcg() % 2001u) - 1000) * 0.015625f;
        y[i] = (float)((int)(lcg() % 2001u) - 1000) * 0.0078125f;
        z[i] = (float)(lcg() % 512u) * 0.03125f;
        k[i] = (int32_t)(lcg() % 20001u) - 10000;
        dx[i] = (double)((int)(lcg() % 2001u) - 1000) * 0.001;
        out[i] = 0;
    }
}

static void run(int n) {
    init(n + PAD);
    float t = twelve_acc(x, y, z, n);
    fir16(z, x, y, n);
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n + 2; i++)
        h = (h ^ (uint32_t)(int32_t)(z[i] * 65536.0f)) * 0x01000193u;
    double d = eight_dacc(dx, n);
    uint32_t c = six_conds(k, out, n);
    uint32_t ho = 0x811c9dc5u;
    for (int i = 0; i < n + 2; i++)
        ho = (ho ^ (uint32_t)out[i]) * 0x01000193u;
    printf("n=%4d %.9g %08x %.17g %08x %08x %08x\n", n, (double)t, h, d, c, ho, temps(k, n));
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

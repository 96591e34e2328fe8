// loop_recurrences: loop-carried recurrences (x[i] = x[i-1]*a + b in integer and float, prefix sums, second-order recurrences, an IIR biquad over an array) at trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 3

uint32_t seed = 99991u;
int big_trip = 1000;

uint32_t xu[MAXN + PAD], pu[MAXN + PAD];
int32_t in32[MAXN + PAD], ps[MAXN + PAD];
float xf[MAXN + PAD], inf[MAXN + PAD], yf[MAXN + PAD];
double xd[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 22695477u + 1u;
    return seed >> 9;
}
static uint32_t hash(const void *p, unsigned words) {
    const unsigned char *c = p; /* bytes, so that float arrays can be hashed too */
    uint32_t h = 0x811c9dc5u;
    for (unsigned i = 0; i < 4 * words; i += 4)
        h = (h ^ (c[i] | (uint32_t)c[i + 1] << 8 | (uint32_t)c[i + 2] << 16 | (uint32_t)c[i + 3] << 24)) * 0x01000193u;
    return h;
}

/* x[i] = x[i-1]*a + b, the value coming back through memory (x[0] is given). */
NOINLINE void lin_u32(uint32_t *x, uint32_t a, uint32_t b, int n) {
    for (int i = 1; i < n; i++)
        x[i] = x[i - 1] * a + b;
}
NOINLINE void lin_f32(float *x, float a, float b, int n) {
    for (int i = 1; i < n; i++)
        x[i] = x[i - 1] * a + b;
}
/* The same recurrence carried in a register, with an input term. */
NOINLINE void lin_reg_f64(double *out, const float *in, double a, int n) {
    double y = 0.25;
    for (int i = 0; i < n; i++) {
        y = y * a + in[i];
        out[i] = y;
    }
}
NOINLINE void prefix_i32(int32_t *out, const int32_t *in, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        s += in[i];
        out[i] = s;
    }
}
/* In-place prefix sum: a[i] += a[i-1]. */
NOINLINE void prefix_inplace_u32(uint32_t *a, int n) {
    for (int i = 1; i < n; i++)
        a[i] += a[i - 1];
}
NOINLINE void prefix_f32(float *out, const float *in, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s = s + in[i];
        out[i] = s;
    }
}
/* Second order: x[i] = x[i-1] + x[i-2] (mod 2^32), and a two-register rotation. */
NOINLINE void fib_u32(uint32_t *x, int n) {
    for (int i = 2; i < n; i++)
        x[i] = x[i - 1] + x[i - 2] * 3u;
}
NOINLINE uint32_t rotate3(int n) {
    uint32_t a = 1, b = 2, c = 3;
    for (int i = 0; i < n; i++) {
        uint32_t t = a + (b ^ c);
        a = b;
        b = c;
        c = t * 5u;
    }
    return a ^ (b << 1) ^ (c << 2);
}
/* Biquad (direct form II transposed) over an array. */
NOINLINE void biquad(float *y, const float *x, int n) {
    const float b0 = 0.0675f, b1 = 0.1349f, b2 = 0.0675f, a1 = -1.1430f, a2 = 0.4128f;
    float z1 = 0.0f, z2 = 0.0f;
    for (int i = 0; i < n; i++) {
        float v = b0 * x[i] + z1;
        z1 = b1 * x[i] - a1 * v + z2;
        z2 = b2 * x[i] - a2 * v;
        y[i] = v;
    }
}
/* Recurrence with a division (a long, possibly non-pipelined latency in the cycle). */
NOINLINE uint32_t div_chain(const int32_t *in, int n) {
    uint32_t h = 0xffffffffu;
    for (int i = 0; i < n; i++)
        h = h / (uint32_t)(in[i] % 7 + 9) + (uint32_t)in[i] * 2654435761u;
    return h;
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        xu[i] = lcg();
        pu[i] = lcg() % 100000u;
        in32[i] = (int32_t)(lcg() % 20001u) - 10000;
        xf[i] = (float)(lcg() % 1000u) * 0.5f;
        inf[i] = (float)((int)(lcg() % 2001u) - 1000) / 128.0f;
        yf[i] = -7.0f;
        xd[i] = -7.0;
        ps[i] = -7;
    }
}

static void run(int n) {
    unsigned m = (unsigned)n + PAD;
    init((int)m);
    lin_u32(xu, 1664525u, 1013904223u, n);
    lin_f32(xf, 0.9375f, 1.5f, n);
    lin_reg_f64(xd, inf, -0.96875, n);
    printf("n=%4d lin %08x %08x %08x", n, hash(xu, m), hash(xf, m), hash(xd, 2 * m));
    if (n > 0)
        printf(" %u %.9g %.17g", xu[n - 1], (double)xf[n - 1], xd[n - 1]);
    prefix_i32(ps, in32, n);
    prefix_inplace_u32(pu, n);
    prefix_f32(yf, inf, n);
    printf("\nn=%4d pre %08x %08x %08x", n, hash(ps, m), hash(pu, m), hash(yf, m));
    if (n > 0)
        printf(" %d %u %.9g", (int)ps[n - 1], pu[n - 1], (double)yf[n - 1]);
    fib_u32(xu, n);
    biquad(yf, inf, n);
    printf("\nn=%4d rec %08x %08x %08x %08x", n, hash(xu, m), rotate3(n), hash(yf, m), div_chain(in32, n));
    if (n > 0)
        printf(" %.9g", (double)yf[n - 1]);
    printf("\n");
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

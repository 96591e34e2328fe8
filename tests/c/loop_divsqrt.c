// loop_divsqrt: loops whose bodies hold non-pipelined or long operations (integer division and modulo by a variable, float and double division, sqrtf/sqrt) mixed with ordinary ones, at trip counts 0..25 and ~1000.
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define PAD 3

uint32_t seed = 0x51u;
int big_trip = 1000;

int32_t num[MAXN + PAD], den[MAXN + PAD], q[MAXN + PAD], r[MAXN + PAD];
uint32_t un[MAXN + PAD], uq[MAXN + PAD];
float fx[MAXN + PAD], fy[MAXN + PAD], fz[MAXN + PAD];
double dx[MAXN + PAD], dy[MAXN + PAD];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 3;
}
static uint32_t hash(const void *p, int words) {
    const unsigned char *c = p; /* bytes, so that float arrays can be hashed too */
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < 4 * words; i += 4)
        h = (h ^ (c[i] | (uint32_t)c[i + 1] << 8 | (uint32_t)c[i + 2] << 16 | (uint32_t)c[i + 3] << 24)) * 0x01000193u;
    return h;
}

/* Signed division and remainder by per-element divisors (never 0, never INT_MIN / -1). */
NOINLINE void divmod(int32_t *qq, int32_t *rr, const int32_t *x, const int32_t *y, int n) {
    for (int i = 0; i < n; i++) {
        qq[i] = x[i] / y[i];
        rr[i] = x[i] % y[i];
    }
}
/* Unsigned division by a loop-invariant variable, plus an ordinary add. */
NOINLINE void udiv_k(uint32_t *y, const uint32_t *x, uint32_t k, int n) {
    for (int i = 0; i < n; i++)
        y[i] = x[i] / k + (x[i] % k) * 3u;
}
/* Division inside a reduction: the sum waits for each quotient. */
NOINLINE int32_t sum_quot(const int32_t *x, int32_t d, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] / d - x[i] % (d + 3);
    return s;
}
NOINLINE void fdiv(float *z, const float *x, const float *y, int n) {
    for (int i = 0; i < n; i++)
        z[i] = x[i] / y[i] + 1.0f;
}
NOINLINE void ddiv(double *z, const double *x, double k, int n) {
    for (int i = 0; i < n; i++)
        z[i] = k / x[i] - x[i];
}
NOINLINE void fsqrt(float *z, const float *x, int n) {
    for (int i = 0; i < n; i++)
        z[i] = sqrtf(x[i]) * 2.0f;
}
NOINLINE double dsqrt_sum(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += sqrt(x[i] * x[i] + 1.0);
    return s;
}
/* Normalize 2-D vectors: sqrt and division in one body. */
NOINLINE void normalize(float *x, float *y, int n) {
    for (int i = 0; i < n; i++) {
        float len = sqrtf(x[i] * x[i] + y[i] * y[i]);
        if (len > 0.0f) {
            x[i] = x[i] / len;
            y[i] = y[i] / len;
        }
    }
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        num[i] = (int32_t)(lcg() % 4000001u) - 2000000;
        den[i] = (int32_t)(lcg() % 199u) - 99;
        if (den[i] == 0)
            den[i] = 7;
        un[i] = lcg() * 7u;
        fx[i] = (float)((int)(lcg() % 20001u) - 10000) / 16.0f;
        fy[i] = (float)(lcg() % 5000u + 1u) / 32.0f;
        dx[i] = (double)(lcg() % 1000000u + 1u) / 1000.0;
        q[i] = r[i] = -1;
        uq[i] = 1;
        fz[i] = -1.0f;
        dy[i] = -1.0;
    }
}

static void run(int n) {
    int m = n + PAD;
    init(m);
    divmod(q, r, num, den, n);
    udiv_k(uq, un, 1000u + (uint32_t)n, n);
    printf("n=%4d int %08x %08x %08x %d %d", n, hash(q, m), hash(r, m), hash(uq, m),
           (int)sum_quot(num, 13 + n % 5, n), (int)sum_quot(den, -7, n));
    fdiv(fz, fx, fy, n);
    ddiv(dy, dx, 3.0, n);
    printf(" | fp %08x %08x", hash(fz, m), hash(dy, 2 * m));
    fsqrt(fz, fy, n);
    printf(" %08x %.17g", hash(fz, m), dsqrt_sum(dx, n));
    normalize(fx, fy, n);
    printf(" %08x %08x", hash(fx, m), hash(fy, m));
    if (n > 0)
        printf(" %.9g %.9g", (double)fx[n - 1], (double)fy[n - 1]);
    printf("\n");
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    /* A zero vector is left alone by normalize. */
    fx[0] = 0.0f;
    fy[0] = 0.0f;
    normalize(fx, fy, 1);
    printf("zero %g %g\n", (double)fx[0], (double)fy[0]);
    return 0;
}

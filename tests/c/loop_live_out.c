// loop_live_out: values that leave a loop (the last temporary, the counter, several results at once, values of earlier iterations, conditionally defined ones, pointers) at trip counts 0..25 and ~1000: what a pipeline's epilogue must deliver.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000

uint32_t seed = 0xd1ceu;
int big_trip = 1000;

int32_t a[MAXN + 4], b[MAXN + 4];
float f[MAXN + 4];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 10;
}

/* The last temporary of the body (and the initial value when n == 0). */
NOINLINE int32_t last_temp(int32_t *y, const int32_t *x, int n) {
    int32_t t = -99;
    for (int i = 0; i < n; i++) {
        t = x[i] * 3 - 1;
        y[i] = t + 1;
    }
    return t;
}
/* The counter and a derived value after the loop. */
NOINLINE int counter_after(const int32_t *x, int n, int32_t *at) {
    int i;
    int32_t s = 0;
    for (i = 0; i < n; i++)
        s += x[i] & 15;
    *at = s + i * 1000;
    return i;
}
/* Five results at once, each defined at a different depth of the body. */
NOINLINE void five_results(const int32_t *x, const float *g, int n, int32_t out[4], float *fout) {
    int32_t loaded = 0, prod = 0, acc = 0, mx = INT32_MIN;
    float fl = 0.0f;
    for (int i = 0; i < n; i++) {
        loaded = x[i];
        prod = loaded * 7;
        acc += prod >> 2;
        mx = prod > mx ? prod : mx;
        fl = fl * 0.5f + g[i] / 3.0f;
    }
    out[0] = loaded; out[1] = prod; out[2] = acc; out[3] = mx;
    *fout = fl;
}
/* Values from one and two iterations back. */
NOINLINE int32_t rotating(const int32_t *x, int n, int32_t *p1, int32_t *p2) {
    int32_t prev = 11, prev2 = 22, s = 0;
    for (int i = 0; i < n; i++) {
        s += (prev2 & 0xff) - (prev & 0xf);
        prev2 = prev;
        prev = x[i];
    }
    *p1 = prev;
    *p2 = prev2;
    return s;
}
/* Last element that passed a test, and where it was. */
NOINLINE int32_t last_positive(const int32_t *x, int n, int *where) {
    int32_t v = 0;
    int w = -1;
    for (int i = 0; i < n; i++)
        if (x[i] > 500) {
            v = x[i];
            w = i;
        }
    *where = w;
    return v;
}
/* A pointer advanced in the loop, used afterwards. */
NOINLINE const int32_t *advance(const int32_t *p, int n, int32_t *s) {
    int32_t acc = 0;
    for (int i = 0; i < n; i++)
        acc += *p++ >> 3;
    *s = acc;
    return p;
}
/* A float recurrence whose final state and last output are both used. */
NOINLINE float decay(float *y, const float *x, int n, float *state) {
    float z = 1.0f, out = -1.0f;
    for (int i = 0; i < n; i++) {
        z = z * 0.875f + x[i];
        out = z - x[i] * 0.5f;
        y[i] = out;
    }
    *state = z;
    return out;
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        a[i] = (int32_t)(lcg() % 20001u) - 10000;
        b[i] = 0;
        f[i] = (float)((int)(lcg() % 1025u) - 512) * 0.25f;
    }
}

static void run(int n) {
    init(n + 4);
    int32_t o[4], at, p1, p2, s;
    float fo, st;
    int where;
    int32_t t = last_temp(b, a, n);
    int i = counter_after(a, n, &at);
    five_results(a, f, n, o, &fo);
    printf("n=%4d %d %d %d %d | %d %d %d %d %.9g", n, (int)t, (int)b[n > 0 ? n - 1 : 0], i, (int)at, (int)o[0],
           (int)o[1], (int)o[2], (int)o[3], (double)fo);
    int32_t r = rotating(a, n, &p1, &p2);
    int32_t lp = last_positive(a, n, &where);
    const int32_t *end = advance(a, n, &s);
    float out = decay(f, f, n, &st);
    printf(" | %d %d %d %d %d %d %d %.9g %.9g\n", (int)r, (int)p1, (int)p2, (int)lp, where, (int)(end - a), (int)s,
           (double)out, (double)st);
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

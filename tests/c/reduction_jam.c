// reduction_jam: two-deep reduction nests dsp-reduction-jam runs several
// outer iterations of side by side (an autocorrelation's lags, whose inner
// loops start at the lag: peeled first; a rectangular product), next to
// the float sums it leaves to outer-loop vectorization (strict: their
// order kept either way),
// at every length around the jam's edges: no lag enters its loop, some do,
// lag counts that leave a remainder. The output must be the host's, bit
// for bit.
// dsp-cflags: -funroll-and-jam
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 70
static int32_t x[N], r[32];
static float fx[N], fr[32], a[32][N], y[32];
static uint32_t st = 5;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }
static uint32_t bits(float v) { uint32_t u; memcpy(&u, &v, 4); return u; }

static void reset(void) {
    st = 5;
    for (int i = 0; i < N; i++) {
        x[i] = (int32_t)(rnd() % 2001) - 1000;
        fx[i] = (float)(rnd() % 20001) / 1000.0f - 10.0f;
        for (int k = 0; k < 32; k++) a[k][i] = (float)(rnd() % 2001) / 100.0f - 10.0f;
    }
    memset(r, 0x55, sizeof r);
    memset(fr, 0x55, sizeof fr);
    memset(y, 0x55, sizeof y);
}

static uint32_t hash(void) {
    uint32_t h = 2166136261u;
    for (int k = 0; k < 32; k++) {
        h = (h ^ (uint32_t)r[k]) * 16777619u;
        h = (h ^ bits(fr[k])) * 16777619u;
        h = (h ^ bits(y[k])) * 16777619u;
    }
    return h;
}

__attribute__((noinline)) void autocorr(const int32_t *restrict v, int32_t *restrict out, int n, int lags) {
    for (int k = 0; k < lags; k++) {
        int32_t s = 0;
        for (int i = k; i < n; i++)
            s += v[i] * v[i - k];
        out[k] = s;
    }
}

__attribute__((noinline)) void autocorr_f(const float *restrict v, float *restrict out, int n, int lags) {
    for (int k = 0; k < lags; k++) {
        float s = 0.0f;
        for (int i = k; i < n; i++)
            s += v[i] * v[i - k];
        out[k] = s;
    }
}

/* y[k] = sum over i >= k of a[k][i] v[i] (upper triangle), plus an offset. */
__attribute__((noinline)) void upper(const float *restrict v, float *restrict out, int rows, int n) {
    for (int k = 0; k < rows; k++) {
        float s = 1.0f;
        for (int i = k; i < n; i++)
            s += a[k][i] * v[i];
        out[k] = s * 0.5f;
    }
}

/* r[k] = sum over all i of x[i] * (i - k): the inner loop's start does not move. */
__attribute__((noinline)) void rect(const int32_t *restrict v, int32_t *restrict out, int rows, int n) {
    for (int k = 0; k < rows; k++) {
        int32_t s = 7;
        for (int i = 2; i < n; i++)
            s += v[i] * (i - k);
        out[k] = s - k;
    }
}

int main(void) {
    int lens[] = {0, 1, 2, 3, 4, 5, 7, 15, 16, 17, 19, 20, 33, 64, 70};
    int lagss[] = {1, 3, 4, 7, 16, 18};
    for (unsigned li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        for (unsigned gi = 0; gi < sizeof lagss / sizeof lagss[0]; gi++) {
            int n = lens[li], lags = lagss[gi];
            reset();
            autocorr(x, r, n, lags);
            autocorr_f(fx, fr, n, lags);
            upper(fx, y, lags, n);
            printf("n=%d lags=%d: %08x\n", n, lags, (unsigned)hash());
        }
        reset();
        rect(x, r, 13, lens[li]);
        printf("rect n=%d: %08x\n", lens[li], (unsigned)hash());
    }
    return 0;
}

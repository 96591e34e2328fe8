// loop_interchange: nests dsp-interchange turns around (a loop holding an
// inner loop shorter than a vector, whose iterations touch disjoint
// memory: an FFT's early stages) and the run-time guard's other side: an
// inner loop long enough, outer iterations that overlap, too few of them,
// a step that is not positive. Either way the output must be the host's,
// bit for bit.
// dsp-cflags: -fegg-isel -floop-interchange
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 512
static float re[N], im[N], wr[N], wi[N];
static int32_t a[N + 64];
static uint32_t st = 7;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }
static uint32_t bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }

static void reset(void) {
    st = 7;
    for (int i = 0; i < N; i++) {
        re[i] = (float)(rnd() % 20001) / 1000.0f - 10.0f;
        im[i] = (float)(rnd() % 20001) / 1000.0f - 10.0f;
        wr[i] = (float)(rnd() % 2001) / 1000.0f - 1.0f;
        wi[i] = (float)(rnd() % 2001) / 1000.0f - 1.0f;
    }
    for (int i = 0; i < N + 64; i++) a[i] = (int32_t)(rnd() % 2001) - 1000;
}

static uint32_t hash(void) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++) h = (h ^ bits(re[i])) * 16777619u, h = (h ^ bits(im[i])) * 16777619u;
    for (int i = 0; i < N + 64; i++) h = (h ^ (uint32_t)a[i]) * 16777619u;
    return h;
}

/* One butterfly stage of span len over n points (an FFT's stage). */
__attribute__((noinline)) void stage(float *restrict xr, float *restrict xi, const float *restrict cr, const float *restrict ci, int n, int len) {
    int half = len >> 1, step = n / len;
    for (int i = 0; i < n; i += len)
        for (int j = 0; j < half; j++) {
            float w_r = cr[j * step], w_i = ci[j * step];
            int p = i + j, q = p + half;
            float br = xr[q], bi = xi[q];
            float tr = w_r * br - w_i * bi;
            float ti = w_r * bi + w_i * br;
            float ar = xr[p], ai = xi[p];
            xr[q] = ar - tr;
            xi[q] = ai - ti;
            xr[p] = ar + tr;
            xi[p] = ai + ti;
        }
}

/* Rows of width w every `pitch` elements from `from`: rows overlap when pitch < w. */
__attribute__((noinline)) void rows(int32_t *restrict x, int from, int n, int pitch, int w, int32_t k) {
    for (int i = from; i < n; i += pitch)
        for (int j = 0; j < w; j++)
            x[i + j] = x[i + j] * k + j;
}

/* Two arrays at once, one only read at the other's place. */
__attribute__((noinline)) void mix(float *restrict y, const float *restrict x, int n, int pitch, int w) {
    for (int i = 0; i < n; i += pitch)
        for (int j = 0; j < w; j++)
            y[i + j] = y[i + j] + x[i + j] * x[i + 2 * j];
}

int main(void) {
    int lens[] = {2, 4, 8, 16, 32, 64};
    for (unsigned k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        for (int n = 16; n <= N; n *= 2) {
            if (lens[k] > n) continue;
            reset();
            stage(re, im, wr, wi, n, lens[k]);
            printf("stage n=%d len=%d: %08x\n", n, lens[k], (unsigned)hash());
        }
    }
    /* Disjoint rows (pitch >= w), overlapping ones (pitch < w), few rows, empty rows. */
    int cases[][4] = {{0, 400, 8, 8}, {3, 500, 12, 5}, {0, 512, 4, 8}, {1, 300, 3, 15}, {0, 40, 8, 8}, {0, 512, 32, 16}, {0, 512, 16, 0}, {5, 5, 8, 4}, {0, 512, 16, 17}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        reset();
        rows(a, cases[c][0], cases[c][1], cases[c][2], cases[c][3], 3);
        printf("rows %d %d %d %d: %08x\n", cases[c][0], cases[c][1], cases[c][2], cases[c][3], (unsigned)hash());
    }
    for (int w = 1; w <= 9; w += 4) {
        reset();
        mix(re, im, 256, 16, w);
        printf("mix w=%d: %08x\n", w, (unsigned)hash());
    }
    return 0;
}

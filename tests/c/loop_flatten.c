// loop_flatten: the butterfly nests dsp-interchange takes and dsp-flatten
// makes one loop (for (i < n; i += len) for (j < half): x[i + j] and
// x[i + j + half] with twiddles w[j * step]), on both sides of every guard:
// half below, at and above the lane counts (interchanged, strip-mined and
// as-is nests), one and two outer iterations (not flattened, flattened),
// row counts and half-lengths that are not multiples of a vector (the
// flattened loop's own guard fails), n not a multiple of len (a last
// partial row), an offset start, and a float FFT of every size to 4096.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 4096

int32_t xi[MAXN + 64], wi[MAXN];
float xr[MAXN], xm[MAXN], cr[MAXN / 2], ci[MAXN / 2];

/* One integer stage: len = 2 half, rows from `start` in steps of len. */
NOINLINE void stage_i32(int32_t *restrict x, const int32_t *restrict w, int n, int len, int start) {
    int half = len >> 1, step = MAXN / len;
    for (int i = start; i < n; i += len)
        for (int j = 0; j < half; j++) {
            int32_t t = w[j * step] * x[i + j + half];
            int32_t a = x[i + j];
            x[i + j + half] = a - t;
            x[i + j] = a + t;
        }
}

/* The same with the outer loop counting rows (clang's eq form). */
NOINLINE void rows_i32(int32_t *restrict x, const int32_t *restrict w, int rows, int half) {
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < half; j++) {
            int32_t t = w[j * 3] ^ x[r * 2 * half + j + half];
            x[r * 2 * half + j] += t;
            x[r * 2 * half + j + half] -= t;
        }
}

NOINLINE void fft_f32(float *restrict re, float *restrict im, const float *restrict wr, const float *restrict wim, int n, int wstep) {
    for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1, step = wstep * (n / len);
        for (int i = 0; i < n; i += len)
            for (int j = 0; j < half; j++) {
                float w_r = wr[j * step], w_i = wim[j * step];
                int a = i + j, b = a + half;
                float br = re[b], bi = im[b];
                float tr = w_r * br - w_i * bi;
                float ti = w_r * bi + w_i * br;
                float ar = re[a], ai = im[a];
                re[b] = ar - tr;
                im[b] = ai - ti;
                re[a] = ar + tr;
                im[a] = ai + ti;
            }
    }
}

static uint32_t hash_i32(const int32_t *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)p[i]) * 16777619u;
    return h;
}

static uint32_t hash_f32(const float *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        union { float f; uint32_t u; } v = {p[i]};
        h = (h ^ v.u) * 16777619u;
    }
    return h;
}

static uint32_t seed = 12345u;
static int32_t next(void) {
    seed = seed * 1103515245u + 12345u;
    return (int32_t)(seed >> 16) % 1000 - 500;
}

static void fill(void) {
    for (int i = 0; i < MAXN + 64; i++)
        xi[i] = next();
}

int main(void) {
    for (int j = 0; j < MAXN; j++)
        wi[j] = next();
    int lens[] = {2, 4, 8, 16, 32, 34, 64, 96, 128, 256, 512, 1024, 2048, 4096};
    int ns[] = {1, 2, 3, 16, 100, 256, 1000, 2048, 4096};
    for (unsigned a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (unsigned b = 0; b < sizeof lens / sizeof lens[0]; b++)
            for (int start = 0; start < 2; start++) {
                int n = ns[a], len = lens[b];
                if (len > MAXN || n + len > MAXN + 64)
                    continue;
                fill();
                stage_i32(xi, wi, n, len, start);
                printf("stage n=%d len=%d start=%d: %08x\n", n, len, start, (unsigned)hash_i32(xi, MAXN + 64));
            }
    int halves[] = {1, 3, 8, 16, 17, 32, 48, 64, 100, 128, 256, 512};
    int rows[] = {0, 1, 2, 3, 4, 7, 16, 17, 33};
    for (unsigned a = 0; a < sizeof halves / sizeof halves[0]; a++)
        for (unsigned b = 0; b < sizeof rows / sizeof rows[0]; b++) {
            if (rows[b] * 2 * halves[a] > MAXN)
                continue;
            fill();
            rows_i32(xi, wi, rows[b], halves[a]);
            printf("rows %d half=%d: %08x\n", rows[b], halves[a], (unsigned)hash_i32(xi, MAXN + 64));
        }
    for (int j = 0; j < MAXN / 2; j++) {
        cr[j] = (float)next() / 512.0f;
        ci[j] = (float)next() / 512.0f;
    }
    for (int n = 1; n <= MAXN; n <<= 1) {
        for (int i = 0; i < n; i++) {
            xr[i] = (float)next() / 64.0f;
            xm[i] = (float)next() / 64.0f;
        }
        fft_f32(xr, xm, cr, ci, n, MAXN / n);
        printf("fft %d: %08x %08x\n", n, (unsigned)hash_f32(xr, n), (unsigned)hash_f32(xm, n));
    }
    return 0;
}

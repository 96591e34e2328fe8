// predcom: loads reused across iterations (predictive commoning): stencils over rows and elements, integer sums carried, floats, and loops it must leave alone.
/* dsp-predcom keeps in registers what a loop loaded in earlier iterations:
   a 3x3 convolution's input rows (their products' sums carried, integer
   addition being exact in any order), 1-D stencils (the loads carried),
   float stencils (loads carried, sums kept in source order), and loops
   where it must not apply: a stencil that writes the array it reads, and
   pointers that may overlap. Odd sizes and trip counts of 1 and 2 reach
   the carried values' start-up and the pipeliner's left-over iterations. */
#include <stdint.h>
#include <stdio.h>

#define W 37
#define H 29

static int32_t img[H * W], out[H * W], filt[9] = {3, -1, 2, 5, 7, -4, 1, 0, -6};
static float sig[256], res[256];
static int32_t vec[256], acc[256];

static uint32_t hash(const void *p, int bytes) {
    const unsigned char *c = p;
    uint32_t h = 2166136261u;
    for (int i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 16777619u;
    return h;
}

__attribute__((noinline)) void conv3x3(const int32_t *restrict x, const int32_t *restrict k, int32_t *restrict y, int w, int h) {
    for (int r = 0; r < h - 2; r++)
        for (int c = 0; c < w - 2; c++) {
            int32_t s = 0;
            for (int dr = 0; dr < 3; dr++)
                for (int dc = 0; dc < 3; dc++)
                    s += k[dr * 3 + dc] * x[(r + dr) * w + c + dc];
            y[r * (w - 2) + c] = s;
        }
}

/* The benchmark's form: square, the column loop strip-mined by the lane
   count and the row loop innermost (dsp-interchange), the rows' sums
   carried. */
__attribute__((noinline)) void conv3x3_sq(const int32_t *restrict x, const int32_t *restrict k, int32_t *restrict y, int w) {
    int ow = w - 2;
    for (int r = 0; r < ow; r++)
        for (int col = 0; col < ow; col++) {
            int32_t s = 0;
            for (int dr = 0; dr < 3; dr++)
                for (int dc = 0; dc < 3; dc++)
                    s += k[dr * 3 + dc] * x[(r + dr) * w + col + dc];
            y[r * ow + col] = s;
        }
}

/* The row loop innermost: each column's three rows. */
__attribute__((noinline)) void column3(const int32_t *restrict x, int32_t *restrict y, int w, int h, int32_t a, int32_t b, int32_t c) {
    for (int col = 0; col < w; col++)
        for (int r = 0; r < h - 2; r++)
            y[r * w + col] = a * x[r * w + col] + b * x[(r + 1) * w + col] + c * x[(r + 2) * w + col];
}

__attribute__((noinline)) void smooth_i(const int32_t *restrict x, int32_t *restrict y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 2 * x[i + 1] + 3 * x[i + 2] - x[i + 3];
}

__attribute__((noinline)) void smooth_f(const float *restrict x, float *restrict y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = (x[i] * 0.25f + x[i + 1] * 0.5f) + x[i + 2] * 0.25f;
}

/* Writes the array it reads: the next iteration must see the store. */
__attribute__((noinline)) void in_place(int32_t *x, int n) {
    for (int i = 0; i < n; i++)
        x[i + 2] = (int32_t)((uint32_t)x[i] + (uint32_t)x[i + 1]);
}

/* y may overlap x: nothing carried. */
__attribute__((noinline)) void maybe_overlap(const int32_t *x, int32_t *y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = (int32_t)((uint32_t)x[i] * 3u + (uint32_t)x[i + 1]);
}

int main(void) {
    uint32_t s = 12345;
    for (int i = 0; i < H * W; i++) {
        s = s * 1103515245u + 12345u;
        img[i] = (int32_t)(s >> 8) - (1 << 23);
    }
    for (int i = 0; i < 256; i++) {
        s = s * 1103515245u + 12345u;
        sig[i] = (float)((int32_t)(s >> 12) - (1 << 19)) / 1024.0f;
        vec[i] = (int32_t)(s >> 5);
    }
    int sizes[][2] = {{W, H}, {3, 3}, {4, 4}, {5, 3}, {19, 23}, {3, 11}, {18, 6}};
    for (unsigned t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        int w = sizes[t][0], h = sizes[t][1];
        for (int i = 0; i < H * W; i++)
            out[i] = 0;
        conv3x3(img, filt, out, w, h);
        printf("conv3x3 %dx%d: 0x%08x %d\n", w, h, (unsigned)hash(out, sizeof out), (int)out[0]);
        conv3x3_sq(img, filt, out, h);
        printf("conv3x3_sq %d: 0x%08x\n", h, (unsigned)hash(out, sizeof out));
        column3(img, out, w, h, 7, -2, 5);
        printf("column3 %dx%d: 0x%08x\n", w, h, (unsigned)hash(out, sizeof out));
    }
    int ns[] = {1, 2, 3, 5, 16, 17, 100, 253};
    for (unsigned t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int n = ns[t];
        smooth_i(vec, acc, n);
        smooth_f(sig, res, n);
        printf("smooth %d: 0x%08x 0x%08x\n", n, (unsigned)hash(acc, sizeof acc), (unsigned)hash(res, sizeof res));
        int32_t tmp[256];
        for (int i = 0; i < 256; i++)
            tmp[i] = vec[i] & 0xffff;
        in_place(tmp, n);
        maybe_overlap(tmp, tmp + 1, n);
        printf("in_place %d: 0x%08x %d\n", n, (unsigned)hash(tmp, sizeof tmp), (int)tmp[n]);
    }
    return 0;
}

// loop_strip_mine: nests dsp-interchange runs as strips of one vector
// around the outer loop (an inner loop at most eight vectors long,
// every access contiguous, outer iterations touching disjoint memory: a 2D
// convolution's rows) and the run-time guard's other side: rows shorter or
// longer than that, too few of them, rows that overlap. Either way the
// output must be the host's, bit for bit.
// dsp-cflags: -fegg-isel -floop-strip-mine
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAXW 80
int32_t img[MAXW * MAXW], out[MAXW * MAXW + 64];
float fa[MAXW * MAXW], fb[MAXW * MAXW + 64];
int32_t filt[9] = {1, 2, 1, 0, -3, 0, -1, 2, -1};
static uint32_t st = 11;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }
static uint32_t bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }

static void reset(void) {
    st = 11;
    for (int i = 0; i < MAXW * MAXW; i++) {
        img[i] = (int32_t)(rnd() % 511) - 255;
        fa[i] = (float)(rnd() % 20001) / 1000.0f - 10.0f;
    }
    for (int i = 0; i < MAXW * MAXW + 64; i++) {
        out[i] = -1;
        fb[i] = 0.5f;
    }
}

static uint32_t hash(void) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < MAXW * MAXW + 64; i++) h = (h ^ (uint32_t)out[i]) * 16777619u, h = (h ^ bits(fb[i])) * 16777619u;
    return h;
}

/* The 3x3 convolution of a w x w image: (w-2) rows of (w-2) outputs. */
__attribute__((noinline)) void conv3x3(const int32_t *restrict x, const int32_t *restrict k, int32_t *restrict y, int w) {
    int ow = w - 2;
    for (int r = 0; r < ow; r++)
        for (int c = 0; c < ow; c++) {
            int32_t s = 0;
            for (int dr = 0; dr < 3; dr++)
                for (int dc = 0; dc < 3; dc++)
                    s += k[dr * 3 + dc] * x[(r + dr) * w + c + dc];
            y[r * ow + c] = s;
        }
}

/* rows x cols of floats, rows `pitch` apart: they overlap when pitch < cols. */
__attribute__((noinline)) void scale_rows(float *restrict y, const float *restrict x, int rows, int cols, int pitch, float a) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            y[r * pitch + c] = y[r * pitch + c] * a + x[r * cols + c];
}

int main(void) {
    for (int w = 3; w <= MAXW; w += (w < 20 ? 1 : 7)) {
        reset();
        conv3x3(img, filt, out, w);
        printf("conv3x3 w=%d: %08x\n", w, (unsigned)hash());
    }
    /* Rows of 1..70 columns; few rows; overlapping rows (pitch < cols). */
    int cases[][3] = {{40, 7, 7}, {40, 8, 8}, {40, 16, 16}, {40, 17, 20}, {30, 62, 62}, {30, 64, 64}, {20, 65, 65}, {20, 130, 130}, {3, 40, 40}, {1, 16, 16}, {40, 24, 20}, {60, 9, 1}, {0, 16, 16}};
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        reset();
        scale_rows(fb, fa, cases[k][0], cases[k][1], cases[k][2], 1.5f);
        printf("scale_rows %d %d %d: %08x\n", cases[k][0], cases[k][1], cases[k][2], (unsigned)hash());
    }
    return 0;
}

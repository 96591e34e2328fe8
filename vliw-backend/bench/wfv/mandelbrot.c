/* mandelbrot: escape-time iteration counts of a W x H grid over
 * [-2, 1] x [-1.5, 1.5] (seed 001 Table 1 and Fig. 5; its `mandel` example).
 * The vector function's loop exits per pixel at a data-dependent iteration:
 * a divergent loop, which the loop and SLP vectorizers cannot vectorize. */
#include "wfv.h"

#define W 32
#define H 32
#define MAX_ITER 64

int count[H][W] ALIGNED;
float x0 = -2.0f, y0 = -1.5f, step_x = 3.0f / W, step_y = 3.0f / H;

#pragma simd declare vec-function uniform(max_iter) nomask
VECFN int mandel(float cr, float ci, int max_iter) {
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < max_iter && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    return n;
}

int width = W, height = H;

NOINLINE void kernel(int w, int h) {
    for (int y = 0; y < h; y++) {
        float ci = y0 + (float)y * step_y;
        #pragma simd vec-function
        for (int x = 0; x < w; x++)
            count[y][x] = mandel(x0 + (float)x * step_x, ci, MAX_ITER);
    }
}

int main(void) {
    kernel(width, height);
    long total = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            total += count[y][x];
    printf("mandelbrot %dx%d: iterations %ld, checksum 0x%08x\n", W, H, total,
           (unsigned)wfv_hash(count, W * H));
    return 0;
}

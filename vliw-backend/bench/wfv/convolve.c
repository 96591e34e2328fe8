/* convolve: a 5x5 convolution of a W x H image, the output without its
 * border (seed 001 Fig. 5). One instance computes one output pixel; the
 * 5x5 loops are uniform. */
#include "wfv.h"

#define W 64
#define H 40
#define K 5

float image[H * W] ALIGNED, result[H * W] ALIGNED, taps[K * K] ALIGNED;

#pragma simd declare vec-function uniform(img, k, y, w) linear(x) nomask
VECFN float conv_at(const float *img, const float *k, int x, int y, int w) {
    float s = 0.0f;
    for (int dy = 0; dy < K; dy++)
        for (int dx = 0; dx < K; dx++)
            s += img[(y + dy) * w + x + dx] * k[dy * K + dx];
    return s;
}

/* The output's size reaches the kernel as such: with `x < w - K + 1` LLVM
 * rewrites the exit test to `x == w - K`, a compare dsp-wfv does not take
 * for a vec-function loop's ("its exit test does not compare the incremented
 * counter"). */
int width = W, out_w = W - K + 1, out_h = H - K + 1;

NOINLINE void kernel(int w, int ow, int oh) {
    for (int y = 0; y < oh; y++) {
        #pragma simd vec-function
        for (int x = 0; x < ow; x++)
            result[y * w + x] = conv_at(image, taps, x, y, w);
    }
}

int main(void) {
    for (int i = 0; i < H * W; i++)
        image[i] = lcg_unit();
    for (int i = 0; i < K * K; i++)
        taps[i] = lcg_unit() - 0.5f;
    kernel(width, out_w, out_h);
    printf("convolve %dx%d, %dx%d taps: checksum 0x%08x\n", W, H, K, K,
           (unsigned)wfv_hash(result, H * W));
    return 0;
}

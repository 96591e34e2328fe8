/* dct: the 8x8 forward DCT-II of every block of a W x H image (seed 001
 * Table 1). One instance computes one output coefficient (u, v) of one
 * block: the sum over the block's 64 pixels of pixel × basis(u, x) ×
 * basis(v, y), the basis a table of the scaled cosines (literals, so the
 * host and the DSP use the same bits). The 8x8 inner loops are uniform. */
#include "wfv.h"

#define W 64
#define H 32

float image[H * W] ALIGNED, coef[H * W] ALIGNED;

/* basis[u][x] = c(u) cos((2x + 1) u pi / 16), c(0) = sqrt(1/8), c(u) = 1/2. */
const float basis[8][8] ALIGNED = {
    {0.353553385f, 0.353553385f, 0.353553385f, 0.353553385f, 0.353553385f, 0.353553385f, 0.353553385f, 0.353553385f},
    {0.490392625f, 0.415734798f, 0.277785122f, 0.0975451618f, -0.0975451618f, -0.277785122f, -0.415734798f, -0.490392625f},
    {0.461939752f, 0.191341713f, -0.191341713f, -0.461939752f, -0.461939752f, -0.191341713f, 0.191341713f, 0.461939752f},
    {0.415734798f, -0.0975451618f, -0.490392625f, -0.277785122f, 0.277785122f, 0.490392625f, 0.0975451618f, -0.415734798f},
    {0.353553385f, -0.353553385f, -0.353553385f, 0.353553385f, 0.353553385f, -0.353553385f, -0.353553385f, 0.353553385f},
    {0.277785122f, -0.490392625f, 0.0975451618f, 0.415734798f, -0.415734798f, -0.0975451618f, 0.490392625f, -0.277785122f},
    {0.191341713f, -0.461939752f, 0.461939752f, -0.191341713f, -0.191341713f, 0.461939752f, -0.461939752f, 0.191341713f},
    {0.0975451618f, -0.277785122f, 0.415734798f, -0.490392625f, 0.490392625f, -0.415734798f, 0.277785122f, -0.0975451618f},
};

#pragma simd declare vec-function uniform(img, tab, v, w) linear(k) alignment(img:64, tab:64) nomask
VECFN float dct_coef(const float *img, const float *tab, int k, int v, int w) {
    /* k runs along a row of blocks: block column k / 8, frequency u = k % 8;
     * img is the block row's first pixel, v the vertical frequency. */
    int bx = k >> 3, u = k & 7;
    const float *blk = img + 8 * bx;
    float s = 0.0f;
    for (int y = 0; y < 8; y++) {
        float r = 0.0f;
        for (int x = 0; x < 8; x++)
            r += blk[y * w + x] * tab[u * 8 + x];
        s += r * tab[v * 8 + y];
    }
    return s;
}

int width = W, height = H;

NOINLINE void kernel(int w, int h) {
    for (int by = 0; by < h / 8; by++)
        for (int v = 0; v < 8; v++) {
            float *out = coef + (by * 8 + v) * w;
            const float *img = image + by * 8 * w;
            #pragma simd vec-function
            for (int k = 0; k < w; k++)
                out[k] = dct_coef(img, &basis[0][0], k, v, w);
        }
}

int main(void) {
    for (int i = 0; i < W * H; i++)
        image[i] = (float)(lcg_below(256)) - 128.0f;
    kernel(width, height);
    printf("dct %dx%d: checksum 0x%08x\n", W, H, (unsigned)wfv_hash(coef, W * H));
    return 0;
}

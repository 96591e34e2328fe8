/* conv2d: a 3x3 convolution (integer; correlation form) of a SIZE x SIZE
 * image, giving the (SIZE-2) x (SIZE-2) valid part.
 * Essential work: 9 (SIZE-2)^2 multiply-accumulates (i32), SIZE^2 + 9 loads,
 * (SIZE-2)^2 stores. */
#include "bench.h"

#ifndef SIZE
#define SIZE 16
#endif
#define OUT (SIZE - 2)

int32_t img[SIZE * SIZE] ALIGNED, out[OUT * OUT] ALIGNED;
int32_t filt[9] = {1, 2, 1, 0, -3, 0, -1, 2, -1};

NOINLINE void conv3x3_i32(const int32_t *restrict x, const int32_t *restrict k, int32_t *restrict y, int w) {
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

int main(void) {
    for (int i = 0; i < SIZE * SIZE; i++)
        img[i] = bench_i8() + 128;
    conv3x3_i32(img, filt, out, SIZE);
    printf("conv2d size %d: checksum 0x%08x\n", SIZE, (unsigned)bench_hash(out, OUT * OUT));
    return 0;
}

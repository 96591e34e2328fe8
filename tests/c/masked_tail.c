// masked_tail: vectorized loops whose tails run as one masked vector iteration, odd and short trip counts.
// dsp-cflags: -fmasked-tail
/* Vectorized loops whose tails are folded into a masked vector iteration
   (dspcc -fmasked-tail): odd trip counts, trip counts below one vector,
   float and integer element types, 16-bit data, a reduction (interleaved:
   its rest in up to two masked steps). */
#include <stdint.h>
#include <stdio.h>

#define N 211

static float xf[N], yf[N];
static int32_t xi[N], yi[N];
static int16_t xs[N], ys[N];

__attribute__((noinline)) void saxpy(int n, float a, const float *restrict x, float *restrict y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) void iaxpy(int n, int32_t a, const int32_t *restrict x, int32_t *restrict y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) void scale16(int n, const int16_t *restrict x, int16_t *restrict y) {
    for (int i = 0; i < n; i++)
        y[i] = (int16_t)((x[i] * 3) >> 2);
}

__attribute__((noinline)) int32_t dot(int n, const int32_t *x, const int32_t *y) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

int main(void) {
    /* (dot interleaves two vectors per step: its rest, 0 to 31, runs as
       at most two masked steps of one vector.) */
    static const int sizes[] = {0, 1, 5, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 129, N};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        for (int i = 0; i < N; i++) {
            xf[i] = (float)i * 0.25f - 10.0f;
            yf[i] = 100.0f - (float)i;
            xi[i] = i * 7 - 300;
            yi[i] = 1000 - 3 * i;
            xs[i] = (int16_t)(i * 311 - 32000);
            ys[i] = -1;
        }
        saxpy(n, 1.5f, xf, yf);
        iaxpy(n, -3, xi, yi);
        scale16(n, xs, ys);
        double sf = 0;
        unsigned si = 0, ss = 0;
        for (int i = 0; i < N; i++) {
            sf += (double)yf[i] * (i + 1);
            si = si * 31u + (unsigned)yi[i];
            ss = ss * 31u + (uint16_t)ys[i];
        }
        printf("n=%d saxpy %.2f iaxpy %u scale16 %u dot %d\n", n, sf, si, ss, (int)dot(n, xi, yi));
    }
    return 0;
}

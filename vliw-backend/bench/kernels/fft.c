/* fft: an in-place radix-2 decimation-in-time FFT of SIZE complex
 * single-precision points (real and imaginary parts in separate arrays):
 * bit-reversal permutation, then log2(SIZE) stages of butterflies
 *   t = w * b;  b = a - t;  a = a + t
 * with the complex product as tr = wr br - wi bi, ti = wr bi + wi br
 * (one multiply and one fused multiply-add each). The twiddle factors
 * w_j = exp(-2 pi i j / SIZE) are computed by main, outside the kernel.
 * Essential work per butterfly (SIZE/2 log2 SIZE of them): 2 multiply-
 * accumulates, 2 multiplies, 2 adds, 2 subtracts (f32); 3 SIZE loads (data
 * and twiddles once), 2 SIZE stores. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif

float re[SIZE] ALIGNED, im[SIZE] ALIGNED, wr[SIZE / 2] ALIGNED, wi[SIZE / 2] ALIGNED;

NOINLINE void fft_f32(float *restrict xr, float *restrict xi, const float *restrict cr, const float *restrict ci, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            float t = xr[i];
            xr[i] = xr[j];
            xr[j] = t;
            t = xi[i];
            xi[i] = xi[j];
            xi[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1, step = n / len;
        for (int i = 0; i < n; i += len)
            for (int j = 0; j < half; j++) {
                float w_r = cr[j * step], w_i = ci[j * step];
                int a = i + j, b = a + half;
                float br = xr[b], bi = xi[b];
                float tr = MACF(w_r, br, -(w_i * bi));
                float ti = MACF(w_r, bi, w_i * br);
                float ar = xr[a], ai = xi[a];
                xr[b] = ar - tr;
                xi[b] = ai - ti;
                xr[a] = ar + tr;
                xi[a] = ai + ti;
            }
    }
}

/* cos and sin of x (|x| <= pi/4) by their Taylor series in double, one
 * operation per statement (exact IEEE arithmetic on both sides). */
static void sincos_series(double x, double *c, double *s) {
    double x2 = x * x, tc = 1.0, ts = x, sc = 1.0, ss = x;
    for (int k = 1; k < 12; k++) {
        double dc = (double)((2 * k - 1) * (2 * k));
        double ds = (double)((2 * k) * (2 * k + 1));
        tc = -tc * x2;
        tc = tc / dc;
        ts = -ts * x2;
        ts = ts / ds;
        sc = sc + tc;
        ss = ss + ts;
    }
    *c = sc;
    *s = ss;
}

int main(void) {
    /* w_j = exp(-2 pi i j / SIZE): cos/sin of j * 2 pi / SIZE, j < SIZE/2;
     * the angle is reduced by symmetry to at most pi/4. */
    const double pi = 3.14159265358979323846;
    for (int j = 0; j < SIZE / 2; j++) {
        int oct = SIZE / 8; /* pi/4 in units of 2 pi / SIZE */
        double c, s;
        if (j <= oct) {
            sincos_series((double)j * (2.0 * pi / SIZE), &c, &s);
        } else if (j <= 3 * oct) {
            double cc, ss;
            sincos_series((double)(j - 2 * oct) * (2.0 * pi / SIZE), &cc, &ss);
            c = -ss;
            s = cc;
        } else {
            double cc, ss;
            sincos_series((double)(j - 4 * oct) * (2.0 * pi / SIZE), &cc, &ss);
            c = -cc;
            s = -ss;
        }
        wr[j] = (float)c;
        wi[j] = (float)-s;
    }
    for (int i = 0; i < SIZE; i++) {
        re[i] = bench_f32();
        im[i] = bench_f32();
    }
    fft_f32(re, im, wr, wi, SIZE);
    printf("fft size %d: re 0x%08x im 0x%08x, X[1] = %.6g %+.6gi\n", SIZE, (unsigned)bench_hash(re, SIZE),
           (unsigned)bench_hash(im, SIZE), (double)re[1], (double)im[1]);
    return 0;
}

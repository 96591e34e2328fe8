// fft_complex: radix-2 FFT on a struct-based complex type (structs by value), inverse FFT and Parseval's check.
#include <math.h>
#include <stdio.h>

#define PI 3.14159265358979323846
typedef struct {
    double re, im;
} cplx;

static cplx cadd(cplx a, cplx b) { return (cplx){a.re + b.re, a.im + b.im}; }
static cplx csub(cplx a, cplx b) { return (cplx){a.re - b.re, a.im - b.im}; }
static cplx cmul(cplx a, cplx b) { return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static double cabs2(cplx a) { return a.re * a.re + a.im * a.im; }

static void fft(cplx *x, int n, int inverse) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            cplx t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = 2 * PI / len * (inverse ? 1 : -1);
        cplx wl = {cos(ang), sin(ang)};
        for (int i = 0; i < n; i += len) {
            cplx w = {1, 0};
            for (int k = 0; k < len / 2; k++) {
                cplx u = x[i + k], v = cmul(x[i + k + len / 2], w);
                x[i + k] = cadd(u, v);
                x[i + k + len / 2] = csub(u, v);
                w = cmul(w, wl);
            }
        }
    }
    if (inverse)
        for (int i = 0; i < n; i++) {
            x[i].re /= n;
            x[i].im /= n;
        }
}

int main(void) {
    enum { N = 64 };
    cplx x[N], orig[N];
    for (int i = 0; i < N; i++) {
        x[i].re = sin(2 * PI * 3 * i / N) + 0.5 * cos(2 * PI * 10 * i / N) + (i % 8 == 0 ? 0.25 : 0.0);
        x[i].im = 0;
        orig[i] = x[i];
    }
    double energy_t = 0;
    for (int i = 0; i < N; i++)
        energy_t += cabs2(x[i]);
    fft(x, N, 0);
    double energy_f = 0;
    for (int i = 0; i < N; i++)
        energy_f += cabs2(x[i]);
    printf("parseval: %.6f %.6f\n", energy_t, energy_f / N);
    for (int k = 0; k < N / 2; k++) {
        double mag = sqrt(cabs2(x[k]));
        if (mag > 1e-6)
            printf("bin %2d magnitude %.5f\n", k, mag);
    }
    fft(x, N, 1);
    double err = 0;
    for (int i = 0; i < N; i++)
        err += cabs2(csub(x[i], orig[i]));
    printf("round trip error small: %d\n", err < 1e-20);
    /* Convolution via FFT of two short integer sequences equals the direct convolution. */
    cplx p[16] = {{0, 0}}, q[16] = {{0, 0}};
    int pa[] = {1, 2, 3, 4}, qa[] = {5, -1, 2};
    for (int i = 0; i < 4; i++)
        p[i].re = pa[i];
    for (int i = 0; i < 3; i++)
        q[i].re = qa[i];
    fft(p, 16, 0);
    fft(q, 16, 0);
    for (int i = 0; i < 16; i++)
        p[i] = cmul(p[i], q[i]);
    fft(p, 16, 1);
    printf("conv:");
    for (int i = 0; i < 6; i++) {
        int direct = 0;
        for (int j = 0; j < 4; j++)
            if (i - j >= 0 && i - j < 3)
                direct += pa[j] * qa[i - j];
        printf(" %d/%d", (int)floor(p[i].re + 0.5), direct);
    }
    printf("\n");
    return 0;
}

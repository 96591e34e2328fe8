// vec_stencil: FIR filters, 1D/2D convolution stencils and small matrix products over float and int arrays.
#include <stdio.h>

#define N 200
#define TAPS 7
float sig[N + TAPS], out[N];
float taps[TAPS] = {0.05f, -0.1f, 0.2f, 0.7f, 0.2f, -0.1f, 0.05f};
int isig[N + TAPS], iout[N];
int itaps[TAPS] = {1, -3, 7, 20, 7, -3, 1};
float img[20][23], img2[20][23];
float ma[9][11], mb[11][7], mc[9][7];

static void fir(float *restrict o, const float *restrict x, const float *restrict h, int n) {
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int t = 0; t < TAPS; t++)
            acc += h[t] * x[i + t];
        o[i] = acc;
    }
}
static void fir_int(int *restrict o, const int *restrict x, const int *restrict h, int n) {
    for (int i = 0; i < n; i++) {
        int acc = 0;
        for (int t = 0; t < TAPS; t++)
            acc += h[t] * x[i + t];
        o[i] = acc >> 5;
    }
}
static void blur(void) {
    for (int i = 1; i < 19; i++)
        for (int j = 1; j < 22; j++)
            img2[i][j] = 0.25f * img[i][j] + 0.125f * (img[i - 1][j] + img[i + 1][j] + img[i][j - 1] + img[i][j + 1]) +
                         0.0625f * (img[i - 1][j - 1] + img[i + 1][j + 1] + img[i - 1][j + 1] + img[i + 1][j - 1]);
}
static void matmul(void) {
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 7; j++)
            mc[i][j] = 0.0f;
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 11; k++) {
            float s = ma[i][k];
            for (int j = 0; j < 7; j++)
                mc[i][j] += s * mb[k][j];
        }
}

int main(void) {
    for (int i = 0; i < N + TAPS; i++) {
        sig[i] = (float)((i * 29) % 64 - 32) / 16.0f;
        isig[i] = (i * 29) % 64 - 32;
    }
    fir(out, sig, taps, N);
    fir_int(iout, isig, itaps, N);
    double s = 0;
    long is = 0;
    for (int i = 0; i < N; i++) {
        s = s * 0.9 + out[i];
        is = is * 3 % 1000003 + iout[i];
    }
    printf("fir digest %.9g int %ld samples %.9g %.9g %d %d\n", s, is, (double)out[0], (double)out[N - 1], iout[0],
           iout[N - 1]);
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 23; j++) {
            img[i][j] = (float)((i * 7 + j * 3) % 17);
            img2[i][j] = 0.0f;
        }
    blur();
    double bs = 0;
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 23; j++)
            bs += img2[i][j] * (i + 1);
    printf("blur sum %.9g center %.9g\n", bs, (double)img2[10][11]);
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 11; k++)
            ma[i][k] = (float)(i - k) * 0.5f;
    for (int k = 0; k < 11; k++)
        for (int j = 0; j < 7; j++)
            mb[k][j] = (float)((k + 2 * j) % 5) - 1.5f;
    matmul();
    for (int i = 0; i < 9; i += 4)
        printf("mc[%d]: %g %g %g %g %g %g %g\n", i, (double)mc[i][0], (double)mc[i][1], (double)mc[i][2],
               (double)mc[i][3], (double)mc[i][4], (double)mc[i][5], (double)mc[i][6]);
    /* Moving average with a running sum (loop-carried, scalar). */
    float win = 0.0f;
    for (int i = 0; i < 8; i++)
        win += sig[i];
    float last = 0.0f;
    for (int i = 8; i < N; i++) {
        win += sig[i] - sig[i - 8];
        last = win / 8.0f;
    }
    printf("moving average %.9g\n", (double)last);
    return 0;
}

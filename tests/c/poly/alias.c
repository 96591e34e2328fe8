// alias: kernels on pointer arguments that may be the same memory: dsp-pluto's code behind a run-time check of the accessed ranges, the original code when they overlap.
// dsp-cflags: -fpolyhedral --tile-sizes=4,4
#include <stdio.h>

static float X[40][64], Y[40][64];

__attribute__((noinline)) void smooth(int n, float (*dst)[64], float (*src)[64]) {
    for (int i = 1; i < n; i++)
        for (int j = 0; j < n; j++)
            dst[i][j] = src[i - 1][j] + 0.5f * src[i][j];
}

__attribute__((noinline)) void transpose(int n, float (*a)[64], float (*b)[64]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = b[j][i] * 2.0f - a[i][j];
}

int main(void) {
    for (int r = 0; r < 6; r++) {
        for (int i = 0; i < 40; i++)
            for (int j = 0; j < 64; j++) {
                X[i][j] = (float)((i + j) % 13);
                Y[i][j] = (float)((i * j) % 7);
            }
        int n = 5 + 7 * (r % 3);
        if (r == 0) smooth(n, X, Y);
        if (r == 1) smooth(n, X, X);
        if (r == 2) transpose(n, X, Y);
        if (r == 3) transpose(n, X, X + 3);
        if (r == 4) smooth(n, Y + 1, Y);
        if (r == 5) transpose(n, Y, Y);
        double s = 0;
        for (int i = 0; i < 40; i++)
            for (int j = 0; j < 64; j++)
                s = s * 0.999 + X[i][j] + 3 * Y[i][j];
        printf("%d %.6f\n", r, s);
    }
    return 0;
}

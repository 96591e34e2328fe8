// jacobi1d: the 1-d Jacobi stencil, skewed and tiled by dsp-pluto (time and space), odd sizes.
// dsp-cflags: -fpolyhedral --tile-sizes=4,4
#include <stdio.h>

#define T 6
#define N 23

static float A[N], B[N];

__attribute__((noinline)) void kernel(void) {
    for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
        for (int j = 1; j < N - 1; j++)
            A[j] = B[j];
    }
}

int main(void) {
    for (int i = 0; i < N; i++) {
        A[i] = (float)((i * 7) % 11) + 0.5f;
        B[i] = 0.0f;
    }
    kernel();
    for (int i = 0; i < N; i++)
        printf("%.6f %.6f\n", A[i], B[i]);
    return 0;
}

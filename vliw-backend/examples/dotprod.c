/* dotprod.c: the demo's C kernel: integer and float dot products of 256
 * elements, compiled by dspcc and run on dsp-sim. LLVM's loop vectorizer
 * turns the integer loop into 16-lane (on ftm) vector code; the float sum
 * stays in source order (IEEE semantics), so it runs on the scalar unit. */
#include <stdio.h>

#define N 256

static int a[N], b[N];
static float x[N], y[N];

__attribute__((noinline)) int dot_i32(const int *p, const int *q, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i] * q[i];
    return s;
}

__attribute__((noinline)) float dot_f32(const float *p, const float *q, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += p[i] * q[i];
    return s;
}

int main(void) {
    for (int i = 0; i < N; i++) {
        a[i] = i + 1;
        b[i] = 3 * i - 100;
        x[i] = 0.5f * (float)i;
        y[i] = 1.0f / (float)(i + 1);
    }
    int si = dot_i32(a, b, N);
    float sf = dot_f32(x, y, N);
    printf("int dot = %d\nfloat dot = %.6f\n", si, sf);
    return si == 13487360 ? 0 : 1;
}

// vec_directives: seed 001's function-level vectorization directives (#pragma simd [declare] vec-function with uniform/linear/alignment/mask/nomask, OpenMP declare simd and simd loops) on divergent code, masked recursion and calls under conditions; the output must not depend on them.
#include <stdio.h>

// The host compilers know neither spelling without -fopenmp: the pragmas
// are for dspcc; here they must be harmless.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#define N 37

float re_in[N], im_in[N];
int ints[N];
float table[N] __attribute__((aligned(64)));

// Seed 001 §3.1's mandel: divergent iteration counts per instance.
#pragma simd declare vec-function uniform(max_iter) nomask
unsigned mandel(float cre, float cim, unsigned max_iter);

unsigned mandel(float cre, float cim, unsigned max_iter) {
    float zr = 0.0f, zi = 0.0f;
    unsigned i = 0;
    while (i < max_iter && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cre;
        zi = 2.0f * zr * zi + cim;
        zr = t;
        i++;
    }
    return i;
}

// Linear index, aligned uniform pointer, an early return.
#pragma simd declare vec-function linear(k) uniform(base) alignment(base:64)
float lookup(const float *base, int k, float scale) {
    if (k % 5 == 0)
        return -1.0f;
    return base[k] * scale + (float)k;
}

// Recursion that ends under a condition: only the masked variant makes sense.
#pragma simd declare vec-function mask
int collatz_steps(int v, int depth) {
    if (v <= 1 || depth > 200)
        return depth;
    return collatz_steps((v & 1) ? 3 * v + 1 : v / 2, depth + 1);
}

// The OpenMP spellings, two variants of one function.
#pragma omp declare simd uniform(lo, hi) notinbranch simdlen(16)
#pragma omp declare simd uniform(lo, hi) inbranch
int clampi(int x, int lo, int hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

// A pointer that advances one element per instance.
#pragma omp declare simd linear(p:1) uniform(bias)
int load_plus(const int *p, int bias) {
    return *p + bias;
}

int main(void) {
    unsigned counts[N];
    float looked[N];
    int steps[N], clamped[N], loaded[N];
    for (int i = 0; i < N; i++) {
        re_in[i] = -2.0f + 0.075f * (float)i;
        im_in[i] = -0.6f + 0.031f * (float)(i % 11);
        ints[i] = (i * 37) % 101 - 40;
        table[i] = 0.5f * (float)i;
    }

#pragma simd vec-function
    for (int i = 0; i < N; i++)
        counts[i] = mandel(re_in[i], im_in[i], 64);

#pragma simd vec-function
    for (int k = 0; k < N; k++)
        looked[k] = lookup(table, k, 3.0f);

    int i = 0;
#pragma simd vec-function
    while (i < N) {
        // A call under a condition: the masked variant.
        steps[i] = (ints[i] > 0) ? collatz_steps(ints[i], 0) : -1;
        i++;
    }

#pragma omp simd
    for (int j = 0; j < N; j++)
        clamped[j] = clampi(ints[j], -10, 30);

#pragma omp simd
    for (int j = 0; j < N; j++)
        loaded[j] = load_plus(&ints[j], 7);

    unsigned h = 0;
    for (int j = 0; j < N; j++) {
        printf("%2d: %2u %8.3f %3d %3d %3d\n", j, counts[j], (double)looked[j], steps[j], clamped[j], loaded[j]);
        h = h * 31u + counts[j] + (unsigned)steps[j] + (unsigned)clamped[j];
    }
    printf("hash %u\n", h);
    return 0;
}

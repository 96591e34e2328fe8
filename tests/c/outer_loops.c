// outer_loops: loop nests whose outer loop is vectorized whole (dsp-outer-vec), and nests it must refuse.
/* The outer loop of each nest runs 16 iterations side by side on ftm (its
   inner loops in source order per lane), so strict float sums stay exact.
   Trip counts below, at and around the lane count exercise the scalar
   remainder. The refused nests (aliasing pointers, a triangular inner
   loop, a column walk that writes what the next column reads, in-place
   updates) must still compute what the host computes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define M 37

float fa[M * M], fb[M * M], fc[M * M];
int32_t ia[M * M], ib[M * M], ic[M * M];
float colsum[M];
int32_t icol[M];
volatile int sizes[] = {0, 1, 3, 15, 16, 17, 33, 37};

static uint32_t seed = 12345u;
static uint32_t lcg(void) {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint32_t fhash(const float *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ fbits(p[i])) * 16777619u;
    return h;
}

static uint32_t ihash(const int32_t *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)p[i]) * 16777619u;
    return h;
}

/* The textbook i-j-k product: a strict float sum per element. */
__attribute__((noinline)) void matmul(const float *restrict x, const float *restrict y, float *restrict z, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s = s + x[i * n + k] * y[k * n + j];
            z[i * n + j] = s;
        }
}

/* The sum kept in memory: loads and stores of z[j] inside the inner loop. */
__attribute__((noinline)) void matvec_mem(const float *restrict y, const float *restrict x, float *restrict z, int n) {
    for (int j = 0; j < n; j++) {
        z[j] = 0.0f;
        for (int k = 0; k < n; k++)
            z[j] = z[j] + x[k] * y[k * n + j];
    }
}

/* Column sums of a global matrix into a global vector. */
__attribute__((noinline)) void column_sums(int n) {
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += fa[i * M + j];
        colsum[j] = s;
    }
}

/* Integer: a uniform branch in the inner loop, a conditional store per lane. */
__attribute__((noinline)) void int_nest(const int32_t *restrict x, int32_t *restrict out, int n) {
    for (int j = 0; j < n; j++) {
        uint32_t s = (uint32_t)j;
        for (int k = 0; k < n; k++) {
            if (k & 1)
                s = s * 3u + (uint32_t)x[k * M + j];
            else
                s = s ^ (uint32_t)(x[k * M + j] >> 2);
        }
        if (s & 4)
            out[j] = (int32_t)(s & 0x7fffffffu);
        else
            out[j] = -(int32_t)(s & 0xffffu);
    }
}

/* An FIR over a float signal: the outer loop over outputs. */
__attribute__((noinline)) void fir(const float *restrict x, const float *restrict h, float *restrict y, int n, int taps) {
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int t = 0; t < taps; t++)
            s = s + h[t] * x[i + t];
        y[i] = s;
    }
}

/* Refused: z may alias x and y (no restrict). */
__attribute__((noinline)) void matmul_alias(const float *x, const float *y, float *z, int n) {
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s = s + x[k] * y[k * n + j];
        z[j] = s;
    }
}

/* Refused: a triangular inner loop (its bound differs per lane). */
__attribute__((noinline)) void triangle(const float *restrict x, float *restrict out, int n) {
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int k = 0; k <= j; k++)
            s += x[k * M + j];
        out[j] = s;
    }
}

/* Refused: a column prefix written in place (the inner loop's writes move
   with its counter; independent columns, but not provably so here). */
__attribute__((noinline)) void col_chain(int32_t *restrict a, int n) {
    for (int j = 0; j < n; j++)
        for (int i = 1; i < n; i++)
            a[i * M + j] += a[(i - 1) * M + j] >> 1;
}

int main(void) {
    for (int i = 0; i < M * M; i++) {
        fa[i] = (float)((int)(lcg() % 2001u) - 1000) / 64.0f;
        fb[i] = (float)((int)(lcg() % 1001u) - 500) / 128.0f;
        ia[i] = (int32_t)(lcg() % 20001u) - 10000;
    }
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        memset(fc, 0, sizeof fc);
        matmul(fa, fb, fc, n);
        printf("matmul %2d: %08x\n", n, (unsigned)fhash(fc, n * n));
        memset(fc, 0, sizeof fc);
        matvec_mem(fb, fa, fc, n);
        printf("matvec_mem %2d: %08x\n", n, (unsigned)fhash(fc, n));
        column_sums(n);
        printf("column_sums %2d: %08x\n", n, (unsigned)fhash(colsum, n));
        memset(ic, 0, sizeof ic);
        int_nest(ia, ic, n);
        printf("int_nest %2d: %08x\n", n, (unsigned)ihash(ic, n));
        memset(fc, 0, sizeof fc);
        fir(fa, fb, fc, n, n / 2 + 1);
        printf("fir %2d: %08x\n", n, (unsigned)fhash(fc, n));
        memcpy(fc, fa, sizeof fc);
        matmul_alias(fb, fc, fc + 3, n);
        printf("matmul_alias %2d: %08x\n", n, (unsigned)fhash(fc, n + 3));
        memset(fc, 0, sizeof fc);
        triangle(fa, fc, n);
        printf("triangle %2d: %08x\n", n, (unsigned)fhash(fc, n));
        memcpy(ib, ia, sizeof ib);
        col_chain(ib, n);
        printf("col_chain %2d: %08x\n", n, (unsigned)ihash(ib, M * M));
    }
    printf("colsum[5] %.9g\n", (double)colsum[5]);
    return 0;
}

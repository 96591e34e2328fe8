// loop_2d: 2-D loop nests whose innermost loop is the pipelining candidate (matrix multiply in ijk and ikj order, triangular loops, 1-D and 2-D stencils, FIR filter, column walks) at sizes 0..25 and long inner loops of ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXE 4096

uint32_t seed = 0x9e3779b9u;
int big_trip = 1000;

int32_t ia[MAXE], ib[MAXE], ic[MAXE];
float fa[MAXE], fb[MAXE], fc[MAXE];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 11;
}
static uint32_t hash_i(const int32_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)x[i]) * 0x01000193u;
    return h;
}
static uint32_t hash_f(const float *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)(int32_t)(x[i] * 4096.0f)) * 0x01000193u;
    return h;
}

/* C[m x p] = A[m x k] * B[k x p], innermost loop over k (a reduction). */
NOINLINE void mm_ijk(int32_t *c, const int32_t *a, const int32_t *b, int m, int k, int p) {
    for (int i = 0; i < m; i++)
        for (int j = 0; j < p; j++) {
            int32_t s = 0;
            for (int t = 0; t < k; t++)
                s += a[i * k + t] * b[t * p + j];
            c[i * p + j] = s;
        }
}
/* Float, innermost loop over j (a row update, vectorizable). */
NOINLINE void mm_ikj(float *c, const float *a, const float *b, int m, int k, int p) {
    for (int i = 0; i < m * p; i++)
        c[i] = 0.0f;
    for (int i = 0; i < m; i++)
        for (int t = 0; t < k; t++) {
            float av = a[i * k + t];
            for (int j = 0; j < p; j++)
                c[i * p + j] += av * b[t * p + j];
        }
}
/* Triangular: the inner trip count runs through 0..n-1. */
NOINLINE int32_t lower_tri_sum(const int32_t *a, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            s += a[i * n + j] ^ j;
    return s;
}
/* 2-D 5-point stencil on an r x c grid (interior only). */
NOINLINE void stencil5(float *out, const float *in, int r, int c) {
    for (int i = 1; i + 1 < r; i++)
        for (int j = 1; j + 1 < c; j++)
            out[i * c + j] = 0.5f * in[i * c + j] +
                             0.125f * (in[(i - 1) * c + j] + in[(i + 1) * c + j] + in[i * c + j - 1] + in[i * c + j + 1]);
}
/* In-place 1-D smoothing, repeated: each sweep reads the values it just wrote. */
NOINLINE void smooth_inplace(int32_t *a, int n, int sweeps) {
    for (int s = 0; s < sweeps; s++)
        for (int i = 1; i + 1 < n; i++)
            a[i] = (a[i - 1] + 2 * a[i] + a[i + 1]) / 4;
}
/* FIR: y[i] = sum_t h[t] * x[i + t], inner loop over the taps. */
NOINLINE void fir(float *y, const float *x, const float *h, int n, int taps) {
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int t = 0; t < taps; t++)
            s += h[t] * x[i + t];
        y[i] = s;
    }
}
/* Column walk: the inner loop strides by the row length. */
NOINLINE void col_prefix(int32_t *a, int rows, int cols) {
    for (int j = 0; j < cols; j++)
        for (int i = 1; i < rows; i++)
            a[i * cols + j] += a[(i - 1) * cols + j] & 0xfff;
}

static void init(int count) {
    for (int i = 0; i < count; i++) {
        ia[i] = (int32_t)(lcg() % 2001u) - 1000;
        ib[i] = (int32_t)(lcg() % 201u) - 100;
        fa[i] = (float)((int)(lcg() % 257u) - 128) * 0.0625f;
        fb[i] = (float)((int)(lcg() % 129u) - 64) * 0.03125f;
        ic[i] = -1;
        fc[i] = -1.0f;
    }
}

static void square(int n) {
    init(n * (n + 3) + 8);
    mm_ijk(ic, ia, ib, n, n, n);
    mm_ikj(fc, fa, fb, n, n, n);
    printf("n=%4d mm %08x %08x tri %d", n, hash_i(ic, n * n + 2), hash_f(fc, n * n + 2), (int)lower_tri_sum(ia, n));
    stencil5(fc, fa, n, n + 3);
    smooth_inplace(ia, n, 3);
    fir(fb, fa, fb + n, n, n);
    printf(" st %08x %08x %08x", hash_f(fc, n * (n + 3)), hash_i(ia, n + 1), hash_f(fb, n + 1));
    col_prefix(ib, n, n + 1);
    printf(" %08x\n", hash_i(ib, n * (n + 1)));
}

static void long_inner(int k) {
    init(4 * k + 8);
    mm_ijk(ic, ia, ib, 2, k, 3);
    mm_ikj(fc, fa, fb, 2, 3, k);
    printf("k=%4d mm %08x %08x", k, hash_i(ic, 8), hash_f(fc, 2 * k));
    stencil5(fc, fa, 3, k);
    smooth_inplace(ia, k, 2);
    fir(fb + k, fa, fb, k, 7);
    col_prefix(ib, k, 3);
    printf(" st %08x %08x %08x %08x\n", hash_f(fc, 3 * k), hash_i(ia, k), hash_f(fb + k, k), hash_i(ib, 3 * k));
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        square(n);
    long_inner(big_trip - 1);
    long_inner(big_trip);
    return 0;
}

// egg_loops: loops dsp-egg-isel vectorizes (seed 004's equality
// saturation over the .isa's rules and costs): strict float sums kept in
// source order (an in-order lane reduction starting from the running sum),
// a float dot product whose result leaves the loop, and loops of every
// trip count around the lane count (the original loop runs what remains),
// integer sums in interleaved accumulators (trip counts around 4 lanes),
// loads at a run-time stride, zero and negative included, and bit
// operations (and, or, xor, shifts by uniform and per-element amounts),
// reversed accesses (x[m - k]) and columns of row-major matrices (a
// constant stride: strided loads, element-by-element stores, overlapping
// columns of one matrix checked at run time).
// The output must be the host's, bit for bit.
// dsp-cflags: -fegg-isel
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 300
static float xs[N], ys[N];
static int32_t is[N];
static uint32_t st = 4242;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

__attribute__((noinline)) float sum_f(const float *restrict x, int n) {
    float s = 0.5f;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

__attribute__((noinline)) float dot_f(const float *restrict x, const float *restrict y, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

__attribute__((noinline)) float sumsq_shift(const float *restrict x, int k, int n) {
    float s = -0.0f;
    for (int i = k; i < n; i++)
        s += x[i] * x[i - k] - 0.25f;
    return s;
}

__attribute__((noinline)) int32_t dot_i(const int32_t *restrict x, int k, int n) {
    int32_t s = 7;
    for (int i = k; i < n; i++)
        s += x[i] * x[i - k];
    return s;
}

/* Loads at a run-time stride (an FFT's twiddle factors w[j * step]). */
static float ws[3 * N + 2];
__attribute__((noinline)) void twiddle(float *restrict out, const float *restrict x, const float *restrict w, int s, int n) {
    for (int i = 0; i < n; i++)
        out[i] = x[i] * w[i * s] - w[i * s + 1];
}

/* Bit operations: and, or, xor, shifts by a uniform amount (signed and
 * unsigned) and by per-element amounts. */
static uint32_t us[N], ub[N], uo[N];
__attribute__((noinline)) void bits_ops(uint32_t *restrict out, const uint32_t *restrict x, const uint32_t *restrict y, int k, int n) {
    for (int i = 0; i < n; i++)
        out[i] = ((x[i] ^ y[i]) & 0x0ff0ff0fu) | (x[i] << k) | (y[i] >> (k + 1));
}
__attribute__((noinline)) int32_t signed_shifts(const int32_t *restrict x, const uint32_t *restrict amt, int k, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += (x[i] >> k) ^ (x[i] << (amt[i] & 31));
    return s;
}

/* Two integer sums in one loop: each kept in interleaved vector accumulators. */
__attribute__((noinline)) int32_t two_sums(const int32_t *restrict x, int n, int32_t *restrict other) {
    int32_t s = 0, t = -3;
    for (int i = 0; i < n; i++) {
        s += x[i] * 3;
        t += x[i] - 11;
    }
    *other = t;
    return s;
}

/* Reversed accesses: one vector load of the window and the machine's
 * shuffle, for an integer sum and a strict float sum (in source order). */
__attribute__((noinline)) int32_t dot_rev_i(const int32_t *restrict x, const int32_t *restrict h, int m, int n) {
    int32_t s = 7;
    for (int k = 0; k < n; k++)
        s += h[k] * x[m - k];
    return s;
}
__attribute__((noinline)) float dot_rev_f(const float *restrict x, const float *restrict h, int m, int n) {
    float s = 0.5f;
    for (int k = 0; k < n; k++)
        s = s + h[k] * x[m - k];
    return s;
}

/* Columns: elements C apart (a constant stride), loaded, stored, and two
 * columns of one matrix (a run-time check that a step's elements differ). */
#define C 7
static int32_t mat[(N + 1) * C], revd[N];
__attribute__((noinline)) int32_t col_sum(const int32_t *restrict m, const int32_t *restrict w, int j, int n) {
    int32_t s = 1;
    for (int k = 0; k < n; k++)
        s += (m[k * C + j] & 0xfff) * (w[k] & 0xff);
    return s;
}
__attribute__((noinline)) void col_update(int32_t *restrict m, const int32_t *restrict v, int j, int d, int n) {
    for (int k = 0; k < n; k++)
        m[k * C + j] = (((m[k * C + j + d] & 0xffff) * 3 - (v[k] >> 8)) * ((m[k * C + j + d] & 0xff) + 7) ^ (v[k] & 0x55)) >> 3;
}
/* Rows of W floats (fdtd-2d's shape): the j loop unrolled, the i loop vectorized
 * with columns W apart (strided loads, element-by-element stores). */
#define W 24
static float gx[N][W], gy[N][W];
__attribute__((noinline)) void rows_update(int n) {
    for (int i = 1; i < n; i++)
        for (int j = 0; j < W; j++)
            gy[i][j] = gy[i][j] - 0.5f * (gx[i][j] - gx[i - 1][j]);
}
__attribute__((noinline)) void rev_store(int32_t *restrict y, const int32_t *restrict x, int n) {
    for (int i = 0; i < n; i++)
        y[n - 1 - i] = (x[i] >> 4) * 5 + 1;
}

int main(void) {
    for (int i = 0; i < N; i++) {
        xs[i] = (float)(rnd() % 20001) / 1000.0f - 10.0f;
        ys[i] = (float)(rnd() % 2001) / 100.0f - 10.0f;
        is[i] = (int32_t)rnd() - (1 << 23);
    }
    static const int ns[] = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 68, 69, 70, 84, 85, 100, 133, 149, 255, 256, N};
    for (unsigned t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int n = ns[t];
        float a = sum_f(xs, n), b = dot_f(xs, ys, n), c = sumsq_shift(xs, 3, n);
        int32_t d = dot_i(is, 5, n), t2, s2 = two_sums(is, n, &t2);
        printf("n=%3d sum %08x dot %08x shift %08x int %d sums %d %d (%.6g %.6g %.6g)\n", n, (unsigned)bits(a), (unsigned)bits(b),
               (unsigned)bits(c), (int)d, (int)s2, (int)t2, (double)a, (double)b, (double)c);
    }
    for (int i = 0; i < N; i++) {
        us[i] = rnd() * 2654435761u;
        uint32_t hi = rnd() << 16;
        ub[i] = rnd() ^ hi;
    }
    for (int k = 0; k < 31; k += 5) {
        for (int n = 0; n <= N; n += 37) {
            bits_ops(uo, us, ub, k, n);
            int32_t t = signed_shifts(is, ub, k, n);
            uint32_t h = 2166136261u;
            for (int i = 0; i < N; i++) h = (h ^ uo[i]) * 16777619u;
            printf("bits k=%d n=%d: %08x %d\n", k, n, (unsigned)h, (int)t);
        }
    }
    for (int n = 0; n <= N; n += 13) {
        int32_t r = dot_rev_i(is, is + 1, N - 1, n);
        float f = dot_rev_f(xs, ys, n > 0 ? n - 1 : 0, n);
        printf("reversed n=%d: %d %08x\n", n, (int)r, (unsigned)bits(f));
    }
    for (int i = 0; i < (N + 1) * C; i++)
        mat[i] = (int32_t)(rnd() % 1000) - 500;
    for (int n = 0; n <= N; n += 23) {
        int32_t a = col_sum(mat, is, n % C, n);
        static const int ds[] = {0, 1, -1, C, -C, 2};
        for (unsigned t = 0; t < sizeof ds / sizeof ds[0]; t++) {
            int j = 1 + (n + (int)t) % (C - 2);
            col_update(mat + C, is, j, ds[t], n);
        }
        rev_store(revd, is, n);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < W; j++) {
                gx[i][j] = xs[(i * W + j) % N];
                gy[i][j] = ys[(i + j) % N];
            }
        rows_update(n);
        uint32_t h = 2166136261u;
        for (int i = 0; i < (N + 1) * C; i++) h = (h ^ (uint32_t)mat[i]) * 16777619u;
        for (int i = 0; i < N; i++) h = (h ^ (uint32_t)revd[i]) * 16777619u;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < W; j++) h = (h ^ bits(gy[i][j])) * 16777619u;
        printf("columns n=%d: %d %08x\n", n, (int)a, (unsigned)h);
    }
    for (int i = 0; i < 3 * N + 2; i++)
        ws[i] = (float)(rnd() % 2001) / 100.0f - 10.0f;
    static const int strides[] = {0, 1, 2, 3, -1, -2};
    for (unsigned t = 0; t < sizeof strides / sizeof strides[0]; t++) {
        int s = strides[t];
        const float *w = s < 0 ? ws + 3 * N : ws;
        for (int n = 0; n <= N / 4; n += 17) {
            twiddle(ys, xs, w, s, n);
            uint32_t h = 2166136261u;
            for (int i = 0; i < N; i++) h = (h ^ bits(ys[i])) * 16777619u;
            printf("twiddle s=%d n=%d: %08x\n", s, n, (unsigned)h);
        }
    }
    return 0;
}

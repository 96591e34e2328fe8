// wfv_restructure: instance restructuring (seed 001 §2.2.3). Each
// vec-function loop calls a function that branches at its entry on a
// varying condition with two heavy sides: dspcc regroups the instances of
// four vector calls by the condition (blocks of 4 x lanes iterations), runs
// the loop over the permutation (gathers and scatters put the results in
// place) and the iterations after the last full block as before. Trip
// counts below one block, of exactly one block, and with remainders; an
// integer and a float callee, a uniform and a linear argument; callees and
// loops that must not be regrouped (a callee that writes memory, a loop
// whose store is not indexed by the counter) still give the scalar result.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdint.h>
#include <stdio.h>

#define N 700
static float xs[N], ys[N];
static int32_t is[N], js[N];
static uint32_t st = 77;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }

#pragma simd declare vec-function uniform(k)
__attribute__((noinline)) float shade(float x, int k) {
    float r;
    if (x > 0.5f) {
        r = x;
        for (int j = 0; j < k; j++)
            r = r * 0.75f + (r + (float)j) * 0.125f;
    } else {
        r = 1.0f - x;
        for (int j = 0; j < k; j++)
            r = r * r * 0.5f - r + 3.0f;
    }
    return r;
}

#pragma simd declare vec-function linear(i) uniform(m)
__attribute__((noinline)) int32_t mix(int32_t v, int i, int32_t m) {
    int32_t r = v;
    if ((v ^ i) & 4) {
        for (int j = 0; j < 6; j++)
            r = r * 1103515245 + (r >> 7) + i * j;
    } else {
        for (int j = 0; j < 6; j++)
            r = (r ^ (r << 5)) - m + (r >> 3) * j;
    }
    return r;
}

static int32_t marks[N];
#pragma simd declare vec-function uniform(k) linear(i)
__attribute__((noinline)) float counted(float x, int k, int i) {
    float r = x;
    if (x > 0.25f) {
        marks[i] += 1; /* writes memory: not regrouped */
        for (int j = 0; j < k; j++)
            r = r * 0.5f + 1.0f;
    } else {
        for (int j = 0; j < k; j++)
            r = r * r - 0.25f;
    }
    return r;
}

__attribute__((noinline)) static void run_shade(int n, int k) {
#pragma simd vec-function
    for (int i = 0; i < n; i++)
        ys[i] = shade(xs[i], k);
}

__attribute__((noinline)) static void run_mix(int n, int32_t m) {
#pragma omp simd
    for (int i = 0; i < n; i++)
        js[i] = mix(is[i], i, m);
}

__attribute__((noinline)) static void run_counted(int n, int k) {
#pragma simd vec-function
    for (int i = 0; i < n; i++)
        ys[i] = counted(xs[i], k, i);
}

static float last;
__attribute__((noinline)) static void run_reduce(int n, int k) {
    /* the store is not indexed by the counter: the last instance must win */
#pragma simd vec-function
    for (int i = 0; i < n; i++)
        last = shade(xs[i], k);
}

static uint32_t hashf(const float *v, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        union { float f; uint32_t u; } c = {v[i]};
        h = (h ^ c.u) * 16777619u;
    }
    return h;
}

static uint32_t hashi(const int32_t *v, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)v[i]) * 16777619u;
    return h;
}

int main(void) {
    for (int i = 0; i < N; i++) {
        xs[i] = (float)(rnd() & 0xffff) / 65536.0f;
        is[i] = (int32_t)rnd();
    }
    static const int ns[] = {0, 1, 10, 63, 64, 65, 128, 200, 513, N};
    for (unsigned t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int n = ns[t];
        for (int i = 0; i < N; i++)
            ys[i] = -1.0f, js[i] = -1;
        run_shade(n, 5);
        uint32_t a = hashf(ys, N);
        run_mix(n, 12345);
        uint32_t b = hashi(js, N);
        run_counted(n, 3);
        uint32_t c = hashf(ys, N) ^ hashi(marks, N);
        run_reduce(n, 4);
        printf("n=%3d shade %08x mix %08x counted %08x last %.6g\n", n, (unsigned)a, (unsigned)b, (unsigned)c, (double)last);
    }
    printf("shade(0.75) = %.6g, shade(0.25) = %.6g, mix(7, 3) = %d\n", (double)shade(0.75f, 5), (double)shade(0.25f, 5), (int)mix(7, 3, 12345));
    return 0;
}

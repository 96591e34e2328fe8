// egg_overlap: loops dsp-egg-isel vectorizes behind a runtime check, and
// the check's both sides. Pointers that are not restrict (a copy with an
// offset, forward and backward, in place) and one array read and written
// at an unknown distance (an FFT butterfly: x[i] and x[i + d]) run as
// vectors only when a step's byte ranges do not meet, else in the original
// loop; either way the output must be the host's, bit for bit.
// dsp-cflags: -fegg-isel
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 400
static int32_t a[N];
static float f[N];
static uint32_t st = 99;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }
static uint32_t bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }

static void reset(void) {
    st = 99;
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)(rnd() % 2001) - 1000;
        f[i] = (float)(rnd() % 20001) / 1000.0f - 10.0f;
    }
}

static uint32_t hash_a(void) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++) h = (h ^ (uint32_t)a[i]) * 16777619u;
    return h;
}

static uint32_t hash_f(void) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++) h = (h ^ bits(f[i])) * 16777619u;
    return h;
}

/* Not restrict: dst may overlap src. */
__attribute__((noinline)) void scale_add(int32_t *dst, const int32_t *src, int32_t k, int n) {
    for (int i = 0; i < n; i++)
        dst[i] = src[i] * k + 3;
}

/* x[i], x[i + d] -> sum, difference (restrict x, d unknown). */
__attribute__((noinline)) void butterfly(float *restrict x, int d, int n) {
    for (int i = 0; i < n; i++) {
        float p = x[i], q = x[i + d];
        x[i] = p + q;
        x[i + d] = p - q;
    }
}

int main(void) {
    static const int offs[] = {-40, -17, -16, -15, -3, -1, 0, 1, 2, 15, 16, 17, 33, 100};
    for (unsigned t = 0; t < sizeof offs / sizeof offs[0]; t++) {
        int o = offs[t];
        reset();
        int base = 150;
        scale_add(a + base + o, a + base, 3, 200);
        printf("scale_add offset %4d: %08x\n", o, (unsigned)hash_a());
    }
    static const int ds[] = {1, 2, 8, 15, 16, 17, 32, 64, -1, -16, -17, -64};
    for (unsigned t = 0; t < sizeof ds / sizeof ds[0]; t++) {
        int d = ds[t];
        reset();
        int start = d < 0 ? 100 : 0;
        for (int n = 1; n <= 100; n += 33)
            butterfly(f + start, d, n + 50);
        printf("butterfly d %4d: %08x (%.6g)\n", d, (unsigned)hash_f(), (double)f[start + 7]);
    }
    return 0;
}

// wfv_libm: libm's vector variants (expf, logf, sinf, cosf, powf, sqrtf:
// float fast paths with a rounding test, the double-double path for the
// lanes it cannot vouch for) give lane for lane the scalar functions' bits
// and errno.
// Each function runs over the same inputs in an `omp simd` loop (vectorized
// by dspcc: the variants) and through a function pointer (scalar calls);
// the program prints how many results differ (0) and a few results printed
// with %.6g (the host's glibc rounds these the same).
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 1024
static float in[N], in2[N], vec[N], sca[N];
static uint32_t st = 2024;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st; }
static float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t B(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

typedef float (*fn)(float);

#define VECTOR_LOOP(name, f)                                                                                           \
    __attribute__((noinline)) static void name(int n) {                                                                \
        _Pragma("omp simd") for (int i = 0; i < n; i++) vec[i] = f(in[i]);                                            \
    }
VECTOR_LOOP(v_exp, expf)
VECTOR_LOOP(v_log, logf)
VECTOR_LOOP(v_sin, sinf)
VECTOR_LOOP(v_cos, cosf)
VECTOR_LOOP(v_sqrt, sqrtf)

typedef float (*fn2)(float, float);

__attribute__((noinline)) static void v_pow(int n) {
    _Pragma("omp simd") for (int i = 0; i < n; i++) vec[i] = powf(in[i], in2[i]);
}

static void scalar(fn f, int n) {
    volatile fn g = f;
    for (int i = 0; i < n; i++)
        sca[i] = g(in[i]);
}

static void scalar2(fn2 f, int n) {
    volatile fn2 g = f;
    for (int i = 0; i < n; i++)
        sca[i] = g(in[i], in2[i]);
}

static void check(const char *name, void (*v)(int), fn f) {
    errno = 0;
    v(N);
    int ev = errno;
    errno = 0;
    if (f)
        scalar(f, N);
    else
        scalar2(powf, N);
    int es = errno;
    int diff = 0;
    for (int i = 0; i < N; i++)
        diff += B(vec[i]) != B(sca[i]);
    printf("%-5s differing %d errno %s; f(%g) = %.6g, f(%g) = %.6g\n", name, diff, ev == es ? "same" : "DIFFERS", in[3],
           sca[3], in[10], sca[10]);
}

int main(void) {
    for (int i = 0; i < N; i++) {
        uint32_t u = rnd();
        /* exponents 2^-30 .. 2^17, both signs, and some specials */
        u = (u & 0x80ffffffu) | ((0x61 + (u >> 24) % 48) << 23);
        in[i] = F(u);
    }
    static const uint32_t sp[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u,
                                  0x42b20000u, 0xc2ce0000u, 0x00000001u, 0x7f7fffffu, 0x3f7fffffu, 0x44800000u};
    for (unsigned k = 0; k < sizeof sp / sizeof *sp; k++)
        in[100 + 37 * k] = F(sp[k]);
    in[3] = 0.75f;
    in[10] = 2.5f;
    check("expf", v_exp, expf);
    check("logf", v_log, logf);
    check("sinf", v_sin, sinf);
    check("cosf", v_cos, cosf);
    check("sqrtf", v_sqrt, sqrtf);
    /* powf: x from in[] made positive but for one in eight (negative x:
       integer y or EDOM), y of magnitude 2^-4 .. 2^4 (some results overflow
       or underflow: ERANGE), integers, halves and specials */
    for (int i = 0; i < N; i++) {
        uint32_t u = rnd();
        if (i % 8)
            in[i] = F(B(in[i]) & 0x7fffffffu);
        in2[i] = F((u & 0x807fffffu) | ((0x7b + (u >> 23) % 9) << 23));
        if (i % 5 == 1)
            in2[i] = (float)((int)(u >> 24) % 13 - 6);
        if (i % 7 == 2)
            in2[i] = (float)((int)(u >> 24) % 13 - 6) + 0.5f;
    }
    static const uint32_t sy[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u,
                                  0x3f000000u, 0x40000000u, 0xbf800000u, 0x00000001u, 0x7f7fffffu, 0x4f000000u};
    for (unsigned k = 0; k < sizeof sy / sizeof *sy; k++)
        in2[101 + 41 * k] = F(sy[k]);
    in[3] = 0.75f;
    in2[3] = 2.5f;
    in[10] = 2.5f;
    in2[10] = -1.5f;
    check("powf", v_pow, 0);
    return 0;
}

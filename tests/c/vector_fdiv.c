// vector_fdiv: float division and square root of whole vectors (dsp-vector-fdiv:
// Newton-Raphson on the vector units, exactly rounded) must give the scalar
// divider's bits in every lane: random operands, signed zeros, infinities,
// quiet and signalling NaNs (payloads kept), subnormal operands and results,
// quotients near overflow and underflow. The division loop is vectorized by
// LLVM's loop vectorizer, the square root through an `omp declare simd`
// function (its sqrtf call becomes a vector square root).
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 2048
float a[N], b[N], q[N], r[N], s[N];
static uint32_t st = 12345;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st; }
/* Bits in and out through memory only: on the i386 host a float passed or
 * returned by value may go through the x87 stack, which quietens sNaNs. */
static uint32_t bits(const float *p) { uint32_t u; memcpy(&u, p, 4); return u; }

__attribute__((noinline)) void divide(int n) {
    for (int i = 0; i < n; i++)
        q[i] = a[i] / b[i];
}

#pragma omp declare simd notinbranch
__attribute__((noinline)) float root(float x) { return sqrtf(x); }

__attribute__((noinline)) void roots(int n) {
#pragma omp simd
    for (int i = 0; i < n; i++)
        s[i] = root(r[i]);
}

int main(void) {
    static const uint32_t sp[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffc00001u,
                                  1, 0x80000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u, 0x3fffffffu,
                                  0x3f7fffffu, 0x40000000u, 0x00400000u};
    int ns = sizeof sp / sizeof *sp;
    for (int i = 0; i < N; i++) {
        uint32_t x = rnd(), y = rnd(), c = rnd();
        switch (c % 7) {
        case 0: break;
        case 1: x = sp[x % ns]; break;
        case 2: y = sp[y % ns]; break;
        case 3: x = sp[x % ns]; y = sp[y % ns]; break;
        case 4: y = (y & 0x807fffffu) | ((x >> 23 & 0xff) ^ 0x80) << 23; break; /* near under- and overflow */
        case 5: x = x & 0x80ffffffu; break;                                     /* tiny and subnormal */
        case 6: y = (y & 0xff800000u) | 0x7fffffu; break;                         /* all-ones significand */
        }
        uint32_t rx = c % 5 == 0 ? x : x & 0x7fffffffu; /* a fifth keep their sign: negative roots */
        memcpy(&a[i], &x, 4);
        memcpy(&b[i], &y, 4);
        memcpy(&r[i], &rx, 4);
    }
    divide(N);
    roots(N);
    uint32_t h = 2166136261u, g = 2166136261u;
    for (int i = 0; i < N; i++) {
        h = (h ^ bits(&q[i])) * 16777619u;
        g = (g ^ bits(&s[i])) * 16777619u;
    }
    printf("division %08x square root %08x\n", h, g);
    for (int i = 0; i < 12; i++)
        printf("%08x / %08x = %08x   sqrt -> %08x\n", bits(&a[i]), bits(&b[i]), bits(&q[i]), bits(&s[i]));
    return 0;
}

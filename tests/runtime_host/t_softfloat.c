/* t_softfloat.c: the soft-float routines (builtins/softfloat*.c) bit for
 * bit against the host's SSE instructions: + - * / in binary32 and
 * binary64 on every pair of edge values (zeros, subnormals, the normal
 * boundary, 1 and its neighbours, the largest finite, infinities, quiet
 * and signalling NaNs with payloads) and on random operands of several
 * kinds (any bits, close exponents for cancellation, results near the
 * subnormal and overflow boundaries); the comparisons against C's
 * operators with libgcc's return conventions; negation (signalling NaNs
 * excluded: i386 returns floats in x87 registers, which quieten them);
 * __powi*f2 against libgcc's loop done in SSE (the host's libgcc computes
 * it in x87 extended precision). SSE's operand order decides which NaN an
 * operation returns, so the reference uses inline assembly with a fixed
 * order. */
#include <stdint.h>
#include <string.h>

#include "check.h"

typedef unsigned long long u64;

double dsp___adddf3(double, double), dsp___subdf3(double, double), dsp___muldf3(double, double),
    dsp___divdf3(double, double), dsp___negdf2(double), dsp___powidf2(double, int);
float dsp___addsf3(float, float), dsp___subsf3(float, float), dsp___mulsf3(float, float), dsp___divsf3(float, float),
    dsp___negsf2(float), dsp___powisf2(float, int);
int dsp___eqdf2(double, double), dsp___nedf2(double, double), dsp___ltdf2(double, double), dsp___ledf2(double, double),
    dsp___gtdf2(double, double), dsp___gedf2(double, double), dsp___unorddf2(double, double);
int dsp___eqsf2(float, float), dsp___nesf2(float, float), dsp___ltsf2(float, float), dsp___lesf2(float, float),
    dsp___gtsf2(float, float), dsp___gesf2(float, float), dsp___unordsf2(float, float);

/* libgcc's __powidf2 loop in SSE arithmetic. */
#define REF_POWI(name, T)              \
    static T name(T a, int b)          \
    {                                  \
        int recip = b < 0;             \
        T r = 1;                       \
        for (;;) {                     \
            if (b & 1)                 \
                r *= a;                \
            b /= 2;                    \
            if (b == 0)                \
                break;                 \
            a *= a;                    \
        }                              \
        return recip ? 1 / r : r;      \
    }
REF_POWI(ref_powid, double)
REF_POWI(ref_powis, float)

static u64 db(double x) { u64 u; memcpy(&u, &x, 8); return u; }
static double bd(u64 u) { double x; memcpy(&x, &u, 8); return x; }
static uint32_t fb(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float bf(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

/* r = a OP b with a as SSE's first source operand. */
#define SSE(insn, T, a, b) ({ T r_ = (a); __asm__(insn " %1, %0" : "+x"(r_) : "x"(b)); r_; })

static const u64 edge64[] = {
    0, 1, 2, 0x000fffffffffffffULL, 0x0010000000000000ULL, 0x0010000000000001ULL, 0x001fffffffffffffULL,
    0x3ff0000000000000ULL, 0x3ff0000000000001ULL, 0x3fefffffffffffffULL, 0x3ff8000000000000ULL,
    0x4000000000000000ULL, 0x3fe0000000000000ULL, 0x3cb0000000000000ULL, 0x4340000000000000ULL,
    0x7fefffffffffffffULL, 0x7fe0000000000000ULL, 0x7ff0000000000000ULL, 0x7ff8000000000000ULL,
    0x7ff0000000000001ULL, 0x7ff4000000000123ULL, 0x7ffc00000000abcdULL, 0x0008000000000000ULL,
    0x3ca0000000000000ULL, 0x4330000000000000ULL, 0x000123456789abcdULL, 0x2000000000000000ULL,
    0x5ff0000000000000ULL, 0x1ff0000000000000ULL, 0x3ff123456789abcdULL,
};
static const uint32_t edge32[] = {
    0, 1, 2, 0x007fffff, 0x00800000, 0x00800001, 0x00ffffff, 0x3f800000, 0x3f800001, 0x3f7fffff, 0x3fc00000,
    0x40000000, 0x3f000000, 0x34000000, 0x4b800000, 0x7f7fffff, 0x7f000000, 0x7f800000, 0x7fc00000, 0x7f800001,
    0x7fa00123, 0x7fe0abcd, 0x00400000, 0x33800000, 0x4b000000, 0x00123456, 0x20000000, 0x5f800000, 0x1f800000,
    0x3f91a2b3,
};

static void check_d(double a, double b)
{
    struct { const char *op; double got, want; } r[] = {
        {"+", dsp___adddf3(a, b), SSE("addsd", double, a, b)},
        {"-", dsp___subdf3(a, b), SSE("subsd", double, a, b)},
        {"*", dsp___muldf3(a, b), SSE("mulsd", double, a, b)},
        {"/", dsp___divdf3(a, b), SSE("divsd", double, a, b)},
    };
    for (int i = 0; i < 4; i++)
        check(db(r[i].got) == db(r[i].want), "softfloat", "%016llx %s %016llx = %016llx, want %016llx", db(a), r[i].op,
              db(b), db(r[i].got), db(r[i].want));
    int un = a != a || b != b;
    check((dsp___eqdf2(a, b) == 0) == (a == b) && (dsp___nedf2(a, b) != 0) == (a != b) &&
              (dsp___ltdf2(a, b) < 0) == (a < b) && (dsp___ledf2(a, b) <= 0) == (a <= b) &&
              (dsp___gtdf2(a, b) > 0) == (a > b) && (dsp___gedf2(a, b) >= 0) == (a >= b) &&
              (dsp___unorddf2(a, b) != 0) == un && (!un || (dsp___ltdf2(a, b) == 1 && dsp___gtdf2(a, b) == -1)),
          "softfloat", "compare %016llx %016llx", db(a), db(b));
}

static void check_f(float a, float b)
{
    struct { const char *op; float got, want; } r[] = {
        {"+", dsp___addsf3(a, b), SSE("addss", float, a, b)},
        {"-", dsp___subsf3(a, b), SSE("subss", float, a, b)},
        {"*", dsp___mulsf3(a, b), SSE("mulss", float, a, b)},
        {"/", dsp___divsf3(a, b), SSE("divss", float, a, b)},
    };
    for (int i = 0; i < 4; i++)
        check(fb(r[i].got) == fb(r[i].want), "softfloat", "%08x %s %08x = %08x, want %08x", fb(a), r[i].op, fb(b),
              fb(r[i].got), fb(r[i].want));
    int un = a != a || b != b;
    check((dsp___eqsf2(a, b) == 0) == (a == b) && (dsp___nesf2(a, b) != 0) == (a != b) &&
              (dsp___ltsf2(a, b) < 0) == (a < b) && (dsp___lesf2(a, b) <= 0) == (a <= b) &&
              (dsp___gtsf2(a, b) > 0) == (a > b) && (dsp___gesf2(a, b) >= 0) == (a >= b) &&
              (dsp___unordsf2(a, b) != 0) == un && (!un || (dsp___ltsf2(a, b) == 1 && dsp___gtsf2(a, b) == -1)),
          "softfloat", "compare %08x %08x", fb(a), fb(b));
}

/* A random binary64 of one of several kinds. */
static u64 rnd_d(u64 near)
{
    u64 v = rnd64();
    switch (rnd32() % 6) {
    case 0: return v;                                                  /* any bits, NaNs included */
    case 1: return (v & 0x800fffffffffffffULL) | ((u64)(rnd32() % 3) << 52); /* subnormal or tiny */
    case 2: return (v & 0x800fffffffffffffULL) | ((u64)(0x7fd + rnd32() % 2) << 52); /* huge */
    case 3: return near ^ (rnd64() >> (rnd32() % 64 | 8));             /* close to the other operand */
    case 4: return (v & 0x800fffffffffffffULL) | ((u64)(0x3f0 + rnd32() % 32) << 52);
    default: return near + (rnd32() % 5) - 2;
    }
}

static uint32_t rnd_f(uint32_t near)
{
    uint32_t v = rnd32();
    switch (rnd32() % 6) {
    case 0: return v;
    case 1: return (v & 0x807fffff) | ((rnd32() % 3) << 23);
    case 2: return (v & 0x807fffff) | ((0xfd + rnd32() % 2) << 23);
    case 3: return near ^ (rnd32() >> (rnd32() % 32 | 4));
    case 4: return (v & 0x807fffff) | ((0x70 + rnd32() % 32) << 23);
    default: return near + (rnd32() % 5) - 2;
    }
}

void test_softfloat(void)
{
    int n64 = sizeof edge64 / sizeof edge64[0], n32 = sizeof edge32 / sizeof edge32[0];
    for (int i = 0; i < 2 * n64; i++)
        for (int j = 0; j < 2 * n64; j++)
            check_d(bd(edge64[i / 2] | (u64)(i & 1) << 63), bd(edge64[j / 2] | (u64)(j & 1) << 63));
    for (int i = 0; i < 2 * n32; i++)
        for (int j = 0; j < 2 * n32; j++)
            check_f(bf(edge32[i / 2] | (uint32_t)(i & 1) << 31), bf(edge32[j / 2] | (uint32_t)(j & 1) << 31));
    for (int i = 0; i < 300000; i++) {
        u64 a = rnd_d(db(1.0));
        check_d(bd(a), bd(rnd_d(a)));
        uint32_t x = rnd_f(fb(1.0f));
        check_f(bf(x), bf(rnd_f(x)));
    }
    for (int i = 0; i < 2 * n64; i++) {
        double a = bd(edge64[i / 2] | (u64)(i & 1) << 63);
        if ((db(a) & 0x7ff8000000000000ULL) != 0x7ff0000000000000ULL || !(db(a) << 12))
            check(db(dsp___negdf2(a)) == (db(a) ^ 0x8000000000000000ULL), "softfloat", "-%016llx", db(a));
    }
    for (int i = 0; i < 2 * n32; i++) {
        float a = bf(edge32[i / 2] | (uint32_t)(i & 1) << 31);
        if ((fb(a) & 0x7fc00000) != 0x7f800000 || !(fb(a) << 9))
            check(fb(dsp___negsf2(a)) == (fb(a) ^ 0x80000000u), "softfloat", "-%08x", fb(a));
    }
    for (int i = 0; i < 20000; i++) {
        int e = (int)(rnd32() % 2200) - 1100;
        if (i % 4 == 0)
            e = (int)rnd32();
        double a = bd(rnd_d(db(1.0)));
        float x = bf(rnd_f(fb(1.0f)));
        check(db(dsp___powidf2(a, e)) == db(ref_powid(a, e)) || (a != a), "softfloat", "powi %016llx %d", db(a), e);
        check(fb(dsp___powisf2(x, e)) == fb(ref_powis(x, e)) || (x != x), "softfloat", "powif %08x %d", fb(x), e);
    }
}

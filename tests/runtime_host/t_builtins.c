/* t_builtins.c: the compiler support routines against the host's own
 * arithmetic: 32/64-bit division and remainder (signed, unsigned), shifts,
 * multiplication, comparisons, bit counts, byte swaps, and the int <-> float
 * conversions (rounding of every kind of input, truncation, saturation). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

typedef long long di;
typedef unsigned long long du;

int dsp___divsi3(int, int), dsp___modsi3(int, int);
unsigned dsp___udivsi3(unsigned, unsigned), dsp___umodsi3(unsigned, unsigned);
di dsp___divdi3(di, di), dsp___moddi3(di, di);
du dsp___udivdi3(du, du), dsp___umoddi3(du, du);
di dsp___ashldi3(di, int), dsp___lshrdi3(di, int), dsp___ashrdi3(di, int);
int dsp___mulsi3(int, int);
di dsp___muldi3(di, di), dsp___negdi2(di);
int dsp___cmpdi2(di, di), dsp___ucmpdi2(du, du);
int dsp___popcountsi2(int), dsp___popcountdi2(di), dsp___clzsi2(int), dsp___clzdi2(di), dsp___ctzsi2(int),
    dsp___ctzdi2(di), dsp___ffssi2(int), dsp___ffsdi2(di), dsp___paritysi2(int), dsp___paritydi2(di);
unsigned dsp___bswapsi2(unsigned);
du dsp___bswapdi2(du);
double dsp___floatsidf(int), dsp___floatunsidf(unsigned), dsp___floatdidf(di), dsp___floatundidf(du);
float dsp___floatsisf(int), dsp___floatunsisf(unsigned), dsp___floatdisf(di), dsp___floatundisf(du);
int dsp___fixdfsi(double), dsp___fixsfsi(float);
unsigned dsp___fixunsdfsi(double), dsp___fixunssfsi(float);
di dsp___fixdfdi(double), dsp___fixsfdi(float);
du dsp___fixunsdfdi(double), dsp___fixunssfdi(float);
double dsp___extendsfdf2(float);
float dsp___truncdfsf2(double);
du dsp___dsp_clmul32(unsigned, unsigned);

/* The carry-less product, bit by bit. */
static du clmul_ref(unsigned a, unsigned b)
{
    du r = 0;
    for (int i = 0; i < 32; i++)
        if (b >> i & 1)
            r ^= (du)a << i;
    return r;
}

static int same_d(double a, double b) { return memcmp(&a, &b, 8) == 0; }
static int same_f(float a, float b) { return memcmp(&a, &b, 4) == 0; }

static du rnd_wide(void)
{
    du v = rnd64();
    switch (rnd32() % 4) {
    case 0: return v >> (rnd32() % 64);
    case 1: return (du)(di)(int)rnd32();
    case 2: return v & 0xffff;
    default: return v;
    }
}

void test_builtins(void)
{
    for (int i = 0; i < 100000; i++) {
        unsigned p = rnd32() >> (rnd32() % 32), q = rnd32() >> (rnd32() % 32);
        check(dsp___dsp_clmul32(p, q) == clmul_ref(p, q), "builtins", "clmul %08x %08x", p, q);
    }
    for (int i = 0; i < 100000; i++) {
        du a = rnd_wide(), b = rnd_wide();
        unsigned x = (unsigned)a, y = (unsigned)b;
        if (y) {
            check(dsp___udivsi3(x, y) == x / y && dsp___umodsi3(x, y) == x % y, "builtins", "u32 %u / %u", x, y);
            if (!((int)x == INT32_MIN && (int)y == -1))
                check(dsp___divsi3((int)x, (int)y) == (int)x / (int)y && dsp___modsi3((int)x, (int)y) == (int)x % (int)y,
                      "builtins", "i32 %d / %d", (int)x, (int)y);
        }
        if (b) {
            check(dsp___udivdi3(a, b) == a / b && dsp___umoddi3(a, b) == a % b, "builtins", "u64 %llu / %llu", a, b);
            if (!((di)a == INT64_MIN && (di)b == -1))
                check(dsp___divdi3((di)a, (di)b) == (di)a / (di)b && dsp___moddi3((di)a, (di)b) == (di)a % (di)b,
                      "builtins", "i64 %lld / %lld", (di)a, (di)b);
        }
        int s = (int)(rnd32() % 64);
        check(dsp___ashldi3((di)a, s) == (di)(a << s) && dsp___lshrdi3((di)a, s) == (di)(a >> s) &&
                  dsp___ashrdi3((di)a, s) == ((di)a >> s),
              "builtins", "shifts of %llx by %d", a, s);
        check(dsp___mulsi3((int)x, (int)y) == (int)(x * y) && dsp___muldi3((di)a, (di)b) == (di)(a * b), "builtins",
              "multiply");
        check(dsp___negdi2((di)a) == (di)(0 - a), "builtins", "negate");
        check(dsp___cmpdi2((di)a, (di)b) == ((di)a < (di)b ? 0 : a == b ? 1 : 2) &&
                  dsp___ucmpdi2(a, b) == (a < b ? 0 : a == b ? 1 : 2),
              "builtins", "compare");
        check(dsp___popcountsi2((int)x) == __builtin_popcount(x) && dsp___popcountdi2((di)a) == __builtin_popcountll(a) &&
                  (x == 0 || dsp___clzsi2((int)x) == __builtin_clz(x)) &&
                  (a == 0 || dsp___clzdi2((di)a) == __builtin_clzll(a)) &&
                  (x == 0 || dsp___ctzsi2((int)x) == __builtin_ctz(x)) &&
                  (a == 0 || dsp___ctzdi2((di)a) == __builtin_ctzll(a)) && dsp___ffssi2((int)x) == __builtin_ffs((int)x) &&
                  dsp___ffsdi2((di)a) == __builtin_ffsll((di)a) && dsp___paritysi2((int)x) == __builtin_parity(x) &&
                  dsp___paritydi2((di)a) == __builtin_parityll(a),
              "builtins", "bit counts of %llx", a);
        check(dsp___bswapsi2(x) == __builtin_bswap32(x) && dsp___bswapdi2(a) == __builtin_bswap64(a), "builtins",
              "bswap %llx", a);
        /* int -> float */
        check(same_d(dsp___floatsidf((int)x), (double)(int)x) && same_d(dsp___floatunsidf(x), (double)x) &&
                  same_d(dsp___floatdidf((di)a), (double)(di)a) && same_d(dsp___floatundidf(a), (double)a),
              "builtins", "to double: %llx", a);
        check(same_f(dsp___floatsisf((int)x), (float)(int)x) && same_f(dsp___floatunsisf(x), (float)x) &&
                  same_f(dsp___floatdisf((di)a), (float)(di)a) && same_f(dsp___floatundisf(a), (float)a),
              "builtins", "to float: %llx", a);
        /* float -> int, in range */
        double d = (i & 1) ? rnd_double_range() : (double)(di)a / (double)(1 << (rnd32() % 20));
        float f = (float)d;
        if (fabs(d) < 2147483647.0)
            check(dsp___fixdfsi(d) == (int)d && dsp___fixsfsi(f) == (int)f, "builtins", "fix %a", d);
        if (d > -1 && d < 4294967295.0)
            check(dsp___fixunsdfsi(d) == (unsigned)d && (f >= 4294967296.0f || dsp___fixunssfsi(f) == (unsigned)f),
                  "builtins", "fixuns %a", d);
        if (fabs(d) < 9.2e18)
            check(dsp___fixdfdi(d) == (di)d && dsp___fixsfdi(f) == (di)f, "builtins", "fix64 %a", d);
        if (d > -1 && d < 1.8e19)
            check(dsp___fixunsdfdi(d) == (du)d && dsp___fixunssfdi(f) == (du)f, "builtins", "fixuns64 %a", d);
        /* float <-> double */
        double any = rnd_double_bits();
        float fa = (float)any;
        check(same_f(dsp___truncdfsf2(any), fa), "builtins", "truncdfsf2 %a", any);
        union {
            unsigned u;
            float f;
        } fb = {x};
        if (!isnan(fb.f))
            check(same_d(dsp___extendsfdf2(fb.f), (double)fb.f), "builtins", "extendsfdf2 %a", (double)fb.f);
    }
    /* saturation (compiler-rt's choice; C leaves it undefined) */
    check(dsp___fixdfsi(1e10) == INT32_MAX && dsp___fixdfsi(-1e10) == INT32_MIN && dsp___fixunsdfsi(-5.0) == 0 &&
              dsp___fixunsdfsi(1e10) == UINT32_MAX && dsp___fixdfdi(1e19) == INT64_MAX &&
              dsp___fixdfdi(-1e19) == INT64_MIN && dsp___fixunsdfdi(1e20) == UINT64_MAX && dsp___fixdfsi(-0.9) == 0,
          "builtins", "saturation");
    check(dsp___udivsi3(7, 0) == 0 && dsp___umodsi3(7, 0) == 7, "builtins", "division by zero");
}

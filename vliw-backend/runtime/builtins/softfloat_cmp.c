/* softfloat_cmp.c: floating-point comparisons in software (libgcc's
 * conventions, which the compiler relies on: vliw-backend/isel/src/cmp.rs
 * compares the result with zero) and __powisf2/__powidf2.
 *
 *   __eqXf2, __neXf2   0 when a == b (and neither is a NaN), else nonzero
 *   __ltXf2, __leXf2   <0, 0, >0 for a < b, a == b, a > b; 1 when unordered
 *   __gtXf2, __geXf2   the same, but -1 when unordered
 *   __unordXf2         nonzero when a or b is a NaN
 *
 * +0 and -0 are equal. Comparisons work on the bits: a NaN check, then the
 * sign-magnitude order. No floating-point operation is used. */
#include "builtins.h"

#define UNORDERED 2

/* -1, 0, 1 for a < b, a == b, a > b; UNORDERED when either is a NaN. */
static int cmp64(du_int a, du_int b)
{
    const du_int sign = 0x8000000000000000ULL, inf = 0x7ff0000000000000ULL;
    du_int ma = a & ~sign, mb = b & ~sign;
    if (ma > inf || mb > inf)
        return UNORDERED;
    if ((ma | mb) == 0)
        return 0;
    /* As signed integers, sign-magnitude order is the integer order when
     * a is non-negative; for two negative numbers it is reversed. */
    di_int sa = (di_int)a, sb = (di_int)b;
    if ((sa & sb) < 0)
        return sa > sb ? -1 : sa < sb;
    return sa < sb ? -1 : sa > sb;
}

static int cmp32(su_int a, su_int b)
{
    const su_int sign = 0x80000000u, inf = 0x7f800000u;
    su_int ma = a & ~sign, mb = b & ~sign;
    if (ma > inf || mb > inf)
        return UNORDERED;
    if ((ma | mb) == 0)
        return 0;
    si_int sa = (si_int)a, sb = (si_int)b;
    if ((sa & sb) < 0)
        return sa > sb ? -1 : sa < sb;
    return sa < sb ? -1 : sa > sb;
}

static du_int d(double x)
{
    dbits b;
    b.f = x;
    return b.u;
}

static su_int f(float x)
{
    fbits b;
    b.f = x;
    return b.u;
}

/* The result for <, <=, ==, != (unordered: 1) and for >, >= (unordered: -1). */
static int le_result(int c) { return c == UNORDERED ? 1 : c; }
static int ge_result(int c) { return c == UNORDERED ? -1 : c; }

int __eqdf2(double a, double b) { return le_result(cmp64(d(a), d(b))); }
int __nedf2(double a, double b) { return le_result(cmp64(d(a), d(b))); }
int __ltdf2(double a, double b) { return le_result(cmp64(d(a), d(b))); }
int __ledf2(double a, double b) { return le_result(cmp64(d(a), d(b))); }
int __gtdf2(double a, double b) { return ge_result(cmp64(d(a), d(b))); }
int __gedf2(double a, double b) { return ge_result(cmp64(d(a), d(b))); }
int __unorddf2(double a, double b) { return cmp64(d(a), d(b)) == UNORDERED; }

int __eqsf2(float a, float b) { return le_result(cmp32(f(a), f(b))); }
int __nesf2(float a, float b) { return le_result(cmp32(f(a), f(b))); }
int __ltsf2(float a, float b) { return le_result(cmp32(f(a), f(b))); }
int __lesf2(float a, float b) { return le_result(cmp32(f(a), f(b))); }
int __gtsf2(float a, float b) { return ge_result(cmp32(f(a), f(b))); }
int __gesf2(float a, float b) { return ge_result(cmp32(f(a), f(b))); }
int __unordsf2(float a, float b) { return cmp32(f(a), f(b)) == UNORDERED; }

/* a^b by binary powering, exactly libgcc's and compiler-rt's loop (the
 * host's __builtin_powi), so results agree bit for bit. The arithmetic is
 * the machine's: instructions, or the routines of softfloat.c. */
double __powidf2(double a, int b)
{
    int recip = b < 0;
    double r = 1;
    for (;;) {
        if (b & 1)
            r *= a;
        b /= 2;
        if (b == 0)
            break;
        a *= a;
    }
    return recip ? 1 / r : r;
}

float __powisf2(float a, int b)
{
    int recip = b < 0;
    float r = 1;
    for (;;) {
        if (b & 1)
            r *= a;
        b /= 2;
        if (b == 0)
            break;
        a *= a;
    }
    return recip ? 1 / r : r;
}

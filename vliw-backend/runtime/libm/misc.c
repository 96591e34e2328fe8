/* misc.c: cbrt, hypot and fma with their float versions, correctly
 * rounded. cbrt: a double estimate refined by one Newton step in
 * double-double. hypot: the scaled sum of squares in double-double, its
 * square root, one rounding. fma: Boldo and Melquiond's emulation
 * ("Emulation of FMA and correctly rounded sums: proved algorithms using
 * rounding to odd", IEEE TC 2008): exact product and sum, the low parts
 * added with rounding to odd, then one rounding to nearest; arguments far
 * from 1 are scaled first (a subnormal result may then round twice). With
 * clang, fma uses the machine's fused multiply-add. */
#include <math.h>

#include "libm.h"

static result cbrt_core(double x)
{
    if (x != x || x == 0 || exp_field(x) == 0x7ff)
        return exact_result(x + x);
    int neg = x < 0;
    double a = fabs(x);
    /* a = m * 2^(3j), m in [1, 8) */
    int e = ilogb(a);
    int j = e >= 0 ? e / 3 : -((-e + 2) / 3);
    double m = scalbn(a, -3 * j);
    /* estimate: Newton on y^3 = m in double from 1.4 */
    double y = m < 2 ? 1.15 : m < 4 ? 1.45 : 1.8;
    for (int i = 0; i < 6; i++)
        y = y - (y * y * y - m) / (3 * y * y);
    /* one step in dd: y - (y^3 - m) / (3 y^2) */
    dd y2 = two_prod(y, y);
    dd y3 = dd_mul_d(y2, y);
    dd corr = dd_div(dd_add_d(y3, -m), dd_mul_d(y2, 3.0));
    dd r = dd_sub(dd_from(y), corr);
    return dd_result(neg ? dd_neg(r) : r, j);
}

double cbrt(double x) { return __to_double(cbrt_core(x)); }
float cbrtf(float x) { return __to_float(cbrt_core(x)); }

static result hypot_core(double x, double y)
{
    int xi = exp_field(x) == 0x7ff && !(asu64(x) & 0xfffffffffffffULL);
    int yi = exp_field(y) == 0x7ff && !(asu64(y) & 0xfffffffffffffULL);
    if (xi || yi)
        return exact_result(__builtin_inf());
    if (x != x || y != y)
        return exact_result(x + y);
    double a = fabs(x), b = fabs(y);
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b == 0)
        return exact_result(a);
    int e = ilogb(a);
    if (e - ilogb(b) > 60)
        return dd_result(dd_add_d(dd_from(a), b * 0x1p-70), 0); /* a, just above */
    double as = scalbn(a, -e), bs = scalbn(b, -e);
    dd s = dd_add(two_prod(as, as), two_prod(bs, bs));
    return dd_result(__dd_sqrt(s), e);
}

double hypot(double x, double y) { return __to_double(hypot_core(x, y)); }
float hypotf(float x, float y) { return __to_float(hypot_core(x, y)); }

/* The fused instruction when the machine has one for f32 and f64 (dspcc
 * defines __DSP_HW_FMA__ from the .isa), else the exact software fma. */
#if defined(__clang__) && defined(__DSP_HW_FMA__) && !defined(DSP_SOFT_FMA)
#if __has_builtin(__builtin_elementwise_fma)
#define HW_FMA 1
#endif
#endif

#ifdef HW_FMA

/* The machine's fused multiply-add (ABI.md: mac rounds once). */
double fma(double a, double b, double c) { return __builtin_elementwise_fma(a, b, c); }
float fmaf(float a, float b, float c) { return __builtin_elementwise_fma(a, b, c); }

#else

/* a + b rounded to odd: an inexact result gets its last bit set. */
static double add_round_odd(double a, double b)
{
    dd s = two_sum(a, b);
    if (s.lo != 0 && !(asu64(s.hi) & 1))
        return asdouble(asu64(s.hi) + (((s.hi > 0) == (s.lo > 0)) ? 1 : (uint64_t)-1));
    return s.hi;
}

double fma(double a, double b, double c)
{
    if (exp_field(a) == 0x7ff || exp_field(b) == 0x7ff || a == 0 || b == 0)
        return a * b + c;
    if (exp_field(c) == 0x7ff)
        return c + c; /* a*b finite: the exact sum is c (a NaN is quietened) */
    if (c == 0)
        return a * b; /* the rounded nonzero product keeps its sign */
    /* Scale a and b to [1, 2) and c by the same factor. */
    int ea = ilogb(a), eb = ilogb(b), s = ea + eb;
    double as = scalbn(a, -ea), bs = scalbn(b, -eb);
    int ec = ilogb(c);
    if (ec - s > 900)
        return c + (a * b * 0); /* a*b is far below half an ulp of c */
    /* c far below half an ulp of a*b only breaks an exact tie: a stand-in
     * of its sign far below the product does the same */
    double cs = ec - s < -900 ? copysign(0x1p-200, c) : scalbn(c, -s);
    dd u = two_prod(as, bs);
    dd t = two_sum(cs, u.hi);
    double v = add_round_odd(t.lo, u.lo);
    double r = t.hi + v;
    return scalbn(r, s);
}

float fmaf(float a, float b, float c)
{
    /* The product of two floats is exact in double; the sum rounded to odd
     * then to float is the correctly rounded result (53 >= 2*24 + 2). */
    double p = (double)a * (double)b;
    if (exp_field(p) == 0x7ff || exp_field(c) == 0x7ff)
        return (float)(p + c);
    return (float)add_round_odd(p, c);
}

#endif

/* pow.c: pow and powf: the special cases of C11 Annex F, then
 * exp(y log|x|) in double-double rounded once (negative x with an odd
 * integer y gives the negative result). Domain errors (negative x with a
 * non-integer y) give x86's default NaN and EDOM; overflow, underflow and
 * poles give ERANGE, as glibc does. */
#include <math.h>

#include "libm.h"

/* 0: y is not an integer, 1: odd integer, 2: even integer. */
static int int_kind(double y)
{
    int e = exp_field(y) - 1023;
    if (e < 0)
        return y == 0 ? 2 : 0;
    if (e >= 53)
        return 2;
    uint64_t frac = asu64(y) & (0xfffffffffffffULL >> e);
    if (frac)
        return 0;
    uint64_t m = (asu64(y) & 0xfffffffffffffULL) | (1ULL << 52);
    return (m >> (52 - e)) & 1 ? 1 : 2;
}

/* |x|^n for an integer 1 <= n <= 2^20 by binary powering in double-double
 * with the binary exponent kept apart, then its reciprocal if inv: exact
 * whenever the power fits in 106 bits (so exact ties round correctly),
 * else within a few 2^-104. */
static result pow_int(double ax, long n, int neg, int inv)
{
    int e = ilogb(ax);
    dd base = dd_from(scalbn(ax, -e)); /* [1, 2) */
    dd acc = dd_from(1.0);
    long ke = 0; /* acc * 2^ke */
    long kb = e; /* base * 2^kb */
    for (long k = n; k; k >>= 1) {
        if (k & 1) {
            acc = dd_mul(acc, base);
            ke += kb;
            int t = ilogb(acc.hi);
            acc = dd_ldexp(acc, -t);
            ke += t;
        }
        if (k > 1) {
            base = dd_sqr(base);
            kb *= 2;
            int t = ilogb(base.hi);
            base = dd_ldexp(base, -t);
            kb += t;
        }
    }
    if (inv) {
        acc = dd_div(dd_from(1.0), acc);
        ke = -ke;
    }
    if (ke > 2000 || ke < -2200) {
        errno = ERANGE;
        double r = ke > 0 ? __builtin_inf() : 0.0;
        return exact_result(neg ? -r : r);
    }
    return dd_result(neg ? dd_neg(acc) : acc, (int)ke);
}

static result pow_core(double x, double y, int acc)
{
    if (y == 0 || x == 1)
        return exact_result(1.0);
    if (x != x || y != y)
        return exact_result(x + y);
    int yk = int_kind(y);
    int xneg = (int)(asu64(x) >> 63);
    double ax = fabs(x);
    if (exp_field(y) == 0x7ff) { /* y = +-inf */
        if (ax == 1)
            return exact_result(1.0);
        return exact_result((ax > 1) == (y > 0) ? __builtin_inf() : 0.0);
    }
    if (x == 0) {
        if (y < 0) {
            errno = ERANGE;
            return exact_result(yk == 1 && xneg ? -__builtin_inf() : __builtin_inf());
        }
        return exact_result(yk == 1 ? x : 0.0);
    }
    if (exp_field(x) == 0x7ff) { /* x = +-inf */
        double r = y < 0 ? 0.0 : __builtin_inf();
        return exact_result(yk == 1 && xneg ? -r : r);
    }
    if (xneg && yk == 0)
        return exact_result(set_errno(default_nan(), EDOM));
    int neg = xneg && yk == 1;
    /* Cases that are exact or need one correctly rounded operation. */
    if (y == 1)
        return exact_result(x);
    if (y == 2)
        return exact_result(x * x);
    if (y == -1)
        return exact_result(1 / x);
    if (y == 0.5 && !xneg)
        return exact_result(sqrt(x));
    double ay = fabs(y);
    if (ax == 1)
        return exact_result(neg ? -1.0 : 1.0);
    if (yk && ay <= 0x1p20)
        return pow_int(ax, (long)ay, neg, y < 0);
    if (ay >= 0x1p64) {
        /* |y log x| >= 2^64 * 2^-54: far beyond the range */
        int big = (ax > 1) == (y > 0);
        errno = ERANGE;
        return exact_result(big ? __builtin_inf() : 0.0);
    }
    dd l = __dd_log(dd_from(ax), acc);
    dd t = dd_mul_d(l, y);
    if (t.hi > 710 || t.hi < -746) {
        errno = ERANGE;
        double r = t.hi > 0 ? __builtin_inf() : 0.0;
        return exact_result(neg ? -r : r);
    }
    int k;
    dd e = __dd_exp(t, &k, acc);
    return dd_result(neg ? dd_neg(e) : e, k);
}

double pow(double x, double y) { TWO_PHASE_DOUBLE(pow_core, x, y); }

__attribute__((noinline)) static float powf_accurate(float x, float y) { TWO_PHASE_FLOAT(pow_core, x, y); }

#ifdef LIBM_FAST_FLOAT
/* ln2 and 1/3 as float-float. */
#define POW_LN2HI 0x1.62e4300000000p-1f
#define POW_LN2LO -0x1.05c6100000000p-29f
#define POW_THIRD 0x1.5555560000000p-2f
#define POW_THIRDLO -0x1.5555560000000p-27f

/* x^y for positive normal x and finite nonzero y when the result is a
 * normal float, or -1 when the inputs are outside that set or the rounding
 * test cannot vouch for the result: everything else (negative or zero x,
 * subnormals, infinities, NaNs, overflow, underflow, errno) is the
 * accurate path's.
 *
 * log x as float-float lh + ll, relative error below 2^-42.5: logf's
 * reduction (logf_reduce: x = 2^e m, r = m/c - 1 = rhi + rlo exactly,
 * |r| <= 2^-6), r renormalized (r + rl, |rl| <= ulp(r)/2), log x =
 * e ln2 - log(1/c) + r - r^2/2 + r^3/3 +
 * r^4(-1/4 + r/5 - r^2/6 + r^3/7 - r^4/8) + rl(1 - r + r^2): e·ln2 with
 * ln2 as float-float (e·Lhi split by an fma), r^2 exact (fma), r^3/3 as
 * float-float (r^3 from r^2 + r2e by fmas, times 1/3 in float-float) since
 * with |r| up to 2^-6 a float r^3/3 alone would cost 2^-37 relative near
 * x = 1; the large terms (e·Lhi, th, r, -r^2/2, r^3/3, in decreasing
 * order: Fast2Sum) chained exactly, the small ones (their errors, e·Llo,
 * tl, the low parts, the r^4 tail, rl's terms: at most a few 2^-24 of
 * |log x|) summed in float. Every positive normal float checked on the
 * host against long double: the largest relative error is 2^-42.58 (at
 * x = 0x1.03fd0ap+0, r near 2^-6: the roundings of the r^4 tail; 2^-44.9
 * away from the two binades around 1).
 *
 * t = y (lh + ll) = thi + tlo (y·lh split by an fma, y·ll added by an
 * fma: |tlo| < 2^-16, its rounding below 2^-41), then e^t by expf's
 * evaluation (expf_ff, which takes the low part). Relative error of the
 * result, in units of 2^-40: log x 88.5 · 2^-42.5 = 15.7 (|t| <= 88.5),
 * the product 0.5, expf_ff 33 (libm.h): at most 49.2 (2^-34.38); with the
 * roundings of the test's own additions (4.1) inside its 2^-34 = 64. A
 * one-off host measurement of the unrounded value against long double
 * found at most 2^-35.8 for expf_ff (every 37th float in range, a random
 * low part) and 2^-35.55 for powf (5 million pairs with t in range, half
 * of them with x near 1 and large |y|). Exact results (integer powers,
 * perfect squares) pass the test; a result exactly halfway between two
 * floats never does. Checked on the host (tests/runtime_host/powf_fast:
 * clang with fma against the accurate-only build, bit for bit and errno)
 * on 61 million pairs (random over every exponent, y near integers and
 * halves, x near 1 with large |y|, results near overflow and underflow,
 * exact powers, every 499th x for nine fixed y): none wrong; 0.14% of the
 * inputs inside the domain take the accurate path. */
typedef struct {
    float hi, lo;
} powf_ff;

static inline powf_ff powf_log(uint32_t ix)
{
    logf_red v = logf_reduce(ix);
    /* Fast2Sum: rhi is 0 or at least 2^-24 >= |rlo| */
    float r = v.rhi + v.rlo;
    float rl = v.rlo - (r - v.rhi);
    float r2 = r * r;
    float r2e = fma32(r, r, -r2);
    float r3 = r2 * r;
    float r3e = fma32(r2e, r, fma32(r2, r, -r3));
    float d = POW_THIRD * r3;
    float dl = fma32(POW_THIRD, r3e, fma32(POW_THIRDLO, r3, fma32(POW_THIRD, r3, -d)));
    float q = r2 * r2 * (-0.25f + r * (0x1.99999ap-3f + r * (-0x1.555556p-3f + r * (0x1.24924ap-3f + r * -0.125f))));
    float a = v.ef * POW_LN2HI;
    float ae = fma32(v.ef, POW_LN2HI, -a);
    float h = -0.5f * r2;
    /* |a| >= |th| (or a = 0) >= |r| (or th = 0) >= |h| >= |d| */
    float s1 = a + v.th, e1 = v.th - (s1 - a);
    float s2 = s1 + r, e2 = r - (s2 - s1);
    float s3 = s2 + h, e3 = h - (s3 - s2);
    float s4 = s3 + d, e4 = d - (s4 - s3);
    float low = (((e1 + e2) + (e3 + e4)) + (fma32(v.ef, POW_LN2LO, ae) + v.tl)) +
                ((fma32(-0.5f, r2e, dl) + q) + fma32(rl, r2 - r, rl));
    powf_ff l;
    l.hi = s4 + low;
    l.lo = low - (l.hi - s4);
    return l;
}

static inline float powf_fast(float x, float y)
{
    uint32_t ix = asu32(x), ay = asu32(y) & 0x7fffffffu;
    if (ix - 0x00800000u >= 0x7f000000u || ay - 1u >= 0x7f7fffffu)
        return -1.0f;
    powf_ff l = powf_log(ix);
    float thi = y * l.hi;
    float tlo = fma32(y, l.lo, fma32(y, l.hi, -thi));
    return expf_ff(thi, tlo, 0x1p-34f);
}
#endif

/* x^y is positive on the fast path: -1 says "cannot vouch" (as expf). */
float powf(float x, float y)
{
#ifdef LIBM_FAST_FLOAT
    float r = powf_fast(x, y);
    if (r >= 0.0f)
        return r;
#endif
    return powf_accurate(x, y);
}

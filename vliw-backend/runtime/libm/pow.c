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

float powf(float x, float y) { TWO_PHASE_FLOAT(pow_core, x, y); }

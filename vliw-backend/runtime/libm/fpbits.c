/* fpbits.c: the functions that only move bits, all exact: fabs, copysign,
 * fmin, fmax, fdim, nan, nextafter, nexttoward, ilogb, logb, frexp, ldexp,
 * scalbn, scalbln, modf, for double and float. scalbn rounds once (half to
 * even) when the result is subnormal. */
#include <limits.h>
#include <math.h>

#include "libm.h"

double fabs(double x) { return asdouble(asu64(x) & 0x7fffffffffffffffULL); }
float fabsf(float x) { return asfloat(asu32(x) & 0x7fffffffu); }

double copysign(double x, double y)
{
    return asdouble((asu64(x) & 0x7fffffffffffffffULL) | (asu64(y) & 0x8000000000000000ULL));
}

float copysignf(float x, float y)
{
    return asfloat((asu32(x) & 0x7fffffffu) | (asu32(y) & 0x80000000u));
}

static int isnan_d(double x) { return (asu64(x) & 0x7fffffffffffffffULL) > 0x7ff0000000000000ULL; }
static int isnan_f(float x) { return (asu32(x) & 0x7fffffffu) > 0x7f800000u; }

/* fmin/fmax: a NaN argument loses to a number; equal arguments (+0 and
 * -0) give the first one, as glibc's. */
double fmin(double x, double y)
{
    if (x <= y)
        return x;
    if (x > y)
        return y;
    return isnan_d(y) ? x : y;
}

double fmax(double x, double y)
{
    if (x >= y)
        return x;
    if (x < y)
        return y;
    return isnan_d(y) ? x : y;
}

float fminf(float x, float y) { return (float)fmin(x, y); }
float fmaxf(float x, float y) { return (float)fmax(x, y); }

double fdim(double x, double y)
{
    if (isnan_d(x) || isnan_d(y))
        return x + y;
    double r = x > y ? x - y : 0.0;
    if (exp_field(r) == 0x7ff && exp_field(x) != 0x7ff && exp_field(y) != 0x7ff)
        errno = ERANGE;
    return r;
}

float fdimf(float x, float y)
{
    if (isnan_f(x) || isnan_f(y))
        return x + y;
    float r = x > y ? x - y : 0.0f;
    if (((asu32(r) >> 23) & 0xff) == 0xff && ((asu32(x) >> 23) & 0xff) != 0xff && ((asu32(y) >> 23) & 0xff) != 0xff)
        errno = ERANGE;
    return r;
}

double nan(const char *s)
{
    (void)s;
    return asdouble(0x7ff8000000000000ULL);
}

float nanf(const char *s)
{
    (void)s;
    return asfloat(0x7fc00000u);
}

double nextafter(double x, double y)
{
    if (isnan_d(x) || isnan_d(y))
        return x + y;
    if (x == y)
        return y;
    uint64_t b = asu64(x);
    if (x == 0)
        return asdouble((asu64(y) & 0x8000000000000000ULL) | 1); /* no errno, as glibc */
    if ((x < y) == !(b >> 63))
        b++;
    else
        b--;
    double r = asdouble(b);
    int e = exp_field(r);
    if (e == 0x7ff || e == 0)
        errno = ERANGE;
    return r;
}

float nextafterf(float x, float y)
{
    if (isnan_f(x) || isnan_f(y))
        return x + y;
    if (x == y)
        return y;
    uint32_t b = asu32(x);
    if (x == 0)
        return asfloat((asu32(y) & 0x80000000u) | 1);
    if ((x < y) == !(b >> 31))
        b++;
    else
        b--;
    float r = asfloat(b);
    uint32_t e = (b >> 23) & 0xff;
    if (e == 0xff || e == 0)
        errno = ERANGE;
    return r;
}

double nexttoward(double x, long double y) { return nextafter(x, (double)y); }

float nexttowardf(float x, long double y)
{
    if (isnan_f(x) || y != y)
        return (float)(x + y);
    if ((double)x == (double)y)
        return (float)y;
    return nextafterf(x, (double)y > (double)x ? __builtin_inff() : -__builtin_inff());
}

int ilogb(double x)
{
    uint64_t b = asu64(x);
    int e = (int)((b >> 52) & 0x7ff);
    uint64_t m = b & 0xfffffffffffffULL;
    if (e == 0x7ff) {
        errno = EDOM;
        return m ? FP_ILOGBNAN : INT_MAX;
    }
    if (e == 0) {
        if (m == 0) {
            errno = EDOM;
            return FP_ILOGB0;
        }
        int k = -1023;
        while (!(m >> 52)) {
            m <<= 1;
            k--;
        }
        return k + 1;
    }
    return e - 1023;
}

int ilogbf(float x) { return ilogb(x); }

double logb(double x)
{
    if (isnan_d(x))
        return x + x;
    if (x == 0)
        return -__builtin_inf();
    if (exp_field(x) == 0x7ff)
        return x * x;
    return (double)ilogb(x);
}

float logbf(float x) { return (float)logb(x); }

double frexp(double x, int *e)
{
    uint64_t b = asu64(x);
    int be = (int)((b >> 52) & 0x7ff);
    if (be == 0x7ff || x == 0) {
        *e = 0;
        return x + x; /* quiets a NaN; +-0 and +-inf stay */
    }
    int k = 0;
    if (be == 0) {
        x *= 0x1p64;
        b = asu64(x);
        be = (int)((b >> 52) & 0x7ff);
        k = -64;
    }
    *e = be - 1022 + k;
    return asdouble((b & 0x800fffffffffffffULL) | 0x3fe0000000000000ULL);
}

float frexpf(float x, int *e)
{
    return (float)frexp(x, e);
}

double scalbn(double x, int n)
{
    uint64_t b = asu64(x);
    int be = (int)((b >> 52) & 0x7ff);
    if (be == 0x7ff || x == 0)
        return x + x;
    uint64_t sign = b & 0x8000000000000000ULL;
    uint64_t m = b & 0xfffffffffffffULL;
    int e; /* x = m * 2^(e - 1075), m with the leading bit at 52 */
    if (be == 0) {
        e = 1;
        while (!(m >> 52)) {
            m <<= 1;
            e--;
        }
    } else {
        m |= 1ULL << 52;
        e = be;
    }
    if (n > 3000)
        n = 3000;
    if (n < -3000)
        n = -3000;
    e += n;
    if (e >= 0x7ff)
        return set_errno(asdouble(sign | 0x7ff0000000000000ULL), ERANGE);
    if (e > 0)
        return asdouble(sign | ((uint64_t)e << 52) | (m & 0xfffffffffffffULL));
    /* Subnormal: shift right by 1 - e, rounding half to even. */
    int sh = 1 - e;
    uint64_t r;
    if (sh > 54) {
        r = 0;
    } else {
        uint64_t kept = m >> sh, rem = m & ((1ULL << sh) - 1), half = 1ULL << (sh - 1);
        r = kept + (rem > half || (rem == half && (kept & 1)));
        if (rem)
            errno = ERANGE;
    }
    if (r == 0)
        errno = ERANGE;
    return asdouble(sign | r);
}

double scalbln(double x, long n) { return scalbn(x, n > 3000 ? 3000 : n < -3000 ? -3000 : (int)n); }
double ldexp(double x, int n) { return scalbn(x, n); }

float scalbnf(float x, int n)
{
    /* The double result is exact unless far outside float's range; one
     * rounding to float then. */
    if (n > 400)
        n = 400;
    if (n < -400)
        n = -400;
    double r = scalbn((double)x, n);
    float f = (float)r;
    if ((f == 0 && x != 0) || ((asu32(f) & 0x7fffffffu) == 0x7f800000u && (asu32(x) & 0x7fffffffu) != 0x7f800000u) ||
        ((asu32(f) & 0x7f800000u) == 0 && (double)f != r))
        errno = ERANGE;
    return f;
}

float scalblnf(float x, long n) { return scalbnf(x, n > 400 ? 400 : n < -400 ? -400 : (int)n); }
float ldexpf(float x, int n) { return scalbnf(x, n); }

double modf(double x, double *ip)
{
    uint64_t b = asu64(x);
    int e = exp_field(x) - 1023;
    if (e >= 52) {
        *ip = x;
        if (e == 1024 && (b & 0xfffffffffffffULL))
            return x + x; /* NaN */
        return asdouble(b & 0x8000000000000000ULL);
    }
    if (e < 0) {
        *ip = asdouble(b & 0x8000000000000000ULL);
        return x;
    }
    uint64_t mask = 0xfffffffffffffULL >> e;
    if ((b & mask) == 0) {
        *ip = x;
        return asdouble(b & 0x8000000000000000ULL);
    }
    *ip = asdouble(b & ~mask);
    return x - *ip;
}

float modff(float x, float *ip)
{
    double i;
    double f = modf(x, &i);
    *ip = (float)i;
    return (float)f;
}

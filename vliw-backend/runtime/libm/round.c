/* round.c: rounding to integers, exact, by masking the fraction bits:
 * floor, ceil, trunc, round (half away from zero), rint and nearbyint (half
 * to even: the only rounding mode), lrint, llrint, lround, llround, for
 * double and float. Conversions out of range give the x86 result (the most
 * negative integer), like glibc on the host. */
#include <limits.h>
#include <math.h>

#include "libm.h"

/* x with the fraction bits cleared (toward zero). */
static double chop(double x)
{
    int e = exp_field(x) - 1023;
    if (e >= 52)
        return x != x ? x + x : x; /* integral or infinite; NaN quietened */
    if (e < 0)
        return asdouble(asu64(x) & 0x8000000000000000ULL);
    return asdouble(asu64(x) & ~(0xfffffffffffffULL >> e));
}

double trunc(double x) { return chop(x); }

double floor(double x)
{
    double t = chop(x);
    return t != x && x < 0 ? t - 1 : t;
}

double ceil(double x)
{
    double t = chop(x);
    if (t != x && x > 0)
        return t + 1;
    if (t == 0 && x < 0)
        return -0.0;
    return t;
}

double round(double x)
{
    double t = chop(x);
    double d = x - t; /* exact */
    if (d >= 0.5)
        return t + 1;
    if (d <= -0.5)
        return t - 1;
    return t;
}

double rint(double x)
{
    double a = fabs(x);
    if (!(a < 0x1p52))
        return x != x ? x + x : x;
    double r = (a + 0x1p52) - 0x1p52;
    return copysign(r, x);
}

double nearbyint(double x) { return rint(x); }

float truncf(float x) { return (float)trunc(x); }
float floorf(float x) { return (float)floor(x); }
float ceilf(float x) { return (float)ceil(x); }
float roundf(float x) { return (float)round(x); }
float rintf(float x) { return (float)rint(x); }
float nearbyintf(float x) { return (float)rint(x); }

static long long to_ll(double r)
{
    if (!(r >= -0x1p63 && r < 0x1p63))
        return LLONG_MIN;
    return (long long)r;
}

static long to_l(double r)
{
    if (!(r >= -0x1p31 && r < 0x1p31))
        return LONG_MIN;
    return (long)r;
}

long lrint(double x) { return to_l(rint(x)); }
long long llrint(double x) { return to_ll(rint(x)); }
long lround(double x) { return to_l(round(x)); }
long long llround(double x) { return to_ll(round(x)); }
long lrintf(float x) { return to_l(rint(x)); }
long long llrintf(float x) { return to_ll(rint(x)); }
long lroundf(float x) { return to_l(round(x)); }
long long llroundf(float x) { return to_ll(round(x)); }

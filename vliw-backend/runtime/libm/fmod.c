/* fmod.c: fmod, remainder and remquo, exact: the significands are divided
 * bit by bit (shift, compare, subtract) over the exponent difference,
 * keeping the low quotient bits for remquo; remainder then rounds the
 * quotient to nearest (ties to even). The float versions work in double,
 * where the exact result of float arguments is the same. Invalid cases
 * (y = 0, x infinite) set EDOM and give x86's default NaN, as glibc does on
 * the host. */
#include <math.h>

#include "libm.h"

/* |x| mod |y| for finite x, nonzero finite y; low quotient bits in *q. */
static double mod_abs(double x, double y, unsigned *q)
{
    uint64_t bx = asu64(x) & 0x7fffffffffffffffULL, by = asu64(y) & 0x7fffffffffffffffULL;
    *q = 0;
    if (bx < by)
        return asdouble(bx);
    int ex = (int)(bx >> 52), ey = (int)(by >> 52);
    uint64_t mx = bx & 0xfffffffffffffULL, my = by & 0xfffffffffffffULL;
    if (ex == 0) {
        ex = 1;
        while (!(mx >> 52)) {
            mx <<= 1;
            ex--;
        }
    } else {
        mx |= 1ULL << 52;
    }
    if (ey == 0) {
        ey = 1;
        while (!(my >> 52)) {
            my <<= 1;
            ey--;
        }
    } else {
        my |= 1ULL << 52;
    }
    unsigned quo = 0;
    for (; ex > ey; ex--) {
        if (mx >= my) {
            mx -= my;
            quo++;
        }
        mx <<= 1;
        quo <<= 1;
    }
    if (mx >= my) {
        mx -= my;
        quo++;
    }
    *q = quo;
    if (mx == 0)
        return 0.0;
    while (!(mx >> 52)) {
        mx <<= 1;
        ex--;
    }
    if (ex > 0)
        return asdouble(((uint64_t)ex << 52) | (mx & 0xfffffffffffffULL));
    return asdouble(mx >> (1 - ex)); /* subnormal: exact (the result is a multiple of y's ulp) */
}

static int bad_args(double x, double y)
{
    return exp_field(x) == 0x7ff || y == 0 || (exp_field(y) == 0x7ff && (asu64(y) & 0xfffffffffffffULL));
}

static double nan_result(double x, double y)
{
    if (x != x || y != y)
        return x + y;
    return set_errno(default_nan(), EDOM);
}

double fmod(double x, double y)
{
    if (bad_args(x, y))
        return nan_result(x, y);
    unsigned q;
    double r = mod_abs(x, y, &q);
    return copysign(r, x);
}

double remquo(double x, double y, int *quo)
{
    *quo = 0;
    if (bad_args(x, y))
        return nan_result(x, y);
    double ay = fabs(y);
    unsigned q = 0;
    double r;
    if (exp_field(y) == 0x7ff) {
        r = fabs(x);
    } else {
        r = mod_abs(x, y, &q);
        double t = 2 * r;
        if (t > ay || (t == ay && (q & 1))) {
            r -= ay;
            q++;
        }
    }
    int qs = (int)(q & 0x7fffffff);
    *quo = (asu64(x) ^ asu64(y)) >> 63 ? -qs : qs;
    return (asu64(x) >> 63) ? -r : r;
}

double remainder(double x, double y)
{
    int q;
    return remquo(x, y, &q);
}

float fmodf(float x, float y) { return (float)fmod(x, y); }
float remainderf(float x, float y) { return (float)remainder(x, y); }
float remquof(float x, float y, int *q) { return (float)remquo(x, y, q); }

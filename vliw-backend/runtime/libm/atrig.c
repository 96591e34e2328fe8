/* atrig.c: atan, atan2, asin, acos and their float versions, through the
 * double-double arctangent of kernels.c (asin x = atan(x / sqrt(1 - x^2)),
 * acos x = 2 atan(sqrt((1 - x)/(1 + x)))), rounded once. Arguments outside
 * [-1, 1] for asin/acos are domain errors (EDOM, x86's default NaN). */
#include <math.h>

#include "libm.h"

static result atan_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    double ax = fabs(x);
    if (ax < 0x1p-27)
        return exact_result(x); /* atan x = x - x^3/3 rounds to x */
    if (ax > 0x1p66) {
        /* pi/2 - 1/x */
        dd r = dd_add_d(__dd_pi_2, -1 / ax);
        return dd_result(x < 0 ? dd_neg(r) : r, 0);
    }
    return dd_result(__dd_atan(dd_from(x), acc), 0);
}

double atan(double x) { TWO_PHASE_DOUBLE(atan_core, x); }
float atanf(float x) { TWO_PHASE_FLOAT(atan_core, x); }

static result signed_dd(dd v, int neg)
{
    return dd_result(neg ? dd_neg(v) : v, 0);
}

static result atan2_core(double y, double x, int acc)
{
    if (x != x || y != y)
        return exact_result(x + y);
    int yneg = (int)(asu64(y) >> 63), xneg = (int)(asu64(x) >> 63);
    int yinf = exp_field(y) == 0x7ff, xinf = exp_field(x) == 0x7ff;
    if (y == 0) {
        if (!xneg)
            return exact_result(y); /* +-0 */
        return signed_dd(__dd_pi, yneg);
    }
    if (x == 0)
        return signed_dd(__dd_pi_2, yneg);
    if (yinf) {
        if (xinf)
            return signed_dd(xneg ? dd_mul_d(__dd_pi_4, 3) : __dd_pi_4, yneg);
        return signed_dd(__dd_pi_2, yneg);
    }
    if (xinf)
        return xneg ? signed_dd(__dd_pi, yneg) : exact_result(yneg ? -0.0 : 0.0);
    int ey = ilogb(y), ex = ilogb(x);
    if (ey - ex > 60) {
        /* |y/x| huge: pi/2 - x/y */
        dd r = dd_add_d(__dd_pi_2, -(x / fabs(y)));
        return signed_dd(r, yneg);
    }
    if (ex - ey > 60) {
        /* |y/x| tiny: y/x, or +-(pi - |y/x|) */
        if (!xneg)
            return exact_result(y / x);
        return signed_dd(dd_add_d(__dd_pi, -fabs(y / x)), yneg);
    }
    double ys = scalbn(y, -ex), xs = scalbn(x, -ex);
    dd a = __dd_atan(dd_div(dd_from(ys), dd_from(xs)), acc);
    if (xneg)
        a = yneg ? dd_sub(a, __dd_pi) : dd_add(a, __dd_pi);
    return dd_result(a, 0);
}

double atan2(double y, double x) { TWO_PHASE_DOUBLE(atan2_core, y, x); }
float atan2f(float y, float x) { TWO_PHASE_FLOAT(atan2_core, y, x); }

static result asin_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    double ax = fabs(x);
    if (ax > 1)
        return exact_result(set_errno(default_nan(), EDOM));
    if (ax < 0x1p-27)
        return exact_result(x); /* asin x = x + x^3/6 rounds to x */
    if (ax == 1)
        return signed_dd(__dd_pi_2, x < 0);
    dd c2 = dd_mul(two_sum(1.0, -ax), two_sum(1.0, ax)); /* 1 - x^2 */
    dd a = __dd_atan(dd_div(dd_from(ax), __dd_sqrt(c2)), acc);
    return signed_dd(a, x < 0);
}

double asin(double x) { TWO_PHASE_DOUBLE(asin_core, x); }
float asinf(float x) { TWO_PHASE_FLOAT(asin_core, x); }

static result acos_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (fabs(x) > 1)
        return exact_result(set_errno(default_nan(), EDOM));
    if (x == 1)
        return exact_result(0.0);
    if (x == -1)
        return dd_result(__dd_pi, 0);
    dd t = dd_div(two_sum(1.0, -x), two_sum(1.0, x));
    dd a = __dd_atan(__dd_sqrt(t), acc);
    return dd_result(dd_ldexp(a, 1), 0);
}

double acos(double x) { TWO_PHASE_DOUBLE(acos_core, x); }
float acosf(float x) { TWO_PHASE_FLOAT(acos_core, x); }

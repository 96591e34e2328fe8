/* hyper.c: sinh, cosh, tanh, asinh, acosh, atanh and their float
 * versions, from the double-double exp/expm1/log kernels, rounded once.
 * Overflow gives +-inf with ERANGE; acosh(x < 1) and atanh(|x| > 1) are
 * domain errors (EDOM, x86's default NaN), atanh(+-1) a pole (ERANGE). */
#include <math.h>

#include "libm.h"

/* e^a - 1 for 0 <= a <= 40, relative accuracy kept for small a. */
static dd expm1_pos(double a, int acc)
{
    if (a <= 0.35)
        return __dd_expm1_small(dd_from(a), acc);
    int k;
    dd e = __dd_exp(dd_from(a), &k, acc);
    return dd_add_d(dd_ldexp(e, k), -1.0);
}

static result sinh_core(double x, int acc)
{
    if (x != x || exp_field(x) == 0x7ff)
        return exact_result(x + x);
    double a = fabs(x);
    int neg = x < 0;
    if (a < 0x1p-27)
        return exact_result(x); /* sinh x = x + x^3/6 rounds to x */
    if (a > 711)
        return exact_result(set_errno(neg ? -__builtin_inf() : __builtin_inf(), ERANGE));
    if (a > 40) {
        /* e^a / 2: e^-a is below the last bit */
        int k;
        dd e = __dd_exp(dd_from(a), &k, acc);
        return dd_result(neg ? dd_neg(e) : e, k - 1);
    }
    /* (E + E/(E + 1)) / 2 with E = e^a - 1 */
    dd e = expm1_pos(a, acc);
    dd s = dd_ldexp(dd_add(e, dd_div(e, dd_add_d(e, 1.0))), -1);
    return dd_result(neg ? dd_neg(s) : s, 0);
}

static result cosh_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    double a = fabs(x);
    if (exp_field(x) == 0x7ff)
        return exact_result(a);
    if (a < 0x1p-27)
        return dd_result(dd_add_d(dd_from(0x1p-60), 1.0), 0); /* 1 + x^2/2 */
    if (a > 711)
        return exact_result(set_errno(__builtin_inf(), ERANGE));
    if (a > 40) {
        int k;
        dd e = __dd_exp(dd_from(a), &k, acc);
        return dd_result(e, k - 1);
    }
    /* 1 + E^2 / (2 (E + 1)) */
    dd e = expm1_pos(a, acc);
    dd c = dd_add_d(dd_div(dd_sqr(e), dd_ldexp(dd_add_d(e, 1.0), 1)), 1.0);
    return dd_result(c, 0);
}

static result tanh_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    double a = fabs(x);
    int neg = x < 0;
    if (a > 22)
        return exact_result(neg ? -1.0 : 1.0); /* 1 - 2e^-2a rounds to 1 */
    if (a < 0x1p-27)
        return exact_result(x); /* tanh x = x - x^3/3 rounds to x */
    /* E / (E + 2) with E = e^2a - 1 */
    dd e = expm1_pos(2 * a, acc);
    dd t = dd_div(e, dd_add_d(e, 2.0));
    return dd_result(neg ? dd_neg(t) : t, 0);
}

double sinh(double x) { TWO_PHASE_DOUBLE(sinh_core, x); }
double cosh(double x) { TWO_PHASE_DOUBLE(cosh_core, x); }
double tanh(double x) { TWO_PHASE_DOUBLE(tanh_core, x); }
float sinhf(float x) { TWO_PHASE_FLOAT(sinh_core, x); }
float coshf(float x) { TWO_PHASE_FLOAT(cosh_core, x); }
float tanhf(float x) { TWO_PHASE_FLOAT(tanh_core, x); }

static result asinh_core(double x, int acc)
{
    if (x != x || exp_field(x) == 0x7ff)
        return exact_result(x + x);
    double a = fabs(x);
    int neg = x < 0;
    if (a < 0x1p-27)
        return exact_result(x); /* asinh x = x - x^3/6 rounds to x */
    dd r;
    if (a > 0x1p28) {
        r = dd_add(__dd_log(dd_from(a), acc), __dd_ln2); /* log 2a */
    } else {
        dd s = __dd_sqrt(dd_add_d(dd_sqr(dd_from(a)), 1.0));
        r = __dd_log(dd_add_d(s, a), acc);
    }
    return dd_result(neg ? dd_neg(r) : r, 0);
}

static result acosh_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (x < 1)
        return exact_result(set_errno(default_nan(), EDOM));
    if (x == 1)
        return exact_result(0.0);
    if (exp_field(x) == 0x7ff)
        return exact_result(x);
    if (x > 0x1p28)
        return dd_result(dd_add(__dd_log(dd_from(x), acc), __dd_ln2), 0);
    dd s = __dd_sqrt(dd_mul(two_sum(x, -1.0), two_sum(x, 1.0))); /* sqrt(x^2 - 1) */
    return dd_result(__dd_log(dd_add_d(s, x), acc), 0);
}

static result atanh_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    double a = fabs(x);
    if (a > 1)
        return exact_result(set_errno(default_nan(), EDOM));
    if (a == 1)
        return exact_result(set_errno(x > 0 ? __builtin_inf() : -__builtin_inf(), ERANGE));
    if (a < 0x1p-27)
        return exact_result(x); /* atanh x = x + x^3/3 rounds to x */
    dd r = dd_ldexp(__dd_log(dd_div(two_sum(1.0, a), two_sum(1.0, -a)), acc), -1);
    return dd_result(x < 0 ? dd_neg(r) : r, 0);
}

double asinh(double x) { TWO_PHASE_DOUBLE(asinh_core, x); }
double acosh(double x) { TWO_PHASE_DOUBLE(acosh_core, x); }
double atanh(double x) { TWO_PHASE_DOUBLE(atanh_core, x); }
float asinhf(float x) { TWO_PHASE_FLOAT(asinh_core, x); }
float acoshf(float x) { TWO_PHASE_FLOAT(acosh_core, x); }
float atanhf(float x) { TWO_PHASE_FLOAT(atanh_core, x); }

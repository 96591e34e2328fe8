/* exp.c: exp, exp2, expm1 and their float versions, evaluated in
 * double-double (kernels.c) and rounded once. Overflow gives +inf and
 * underflow 0 (or a correctly rounded subnormal), both with ERANGE. */
#include <math.h>

#include "libm.h"

static result exp_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (x > 710)
        return exact_result(set_errno(__builtin_inf(), ERANGE));
    if (x < -746)
        return exact_result(set_errno(0.0, ERANGE));
    if (x > -0x1p-60 && x < 0x1p-60)
        return dd_result(dd_add_d(dd_from(x), 1.0), 0);
    int k;
    dd r = __dd_exp(dd_from(x), &k, acc);
    return dd_result(r, k);
}

double exp(double x) { TWO_PHASE_DOUBLE(exp_core, x); }
float expf(float x) { TWO_PHASE_FLOAT(exp_core, x); }

static result exp2_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (x >= 1024)
        return exact_result(set_errno(__builtin_inf(), ERANGE));
    if (x < -1080)
        return exact_result(set_errno(0.0, ERANGE));
    /* 2^x = 2^n * e^(f ln2), n = nearest integer, |f| <= 1/2 (exact) */
    double n = round_even(x);
    double f = x - n;
    dd e = dd_add_d(__dd_expm1_small(dd_mul_d(__dd_ln2, f), acc), 1.0);
    return dd_result(e, (int)n);
}

double exp2(double x) { TWO_PHASE_DOUBLE(exp2_core, x); }
float exp2f(float x) { TWO_PHASE_FLOAT(exp2_core, x); }

static result expm1_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (x > 710)
        return exact_result(set_errno(__builtin_inf(), ERANGE));
    if (x < -40)
        return dd_result(dd_add_d(dd_from(-1.0), 0x1p-60), 0); /* -1 + e^x, e^x below half an ulp */
    if (x > -0x1p-60 && x < 0x1p-60)
        return exact_result(x); /* expm1(x) = x + x^2/2: rounds to x */
    if (x > -0.35 && x < 0.35)
        return dd_result(__dd_expm1_small(dd_from(x), acc), 0);
    int k;
    dd r = __dd_exp(dd_from(x), &k, acc);
    if (k > 1000) /* far from -1: e^x alone */
        return dd_result(r, k);
    return dd_result(dd_add_d(dd_ldexp(r, k), -1.0), 0);
}

double expm1(double x) { TWO_PHASE_DOUBLE(expm1_core, x); }
float expm1f(float x) { TWO_PHASE_FLOAT(expm1_core, x); }

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

__attribute__((noinline)) static float expf_accurate(float x) { TWO_PHASE_FLOAT(exp_core, x); }

#ifdef LIBM_FAST_FLOAT
/* 2^(j/32) as float-float (gen: Python's decimal, 80 digits, each part
 * rounded to nearest); the constants and expf_ff, the fast path shared
 * with powf, are in libm.h. */
const float __expf_hi[32] = {0x1.0000000000000p+0f, 0x1.059b0e0000000p+0f, 0x1.0b55860000000p+0f, 0x1.11301e0000000p+0f, 0x1.172b840000000p+0f, 0x1.1d48740000000p+0f, 0x1.2387a60000000p+0f, 0x1.29e9e00000000p+0f, 0x1.306fe00000000p+0f, 0x1.371a740000000p+0f, 0x1.3dea640000000p+0f, 0x1.44e0860000000p+0f, 0x1.4bfdae0000000p+0f, 0x1.5342b60000000p+0f, 0x1.5ab07e0000000p+0f, 0x1.6247ec0000000p+0f, 0x1.6a09e60000000p+0f, 0x1.71f75e0000000p+0f, 0x1.7a11480000000p+0f, 0x1.82589a0000000p+0f, 0x1.8ace540000000p+0f, 0x1.93737c0000000p+0f, 0x1.9c49180000000p+0f, 0x1.a5503c0000000p+0f, 0x1.ae89fa0000000p+0f, 0x1.b7f7700000000p+0f, 0x1.c199be0000000p+0f, 0x1.cb720e0000000p+0f, 0x1.d5818e0000000p+0f, 0x1.dfc9740000000p+0f, 0x1.ea4afa0000000p+0f, 0x1.f507660000000p+0f};
const float __expf_lo[32] = {0x0.0p+0f, -0x1.9d4f520000000p-25f, 0x1.9f31220000000p-25f, -0x1.fdb4960000000p-25f, -0x1.c157420000000p-27f, -0x1.d2e8ca0000000p-25f, 0x1.ceac480000000p-25f, -0x1.5c04240000000p-25f, 0x1.4636e20000000p-25f, -0x1.18aac60000000p-25f, 0x1.8246840000000p-25f, 0x1.8624b40000000p-30f, -0x1.593abc0000000p-25f, -0x1.2c56100000000p-25f, -0x1.5bd5ec0000000p-27f, -0x1.f8b5500000000p-25f, 0x1.9fcef40000000p-26f, 0x1.1d8bee0000000p-25f, -0x1.829fd00000000p-25f, -0x1.accc7c0000000p-26f, 0x1.15506e0000000p-27f, -0x1.e647440000000p-25f, 0x1.51f8480000000p-27f, -0x1.b83b540000000p-25f, -0x1.a94b140000000p-26f, -0x1.a094380000000p-25f, -0x1.3d56b20000000p-27f, -0x1.8837cc0000000p-27f, -0x1.822dbc0000000p-27f, -0x1.908c940000000p-25f, 0x1.52486c0000000p-27f, -0x1.246eb00000000p-26f};

/* e^x for -87 <= x <= 88.5 (normal results), or -1 when the rounding test
 * cannot vouch for the result (about 0.07% of the floats in range): see
 * expf_ff (every float in range checked on the host: no wrong result). */
static inline float expf_fast(float x) { return expf_ff(x, -0.0f, 0x1p-33f); }
#endif

/* e^x is positive: -1 says "cannot vouch" (a test on the sign is cheaper in
 * the vector variant than the NaN test of FAST_THEN_ACCURATE). */
float expf(float x)
{
#ifdef LIBM_FAST_FLOAT
    float y = expf_fast(x);
    if (y >= 0.0f)
        return y;
#endif
    return expf_accurate(x);
}

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

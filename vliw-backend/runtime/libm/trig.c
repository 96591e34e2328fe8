/* trig.c: sin, cos, tan and their float versions: exact reduction modulo
 * pi/2 (Payne-Hanek, kernels.c), then the sine or cosine series of the
 * reduced argument in double-double, rounded once. Infinite arguments are
 * domain errors (EDOM, x86's default NaN). */
#include <math.h>

#include "libm.h"

static int trig_special(double x, result *r)
{
    if (x != x) {
        *r = exact_result(x + x);
        return 1;
    }
    if (exp_field(x) == 0x7ff) {
        *r = exact_result(set_errno(default_nan(), EDOM));
        return 1;
    }
    return 0;
}

static result sin_core(double x, int acc)
{
    result res;
    if (trig_special(x, &res))
        return res;
    if (x > -0x1p-27 && x < 0x1p-27)
        return exact_result(x); /* sin x = x - x^3/6 rounds to x */
    int q;
    dd r = __dd_rem_pio2(x, &q);
    dd v = (q & 1) ? __dd_cos_kernel(r, acc) : __dd_sin_kernel(r, acc);
    return dd_result(q & 2 ? dd_neg(v) : v, 0);
}

static result cos_core(double x, int acc)
{
    result res;
    if (trig_special(x, &res))
        return res;
    if (x > -0x1p-27 && x < 0x1p-27)
        return dd_result(dd_add_d(dd_from(-0x1p-60), 1.0), 0); /* 1 - x^2/2 */
    int q;
    dd r = __dd_rem_pio2(x, &q);
    dd v = (q & 1) ? __dd_sin_kernel(r, acc) : __dd_cos_kernel(r, acc);
    return dd_result((q == 1 || q == 2) ? dd_neg(v) : v, 0);
}

static result tan_core(double x, int acc)
{
    result res;
    if (trig_special(x, &res))
        return res;
    if (x > -0x1p-27 && x < 0x1p-27)
        return exact_result(x); /* tan x = x + x^3/3 rounds to x */
    int q;
    dd r = __dd_rem_pio2(x, &q);
    dd s = __dd_sin_kernel(r, acc), c = __dd_cos_kernel(r, acc);
    dd t = (q & 1) ? dd_neg(dd_div(c, s)) : dd_div(s, c);
    return dd_result(t, 0);
}

double sin(double x) { TWO_PHASE_DOUBLE(sin_core, x); }
double cos(double x) { TWO_PHASE_DOUBLE(cos_core, x); }
double tan(double x) { TWO_PHASE_DOUBLE(tan_core, x); }
__attribute__((noinline)) static float sinf_accurate(float x) { TWO_PHASE_FLOAT(sin_core, x); }
__attribute__((noinline)) static float cosf_accurate(float x) { TWO_PHASE_FLOAT(cos_core, x); }

#ifdef LIBM_FAST_FLOAT
/* sin(j pi/32) and cos(j pi/32) as float-float (gen: Python's decimal, 100
 * digits, pi by Machin's formula; the zeros exact), pi/32 in four parts (the
 * first two of 10 bits: k·P1 and k·P2 exact for |k| < 2^14) and 32/pi. */
static const float sc_sin_hi[64] = {0x0.0p+0f, 0x1.917a6c0000000p-4f, 0x1.8f8b840000000p-3f, 0x1.2940620000000p-2f, 0x1.87de2a0000000p-2f, 0x1.e2b5d40000000p-2f, 0x1.1c73b40000000p-1f, 0x1.44cf320000000p-1f, 0x1.6a09e60000000p-1f, 0x1.8bc8060000000p-1f, 0x1.a9b6620000000p-1f, 0x1.c38b300000000p-1f, 0x1.d906bc0000000p-1f, 0x1.e9f4160000000p-1f, 0x1.f6297c0000000p-1f, 0x1.fd88da0000000p-1f, 0x1.0000000000000p+0f, 0x1.fd88da0000000p-1f, 0x1.f6297c0000000p-1f, 0x1.e9f4160000000p-1f, 0x1.d906bc0000000p-1f, 0x1.c38b300000000p-1f, 0x1.a9b6620000000p-1f, 0x1.8bc8060000000p-1f, 0x1.6a09e60000000p-1f, 0x1.44cf320000000p-1f, 0x1.1c73b40000000p-1f, 0x1.e2b5d40000000p-2f, 0x1.87de2a0000000p-2f, 0x1.2940620000000p-2f, 0x1.8f8b840000000p-3f, 0x1.917a6c0000000p-4f, 0x0.0p+0f, -0x1.917a6c0000000p-4f, -0x1.8f8b840000000p-3f, -0x1.2940620000000p-2f, -0x1.87de2a0000000p-2f, -0x1.e2b5d40000000p-2f, -0x1.1c73b40000000p-1f, -0x1.44cf320000000p-1f, -0x1.6a09e60000000p-1f, -0x1.8bc8060000000p-1f, -0x1.a9b6620000000p-1f, -0x1.c38b300000000p-1f, -0x1.d906bc0000000p-1f, -0x1.e9f4160000000p-1f, -0x1.f6297c0000000p-1f, -0x1.fd88da0000000p-1f, -0x1.0000000000000p+0f, -0x1.fd88da0000000p-1f, -0x1.f6297c0000000p-1f, -0x1.e9f4160000000p-1f, -0x1.d906bc0000000p-1f, -0x1.c38b300000000p-1f, -0x1.a9b6620000000p-1f, -0x1.8bc8060000000p-1f, -0x1.6a09e60000000p-1f, -0x1.44cf320000000p-1f, -0x1.1c73b40000000p-1f, -0x1.e2b5d40000000p-2f, -0x1.87de2a0000000p-2f, -0x1.2940620000000p-2f, -0x1.8f8b840000000p-3f, -0x1.917a6c0000000p-4f};
static const float sc_sin_lo[64] = {0x0.0p+0f, -0x1.eb25ea0000000p-31f, -0x1.cb2cfa0000000p-30f, 0x1.dab3e00000000p-27f, 0x1.abaa580000000p-28f, -0x1.fe42720000000p-28f, -0x1.9465ce0000000p-27f, 0x1.4247760000000p-27f, 0x1.9fcef40000000p-27f, 0x1.62a2e80000000p-26f, 0x1.21d4340000000p-26f, -0x1.cfe84a0000000p-26f, 0x1.e651a80000000p-26f, -0x1.273a440000000p-26f, 0x1.feeb960000000p-26f, 0x1.e892920000000p-28f, -0x0.0p+0f, 0x1.e892920000000p-28f, 0x1.feeb960000000p-26f, -0x1.273a440000000p-26f, 0x1.e651a80000000p-26f, -0x1.cfe84a0000000p-26f, 0x1.21d4340000000p-26f, 0x1.62a2e80000000p-26f, 0x1.9fcef40000000p-27f, 0x1.4247760000000p-27f, -0x1.9465ce0000000p-27f, -0x1.fe42720000000p-28f, 0x1.abaa580000000p-28f, 0x1.dab3e00000000p-27f, -0x1.cb2cfa0000000p-30f, -0x1.eb25ea0000000p-31f, 0x0.0p+0f, 0x1.eb25ea0000000p-31f, 0x1.cb2cfa0000000p-30f, -0x1.dab3e00000000p-27f, -0x1.abaa580000000p-28f, 0x1.fe42720000000p-28f, 0x1.9465ce0000000p-27f, -0x1.4247760000000p-27f, -0x1.9fcef40000000p-27f, -0x1.62a2e80000000p-26f, -0x1.21d4340000000p-26f, 0x1.cfe84a0000000p-26f, -0x1.e651a80000000p-26f, 0x1.273a440000000p-26f, -0x1.feeb960000000p-26f, -0x1.e892920000000p-28f, -0x0.0p+0f, -0x1.e892920000000p-28f, -0x1.feeb960000000p-26f, 0x1.273a440000000p-26f, -0x1.e651a80000000p-26f, 0x1.cfe84a0000000p-26f, -0x1.21d4340000000p-26f, -0x1.62a2e80000000p-26f, -0x1.9fcef40000000p-27f, -0x1.4247760000000p-27f, 0x1.9465ce0000000p-27f, 0x1.fe42720000000p-28f, -0x1.abaa580000000p-28f, -0x1.dab3e00000000p-27f, 0x1.cb2cfa0000000p-30f, 0x1.eb25ea0000000p-31f};
static const float sc_cos_hi[64] = {0x1.0000000000000p+0f, 0x1.fd88da0000000p-1f, 0x1.f6297c0000000p-1f, 0x1.e9f4160000000p-1f, 0x1.d906bc0000000p-1f, 0x1.c38b300000000p-1f, 0x1.a9b6620000000p-1f, 0x1.8bc8060000000p-1f, 0x1.6a09e60000000p-1f, 0x1.44cf320000000p-1f, 0x1.1c73b40000000p-1f, 0x1.e2b5d40000000p-2f, 0x1.87de2a0000000p-2f, 0x1.2940620000000p-2f, 0x1.8f8b840000000p-3f, 0x1.917a6c0000000p-4f, 0x0.0p+0f, -0x1.917a6c0000000p-4f, -0x1.8f8b840000000p-3f, -0x1.2940620000000p-2f, -0x1.87de2a0000000p-2f, -0x1.e2b5d40000000p-2f, -0x1.1c73b40000000p-1f, -0x1.44cf320000000p-1f, -0x1.6a09e60000000p-1f, -0x1.8bc8060000000p-1f, -0x1.a9b6620000000p-1f, -0x1.c38b300000000p-1f, -0x1.d906bc0000000p-1f, -0x1.e9f4160000000p-1f, -0x1.f6297c0000000p-1f, -0x1.fd88da0000000p-1f, -0x1.0000000000000p+0f, -0x1.fd88da0000000p-1f, -0x1.f6297c0000000p-1f, -0x1.e9f4160000000p-1f, -0x1.d906bc0000000p-1f, -0x1.c38b300000000p-1f, -0x1.a9b6620000000p-1f, -0x1.8bc8060000000p-1f, -0x1.6a09e60000000p-1f, -0x1.44cf320000000p-1f, -0x1.1c73b40000000p-1f, -0x1.e2b5d40000000p-2f, -0x1.87de2a0000000p-2f, -0x1.2940620000000p-2f, -0x1.8f8b840000000p-3f, -0x1.917a6c0000000p-4f, 0x0.0p+0f, 0x1.917a6c0000000p-4f, 0x1.8f8b840000000p-3f, 0x1.2940620000000p-2f, 0x1.87de2a0000000p-2f, 0x1.e2b5d40000000p-2f, 0x1.1c73b40000000p-1f, 0x1.44cf320000000p-1f, 0x1.6a09e60000000p-1f, 0x1.8bc8060000000p-1f, 0x1.a9b6620000000p-1f, 0x1.c38b300000000p-1f, 0x1.d906bc0000000p-1f, 0x1.e9f4160000000p-1f, 0x1.f6297c0000000p-1f, 0x1.fd88da0000000p-1f};
static const float sc_cos_lo[64] = {0x0.0p+0f, 0x1.e892920000000p-28f, 0x1.feeb960000000p-26f, -0x1.273a440000000p-26f, 0x1.e651a80000000p-26f, -0x1.cfe84a0000000p-26f, 0x1.21d4340000000p-26f, 0x1.62a2e80000000p-26f, 0x1.9fcef40000000p-27f, 0x1.4247760000000p-27f, -0x1.9465ce0000000p-27f, -0x1.fe42720000000p-28f, 0x1.abaa580000000p-28f, 0x1.dab3e00000000p-27f, -0x1.cb2cfa0000000p-30f, -0x1.eb25ea0000000p-31f, 0x0.0p+0f, 0x1.eb25ea0000000p-31f, 0x1.cb2cfa0000000p-30f, -0x1.dab3e00000000p-27f, -0x1.abaa580000000p-28f, 0x1.fe42720000000p-28f, 0x1.9465ce0000000p-27f, -0x1.4247760000000p-27f, -0x1.9fcef40000000p-27f, -0x1.62a2e80000000p-26f, -0x1.21d4340000000p-26f, 0x1.cfe84a0000000p-26f, -0x1.e651a80000000p-26f, 0x1.273a440000000p-26f, -0x1.feeb960000000p-26f, -0x1.e892920000000p-28f, -0x0.0p+0f, -0x1.e892920000000p-28f, -0x1.feeb960000000p-26f, 0x1.273a440000000p-26f, -0x1.e651a80000000p-26f, 0x1.cfe84a0000000p-26f, -0x1.21d4340000000p-26f, -0x1.62a2e80000000p-26f, -0x1.9fcef40000000p-27f, -0x1.4247760000000p-27f, 0x1.9465ce0000000p-27f, 0x1.fe42720000000p-28f, -0x1.abaa580000000p-28f, -0x1.dab3e00000000p-27f, 0x1.cb2cfa0000000p-30f, 0x1.eb25ea0000000p-31f, 0x0.0p+0f, -0x1.eb25ea0000000p-31f, -0x1.cb2cfa0000000p-30f, 0x1.dab3e00000000p-27f, 0x1.abaa580000000p-28f, -0x1.fe42720000000p-28f, -0x1.9465ce0000000p-27f, 0x1.4247760000000p-27f, 0x1.9fcef40000000p-27f, 0x1.62a2e80000000p-26f, 0x1.21d4340000000p-26f, -0x1.cfe84a0000000p-26f, 0x1.e651a80000000p-26f, -0x1.273a440000000p-26f, 0x1.feeb960000000p-26f, 0x1.e892920000000p-28f};
#define SC_P1 0x1.9200000000000p-4f
#define SC_P2 0x1.fb80000000000p-16f
#define SC_P3 -0x1.5dde980000000p-27f
#define SC_P4 0x1.84698a0000000p-52f
#define SC_INV 0x1.45f3060000000p+3f

/* sin x (want_cos 0) or cos x for |x| < 1024, or a NaN when the rounding
 * test cannot vouch for the result (about 0.05%): k = round(32x/pi),
 * r = x - k pi/32 as float-float (Cody-Waite with exact products and
 * TwoSum), sin(k pi/32 + r) = S cos r + C sin r with S, C from the table
 * (cos x = sin(x + pi/2): the index moves by 16), sin r - r and cos r - 1
 * as polynomials in r, the large products split by fmas and summed with
 * TwoSum. Tiny x: x (sin) or 1 (cos). The result stands when rounding it
 * with 2^-33 relative added and subtracted gives the same float (every float
 * with |x| < 1024 checked on the host: no wrong result). */
static inline float sincosf_fast(float x, int want_cos)
{
    uint32_t ax = asu32(x) & 0x7fffffffu;
    if (ax >= 0x44800000u)   /* |x| >= 1024, inf, NaN */
        return asfloat(0x7fc00000u);
    if (ax < 0x39800000u)    /* |x| < 2^-12: x or 1 */
        return want_cos ? 1.0f : x;
    const float magic = 0x1.8p23f;
    float t = fma32(x, SC_INV, magic);
    int32_t k = (int32_t)(asu32(t) - asu32(magic));
    float kf = t - magic;
    float r0 = x - kf * SC_P1;
    float q2 = kf * SC_P2;
    float a, ae, b, be;
    TWO_SUM(a, ae, r0, -q2);
    float q3 = kf * SC_P3;
    float q3e = fma32(kf, SC_P3, -q3);
    TWO_SUM(b, be, a, -q3);
    float lo = (ae + be) - fma32(kf, SC_P4, q3e);
    float rh = b + lo;
    float rl = lo - (rh - b);
    int j = k & 63;
    if (want_cos) j = (j + 16) & 63;   /* cos(x) = sin(x + pi/2) */
    float Sh = sc_sin_hi[j], Sl = sc_sin_lo[j], Ch = sc_cos_hi[j], Cl = sc_cos_lo[j];
    /* sin(a + r) = S cos r + C sin r */
    float r2 = rh * rh;
    float r2e = fma32(rh, rh, -r2);
    float st = r2 * rh * (-0x1.555556p-3f + r2 * (0x1.111112p-7f - r2 * 0x1.a01a02p-13f));   /* sin r - r */
    float cmh = -0.5f * r2;                                                                  /* cos r - 1, large part */
    float cml = fma32(-0.5f, r2e, -rh * rl) + r2 * r2 * (0x1.555556p-5f - r2 * 0x1.6c16c2p-10f);
    float P = Ch * rh;
    float Pe = fma32(Ch, rh, -P);
    float Q = Sh * cmh;
    float Qe = fma32(Sh, cmh, -Q);
    float s1, e1, s2, e2;
    TWO_SUM(s1, e1, Sh, P);
    TWO_SUM(s2, e2, s1, Q);
    float small = (e1 + e2) + ((Pe + Qe) + (Sl + (fma32(Ch, rl + st, Cl * rh) + fma32(Sh, cml, Sl * cmh))));
    float eps = asfloat(asu32(s2) & 0x7fffffffu) * 0x1p-33f;
    float y1 = s2 + (small + eps), y2 = s2 + (small - eps);
    if (y1 != y2)
        return asfloat(0x7fc00000u);
    return y1;
}

static inline float sinf_fast(float x) { return sincosf_fast(x, 0); }
static inline float cosf_fast(float x) { return sincosf_fast(x, 1); }
#endif

float sinf(float x) { FAST_THEN_ACCURATE(sinf_fast, sinf_accurate, x); }
float cosf(float x) { FAST_THEN_ACCURATE(cosf_fast, cosf_accurate, x); }
float tanf(float x) { TWO_PHASE_FLOAT(tan_core, x); }

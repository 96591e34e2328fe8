/* log.c: log, log2, log10, log1p and their float versions, evaluated in
 * double-double (kernels.c) and rounded once. log(0) is -inf with ERANGE,
 * log of a negative number x86's default NaN with EDOM (glibc's errno
 * conventions). */
#include <math.h>

#include "libm.h"

/* The special cases shared by the log family; 1 if *r is the result. */
static int log_special(double x, result *r)
{
    if (x != x) {
        *r = exact_result(x + x);
        return 1;
    }
    if (x < 0) {
        *r = exact_result(set_errno(default_nan(), EDOM));
        return 1;
    }
    if (x == 0) {
        *r = exact_result(set_errno(-__builtin_inf(), ERANGE));
        return 1;
    }
    if (exp_field(x) == 0x7ff) {
        *r = exact_result(x);
        return 1;
    }
    if (x == 1) {
        *r = exact_result(0.0);
        return 1;
    }
    return 0;
}

static result log_core(double x, int acc)
{
    result r;
    if (log_special(x, &r))
        return r;
    return dd_result(__dd_log(dd_from(x), acc), 0);
}

double log(double x) { TWO_PHASE_DOUBLE(log_core, x); }
__attribute__((noinline)) static float logf_accurate(float x) { TWO_PHASE_FLOAT(log_core, x); }

#ifdef LIBM_FAST_FLOAT
/* Buckets of 2^17 patterns over [sqrt(2)/2, sqrt(2)): 1/c rounded to float
 * for the bucket's centre c (exactly 1 for the two buckets around 1), and
 * -log of it as float-float (gen: Python's decimal, 80 digits), shared with
 * powf (logf_reduce in libm.h); ln2 with 16 bits (e·Lhi exact) and the
 * rest. */
const float __logf_inv[65] = {0x1.690f880000000p+0f, 0x1.661ec80000000p+0f, 0x1.623fa80000000p+0f, 0x1.5e75bc0000000p+0f, 0x1.5ac0580000000p+0f, 0x1.571ed40000000p+0f, 0x1.5390960000000p+0f, 0x1.5015020000000p+0f, 0x1.4cab8a0000000p+0f, 0x1.4953a00000000p+0f, 0x1.460cbe0000000p+0f, 0x1.42d6640000000p+0f, 0x1.3fb0140000000p+0f, 0x1.3c995c0000000p+0f, 0x1.3991c40000000p+0f, 0x1.3698e00000000p+0f, 0x1.33ae460000000p+0f, 0x1.30d1900000000p+0f, 0x1.2e025c0000000p+0f, 0x1.2b404c0000000p+0f, 0x1.288b020000000p+0f, 0x1.25e2280000000p+0f, 0x1.2345680000000p+0f, 0x1.20b4720000000p+0f, 0x1.1e2ef40000000p+0f, 0x1.1bb4a40000000p+0f, 0x1.1945380000000p+0f, 0x1.16e06a0000000p+0f, 0x1.1485f20000000p+0f, 0x1.1235900000000p+0f, 0x1.0fef020000000p+0f, 0x1.0db20c0000000p+0f, 0x1.0b7e700000000p+0f, 0x1.0953f40000000p+0f, 0x1.0732620000000p+0f, 0x1.0519800000000p+0f, 0x1.03091c0000000p+0f, 0x1.0000000000000p+0f, 0x1.0000000000000p+0f, 0x1.f4465c0000000p-1f, 0x1.ecc07e0000000p-1f, 0x1.e573ae0000000p-1f, 0x1.de5d700000000p-1f, 0x1.d77b660000000p-1f, 0x1.d0cb5a0000000p-1f, 0x1.ca4b320000000p-1f, 0x1.c3f8f20000000p-1f, 0x1.bdd2ba0000000p-1f, 0x1.b7d6c60000000p-1f, 0x1.b203660000000p-1f, 0x1.ac57040000000p-1f, 0x1.a6d01c0000000p-1f, 0x1.a16d400000000p-1f, 0x1.9c2d160000000p-1f, 0x1.970e500000000p-1f, 0x1.920fb60000000p-1f, 0x1.8d301a0000000p-1f, 0x1.886e600000000p-1f, 0x1.83c9780000000p-1f, 0x1.7f40600000000p-1f, 0x1.7ad2220000000p-1f, 0x1.767dd00000000p-1f, 0x1.72428a0000000p-1f, 0x1.6e1f780000000p-1f, 0x1.6a13ce0000000p-1f};
const float __logf_hi[65] = {-0x1.601f140000000p-2f, -0x1.57bf7a0000000p-2f, -0x1.4c9e0c0000000p-2f, -0x1.419b440000000p-2f, -0x1.36b67c0000000p-2f, -0x1.2bef080000000p-2f, -0x1.21445c0000000p-2f, -0x1.16b5ce0000000p-2f, -0x1.0c42dc0000000p-2f, -0x1.01eaea0000000p-2f, -0x1.ef5ae80000000p-3f, -0x1.db13e60000000p-3f, -0x1.c6ffbc0000000p-3f, -0x1.b31d900000000p-3f, -0x1.9f6c480000000p-3f, -0x1.8beb040000000p-3f, -0x1.7898da0000000p-3f, -0x1.6574ec0000000p-3f, -0x1.527e5e0000000p-3f, -0x1.3fb4620000000p-3f, -0x1.2d16160000000p-3f, -0x1.1aa2be0000000p-3f, -0x1.08598e0000000p-3f, -0x1.ec73aa0000000p-4f, -0x1.c885840000000p-4f, -0x1.a4e7640000000p-4f, -0x1.8197e20000000p-4f, -0x1.5e95ba0000000p-4f, -0x1.3bdf6c0000000p-4f, -0x1.1973d40000000p-4f, -0x1.eea3380000000p-5f, -0x1.aaef5a0000000p-5f, -0x1.67c9760000000p-5f, -0x1.252f400000000p-5f, -0x1.c63d840000000p-6f, -0x1.432ab20000000p-6f, -0x1.8244e00000000p-7f, 0x0.0p+0f, 0x0.0p+0f, 0x1.7b916c0000000p-6f, 0x1.39e84c0000000p-5f, 0x1.b42dbe0000000p-5f, 0x1.1653600000000p-4f, 0x1.51b06e0000000p-4f, 0x1.8c34540000000p-4f, 0x1.c5e53a0000000p-4f, 0x1.fec9020000000p-4f, 0x1.1b72a60000000p-3f, 0x1.371fb80000000p-3f, 0x1.526e540000000p-3f, 0x1.6d60f40000000p-3f, 0x1.87f9fe0000000p-3f, 0x1.a23bc00000000p-3f, 0x1.bc28620000000p-3f, 0x1.d5c2140000000p-3f, 0x1.ef0ad60000000p-3f, 0x1.0402560000000p-2f, 0x1.1058be0000000p-2f, 0x1.1c898c0000000p-2f, 0x1.2895a00000000p-2f, 0x1.347dd60000000p-2f, 0x1.4043040000000p-2f, 0x1.4be5f40000000p-2f, 0x1.57676e0000000p-2f, 0x1.62c82c0000000p-2f};
const float __logf_lo[65] = {-0x1.1ac6f40000000p-28f, 0x1.c6e5c40000000p-27f, 0x1.fa34f20000000p-28f, 0x1.ca85d00000000p-28f, 0x1.683de00000000p-27f, -0x1.f724d40000000p-28f, 0x1.ae28ea0000000p-27f, -0x1.a59f6e0000000p-27f, 0x1.83d3aa0000000p-27f, -0x1.c4d8ca0000000p-27f, 0x1.08c01c0000000p-29f, 0x1.256ee60000000p-28f, -0x1.1e01ee0000000p-28f, -0x1.2b79b80000000p-28f, -0x1.2112c40000000p-28f, 0x1.31c0640000000p-29f, -0x1.11131c0000000p-29f, 0x1.2e7d980000000p-28f, -0x1.50dac60000000p-30f, -0x1.e64a220000000p-29f, -0x1.30d0240000000p-28f, -0x1.447ee00000000p-28f, -0x1.33c7400000000p-28f, 0x1.bd7bde0000000p-30f, -0x1.6f12c60000000p-30f, 0x1.a721e40000000p-31f, -0x1.d038fc0000000p-30f, 0x1.1a1bc40000000p-30f, 0x1.c5c2440000000p-29f, -0x1.46545e0000000p-32f, -0x1.01adee0000000p-31f, 0x1.c13c3c0000000p-31f, 0x1.a568c20000000p-30f, -0x1.e346040000000p-31f, 0x1.7d6b120000000p-31f, -0x1.6603100000000p-32f, -0x1.c4506e0000000p-34f, 0x0.0p+0f, 0x0.0p+0f, -0x1.0549920000000p-31f, 0x1.bfd7f00000000p-30f, 0x1.a32e4a0000000p-30f, -0x1.5c84ae0000000p-32f, -0x1.7cf3d60000000p-31f, 0x1.0c66d20000000p-30f, 0x1.5bc7b20000000p-32f, -0x1.20a5960000000p-35f, 0x1.c5ecfa0000000p-28f, 0x1.1e8fd60000000p-31f, 0x1.d436920000000p-28f, -0x1.5cc5ac0000000p-28f, 0x1.64192a0000000p-28f, -0x1.d4a98e0000000p-35f, -0x1.a4e61c0000000p-32f, 0x1.a7ddcc0000000p-30f, -0x1.48e9a60000000p-29f, 0x1.0d34140000000p-28f, -0x1.ca36a40000000p-27f, -0x1.92ccc00000000p-27f, 0x1.7bd0d40000000p-27f, -0x1.f3c1460000000p-29f, -0x1.5e55fc0000000p-28f, -0x1.4221c80000000p-28f, -0x1.5d52bc0000000p-29f, 0x1.2738f40000000p-27f};
#define LOG_LHI 0x1.62e4000000000p-1f
#define LOG_LLO 0x1.7f7d1c0000000p-20f

/* log x for positive normal x, or a NaN when the rounding test cannot vouch
 * for the result (about 0.07% of them): x = 2^e m with m in
 * [sqrt(2)/2, sqrt(2)), r = m/c - 1 exact as float-float (m·(1/c) split by
 * an fma), log x = e ln2 - log(1/c) + r - r^2/2 (split exactly by an fma)
 * + r^3(1/3 - r/4 + r^2/5 - r^3/6 + r^4/7) with rhi, plus rlo(1 - rhi +
 * rhi^2) for the low part (without its rhi^2 term the error reached 2^-34
 * near x = 1), the large terms summed with TwoSum. The result stands when
 * rounding it with 2^-35 relative added and subtracted gives the same float
 * (every positive normal float checked on the host: no wrong result). */
static inline float logf_fast(float x)
{
    uint32_t ix = asu32(x);
    if (ix - 0x00800000u >= 0x7f000000u)
        return asfloat(0x7fc00000u);
    logf_red v = logf_reduce(ix);
    float ef = v.ef, th = v.th, tl = v.tl, rlo = v.rlo, rhi = v.rhi;
    float r2 = rhi * rhi;
    float r2e = fma32(rhi, rhi, -r2);
    float q3 = r2 * rhi * (0x1.555556p-2f + rhi * (-0.25f + rhi * (0x1.99999ap-3f + rhi * (-0x1.555556p-3f + rhi * 0x1.24924ap-3f))));
    float a = ef * LOG_LHI;
    float s1, e1, s2, e2, s3, e3;
    TWO_SUM(s1, e1, a, th);
    TWO_SUM(s2, e2, s1, rhi);
    float h = -0.5f * r2;
    TWO_SUM(s3, e3, s2, h);
    /* log1p(rhi + rlo) = log1p(rhi) + rlo (1 - rhi + rhi^2 - ...) */
    float small = ((e1 + e2) + e3) + (fma32(ef, LOG_LLO, tl) + (fma32(rlo, r2 - rhi, rlo) + fma32(-0.5f, r2e, q3)));
    float eps = asfloat(asu32(s3) & 0x7fffffffu) * 0x1p-35f;
    float y1 = s3 + (small + eps), y2 = s3 + (small - eps);
    if (y1 != y2)
        return asfloat(0x7fc00000u);
    return y1;
}
#endif

float logf(float x) { FAST_THEN_ACCURATE(logf_fast, logf_accurate, x); }

static result log2_core(double x, int acc)
{
    result r;
    if (log_special(x, &r))
        return r;
    uint64_t b = asu64(x);
    if ((b & 0xfffffffffffffULL) == 0)
        return exact_result((double)((int)(b >> 52) - 1023)); /* a power of two */
    return dd_result(dd_mul(__dd_log(dd_from(x), acc), __dd_inv_ln2), 0);
}

double log2(double x) { TWO_PHASE_DOUBLE(log2_core, x); }
float log2f(float x) { TWO_PHASE_FLOAT(log2_core, x); }

static result log10_core(double x, int acc)
{
    result r;
    if (log_special(x, &r))
        return r;
    /* exact powers of ten */
    double p = 10;
    for (int n = 1; n <= 22; n++, p *= 10)
        if (x == p)
            return exact_result((double)n);
    return dd_result(dd_mul(__dd_log(dd_from(x), acc), __dd_inv_ln10), 0);
}

double log10(double x) { TWO_PHASE_DOUBLE(log10_core, x); }
float log10f(float x) { TWO_PHASE_FLOAT(log10_core, x); }

static result log1p_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (x < -1)
        return exact_result(set_errno(default_nan(), EDOM));
    if (x == -1)
        return exact_result(set_errno(-__builtin_inf(), ERANGE));
    if (exp_field(x) == 0x7ff)
        return exact_result(x);
    if (x > -0x1p-60 && x < 0x1p-60)
        return exact_result(x); /* log1p(x) = x - x^2/2: rounds to x */
    return dd_result(__dd_log(two_sum(1.0, x), acc), 0);
}

double log1p(double x) { TWO_PHASE_DOUBLE(log1p_core, x); }
float log1pf(float x) { TWO_PHASE_FLOAT(log1p_core, x); }

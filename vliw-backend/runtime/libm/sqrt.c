/* sqrt.c: sqrt and sqrtf, correctly rounded. When the machine has
 * square-root instructions (dspcc defines __DSP_HW_SQRT__ from the .isa)
 * they are used (__builtin_elementwise_sqrt, an IEEE operation); elsewhere
 * (the compiler would turn the builtin into a call to sqrt itself), with
 * another compiler, or with -DDSP_SOFT_SQRT, the root is computed digit by digit on the integer significand
 * (two radicand bits per step, the remainder giving the sticky bit).
 * sqrtf rounds the double root, which is exact for square roots (53 >=
 * 2*24 + 2 bits). Negative arguments: EDOM and x86's default NaN, as glibc
 * on the host gives. */
#include <math.h>

#include "libm.h"

#if defined(__clang__) && defined(__DSP_HW_SQRT__) && !defined(DSP_SOFT_SQRT)
#if __has_builtin(__builtin_elementwise_sqrt)
#define HW_SQRT 1
#endif
#endif

#ifndef HW_SQRT
static double soft_sqrt(double x)
{
    uint64_t b = asu64(x);
    int e = (int)((b >> 52) & 0x7ff);
    uint64_t m = b & 0xfffffffffffffULL;
    if (e == 0x7ff)
        return x + x; /* NaN (quietened) or +inf */
    if (e == 0) {
        if (m == 0)
            return x; /* +-0 */
        while (!(m >> 52)) {
            m <<= 1;
            e--;
        }
        e++;
    } else {
        m |= 1ULL << 52;
    }
    int ee = e - 1075; /* x = m * 2^ee */
    if (ee & 1) {
        m <<= 1;
        ee--;
    }
    /* root = floor(sqrt(m * 2^54)), 54 bits; radicand bits 107..0 */
    uint64_t rhi = m >> 10, rlo = m << 54;
    uint64_t root = 0, rem = 0;
    for (int i = 53; i >= 0; i--) {
        uint64_t two = i >= 32 ? (rhi >> (2 * (i - 32))) & 3 : (rlo >> (2 * i)) & 3;
        rem = (rem << 2) | two;
        uint64_t trial = (root << 2) | 1;
        root <<= 1;
        if (rem >= trial) {
            rem -= trial;
            root |= 1;
        }
    }
    uint64_t mant = root >> 1;
    if ((root & 1) && (rem != 0 || (mant & 1)))
        mant++;
    /* value = mant * 2^(ee/2 - 26) with mant in [2^52, 2^53] */
    int re = ee / 2 - 26 + 52 + 1023;
    if (mant >> 53) {
        mant >>= 1;
        re++;
    }
    return asdouble(((uint64_t)re << 52) | (mant & 0xfffffffffffffULL));
}
#endif

double sqrt(double x)
{
    if (x < 0)
        return set_errno(default_nan(), EDOM);
#ifdef HW_SQRT
    return __builtin_elementwise_sqrt(x);
#else
    return soft_sqrt(x);
#endif
}

float sqrtf(float x)
{
    if (x < 0)
        return (float)set_errno(default_nan(), EDOM);
#ifdef HW_SQRT
    /* the f32 instruction: one operation, and lane-wise in sqrtf's vector
     * variant (the f64 root rounded to f32 is the same number) */
    return __builtin_elementwise_sqrt(x);
#else
    return (float)sqrt((double)x);
#endif
}

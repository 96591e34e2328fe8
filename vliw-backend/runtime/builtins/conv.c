/* conv.c: conversions between integers and floating point (compiler-rt
 * names), for machines without the instructions. Integers become floats by
 * building the IEEE bits with round-to-nearest-even; floats become
 * integers by truncation from the bits, saturating out of range (NaN gives
 * the limit of its sign, negative values give 0 for unsigned results), as
 * compiler-rt does. No floating-point arithmetic is used. */
#include "builtins.h"

/* IEEE bits (sign excluded) of the unsigned integer v in a format with
 * mant significand bits (53 or 24) and exponent bias. */
static du_int int_to_bits(du_int v, int mant, int bias)
{
    if (v == 0)
        return 0;
    int top = 63;
    while (!(v >> top))
        top--;
    du_int m;
    int e = top;
    if (top < mant) {
        m = v << (mant - 1 - top);
    } else {
        int shift = top - (mant - 1);
        du_int rem = shift ? v & ((1ULL << shift) - 1) : 0;
        du_int half = shift ? 1ULL << (shift - 1) : 0;
        m = v >> shift;
        if (shift && (rem > half || (rem == half && (m & 1)))) {
            m++;
            if (m >> mant) {
                m >>= 1;
                e++;
            }
        }
    }
    return ((du_int)(e + bias) << (mant - 1)) | (m & ((1ULL << (mant - 1)) - 1));
}

static double make_double(du_int mag, int neg)
{
    dbits b;
    b.u = int_to_bits(mag, 53, 1023) | (neg ? 1ULL << 63 : 0);
    return b.f;
}

static float make_float(du_int mag, int neg)
{
    fbits b;
    b.u = (su_int)int_to_bits(mag, 24, 127) | (neg ? 1u << 31 : 0);
    return b.f;
}

double __floatsidf(si_int a) { return make_double(a < 0 ? 0ULL - (du_int)a : (du_int)a, a < 0); }
double __floatunsidf(su_int a) { return make_double(a, 0); }
double __floatdidf(di_int a) { return make_double(a < 0 ? 0ULL - (du_int)a : (du_int)a, a < 0); }
double __floatundidf(du_int a) { return make_double(a, 0); }
float __floatsisf(si_int a) { return make_float(a < 0 ? 0ULL - (du_int)a : (du_int)a, a < 0); }
float __floatunsisf(su_int a) { return make_float(a, 0); }
float __floatdisf(di_int a) { return make_float(a < 0 ? 0ULL - (du_int)a : (du_int)a, a < 0); }
float __floatundisf(du_int a) { return make_float(a, 0); }

/* Truncates |x| (given as significand m with the implicit bit, and the
 * unbiased exponent e of its leading bit) to an integer of at most bits
 * bits; *over when it does not fit. */
static du_int trunc_mag(du_int m, int e, int mant, int bits, int *over)
{
    *over = 0;
    if (e < 0)
        return 0;
    if (e >= bits) {
        *over = 1;
        return 0;
    }
    int shift = e - (mant - 1);
    return shift >= 0 ? m << shift : m >> -shift;
}

/* Splits a double: *neg, significand with the implicit bit, exponent;
 * returns 1 for NaN and infinity. */
static int split_double(double x, int *neg, du_int *m, int *e)
{
    dbits b = {.f = x};
    int be = (int)((b.u >> 52) & 0x7ff);
    *neg = (int)(b.u >> 63);
    *m = (b.u & 0xfffffffffffffULL) | (be ? 1ULL << 52 : 0);
    *e = be ? be - 1023 : -1022;
    if (!be)
        *e = -1023; /* subnormals truncate to 0 */
    return be == 0x7ff;
}

static int split_float(float x, int *neg, du_int *m, int *e)
{
    fbits b = {.f = x};
    int be = (int)((b.u >> 23) & 0xff);
    *neg = (int)(b.u >> 31);
    *m = (b.u & 0x7fffffu) | (be ? 1u << 23 : 0);
    *e = be ? be - 127 : -127;
    return be == 0xff;
}

static di_int to_signed(int special, int neg, du_int m, int e, int mant, int bits)
{
    du_int lim = 1ULL << (bits - 1); /* |min| */
    int over;
    du_int mag = special ? 0 : trunc_mag(m, e, mant, bits, &over);
    if (special || over || mag > lim || (!neg && mag == lim))
        return neg ? (di_int)(0ULL - lim) : (di_int)(lim - 1);
    return neg ? (di_int)(0ULL - mag) : (di_int)mag;
}

static du_int to_unsigned(int special, int neg, du_int m, int e, int mant, int bits)
{
    du_int max = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    int over;
    if (neg)
        return 0;
    du_int mag = special ? 0 : trunc_mag(m, e, mant, bits, &over);
    if (special || over)
        return max;
    return mag;
}

si_int __fixdfsi(double x)
{
    int neg, e;
    du_int m;
    int sp = split_double(x, &neg, &m, &e);
    return (si_int)to_signed(sp, neg, m, e, 53, 32);
}

di_int __fixdfdi(double x)
{
    int neg, e;
    du_int m;
    int sp = split_double(x, &neg, &m, &e);
    return to_signed(sp, neg, m, e, 53, 64);
}

su_int __fixunsdfsi(double x)
{
    int neg, e;
    du_int m;
    int sp = split_double(x, &neg, &m, &e);
    return (su_int)to_unsigned(sp, neg, m, e, 53, 32);
}

du_int __fixunsdfdi(double x)
{
    int neg, e;
    du_int m;
    int sp = split_double(x, &neg, &m, &e);
    return to_unsigned(sp, neg, m, e, 53, 64);
}

si_int __fixsfsi(float x)
{
    int neg, e;
    du_int m;
    int sp = split_float(x, &neg, &m, &e);
    return (si_int)to_signed(sp, neg, m, e, 24, 32);
}

di_int __fixsfdi(float x)
{
    int neg, e;
    du_int m;
    int sp = split_float(x, &neg, &m, &e);
    return to_signed(sp, neg, m, e, 24, 64);
}

su_int __fixunssfsi(float x)
{
    int neg, e;
    du_int m;
    int sp = split_float(x, &neg, &m, &e);
    return (su_int)to_unsigned(sp, neg, m, e, 24, 32);
}

du_int __fixunssfdi(float x)
{
    int neg, e;
    du_int m;
    int sp = split_float(x, &neg, &m, &e);
    return to_unsigned(sp, neg, m, e, 24, 64);
}

/* float <-> double. */
double __extendsfdf2(float x)
{
    fbits f = {.f = x};
    dbits d;
    du_int sign = (du_int)(f.u >> 31) << 63;
    su_int be = (f.u >> 23) & 0xff, frac = f.u & 0x7fffffu;
    if (be == 0xff) {
        d.u = sign | 0x7ff0000000000000ULL | ((du_int)frac << 29);
    } else if (be == 0) {
        if (frac == 0) {
            d.u = sign;
        } else {
            int e = -126;
            while (!(frac & 0x800000u)) {
                frac <<= 1;
                e--;
            }
            d.u = sign | ((du_int)(e + 1023) << 52) | ((du_int)(frac & 0x7fffffu) << 29);
        }
    } else {
        d.u = sign | ((du_int)(be - 127 + 1023) << 52) | ((du_int)frac << 29);
    }
    return d.f;
}

float __truncdfsf2(double x)
{
    dbits d = {.f = x};
    fbits f;
    su_int sign = (su_int)(d.u >> 63) << 31;
    int be = (int)((d.u >> 52) & 0x7ff);
    du_int frac = d.u & 0xfffffffffffffULL;
    if (be == 0x7ff) {
        f.u = sign | 0x7f800000u | (frac ? 0x400000u | (su_int)(frac >> 29) : 0);
        return f.f;
    }
    if (be == 0) { /* double subnormals are far below float's range */
        f.u = sign;
        return f.f;
    }
    int e = be - 1023;              /* exponent of the leading bit */
    du_int m = frac | (1ULL << 52); /* 53 bits */
    int shift = 29;                 /* to 24 bits */
    if (e < -126)
        shift += -126 - e;
    if (e > 127) {
        f.u = sign | 0x7f800000u;
        return f.f;
    }
    du_int kept, rem, half;
    if (shift >= 64) {
        kept = 0;
        rem = m;
        half = ~0ULL; /* far below half the smallest subnormal */
    } else {
        kept = m >> shift;
        rem = m & ((1ULL << shift) - 1);
        half = 1ULL << (shift - 1);
    }
    if (rem > half || (rem == half && (kept & 1)))
        kept++;
    if (e < -126) {
        f.u = sign | (su_int)kept; /* may round up into the smallest normal */
        return f.f;
    }
    if (kept >> 24) {
        kept >>= 1;
        e++;
        if (e > 127) {
            f.u = sign | 0x7f800000u;
            return f.f;
        }
    }
    f.u = sign | ((su_int)(e + 127) << 23) | ((su_int)kept & 0x7fffffu);
    return f.f;
}

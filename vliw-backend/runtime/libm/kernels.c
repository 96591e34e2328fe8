/* kernels.c: the double-double kernels shared by the transcendental
 * functions: exp (reduction by ln2, division by 2^9, Taylor series of
 * e^r - 1, nine squarings in the form E' = E(2 + E)), log (scaling to
 * [1/sqrt2, sqrt2), a table of log(j/32), the series of 2 atanh(s)), the
 * Payne-Hanek reduction modulo pi/2 (integer product with 256 bits of 2/pi
 * around the binary point), the sine and cosine Taylor series, the
 * arctangent (a table of atan(j/16) and the series of atan(t)), square
 * root, and the final rounding of a dd result to double or float. */
#include <math.h>

#include "libm.h"

dd __dd_sqrt(dd a)
{
    if (a.hi <= 0)
        return dd_from(0);
    double q = sqrt(a.hi);
    dd r = dd_sub(a, two_prod(q, q));
    return fast_two_sum(q, r.hi / (2 * q));
}

/* Horner's rule in dd over the coefficients c[0..n-1] (c[0] constant term). */
static dd horner(dd x, const dd *c, int n)
{
    dd p = c[n - 1];
    for (int i = n - 2; i >= 0; i--)
        p = dd_add(dd_mul(p, x), c[i]);
    return p;
}

/* e^r - 1 for |r| <= 0.35 (r in dd), accurate to about 2^-100. */
static dd expm1_reduced(dd r)
{
    dd t = dd_ldexp(r, -9); /* |t| <= 0.00068 */
    /* t + t^2/2! + ... + t^10/10! = t * (1 + t/2! + ... + t^9/10!) */
    dd p = __dd_inv_fact[10];
    for (int n = 9; n >= 1; n--)
        p = dd_add(dd_mul(p, t), __dd_inv_fact[n]);
    dd e = dd_mul(p, t);
    for (int i = 0; i < 9; i++)
        e = dd_mul(e, dd_add_d(e, 2.0)); /* (1+E)^2 - 1 */
    return e;
}

/* e^r - 1 for |r| <= 0.35, first phase (relative error below 2^-64):
 * r^n/n! for 5 <= n <= 17 in double (0.35^18/18! < 2^-85), the rest by
 * Horner's rule in dd. */
static dd expm1_fast(dd r)
{
    double z = r.hi, q = __dd_inv_fact[17].hi;
    for (int n = 16; n >= 5; n--)
        q = q * z + __dd_inv_fact[n].hi;
    dd p = dd_from(q);
    for (int n = 4; n >= 1; n--)
        p = dd_add(dd_mul(p, r), __dd_inv_fact[n]);
    return dd_mul(p, r);
}

dd __dd_expm1_small(dd x, int acc)
{
    return acc ? expm1_reduced(x) : expm1_fast(x);
}

dd __dd_exp(dd x, int *k, int acc)
{
    double kd = round_even(x.hi * __dd_inv_ln2.hi);
    dd r = dd_sub(x, dd_mul_d(__dd_ln2, kd));
    *k = (int)kd;
    return dd_add_d(acc ? expm1_reduced(r) : expm1_fast(r), 1.0);
}

dd __dd_log(dd x, int acc)
{
    int k = 0;
    /* Scale to m in [sqrt(1/2), sqrt(2)). */
    if (exp_field(x.hi) == 0) {
        x = dd_ldexp(x, 54);
        k -= 54;
    }
    int e = exp_field(x.hi) - 1023;
    dd m = dd_ldexp(x, -e);
    k += e;
    if (m.hi > 1.4142135623730951) {
        m = dd_ldexp(m, -1);
        k++;
    }
    /* m = c (1 + ...) with c = j/32: log m = log c + 2 atanh((m - c)/(m + c)). */
    int j = (int)round_even(m.hi * 32);
    double c = j / 32.0;
    dd num = dd_add_d(dd_from(m.hi - c), m.lo); /* m.hi - c is exact */
    dd den = dd_add_d(m, c);
    dd s = dd_div(num, den);
    dd s2 = dd_sqr(s);
    /* 2 s (1 + s^2/3 + s^4/5 + ... + s^16/17); the first phase takes the
     * terms from s^4 (below 2^-26 of the sum) in double. */
    dd p;
    if (acc) {
        p = horner(s2, __dd_inv_odd, 9);
    } else {
        double z = s2.hi;
        double t = __dd_inv_odd[2].hi + z * (__dd_inv_odd[3].hi + z * (__dd_inv_odd[4].hi + z * __dd_inv_odd[5].hi));
        p = dd_add_d(dd_mul(s2, dd_add_d(__dd_inv_odd[1], z * t)), 1.0);
    }
    dd l = dd_mul(dd_ldexp(s, 1), p);
    l = dd_add(l, __dd_log_j32[j - 22]);
    if (k)
        l = dd_add(dd_mul_d(__dd_ln2, (double)k), l);
    return l;
}

#define PH_LIMBS 8 /* 256 bits of 2/pi around the binary point */

/* Bit i (from the bottom) of the little-endian limbs p[0..n). */
static unsigned bit_at(const uint32_t *p, int n, int i)
{
    return i >= 0 && i < 32 * n ? (p[i / 32] >> (i % 32)) & 1 : 0;
}

/* count (<= 53) bits of p whose lowest is bit lo (bits below 0 read 0). */
static uint64_t bits_at(const uint32_t *p, int n, int lo, int count)
{
    uint64_t v = 0;
    int hi = lo + count - 1;
    for (int w = hi >= 0 ? hi / 32 : -1; w >= 0 && w * 32 + 31 >= lo; w--) {
        uint64_t word = w < n ? p[w] : 0;
        int sh = w * 32 - lo; /* where word's bit 0 lands */
        if (sh >= 0)
            v |= word << sh;
        else
            v |= word >> -sh;
    }
    return v & ((1ULL << count) - 1);
}

/* The 106 bits of p below bit s (the binary point), from the first 1 bit,
 * as a dd fraction in (0, 1); 0 if all bits are 0. */
static dd frac_bits(const uint32_t *p, int n, int s)
{
    int top = -1;
    for (int w = (s - 1) / 32; w >= 0; w--) {
        uint32_t word = w < n ? p[w] : 0;
        if (w == (s - 1) / 32 && (s % 32))
            word &= (1u << (s % 32)) - 1;
        if (word) {
            int b = 31;
            while (!(word >> b))
                b--;
            top = w * 32 + b;
            break;
        }
    }
    if (top < 0)
        return dd_from(0);
    uint64_t a = bits_at(p, n, top - 52, 53), b = bits_at(p, n, top - 105, 53);
    /* a has weight 2^(top - s - 52), b 2^(top - s - 105) */
    dd r = fast_two_sum((double)a, (double)b * 0x1p-53);
    return dd_ldexp(r, top - s - 52);
}

dd __dd_rem_pio2(double x, int *q)
{
    uint64_t bits = asu64(x);
    int neg = (int)(bits >> 63);
    int be = (int)((bits >> 52) & 0x7ff);
    if ((bits & 0x7fffffffffffffffULL) <= 0x3fe921fb54442d18ULL) { /* |x| <= pi/4 */
        *q = 0;
        return dd_from(x);
    }
    uint64_t m = (bits & 0xfffffffffffffULL) | (1ULL << 52);
    int e = be - 1075; /* |x| = m * 2^e */
    /* x * 2/pi mod 4 needs the bits of 2/pi from i0 = max(1, e - 1) on
     * (bit 1 is the first after the point): earlier ones give multiples of
     * 4. B = bits i0 .. i0 + 255 as an integer (b[0] most significant). */
    int i0 = e - 1 > 1 ? e - 1 : 1;
    uint32_t b[PH_LIMBS];
    for (int i = 0; i < PH_LIMBS; i++) {
        int bit = i0 - 1 + 32 * i; /* 0-based index in the table */
        int w = bit / 32, sh = bit % 32;
        uint32_t hiw = w < 48 ? __two_over_pi_bits[w] : 0;
        uint32_t low = w + 1 < 48 ? __two_over_pi_bits[w + 1] : 0;
        b[i] = sh ? (hiw << sh) | (low >> (32 - sh)) : hiw;
    }
    /* P = m * B, little-endian limbs. */
    uint32_t p[PH_LIMBS + 2] = {0};
    uint32_t ml = (uint32_t)m, mh = (uint32_t)(m >> 32);
    for (int i = PH_LIMBS - 1; i >= 0; i--) {
        int pos = PH_LIMBS - 1 - i;
        uint64_t t = (uint64_t)b[i] * ml + p[pos];
        p[pos] = (uint32_t)t;
        uint64_t carry = t >> 32;
        t = (uint64_t)b[i] * mh + p[pos + 1] + carry;
        p[pos + 1] = (uint32_t)t;
        carry = t >> 32;
        for (int j = pos + 2; carry && j < PH_LIMBS + 2; j++) {
            t = (uint64_t)p[j] + carry;
            p[j] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    /* P * 2^(e - i0 - 255) = x * 2/pi (mod 4): the point is s bits up. */
    int s = i0 + 255 - e;
    int quad = (int)(bit_at(p, PH_LIMBS + 2, s) | bit_at(p, PH_LIMBS + 2, s + 1) << 1);
    dd f;
    if (bit_at(p, PH_LIMBS + 2, s - 1)) {
        /* fraction >= 1/2: the next quadrant, with f - 1 = -(1 - f); 1 - f
         * is the two's complement of the fraction bits */
        quad++;
        uint32_t c[PH_LIMBS + 2];
        uint64_t carry = 1;
        for (int i = 0; i < PH_LIMBS + 2; i++) {
            uint64_t t = (uint64_t)(uint32_t)~p[i] + carry;
            c[i] = (uint32_t)t;
            carry = t >> 32;
        }
        f = dd_neg(frac_bits(c, PH_LIMBS + 2, s));
    } else {
        f = frac_bits(p, PH_LIMBS + 2, s);
    }
    dd r = dd_mul(f, __dd_pi_2);
    if (neg) {
        r = dd_neg(r);
        quad = -quad;
    }
    *q = quad & 3;
    return r;
}

/* sum of (-1)^n c[step n + off] x^n for n = 0..nterms-1, by Horner's rule */
static dd alt_series(dd x, const dd *c, int nterms, int step, int off)
{
    dd p = c[step * (nterms - 1) + off];
    if ((nterms - 1) & 1)
        p = dd_neg(p);
    for (int n = nterms - 2; n >= 0; n--) {
        dd cn = c[step * n + off];
        p = dd_add(dd_mul(p, x), (n & 1) ? dd_neg(cn) : cn);
    }
    return p;
}

/* sum (-1)^n c[2n + off] x^n for n = 0..nterms-1 with the terms from n =
 * ndd on evaluated in double (at x.hi), the first ones in dd. */
static dd alt_series_fast(dd x, int nterms, int ndd, int off)
{
    const dd *c = __dd_inv_fact;
    double z = x.hi;
    int n = nterms - 1;
    double q = (n & 1) ? -c[2 * n + off].hi : c[2 * n + off].hi;
    for (n--; n >= ndd; n--)
        q = q * z + ((n & 1) ? -c[2 * n + off].hi : c[2 * n + off].hi);
    dd p = dd_from(q);
    for (; n >= 0; n--)
        p = dd_add(dd_mul(p, x), (n & 1) ? dd_neg(c[2 * n + off]) : c[2 * n + off]);
    return p;
}

dd __dd_sin_kernel(dd r, int acc)
{
    /* r (1 - r^2/3! + r^4/5! - ... - r^26/27!); first phase: terms from
     * r^6/7! (below 2^-14 of the sum) in double */
    dd r2 = dd_sqr(r);
    dd p = acc ? alt_series(r2, __dd_inv_fact, 14, 2, 1) : alt_series_fast(r2, 14, 3, 1);
    return dd_mul(p, r);
}

dd __dd_cos_kernel(dd r, int acc)
{
    /* 1 - r^2/2! + ... - r^26/26!; first phase: terms from r^8/8! in double */
    dd r2 = dd_sqr(r);
    return acc ? alt_series(r2, __dd_inv_fact, 14, 2, 0) : alt_series_fast(r2, 14, 4, 0);
}

/* atan(t) for |t| <= 1/32 + tiny: t (1 - t^2/3 + t^4/5 - ... - t^22/23);
 * first phase: terms from t^4/5 (below 2^-20 of the sum) in double */
static dd atan_series(dd t, int acc)
{
    dd t2 = dd_sqr(t);
    dd p;
    if (acc) {
        p = alt_series(t2, __dd_inv_odd, 12, 1, 0);
    } else {
        double z = t2.hi, q = 0;
        for (int n = 11; n >= 2; n--)
            q = q * z + ((n & 1) ? -__dd_inv_odd[n].hi : __dd_inv_odd[n].hi);
        p = dd_add_d(dd_mul(t2, dd_add_d(dd_neg(__dd_inv_odd[1]), z * q)), 1.0);
    }
    return dd_mul(p, t);
}

dd __dd_atan(dd x, int acc)
{
    int neg = x.hi < 0;
    if (neg)
        x = dd_neg(x);
    int inv = x.hi > 1;
    if (inv)
        x = dd_div(dd_from(1), x);
    /* x in [0, 1]: atan x = atan c + atan((x - c)/(1 + x c)), c = j/16 */
    int j = (int)round_even(x.hi * 16);
    dd r;
    if (j == 0) {
        r = atan_series(x, acc);
    } else {
        double c = j / 16.0;
        dd num = dd_add_d(x, -c);
        dd den = dd_add_d(dd_mul_d(x, c), 1.0);
        r = dd_add(__dd_atan_j16[j], atan_series(dd_div(num, den), acc));
    }
    if (inv)
        r = dd_sub(__dd_pi_2, r);
    return neg ? dd_neg(r) : r;
}

double __dd_round_scaled(dd v, int k)
{
    if (v.hi == 0)
        return v.hi;
    int e = exp_field(v.hi) - 1023 + k; /* exponent of the result's leading bit */
    if (e > 1023)
        return set_errno(v.hi > 0 ? __builtin_inf() : -__builtin_inf(), ERANGE);
    if (e >= -1022)
        return dd_ldexp(v, k).hi; /* exact scaling of a normal result */
    if (e < -1076)
        return set_errno(v.hi > 0 ? 0.0 : -0.0, ERANGE);
    /* Subnormal: round (v.hi + v.lo) * 2^(k + 1074) to an integer, ties to
     * even; v.hi's rounding alone is not enough (it may sit on a tie). */
    dd w = dd_ldexp(v, k + 1074);
    double n = round_even(w.hi);
    double d = w.hi - n; /* exact, |d| <= 1/2 */
    if ((d == 0.5 || d == -0.5) && w.lo != 0 && (w.lo > 0) == (d > 0))
        n += d > 0 ? 1 : -1;
    if (d != 0 || w.lo != 0)
        errno = ERANGE;
    return n * 0x1p-1074; /* exact */
}

float __dd_round_float(dd v)
{
    float r = (float)v.hi;
    double back = r;
    if (v.lo == 0 || back == v.hi || (asu32(r) & 0x7fffffffu) == 0x7f800000u)
        return r;
    /* The float neighbour of r on v.hi's side; if v.hi is exactly their
     * midpoint, the conversion took the even one and v.lo decides. */
    int up = v.hi > back;
    uint32_t b = asu32(r);
    float o;
    if ((b & 0x7fffffffu) == 0)
        o = asfloat(up ? 1u : 0x80000001u);
    else
        o = asfloat(up == !(b >> 31) ? b + 1 : b - 1);
    double mid = (back + (double)o) * 0.5;
    if (v.hi == mid && (v.lo > 0) == up)
        return o;
    return r;
}

double __to_double(result r)
{
    if (r.exact)
        return r.f;
    return __dd_round_scaled(r.v, r.k);
}

float __to_float(result r)
{
    if (r.exact)
        return (float)r.f;
    if (r.v.hi == 0)
        return (float)r.v.hi;
    int e = exp_field(r.v.hi) - 1023 + r.k;
    if (e > 128) {
        errno = ERANGE;
        return r.v.hi > 0 ? __builtin_inff() : -__builtin_inff();
    }
    if (e < -152) {
        errno = ERANGE;
        return r.v.hi > 0 ? 0.0f : -0.0f;
    }
    float f = __dd_round_float(dd_ldexp(r.v, r.k));
    uint32_t fe = (asu32(f) >> 23) & 0xff;
    if (fe == 0xff || fe == 0)
        errno = ERANGE;
    return f;
}

/* The first phase's results are within 2^-62 (relative) of the exact
 * value; 2^-59 is the margin the rounding tests require. */
#define FAST_MARGIN 0x1p-59

int __fast_double(result r, double *out)
{
    if (r.exact) {
        *out = r.f;
        return 1;
    }
    double hi = r.v.hi, lo = r.v.lo;
    if (hi == 0)
        return 0;
    int e = exp_field(hi) - 1023 + r.k;
    if (e < -1021 || e > 1022)
        return 0; /* near the subnormal or overflow range: second phase */
    /* hi is the rounding of hi + lo; it stays the rounding of every value
     * within the margin unless |lo| is that close to half an ulp of hi
     * (a quarter below a power of two). */
    double half = asdouble((uint64_t)(exp_field(hi) - 53) << 52);
    if ((asu64(hi) & 0xfffffffffffffULL) == 0 && (lo < 0) != (hi < 0))
        half *= 0.5;
    double alo = lo < 0 ? -lo : lo, ahi = hi < 0 ? -hi : hi;
    double d = alo - half;
    if (d < 0)
        d = -d;
    if (d <= ahi * FAST_MARGIN)
        return 0;
    *out = dd_ldexp(r.v, r.k).hi;
    return 1;
}

int __fast_float(result r, float *out)
{
    if (r.exact) {
        *out = (float)r.f;
        return 1;
    }
    if (r.v.hi == 0)
        return 0;
    int e = exp_field(r.v.hi) - 1023 + r.k;
    if (e < -125 || e > 126)
        return 0;
    dd v = dd_ldexp(r.v, r.k);
    float f = __dd_round_float(v);
    /* v must be farther than the margin from both float midpoints next to f */
    uint32_t b = asu32(f);
    double up = (double)asfloat(b + 1), down = (double)asfloat(b - 1), fd = f;
    double m1 = (fd + up) * 0.5, m2 = (fd + down) * 0.5;
    double d1 = (v.hi - m1) + v.lo, d2 = (v.hi - m2) + v.lo;
    double lim = (v.hi < 0 ? -v.hi : v.hi) * FAST_MARGIN;
    if ((d1 < 0 ? -d1 : d1) <= lim || (d2 < 0 ? -d2 : d2) <= lim)
        return 0;
    *out = f;
    return 1;
}

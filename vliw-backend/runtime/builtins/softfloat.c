/* softfloat.c: IEEE 754 binary64 and binary32 arithmetic in software
 * (compiler-rt/libgcc names), for machines whose .isa has no instruction
 * for an operation: the compiler calls these (vliw-backend/isel,
 * runtime.rs). Round to nearest, ties to even; subnormals, infinities and
 * signed zeros exact; no exception flags.
 *
 * NaNs follow x86 SSE (what the host and the simulator's instructions do):
 * a NaN operand is returned quietened, the first one when both are NaNs;
 * an invalid operation (inf - inf, 0 * inf, 0/0, inf/inf) gives the
 * default NaN with the sign bit set.
 *
 * Only integer operations are used (shifts, adds, compares, 32x32->64
 * multiplies), so no routine can call itself.
 *
 * Binary64: a finite nonzero operand is unpacked into a sign, an unbiased
 * exponent and a significand normalized to [2^55, 2^56) (the 53 bits, then
 * guard, round and sticky bits), so subnormal inputs need no special case;
 * round_pack() rounds once and handles overflow and subnormal results.
 * Binary32 arithmetic is done in binary64 and rounded once to binary32:
 * for + - * / the double result is exact or rounds to the same float
 * (53 >= 2*24 + 2: double rounding is innocuous), and NaN payloads survive
 * the widening and narrowing as SSE's do. */
#include "builtins.h"

#define SIGN64 0x8000000000000000ULL
#define EXP64 0x7ff0000000000000ULL
#define FRAC64 0x000fffffffffffffULL
#define QUIET64 0x0008000000000000ULL
#define DEFAULT_NAN64 0xfff8000000000000ULL
#define HIDDEN 0x0080000000000000ULL /* 2^55: the leading bit of an unpacked significand */

double __extendsfdf2(float a);
float __truncdfsf2(double a);

static du_int bits_of(double x)
{
    dbits b;
    b.f = x;
    return b.u;
}

static double from_bits(du_int u)
{
    dbits b;
    b.u = u;
    return b.f;
}

static int is_nan(du_int u) { return (u & ~SIGN64) > EXP64; }
static int is_inf(du_int u) { return (u & ~SIGN64) == EXP64; }

/* Index of the highest set bit of a nonzero value. */
static int top_bit(du_int v)
{
    int n = 0;
    if (v >> 32) {
        v >>= 32;
        n += 32;
    }
    if (v >> 16) {
        v >>= 16;
        n += 16;
    }
    if (v >> 8) {
        v >>= 8;
        n += 8;
    }
    if (v >> 4) {
        v >>= 4;
        n += 4;
    }
    if (v >> 2) {
        v >>= 2;
        n += 2;
    }
    if (v >> 1)
        n += 1;
    return n;
}

/* v >> n with the bits shifted out ORed into bit 0 (n >= 0). */
static du_int shr_sticky(du_int v, int n)
{
    if (n == 0)
        return v;
    if (n >= 64)
        return v != 0;
    return (v >> n) | ((v << (64 - n)) != 0);
}

/* A finite nonzero magnitude: *e the biased exponent it would have as a
 * normal number (below 1 for subnormals), the significand in [2^55, 2^56). */
static du_int unpack(du_int u, int *e)
{
    int be = (int)((u >> 52) & 0x7ff);
    du_int m = u & FRAC64;
    if (be == 0) {
        int shift = 52 - top_bit(m);
        m <<= shift;
        be = 1 - shift;
    } else {
        m |= 1ULL << 52;
    }
    *e = be;
    return m << 3;
}

/* The binary64 nearest to (-1)^sign * sig * 2^(e - 1023 - 55), sig in
 * [2^55, 2^56): ties to even, overflow to infinity, gradual underflow. */
static du_int round_pack(du_int sign, int e, du_int sig)
{
    if (e >= 0x7ff)
        return sign | EXP64;
    if (e < 1) {
        sig = shr_sticky(sig, 1 - e);
        e = 1;
    }
    unsigned low = (unsigned)(sig & 7);
    sig >>= 3;
    if (low > 4 || (low == 4 && (sig & 1)))
        sig++;
    /* The hidden bit (or a carry out of the significand) adds to the
     * exponent field; a subnormal (e = 1, no hidden bit) packs as itself. */
    du_int r = ((du_int)(e - 1) << 52) + sig;
    if (r >= EXP64)
        r = EXP64;
    return sign | r;
}

/* The NaN result of an operation with a NaN operand (SSE: the first). */
static du_int nan_result(du_int a, du_int b) { return (is_nan(a) ? a : b) | QUIET64; }

static du_int add_bits(du_int a, du_int b)
{
    if (is_nan(a) || is_nan(b))
        return nan_result(a, b);
    if (is_inf(a)) {
        if (is_inf(b) && ((a ^ b) & SIGN64))
            return DEFAULT_NAN64;
        return a;
    }
    if (is_inf(b))
        return b;
    du_int ma = a & ~SIGN64, mb = b & ~SIGN64;
    if (mb == 0) {
        if (ma == 0)
            return (a & b) & SIGN64 ? SIGN64 : 0; /* -0 only for -0 + -0 */
        return a;
    }
    if (ma == 0)
        return b;
    /* |a| >= |b| from here. */
    if (ma < mb) {
        du_int t = a;
        a = b;
        b = t;
    }
    int ea, eb;
    du_int sa = unpack(a & ~SIGN64, &ea), sb = unpack(b & ~SIGN64, &eb);
    du_int sign = a & SIGN64;
    sb = shr_sticky(sb, ea - eb);
    if (!((a ^ b) & SIGN64)) {
        du_int s = sa + sb;
        if (s >> 56) {
            s = shr_sticky(s, 1);
            ea++;
        }
        return round_pack(sign, ea, s);
    }
    du_int d = sa - sb;
    if (d == 0)
        return 0; /* x - x = +0 */
    int shift = 55 - top_bit(d);
    return round_pack(sign, ea - shift, d << shift);
}

/* The 128-bit product of two 64-bit values, as *hi and *lo. */
static void mul_wide(du_int x, du_int y, du_int *hi, du_int *lo)
{
    du_int x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
    du_int p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    du_int mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static du_int mul_bits(du_int a, du_int b)
{
    if (is_nan(a) || is_nan(b))
        return nan_result(a, b);
    du_int sign = (a ^ b) & SIGN64;
    du_int ma = a & ~SIGN64, mb = b & ~SIGN64;
    if (ma == EXP64 || mb == EXP64)
        return (ma == 0 || mb == 0) ? DEFAULT_NAN64 : sign | EXP64;
    if (ma == 0 || mb == 0)
        return sign;
    int ea, eb;
    du_int sa = unpack(ma, &ea) >> 3, sb = unpack(mb, &eb) >> 3; /* [2^52, 2^53) */
    du_int hi, lo;
    mul_wide(sa, sb, &hi, &lo); /* [2^104, 2^106) */
    int e = ea + eb - 1023;
    /* Keep 56 bits: shift right by 49 (or 50 when the product is >= 2^105). */
    int shift = 49;
    if (hi >> (105 - 64)) {
        shift = 50;
        e++;
    }
    du_int sig = (hi << (64 - shift)) | (lo >> shift) | ((lo << (64 - shift)) != 0);
    return round_pack(sign, e, sig);
}

static du_int div_bits(du_int a, du_int b)
{
    if (is_nan(a) || is_nan(b))
        return nan_result(a, b);
    du_int sign = (a ^ b) & SIGN64;
    du_int ma = a & ~SIGN64, mb = b & ~SIGN64;
    if (ma == EXP64)
        return mb == EXP64 ? DEFAULT_NAN64 : sign | EXP64;
    if (mb == EXP64)
        return sign;
    if (mb == 0)
        return ma == 0 ? DEFAULT_NAN64 : sign | EXP64;
    if (ma == 0)
        return sign;
    int ea, eb;
    du_int sa = unpack(ma, &ea) >> 3, sb = unpack(mb, &eb) >> 3; /* [2^52, 2^53) */
    int e = ea - eb + 1023;
    if (sa < sb) {
        sa <<= 1;
        e--;
    }
    /* 56 quotient bits of sa/sb in [1, 2), restoring division. */
    du_int q = 0, rem = sa;
    for (int i = 0; i < 56; i++) {
        q <<= 1;
        if (rem >= sb) {
            rem -= sb;
            q |= 1;
        }
        rem <<= 1;
    }
    return round_pack(sign, e, q | (rem != 0));
}

double __adddf3(double a, double b) { return from_bits(add_bits(bits_of(a), bits_of(b))); }
double __subdf3(double a, double b)
{
    du_int ub = bits_of(b);
    /* a - b is a + (-b), except that a NaN b stays as it is. */
    return from_bits(add_bits(bits_of(a), is_nan(ub) ? ub : ub ^ SIGN64));
}
double __muldf3(double a, double b) { return from_bits(mul_bits(bits_of(a), bits_of(b))); }
double __divdf3(double a, double b) { return from_bits(div_bits(bits_of(a), bits_of(b))); }
double __negdf2(double a) { return from_bits(bits_of(a) ^ SIGN64); }

/* Binary32 through binary64 (see the file comment). */
static du_int wide(float a) { return bits_of(__extendsfdf2(a)); }
static float narrow(du_int u) { return __truncdfsf2(from_bits(u)); }

float __addsf3(float a, float b) { return narrow(add_bits(wide(a), wide(b))); }
float __subsf3(float a, float b)
{
    du_int ub = wide(b);
    return narrow(add_bits(wide(a), is_nan(ub) ? ub : ub ^ SIGN64));
}
float __mulsf3(float a, float b) { return narrow(mul_bits(wide(a), wide(b))); }
float __divsf3(float a, float b) { return narrow(div_bits(wide(a), wide(b))); }
float __negsf2(float a)
{
    fbits x;
    x.f = a;
    x.u ^= 0x80000000u;
    return x.f;
}

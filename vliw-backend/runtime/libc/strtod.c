/* strtod.c: strtod, strtof, strtold, correctly rounded (to nearest, ties to
 * even) like glibc, for decimal and hexadecimal input, inf/infinity and
 * nan/nan(chars).
 *
 * Decimal input d1d2...dn * 10^E: when the digits fit a double exactly
 * (n <= 15) and 10^|E| too (|E| <= 22), one IEEE multiplication or
 * division gives the correctly rounded result (Clinger's fast path). Up to
 * 19 digits and |E| <= 27, a double-double product or quotient (exact
 * operands, error near 2^-104) decides whenever it is not within 2^-96 of
 * a rounding boundary. Otherwise the value is computed exactly with big integers: D * 10^E when
 * E >= 0, else the quotient (D * 2^k) / 10^-E for a k that leaves 63 or 64
 * quotient bits, the remainder acting as a sticky bit; then that 64-bit
 * value is rounded once to the target format (round_bits). More than 800
 * significant digits are cut with a sticky bit, which is exact because a
 * halfway point between doubles has at most 767 significant digits. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_SIG 800
#define LIMBS 130 /* 32-bit limbs: up to ~4100 bits */

struct big {
    int n;               /* limbs in use, no leading zero limbs */
    uint32_t w[LIMBS];   /* little-endian */
};

/* The format being produced: mantissa bits (with the leading one) and the
 * exponent range of normal numbers. */
struct fmt {
    int mant;            /* 53 or 24 */
    int emin, emax;      /* exponent of the leading bit: -1022..1023 / -126..127 */
};

static const struct fmt F64 = {53, -1022, 1023};
static const struct fmt F32 = {24, -126, 127};

static void big_mul_add(struct big *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t p = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)p;
        carry = p >> 32;
    }
    if (carry && a->n < LIMBS)
        a->w[a->n++] = (uint32_t)carry;
}

static void big_pow10(struct big *a, int e)
{
    while (e >= 9) {
        big_mul_add(a, 1000000000u, 0);
        e -= 9;
    }
    uint32_t m = 1;
    while (e-- > 0)
        m *= 10;
    if (m > 1)
        big_mul_add(a, m, 0);
}

static int big_bits(const struct big *a)
{
    if (a->n == 0)
        return 0;
    uint32_t top = a->w[a->n - 1];
    int b = 0;
    while (top) {
        b++;
        top >>= 1;
    }
    return (a->n - 1) * 32 + b;
}

static void big_shl(struct big *a, int k)
{
    if (a->n == 0 || k == 0)
        return;
    int words = k / 32, bits = k % 32;
    int n = a->n + words + 1;
    if (n > LIMBS)
        n = LIMBS;
    for (int i = n - 1; i >= 0; i--) {
        int src = i - words;
        uint32_t hi = src >= 0 && src < a->n ? a->w[src] : 0;
        uint32_t lo = src - 1 >= 0 && src - 1 < a->n ? a->w[src - 1] : 0;
        a->w[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
    }
    a->n = n;
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static void big_shr1(struct big *a)
{
    for (int i = 0; i < a->n; i++)
        a->w[i] = (a->w[i] >> 1) | (i + 1 < a->n ? a->w[i + 1] << 31 : 0);
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static int big_cmp(const struct big *a, const struct big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

static void big_sub(struct big *a, const struct big *b) /* a -= b, a >= b */
{
    uint32_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        uint32_t bw = i < b->n ? b->w[i] : 0;
        uint64_t d = (uint64_t)a->w[i] - bw - borrow;
        a->w[i] = (uint32_t)d;
        borrow = (uint32_t)(d >> 63);
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

/* The top 64 bits of a (whose bit length is bits >= 64) and whether any
 * lower bit is set. */
static uint64_t big_top64(const struct big *a, int bits, int *sticky)
{
    uint64_t v = 0;
    int low = bits - 64;
    for (int i = 0; i < 64; i++) {
        int b = low + i;
        if ((a->w[b / 32] >> (b % 32)) & 1)
            v |= 1ULL << i;
    }
    *sticky = 0;
    for (int b = 0; b < low && !*sticky; b++)
        if ((a->w[b / 32] >> (b % 32)) & 1)
            *sticky = 1;
    return v;
}

/* Rounds (q + sticky) * 2^e2 to the format; returns the IEEE bits without
 * the sign. Sets *range when the result overflows, or is tiny and inexact. */
static uint64_t round_bits(uint64_t q, int e2, int sticky, const struct fmt *f, int *range)
{
    *range = 0;
    if (q == 0)
        return 0;
    while (!(q >> 63)) {
        q <<= 1;
        e2--;
    }
    int top = e2 + 63; /* exponent of the leading bit */
    uint64_t inf = f->mant == 53 ? 0x7ff0000000000000ULL : 0x7f800000ULL;
    if (top > f->emax) {
        *range = 1;
        return inf;
    }
    int shift = 64 - f->mant; /* bits dropped for a normal result */
    int tiny = top < f->emin;
    if (tiny)
        shift += f->emin - top;
    uint64_t mant, rem, half;
    if (shift >= 64) {
        mant = 0;
        if (shift == 64) {
            rem = q;
            half = 1ULL << 63;
        } else {
            rem = 1; /* below half of the smallest subnormal */
            half = 2;
            sticky = 1;
        }
    } else {
        mant = q >> shift;
        rem = q & ((1ULL << shift) - 1);
        half = 1ULL << (shift - 1);
    }
    if (rem > half || (rem == half && (sticky || (mant & 1))))
        mant++;
    if (tiny) {
        /* Subnormal (or the smallest normal after rounding): biased exponent
         * 0 or 1. ERANGE when inexact and tiny after rounding, like glibc on
         * x86: a value just below the smallest normal that rounds to it at
         * full precision does not count as tiny. */
        int is_tiny = 1;
        if (top == f->emin - 1) {
            int s0 = 64 - f->mant;
            uint64_t m0 = q >> s0, r0 = q & ((1ULL << s0) - 1), h0 = 1ULL << (s0 - 1);
            if ((r0 > h0 || (r0 == h0 && (sticky || (m0 & 1)))) && ((m0 + 1) >> f->mant))
                is_tiny = 0;
        }
        if (is_tiny && (rem || sticky))
            *range = 1;
        return mant;
    }
    if (mant >> f->mant) {
        mant >>= 1;
        top++;
        if (top > f->emax) {
            *range = 1;
            return inf;
        }
    }
    int bias = -f->emin + 1;
    return ((uint64_t)(top + bias) << (f->mant - 1)) | (mant & ((1ULL << (f->mant - 1)) - 1));
}

/* ---- a double-double fast path (Dekker's exact products) ---- */

struct dd2 {
    double hi, lo;
};

static struct dd2 fast_sum(double a, double b) /* |a| >= |b| */
{
    double s = a + b;
    struct dd2 r = {s, b - (s - a)};
    return r;
}

static void split27(double a, double *h, double *l)
{
    double t = 134217729.0 * a;
    *h = t - (t - a);
    *l = a - *h;
}

static struct dd2 exact_mul(double a, double b)
{
    double p = a * b, ah, al, bh, bl;
    split27(a, &ah, &al);
    split27(b, &bh, &bl);
    struct dd2 r = {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
    return r;
}

static struct dd2 dd2_mul(struct dd2 a, struct dd2 b)
{
    struct dd2 p = exact_mul(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return fast_sum(p.hi, p.lo);
}

static struct dd2 dd2_div(struct dd2 a, struct dd2 b)
{
    double q1 = a.hi / b.hi;
    struct dd2 p = exact_mul(q1, b.hi);
    double r = ((a.hi - p.hi) - p.lo + a.lo - q1 * b.lo);
    return fast_sum(q1, r / b.hi);
}

/* 10^k (0 <= k <= 27) as an exact double-double: 5^k < 2^63 is split
 * into its top 53 bits and the rest, both scaled by 2^k. */
static struct dd2 pow10_dd(int k)
{
    uint64_t p5 = 1;
    for (int i = 0; i < k; i++)
        p5 *= 5;
    int bits = 0;
    while (bits < 64 && (p5 >> bits))
        bits++;
    int drop = bits > 53 ? bits - 53 : 0;
    union {
        uint64_t u;
        double d;
    } scale = {(uint64_t)(k + 1023) << 52};
    double hi = (double)(p5 >> drop << drop) * scale.d;
    double lo = (double)(p5 & ((1ULL << drop) - 1)) * scale.d;
    struct dd2 r = {hi, lo};
    return r;
}

/* D (nd <= 19 digits) * 10^e10 (|e10| <= 27) to a double when the
 * double-double result is safely away from a rounding boundary; 0 with
 * *ok = 0 otherwise (the exact path decides). */
static double fast_dd(const char *digits, int nd, int e10, int *ok)
{
    uint64_t v = 0;
    for (int i = 0; i < nd; i++)
        v = v * 10 + (uint64_t)(digits[i] - '0');
    double vh = (double)(v >> 11) * 2048.0; /* exact: 53 bits */
    double vl = (double)(v & 2047);
    struct dd2 d = fast_sum(vh, vl);
    struct dd2 p = pow10_dd(e10 < 0 ? -e10 : e10);
    struct dd2 r = e10 < 0 ? dd2_div(d, p) : dd2_mul(d, p);
    /* r.hi is r rounded; it is the rounding of the exact value unless that
     * lies within the error (a few 2^-104 relative) of a midpoint. */
    union {
        double d;
        uint64_t u;
    } b = {r.hi};
    int e = (int)((b.u >> 52) & 0x7ff);
    *ok = 0;
    if (e < 60 || e > 2000)
        return 0;
    double half_ulp = 0, margin = 0;
    union {
        uint64_t u;
        double d;
    } hu = {(uint64_t)(e - 53) << 52}, mg = {(uint64_t)(e - 96) << 52};
    half_ulp = hu.d;
    margin = mg.d; /* 2^-96 relative: far above the error of the operations */
    double alo = r.lo < 0 ? -r.lo : r.lo;
    if (alo > half_ulp - margin && alo < half_ulp + margin)
        return 0;
    *ok = 1;
    return r.hi;
}

static struct big num, den;

/* D (digits, n of them, plus sticky) * 10^e10, correctly rounded. */
static uint64_t decimal_to_bits(const char *digits, int n, int e10, int sticky, const struct fmt *f, int *range)
{
    num.n = 0;
    for (int i = 0; i < n; i += 9) {
        uint32_t chunk = 0, scale = 1;
        for (int j = i; j < n && j < i + 9; j++) {
            chunk = chunk * 10 + (uint32_t)(digits[j] - '0');
            scale *= 10;
        }
        if (num.n == 0) {
            if (chunk) {
                num.w[0] = chunk;
                num.n = 1;
            }
        } else {
            big_mul_add(&num, scale, chunk);
        }
    }
    if (num.n == 0)
        return 0;
    if (e10 >= 0) {
        big_pow10(&num, e10);
        int bits = big_bits(&num);
        if (bits < 64) {
            uint64_t v = num.n > 1 ? ((uint64_t)num.w[1] << 32) | num.w[0] : num.w[0];
            return round_bits(v, 0, sticky, f, range);
        }
        int st;
        uint64_t top = big_top64(&num, bits, &st);
        return round_bits(top, bits - 64, sticky | st, f, range);
    }
    den.n = 1;
    den.w[0] = 1;
    big_pow10(&den, -e10);
    int k = 63 - (big_bits(&num) - big_bits(&den));
    if (k > 0)
        big_shl(&num, k);
    else if (k < 0)
        big_shl(&den, -k);
    /* Now 2^62 < num / den < 2^64: 64 steps of long division. */
    big_shl(&den, 63);
    uint64_t q = 0;
    for (int i = 63; i >= 0; i--) {
        if (big_cmp(&num, &den) >= 0) {
            big_sub(&num, &den);
            q |= 1ULL << i;
        }
        big_shr1(&den);
    }
    if (num.n != 0)
        sticky = 1;
    return round_bits(q, -k, sticky, f, range);
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int match(const char *p, const char *word)
{
    int i = 0;
    for (; word[i]; i++)
        if (lower((unsigned char)p[i]) != word[i])
            return 0;
    return i;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Parses a number; returns its IEEE bits in the format f, sign included. */
static uint64_t parse(const char *s, char **end, const struct fmt *f)
{
    const char *p = s;
    int neg = 0, range = 0;
    uint64_t signbit = f->mant == 53 ? 1ULL << 63 : 1ULL << 31;
    uint64_t bits;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';

    int k;
    if ((k = match(p, "inf"))) {
        p += k;
        if ((k = match(p, "inity")))
            p += k;
        bits = f->mant == 53 ? 0x7ff0000000000000ULL : 0x7f800000ULL;
        goto done;
    }
    if ((k = match(p, "nan"))) {
        p += k;
        uint64_t payload = 0;
        if (*p == '(') {
            const char *q = p + 1;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (*q == ')') {
                char *pe;
                unsigned long long v = strtoull(p + 1, &pe, 0);
                if (pe == q)
                    payload = v;
                p = q + 1;
            }
        }
        if (f->mant == 53)
            bits = 0x7ff8000000000000ULL | (payload & 0x7ffffffffffffULL);
        else
            bits = 0x7fc00000ULL | (payload & 0x3fffffULL);
        goto done;
    }

    if (p[0] == '0' && (p[1] | 32) == 'x' &&
        (hexval((unsigned char)p[2]) >= 0 || (p[2] == '.' && hexval((unsigned char)p[3]) >= 0))) {
        /* Hexadecimal: up to 64 bits of mantissa, the rest sticky. */
        p += 2;
        uint64_t m = 0;
        int e2 = 0, sticky = 0, seen_point = 0;
        for (;; p++) {
            int h;
            if (*p == '.' && !seen_point) {
                seen_point = 1;
                continue;
            }
            if ((h = hexval((unsigned char)*p)) < 0)
                break;
            if (m >> 60) {
                sticky |= h != 0;
                if (!seen_point)
                    e2 += 4;
            } else {
                m = m << 4 | (unsigned)h;
                if (seen_point)
                    e2 -= 4;
            }
        }
        if ((*p | 32) == 'p') {
            const char *q = p + 1;
            int eneg = 0;
            if (*q == '-' || *q == '+')
                eneg = *q++ == '-';
            if (*q >= '0' && *q <= '9') {
                long ev = 0;
                while (*q >= '0' && *q <= '9') {
                    if (ev < 100000)
                        ev = ev * 10 + (*q - '0');
                    q++;
                }
                e2 += (int)(eneg ? -ev : ev);
                p = q;
            }
        }
        bits = round_bits(m, e2, sticky, f, &range);
        goto done;
    }

    /* Decimal. */
    char digits[MAX_SIG];
    int nd = 0, sticky = 0, any = 0;
    long e10 = 0; /* exponent of the last kept digit's unit */
    int seen_point = 0;
    for (;; p++) {
        if (*p == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        any = 1;
        if (*p == '0' && nd == 0) {
            if (seen_point)
                e10--;
            continue;
        }
        if (nd < MAX_SIG) {
            digits[nd++] = *p;
            if (seen_point)
                e10--;
        } else {
            sticky |= *p != '0';
            if (!seen_point)
                e10++;
        }
    }
    if (!any) {
        if (end)
            *end = (char *)s;
        return 0;
    }
    if ((*p | 32) == 'e') {
        const char *q = p + 1;
        int eneg = 0;
        if (*q == '-' || *q == '+')
            eneg = *q++ == '-';
        if (*q >= '0' && *q <= '9') {
            long ev = 0;
            while (*q >= '0' && *q <= '9') {
                if (ev < 100000000)
                    ev = ev * 10 + (*q - '0');
                q++;
            }
            e10 += eneg ? -ev : ev;
            p = q;
        }
    }
    while (nd > 0 && digits[nd - 1] == '0') {
        nd--;
        e10++;
    }
    if (nd == 0) {
        bits = 0;
    } else if (e10 + nd > 310 + (f->mant == 53 ? 0 : -270)) {
        bits = f->mant == 53 ? 0x7ff0000000000000ULL : 0x7f800000ULL;
        range = 1;
    } else if (e10 + nd < -324 + (f->mant == 53 ? 0 : 277)) {
        bits = 0;
        range = 1;
    } else if (f->mant == 53 && nd <= 15 && !sticky && e10 >= -22 && e10 <= 22 + 15 - nd) {
        /* Exact operands: one correctly rounded operation. */
        double d = 0;
        for (int i = 0; i < nd; i++)
            d = d * 10 + (digits[i] - '0');
        if (e10 > 22) {
            d *= exact_pow10[e10 - 22];
            e10 = 22;
        }
        d = e10 >= 0 ? d * exact_pow10[e10] : d / exact_pow10[-e10];
        union {
            double d;
            uint64_t u;
        } v = {d};
        bits = v.u;
    } else if (f->mant == 24 && nd <= 7 && !sticky && e10 >= -10 && e10 <= 10) {
        float d = 0;
        for (int i = 0; i < nd; i++)
            d = d * 10 + (float)(digits[i] - '0');
        float pw = (float)exact_pow10[e10 >= 0 ? e10 : -e10];
        d = e10 >= 0 ? d * pw : d / pw;
        union {
            float d;
            uint32_t u;
        } v = {d};
        bits = v.u;
    } else {
        int ok = 0;
        if (f->mant == 53 && nd <= 19 && !sticky && e10 >= -27 && e10 <= 27) {
            double d = fast_dd(digits, nd, (int)e10, &ok);
            union {
                double d;
                uint64_t u;
            } v = {d};
            bits = v.u;
        }
        if (!ok)
            bits = decimal_to_bits(digits, nd, (int)e10, sticky, f, &range);
    }

done:
    if (end)
        *end = (char *)p;
    if (range)
        errno = ERANGE;
    return neg ? bits | signbit : bits;
}

double strtod(const char *restrict s, char **restrict end)
{
    union {
        uint64_t u;
        double d;
    } v = {parse(s, end, &F64)};
    return v.d;
}

long double strtold(const char *restrict s, char **restrict end)
{
    return strtod(s, end);
}

float strtof(const char *restrict s, char **restrict end)
{
    union {
        uint32_t u;
        float f;
    } v = {(uint32_t)parse(s, end, &F32)};
    return v.f;
}

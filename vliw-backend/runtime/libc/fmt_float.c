/* fmt_float.c: printf's floating-point conversions (%f %F %e %E %g %G %a
 * %A), exactly as glibc prints them.
 *
 * Decimal conversions expand the double exactly, as far as the conversion
 * needs: the integer part of x = m * 2^e in base-10^9 limbs (every digit),
 * the fraction as a binary fixed-point number that yields nine digits per
 * multiplication by 10^9, most significant first, until the requested
 * digits and one more exist; whether anything nonzero remains is known
 * exactly. The digits are then rounded at the requested place, half to
 * even on this exact value, so %f of 1e300 prints all its digits and
 * halfway cases round like glibc's. %a prints the binary fraction in hexadecimal, rounded
 * half-even when a precision cuts it; subnormals print as 0x0.xxxp-1022. */
#include <stdint.h>
#include <string.h>

#include "stdio_impl.h"

#define LIMB 1000000000u
#define INT_LIMBS 40       /* 309 integer digits / 9, with room */
#define FRAC_LIMBS 36      /* 1074 fraction bits / 32, with room */
#define MAX_DIGITS 1120    /* 17 integer digits + 1074 fraction digits at most */

/* Decimal digits of a non-negative double, most significant first. */
struct decimal {
    char d[MAX_DIGITS];    /* ASCII digits, no leading zeros, no trailing zeros */
    int n;                 /* number of digits (0: zero, or nothing significant yet) */
    int x;                 /* decimal exponent of d[0]: value = d[0].d[1]... * 10^x */
    int more;              /* nonzero digits follow d[n-1] (not generated) */
};

static void mul_small(uint32_t *a, int *n, uint32_t mult)
{
    uint64_t carry = 0;
    for (int i = 0; i < *n; i++) {
        uint64_t p = (uint64_t)a[i] * mult + carry;
        carry = p / LIMB;
        a[i] = (uint32_t)(p - carry * LIMB);
    }
    while (carry) {
        uint64_t q = carry / LIMB;
        a[(*n)++] = (uint32_t)(carry - q * LIMB);
        carry = q;
    }
}

static void push_chunk(struct decimal *dec, uint32_t v, int width)
{
    char t[10];
    for (int j = width - 1; j >= 0; j--) {
        t[j] = (char)('0' + v % 10);
        v /= 10;
    }
    for (int j = 0; j < width && dec->n < MAX_DIGITS; j++)
        dec->d[dec->n++] = t[j];
}

static int digits_of(uint32_t v)
{
    int k = 0;
    while (v) {
        k++;
        v /= 10;
    }
    return k;
}

/* Expands m * 2^e (m < 2^53) into dec: all digits of the integer part, then
 * fraction digits until at least want_sig significant digits and want_frac
 * digits after the point exist (or the expansion ends). The fraction is a
 * binary fixed-point number multiplied by 10^9 per step, so its digits come
 * most significant first and the rest is known exactly (dec->more). */
static void expand(uint64_t m, int e, int want_sig, int want_frac, struct decimal *dec)
{
    dec->n = 0;
    dec->x = 0;
    dec->more = 0;
    if (m == 0)
        return;
    while (!(m & 1)) {
        m >>= 1;
        e++;
    }
    if (e >= 0) {
        /* An integer: m * 2^e in base 10^9. */
        uint32_t a[INT_LIMBS];
        int n = 0;
        uint64_t hi = m / LIMB;
        a[n++] = (uint32_t)(m - hi * LIMB);
        if (hi) {
            uint64_t hh = hi / LIMB;
            a[n++] = (uint32_t)(hi - hh * LIMB);
            if (hh)
                a[n++] = (uint32_t)hh;
        }
        int k = e;
        while (k >= 29) {
            mul_small(a, &n, 1u << 29);
            k -= 29;
        }
        if (k)
            mul_small(a, &n, 1u << k);
        int top = digits_of(a[n - 1]);
        push_chunk(dec, a[n - 1], top);
        for (int i = n - 2; i >= 0; i--)
            push_chunk(dec, a[i], 9);
        dec->x = dec->n - 1;
    } else {
        int fb = -e; /* fraction bits, 1..1074 */
        uint64_t ip = fb >= 64 ? 0 : m >> fb;
        uint64_t fr = fb >= 64 ? m : m & ((1ULL << fb) - 1);
        /* Integer part: below 2^53. */
        if (ip) {
            uint64_t hi = ip / LIMB;
            uint32_t lo = (uint32_t)(ip - hi * LIMB);
            if (hi) {
                push_chunk(dec, (uint32_t)hi, digits_of((uint32_t)hi));
                push_chunk(dec, lo, 9);
            } else {
                push_chunk(dec, lo, digits_of(lo));
            }
            dec->x = dec->n - 1;
        }
        /* Fraction: fr / 2^fb as L 32-bit limbs below the point. */
        uint32_t f[FRAC_LIMBS];
        int L = (fb + 31) / 32;
        int shift = L * 32 - fb; /* align the point to a limb boundary */
        for (int i = 0; i < L; i++)
            f[i] = 0;
        for (int b = 0; b < 64 && fr >> b; b += 32) {
            uint64_t part = (fr >> b) & 0xffffffffu;
            int pos = b + shift; /* bit position of part's bit 0 */
            f[pos / 32] |= (uint32_t)(part << (pos % 32));
            if (pos % 32 && pos / 32 + 1 < L)
                f[pos / 32 + 1] |= (uint32_t)(part >> (32 - pos % 32));
        }
        int low = 0;  /* limbs below low are zero */
        int frac_pos = 0;
        int x_none = -1; /* exponent bound while nothing significant is out */
        while (low < L) {
            if (dec->n >= want_sig && dec->n > 0 && frac_pos >= want_frac)
                break;
            if (dec->n == 0 && want_frac >= 0 && frac_pos >= want_frac && want_sig == 0)
                break;
            uint64_t carry = 0;
            for (int i = low; i < L; i++) {
                uint64_t p = (uint64_t)f[i] * LIMB + carry;
                f[i] = (uint32_t)p;
                carry = p >> 32;
            }
            while (low < L && f[low] == 0)
                low++;
            uint32_t chunk = (uint32_t)carry;
            frac_pos += 9;
            if (dec->n == 0) {
                if (chunk == 0) {
                    x_none = -frac_pos - 1;
                    continue;
                }
                int k = digits_of(chunk);
                dec->x = -frac_pos + k - 1;
                push_chunk(dec, chunk, k);
            } else {
                push_chunk(dec, chunk, 9);
            }
        }
        dec->more = low < L;
        if (dec->n == 0)
            dec->x = x_none;
    }
    while (dec->n > 0 && dec->d[dec->n - 1] == '0')
        dec->n--;
}

/* Keeps the first p digits, rounding half-even on the exact value. */
static void round_at(struct decimal *dec, int p)
{
    if (p >= dec->n) {
        dec->more = 0; /* the next digit is 0: the truncation is the rounding */
        return;
    }
    if (p < 0) {
        dec->n = 0;
        dec->more = 0;
        return;
    }
    int up;
    char next = dec->d[p];
    if (next > '5')
        up = 1;
    else if (next < '5')
        up = 0;
    else if (dec->n > p + 1 || dec->more)
        up = 1; /* digits are trimmed of trailing zeros: something nonzero follows */
    else
        up = p > 0 && ((dec->d[p - 1] - '0') & 1);
    dec->n = p;
    dec->more = 0;
    if (!up) {
        while (dec->n > 0 && dec->d[dec->n - 1] == '0')
            dec->n--;
        return;
    }
    int i = p - 1;
    while (i >= 0 && dec->d[i] == '9')
        i--;
    if (i < 0) {
        dec->d[0] = '1';
        dec->n = 1;
        dec->x++;
    } else {
        dec->d[i]++;
        dec->n = i + 1;
    }
}

static void put_exp(char *buf, int *len, int x, char letter)
{
    buf[(*len)++] = letter;
    buf[(*len)++] = x < 0 ? '-' : '+';
    unsigned v = x < 0 ? (unsigned)-x : (unsigned)x;
    char t[8];
    int k = 0;
    do {
        t[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (k < 2)
        t[k++] = '0';
    while (k)
        buf[(*len)++] = t[--k];
}

/* Writes digits [from, to) of dec (zeros where it has none). */
static void put_digits(struct __dsp_sink *s, const struct decimal *dec, long from, long to)
{
    if (from >= to)
        return;
    if (from < 0) {
        long z = (to < 0 ? to : 0) - from;
        __dsp_sink_pad(s, '0', (size_t)z);
        from = 0;
    }
    if (from < dec->n && from < to) {
        long end = to < dec->n ? to : dec->n;
        __dsp_sink_write(s, dec->d + from, (size_t)(end - from));
        from = end;
    }
    if (from < to)
        __dsp_sink_pad(s, '0', (size_t)(to - from));
}

static void pad_and_sign(struct __dsp_sink *s, char sign, size_t body, int flags, int width, int zero_ok,
                         size_t *after)
{
    size_t total = body + (sign ? 1 : 0);
    size_t pad = width > 0 && (size_t)width > total ? (size_t)width - total : 0;
    *after = 0;
    if (flags & __DSP_FL_LEFT) {
        *after = pad;
        pad = 0;
    }
    if (pad && !(zero_ok && (flags & __DSP_FL_ZERO)))
        __dsp_sink_pad(s, ' ', pad);
    if (sign)
        __dsp_sink_write(s, &sign, 1);
    if (pad && zero_ok && (flags & __DSP_FL_ZERO))
        __dsp_sink_pad(s, '0', pad);
}

static void format_hex(struct __dsp_sink *s, char sign, uint64_t bits, int flags, int width, int prec,
                       int upper)
{
    const char *hexd = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int bexp = (int)((bits >> 52) & 0x7ff);
    uint64_t frac = bits & 0xfffffffffffffULL;
    unsigned lead;
    int e;
    if (bexp == 0) {
        lead = 0;
        e = frac ? -1022 : 0;
    } else {
        lead = 1;
        e = bexp - 1023;
    }
    int nfrac = 13; /* hex digits of the fraction */
    if (prec >= 0 && prec < 13) {
        int drop = (13 - prec) * 4;
        uint64_t rem = frac & ((1ULL << drop) - 1);
        uint64_t half = 1ULL << (drop - 1);
        uint64_t kept = frac >> drop;
        int odd = prec == 0 ? (int)(lead & 1) : (int)(kept & 1);
        if (rem > half || (rem == half && odd)) {
            kept++;
            if (prec == 0 || kept >> (prec * 4)) {
                lead++;
                kept &= prec == 0 ? 0 : ((1ULL << (prec * 4)) - 1);
            }
        }
        frac = kept << drop;
        nfrac = prec;
    } else if (prec < 0) {
        while (nfrac > 0 && ((frac >> ((13 - nfrac) * 4)) & 15) == 0)
            nfrac--;
    }
    char body[40];
    int len = 0;
    body[len++] = '0';
    body[len++] = upper ? 'X' : 'x';
    int head = len;
    body[len++] = hexd[lead];
    int extra_zeros = prec > 13 ? prec - 13 : 0;
    if (nfrac > 0 || extra_zeros > 0 || (flags & __DSP_FL_ALT))
        body[len++] = '.';
    for (int i = 0; i < nfrac; i++)
        body[len++] = hexd[(frac >> ((12 - i) * 4)) & 15];
    char tail[16];
    int tlen = 0;
    tail[tlen++] = upper ? 'P' : 'p';
    tail[tlen++] = e < 0 ? '-' : '+';
    {
        unsigned v = e < 0 ? (unsigned)-e : (unsigned)e;
        char t[8];
        int k = 0;
        do {
            t[k++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (k)
            tail[tlen++] = t[--k];
    }
    size_t bodylen = (size_t)len + (size_t)extra_zeros + (size_t)tlen;
    size_t total = bodylen + (sign ? 1 : 0);
    size_t pad = width > 0 && (size_t)width > total ? (size_t)width - total : 0;
    if (!(flags & (__DSP_FL_LEFT | __DSP_FL_ZERO)))
        __dsp_sink_pad(s, ' ', pad);
    if (sign)
        __dsp_sink_write(s, &sign, 1);
    __dsp_sink_write(s, body, (size_t)head);
    if ((flags & (__DSP_FL_LEFT | __DSP_FL_ZERO)) == __DSP_FL_ZERO)
        __dsp_sink_pad(s, '0', pad);
    __dsp_sink_write(s, body + head, (size_t)(len - head));
    __dsp_sink_pad(s, '0', (size_t)extra_zeros);
    __dsp_sink_write(s, tail, (size_t)tlen);
    if (flags & __DSP_FL_LEFT)
        __dsp_sink_pad(s, ' ', pad);
}

void __dsp_format_float(struct __dsp_sink *s, double x, int flags, int width, int prec, int conv)
{
    union {
        double d;
        uint64_t u;
    } v = {x};
    int upper = conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A';
    int lower_conv = conv | 32;
    char sign = 0;
    if (v.u >> 63)
        sign = '-';
    else if (flags & __DSP_FL_PLUS)
        sign = '+';
    else if (flags & __DSP_FL_SPACE)
        sign = ' ';
    int bexp = (int)((v.u >> 52) & 0x7ff);
    uint64_t frac = v.u & 0xfffffffffffffULL;

    if (bexp == 0x7ff) {
        const char *word = frac ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        size_t after;
        pad_and_sign(s, sign, 3, flags, width, 0, &after);
        __dsp_sink_write(s, word, 3);
        __dsp_sink_pad(s, ' ', after);
        return;
    }
    if (lower_conv == 'a') {
        format_hex(s, sign, v.u, flags, width, prec, upper);
        return;
    }

    static struct decimal dec; /* 1 KiB: kept off the (small) stack */
    uint64_t m = bexp ? frac | (1ULL << 52) : frac;
    int e = bexp ? bexp - 1075 : -1074;
    if (prec < 0)
        prec = 6;
    if (lower_conv == 'e')
        expand(m, e, prec + 2, -1, &dec);
    else if (lower_conv == 'g')
        expand(m, e, (prec == 0 ? 1 : prec) + 2, -1, &dec);
    else
        expand(m, e, 0, prec + 1, &dec);

    int style = lower_conv; /* 'f' or 'e' after %g's choice */
    int strip = 0;
    if (lower_conv == 'g') {
        int p = prec == 0 ? 1 : prec;
        int x0 = dec.n ? dec.x : 0;
        round_at(&dec, p);
        int xx = dec.n ? dec.x : 0;
        if (p > xx && xx >= -4) {
            style = 'f';
            prec = p - 1 - xx;
        } else {
            style = 'e';
            prec = p - 1;
        }
        strip = !(flags & __DSP_FL_ALT);
        /* glibc quirk: with '#', when the unrounded value has exactly p
         * integer digits and rounding carries into a new digit (99.5 with
         * %#.2g), it prints "1.e+02" instead of "1.0e+02". */
        if (!strip && x0 >= 0 && x0 + 1 == p && xx == p)
            prec = 0;
    } else if (lower_conv == 'e') {
        round_at(&dec, prec + 1);
    } else {
        long p = (long)dec.x + 1 + prec;
        round_at(&dec, p > MAX_DIGITS ? MAX_DIGITS : p < -1 ? -1 : (int)p);
    }

    if (style == 'e') {
        int xx = dec.n ? dec.x : 0;
        long nfrac = prec;
        if (strip) {
            long last = dec.n - 1; /* index of the last nonzero digit */
            nfrac = last > 0 ? last : 0;
            if (nfrac > prec)
                nfrac = prec;
        }
        int point = nfrac > 0 || (flags & __DSP_FL_ALT);
        char ebuf[8];
        int elen = 0;
        put_exp(ebuf, &elen, xx, upper ? 'E' : 'e');
        size_t body = 1 + (size_t)point + (size_t)nfrac + (size_t)elen;
        size_t after;
        pad_and_sign(s, sign, body, flags, width, 1, &after);
        put_digits(s, &dec, 0, 1);
        if (point)
            __dsp_sink_write(s, ".", 1);
        put_digits(s, &dec, 1, 1 + nfrac);
        __dsp_sink_write(s, ebuf, (size_t)elen);
        __dsp_sink_pad(s, ' ', after);
    } else {
        /* Digit i of dec has the place value 10^(x - i). */
        long xx = dec.n ? dec.x : -1;
        long nint = xx >= 0 ? xx + 1 : 1;
        long nfrac = prec;
        if (strip) {
            long need = dec.n ? (long)dec.n - 1 - xx : 0;
            if (need < 0)
                need = 0;
            if (need < nfrac)
                nfrac = need;
        }
        int point = nfrac > 0 || (flags & __DSP_FL_ALT);
        size_t body = (size_t)nint + (size_t)point + (size_t)nfrac;
        size_t after;
        pad_and_sign(s, sign, body, flags, width, 1, &after);
        if (xx >= 0)
            put_digits(s, &dec, 0, xx + 1);
        else
            __dsp_sink_write(s, "0", 1);
        if (point)
            __dsp_sink_write(s, ".", 1);
        put_digits(s, &dec, xx + 1, xx + 1 + nfrac);
        __dsp_sink_pad(s, ' ', after);
    }
}

/* vformat.c: the printf engine shared by the printf family: parses each
 * directive (flags - + space # 0, width and precision with '*', length
 * modifiers hh h l ll j z t L q) and formats integers, characters, strings,
 * pointers, %n and %m the way glibc does; floating-point conversions go to
 * __dsp_format_float (fmt_float.c). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "stdio_impl.h"

void __dsp_sink_write(struct __dsp_sink *s, const char *p, size_t n)
{
    if (n == 0)
        return;
    if (s->file && s->str) {
        /* An unbuffered stream: collect the output, write it in blocks. */
        size_t pos = s->pos;
        while (n > 0) {
            size_t used = pos % s->cap;
            size_t k = s->cap - used < n ? s->cap - used : n;
            memcpy(s->str + used, p, k);
            p += k;
            n -= k;
            pos += k;
            if (pos % s->cap == 0 && !s->error && __dsp_fwrite_bytes(s->file, s->str, s->cap) != 0)
                s->error = 1;
        }
        s->pos = pos;
        return;
    }
    if (s->file) {
        if (!s->error && __dsp_fwrite_bytes(s->file, p, n) != 0)
            s->error = 1;
    } else if (s->pos < s->cap) {
        size_t room = s->cap - s->pos;
        size_t k = n < room ? n : room;
        for (size_t i = 0; i < k; i++)
            s->str[s->pos + i] = p[i];
    }
    s->pos += n;
}

void __dsp_sink_pad(struct __dsp_sink *s, char c, size_t n)
{
    char block[32];
    for (int i = 0; i < 32; i++)
        block[i] = c;
    while (n > 0) {
        size_t k = n < 32 ? n : 32;
        __dsp_sink_write(s, block, k);
        n -= k;
    }
}

/* Flags that only matter when an unknown directive is printed back. */
#define FL_GROUP 256 /* '\'' */
#define FL_I18N 512  /* 'I' */

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIGL };

/* Digits of v in base 8, 10 or 16 into the end of buf; returns the start. */
static char *utoa(char *end, unsigned long long v, int base, int upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char *p = end;
    if (v >> 32 == 0) {
        unsigned w = (unsigned)v;
        if (base == 10) {
            while (w) {
                *--p = (char)('0' + w % 10);
                w /= 10;
            }
        } else {
            unsigned shift = base == 16 ? 4 : 3, mask = (unsigned)base - 1;
            while (w) {
                *--p = digits[w & mask];
                w >>= shift;
            }
        }
        return p;
    }
    if (base == 10) {
        while (v) {
            *--p = (char)('0' + (int)(v % 10));
            v /= 10;
        }
    } else {
        unsigned shift = base == 16 ? 4 : 3, mask = (unsigned)base - 1;
        while (v) {
            *--p = digits[(unsigned)v & mask];
            v >>= shift;
        }
    }
    return p;
}

/* An integer conversion (conv d i u o x X, or p for a non-null pointer):
 * sign or 0x prefix, zeros up to the precision, padding to the width. A
 * precision disables the '0' flag (the caller clears it). */
static void format_int(struct __dsp_sink *s, unsigned long long mag, int neg, int flags, int width,
                       int prec, int conv)
{
    char buf[32];
    char *end = buf + sizeof buf;
    int base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;
    char *digits = utoa(end, mag, base, conv == 'X');
    size_t ndig = (size_t)(end - digits);
    char prefix[4];
    size_t npre = 0;

    if (conv == 'd' || conv == 'i' || conv == 'p') {
        if (neg)
            prefix[npre++] = '-';
        else if (flags & __DSP_FL_PLUS)
            prefix[npre++] = '+';
        else if (flags & __DSP_FL_SPACE)
            prefix[npre++] = ' ';
    }
    if ((flags & __DSP_FL_ALT) && mag != 0 && base == 16) {
        prefix[npre++] = '0';
        prefix[npre++] = conv == 'X' ? 'X' : 'x';
    }
    if (prec < 0)
        prec = 1;
    size_t zeros = (size_t)prec > ndig ? (size_t)prec - ndig : 0;
    if (base == 8 && (flags & __DSP_FL_ALT) && zeros == 0)
        zeros = 1;
    size_t body = npre + zeros + ndig;
    size_t pad = width > 0 && (size_t)width > body ? (size_t)width - body : 0;
    if (!(flags & (__DSP_FL_LEFT | __DSP_FL_ZERO)))
        __dsp_sink_pad(s, ' ', pad);
    __dsp_sink_write(s, prefix, npre);
    if ((flags & (__DSP_FL_LEFT | __DSP_FL_ZERO)) == __DSP_FL_ZERO)
        __dsp_sink_pad(s, '0', pad);
    __dsp_sink_pad(s, '0', zeros);
    __dsp_sink_write(s, digits, ndig);
    if (flags & __DSP_FL_LEFT)
        __dsp_sink_pad(s, ' ', pad);
}

/* n bytes of p, space-padded to the width ('0' is ignored, as in glibc). */
static void format_str(struct __dsp_sink *s, const char *p, size_t n, int flags, int width)
{
    size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
    if (!(flags & __DSP_FL_LEFT))
        __dsp_sink_pad(s, ' ', pad);
    __dsp_sink_write(s, p, n);
    if (flags & __DSP_FL_LEFT)
        __dsp_sink_pad(s, ' ', pad);
}

/* Reads a decimal number at *pp (saturating at INT_MAX). */
static int read_num(const char **pp)
{
    const char *p = *pp;
    int v = 0;
    while (*p >= '0' && *p <= '9') {
        int d = *p++ - '0';
        v = v > (INT_MAX - d) / 10 ? INT_MAX : v * 10 + d;
    }
    *pp = p;
    return v;
}

int __dsp_vformat(struct __dsp_sink *s, const char *fmt, va_list ap)
{
    const char *p = fmt;
    while (*p) {
        if (*p != '%') {
            const char *q = p;
            while (*q && *q != '%')
                q++;
            __dsp_sink_write(s, p, (size_t)(q - p));
            p = q;
            continue;
        }
        p++;
        int flags = 0;
        for (;; p++) {
            if (*p == '-')
                flags |= __DSP_FL_LEFT;
            else if (*p == '+')
                flags |= __DSP_FL_PLUS;
            else if (*p == ' ')
                flags |= __DSP_FL_SPACE;
            else if (*p == '#')
                flags |= __DSP_FL_ALT;
            else if (*p == '0')
                flags |= __DSP_FL_ZERO;
            else if (*p == '\'')
                flags |= FL_GROUP;
            else if (*p == 'I')
                flags |= FL_I18N;
            else
                break;
        }
        int width = 0;
        if (*p == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                flags |= __DSP_FL_LEFT;
                width = width == INT_MIN ? INT_MAX : -width;
            }
            p++;
        } else {
            width = read_num(&p);
        }
        int prec = -1;
        if (*p == '.') {
            p++;
            if (*p == '*') {
                prec = va_arg(ap, int);
                if (prec < 0)
                    prec = -1;
                p++;
            } else {
                prec = read_num(&p);
            }
        }
        int len = LEN_NONE;
        switch (*p) {
        case 'h':
            p++;
            len = LEN_H;
            if (*p == 'h') {
                p++;
                len = LEN_HH;
            }
            break;
        case 'l':
            p++;
            len = LEN_L;
            if (*p == 'l') {
                p++;
                len = LEN_LL;
            }
            break;
        case 'q':
            p++;
            len = LEN_LL;
            break;
        case 'j':
            p++;
            len = LEN_J;
            break;
        case 'z':
        case 'Z':
            p++;
            len = LEN_Z;
            break;
        case 't':
            p++;
            len = LEN_T;
            break;
        case 'L':
            p++;
            len = LEN_BIGL;
            break;
        }
        int conv = *p;
        if (!conv) {
            /* The format ends inside a directive: glibc fails the call. */
            errno = EINVAL;
            return -1;
        }
        p++;
        switch (conv) {
        case 'd':
        case 'i': {
            long long v;
            if (len == LEN_LL || len == LEN_J || len == LEN_BIGL)
                v = va_arg(ap, long long);
            else if (len == LEN_L)
                v = va_arg(ap, long);
            else
                v = va_arg(ap, int);
            if (len == LEN_HH)
                v = (signed char)v;
            else if (len == LEN_H)
                v = (short)v;
            unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
            if (prec >= 0)
                flags &= ~__DSP_FL_ZERO;
            format_int(s, mag, v < 0, flags, width, prec, conv);
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            unsigned long long v;
            if (len == LEN_LL || len == LEN_J || len == LEN_BIGL)
                v = va_arg(ap, unsigned long long);
            else if (len == LEN_L)
                v = va_arg(ap, unsigned long);
            else
                v = va_arg(ap, unsigned);
            if (len == LEN_HH)
                v = (unsigned char)v;
            else if (len == LEN_H)
                v = (unsigned short)v;
            if (prec >= 0)
                flags &= ~__DSP_FL_ZERO;
            format_int(s, v, 0, flags, width, prec, conv);
            break;
        }
        case 'p': {
            void *ptr = va_arg(ap, void *);
            if (ptr == NULL) {
                format_str(s, "(nil)", 5, flags, width);
            } else {
                if (prec >= 0)
                    flags &= ~__DSP_FL_ZERO;
                format_int(s, (uintptr_t)ptr, 0, flags | __DSP_FL_ALT, width, prec, 'p');
            }
            break;
        }
        case 'c':
        case 'C': {
            unsigned v = va_arg(ap, unsigned);
            if ((len == LEN_L || conv == 'C') && v > 127) {
                /* Not a character of the C locale: glibc fails the call. */
                errno = EILSEQ;
                s->error = 1;
                return -1;
            }
            char c = (char)v;
            format_str(s, &c, 1, flags, width);
            break;
        }
        case 's':
        case 'S':
            if (len == LEN_L || conv == 'S') {
                /* Wide string: characters below 128 only (the C locale). */
                const unsigned *ws = (const unsigned *)va_arg(ap, void *);
                char tmp[64];
                size_t n = 0;
                if (ws == NULL) {
                    format_str(s, prec < 0 || prec >= 6 ? "(null)" : "", prec < 0 || prec >= 6 ? 6 : 0,
                               flags, width);
                    break;
                }
                while (ws[n] && (prec < 0 || n < (size_t)prec)) {
                    if (ws[n] > 127) {
                        errno = EILSEQ;
                        s->error = 1;
                        return -1;
                    }
                    n++;
                }
                size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
                if (!(flags & __DSP_FL_LEFT))
                    __dsp_sink_pad(s, ' ', pad);
                for (size_t i = 0; i < n;) {
                    size_t k = 0;
                    while (k < sizeof tmp && i < n)
                        tmp[k++] = (char)ws[i++];
                    __dsp_sink_write(s, tmp, k);
                }
                if (flags & __DSP_FL_LEFT)
                    __dsp_sink_pad(s, ' ', pad);
            } else {
                const char *str = va_arg(ap, const char *);
                size_t n;
                if (str == NULL) {
                    str = prec < 0 || prec >= 6 ? "(null)" : "";
                    n = strlen(str);
                } else if (prec >= 0) {
                    const char *z = memchr(str, 0, (size_t)prec);
                    n = z ? (size_t)(z - str) : (size_t)prec;
                } else {
                    n = strlen(str);
                }
                format_str(s, str, n, flags, width);
            }
            break;
        case 'm': {
            const char *str = strerror(errno);
            size_t n = strlen(str);
            if (prec >= 0 && (size_t)prec < n)
                n = (size_t)prec;
            format_str(s, str, n, flags, width);
            break;
        }
        case 'n': {
            void *dst = va_arg(ap, void *);
            int count = (int)s->pos;
            if (len == LEN_HH)
                *(signed char *)dst = (signed char)count;
            else if (len == LEN_H)
                *(short *)dst = (short)count;
            else if (len == LEN_LL || len == LEN_J)
                *(long long *)dst = count;
            else if (len == LEN_L)
                *(long *)dst = count;
            else
                *(int *)dst = count;
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            double x = len == LEN_BIGL ? (double)va_arg(ap, long double) : va_arg(ap, double);
            __dsp_format_float(s, x, flags, width, prec, conv);
            break;
        }
        case '%':
            __dsp_sink_write(s, "%", 1);
            break;
        default: {
            /* Unknown conversion: printed back the way glibc does it, flags
             * in its order, '*' values, no length modifier. */
            char tmp[40];
            int n = 0;
            tmp[n++] = '%';
            if (flags & __DSP_FL_ALT)
                tmp[n++] = '#';
            if (flags & FL_GROUP)
                tmp[n++] = '\'';
            if (flags & __DSP_FL_PLUS)
                tmp[n++] = '+';
            else if (flags & __DSP_FL_SPACE)
                tmp[n++] = ' ';
            if (flags & __DSP_FL_LEFT)
                tmp[n++] = '-';
            else if (flags & __DSP_FL_ZERO)
                tmp[n++] = '0';
            if (flags & FL_I18N)
                tmp[n++] = 'I';
            __dsp_sink_write(s, tmp, (size_t)n);
            n = 0;
            if (width > 0) {
                char *e = utoa(tmp + sizeof tmp, (unsigned)width, 10, 0);
                __dsp_sink_write(s, e, (size_t)(tmp + sizeof tmp - e));
            }
            if (prec >= 0) {
                __dsp_sink_write(s, ".", 1);
                char *e = prec ? utoa(tmp + sizeof tmp, (unsigned)prec, 10, 0) : tmp + sizeof tmp - 1;
                if (!prec)
                    *e = '0';
                __dsp_sink_write(s, e, (size_t)(tmp + sizeof tmp - e));
            }
            char c = (char)conv;
            __dsp_sink_write(s, &c, 1);
            break;
        }
        }
    }
    if (s->error)
        return -1;
    if (s->pos > INT_MAX) {
        errno = EOVERFLOW;
        return -1;
    }
    return (int)s->pos;
}

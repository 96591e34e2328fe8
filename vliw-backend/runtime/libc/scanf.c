/* scanf.c: the scanf family (sscanf, vsscanf, scanf, fscanf, vscanf,
 * vfscanf) over one engine reading from a string or a stream: %d %i %u %o
 * %x %X %p %c %s %[set] %f %e %g %a (and capitals) %n %%, '*' suppression,
 * widths, length modifiers hh h l ll j z t L q. Numbers are delimited by
 * their syntax (with the width as a limit) and converted with strtoll,
 * strtoull and strtod, as glibc does. Returns the number of assignments,
 * or EOF if input ends before the first conversion. */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct src {
    const char *s; /* string source, or NULL */
    FILE *f;       /* stream source */
    long count;    /* characters consumed */
};

static int get(struct src *in)
{
    int c;
    if (in->s)
        c = *in->s ? (unsigned char)*in->s++ : EOF;
    else
        c = fgetc(in->f);
    if (c != EOF)
        in->count++;
    return c;
}

static void unget(struct src *in, int c)
{
    if (c == EOF)
        return;
    in->count--;
    if (in->s)
        in->s--;
    else
        ungetc(c, in->f);
}

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_BIGL };

static void store_int(void *p, int len, unsigned long long v)
{
    switch (len) {
    case L_HH: *(signed char *)p = (signed char)v; break;
    case L_H: *(short *)p = (short)v; break;
    case L_L: *(long *)p = (long)v; break;
    case L_LL: *(long long *)p = (long long)v; break;
    default: *(int *)p = (int)v; break;
    }
}

/* Reads the longest prefix of a number (integer in base, or a float when
 * base is 0 and fl is set) of at most width characters into buf. */
static int scan_number(struct src *in, char *buf, int cap, int width, int base, int fl)
{
    int n = 0, c = get(in);
    if (width <= 0 || width > cap - 1)
        width = cap - 1;
#define TAKE() (buf[n++] = (char)c, c = n < width ? get(in) : EOF)
    if (c == '+' || c == '-')
        TAKE();
    if (fl) {
        int digits = 0, hex = 0;
        if (c == '0' && n < width) {
            TAKE();
            digits = 1;
            if ((c | 32) == 'x' && n < width) {
                TAKE();
                hex = 1;
                digits = 0;
            }
        } else if ((c | 32) == 'i' || (c | 32) == 'n') {
            const char *word = (c | 32) == 'i' ? "infinity" : "nan";
            int k = 0;
            while (word[k] && (c | 32) == word[k] && n < width) {
                TAKE();
                k++;
            }
            if (k != 3 && k != 8 && k != (int)strlen(word)) {
                unget(in, c);
                return -1;
            }
            unget(in, c);
            buf[n] = 0;
            return n;
        }
        while (c != EOF && (hex ? isxdigit(c) : isdigit(c))) {
            TAKE();
            digits = 1;
        }
        if (c == '.') {
            TAKE();
            while (c != EOF && (hex ? isxdigit(c) : isdigit(c))) {
                TAKE();
                digits = 1;
            }
        }
        if (digits && (c | 32) == (hex ? 'p' : 'e')) {
            TAKE();
            if (c == '+' || c == '-')
                TAKE();
            while (c != EOF && isdigit(c))
                TAKE();
        }
        unget(in, c);
        buf[n] = 0;
        return digits ? n : -1;
    }
    int digits = 0;
    if ((base == 0 || base == 16) && c == '0') {
        TAKE();
        digits = 1;
        if ((c | 32) == 'x' && n < width) {
            TAKE();
            base = 16;
            digits = 0;
        } else if (base == 0) {
            base = 8;
        }
    }
    if (base == 0)
        base = 10;
    for (;;) {
        int d = c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'z' ? (c | 32) - 'a' + 10 : 99;
        if (c == EOF || d >= base)
            break;
        TAKE();
        digits = 1;
    }
#undef TAKE
    unget(in, c);
    buf[n] = 0;
    return digits ? n : -1;
}

static int vscan(struct src *in, const char *fmt, va_list ap)
{
    int assigned = 0, any_input = 0;
    for (const char *p = fmt; *p; p++) {
        if (isspace((unsigned char)*p)) {
            int c;
            while ((c = get(in)) != EOF && isspace(c))
                ;
            unget(in, c);
            continue;
        }
        if (*p != '%' || p[1] == '%') {
            if (*p == '%')
                p++;
            int c = get(in);
            if (*p == '%')
                while (c != EOF && isspace(c))
                    c = get(in);
            if (c != (unsigned char)*p) {
                unget(in, c);
                return c == EOF && !any_input ? EOF : assigned;
            }
            any_input = 1;
            continue;
        }
        p++;
        int suppress = 0, width = 0, len = L_NONE;
        if (*p == '*') {
            suppress = 1;
            p++;
        }
        while (isdigit((unsigned char)*p))
            width = width * 10 + (*p++ - '0');
        switch (*p) {
        case 'h': len = p[1] == 'h' ? (p++, L_HH) : L_H; p++; break;
        case 'l': len = p[1] == 'l' ? (p++, L_LL) : L_L; p++; break;
        case 'q': case 'j': len = L_LL; p++; break;
        case 'L': len = L_BIGL; p++; break;
        case 'z': case 't': p++; break;
        }
        int conv = *p;
        if (!conv)
            break;
        if (conv == 'n') {
            if (!suppress)
                store_int(va_arg(ap, void *), len, (unsigned long long)in->count);
            continue;
        }
        if (conv != 'c' && conv != '[') {
            int c;
            while ((c = get(in)) != EOF && isspace(c))
                ;
            if (c == EOF)
                return any_input || assigned ? assigned : EOF;
            unget(in, c);
        }
        switch (conv) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
            char buf[128];
            int base = conv == 'd' || conv == 'u' ? 10 : conv == 'o' ? 8 : conv == 'i' ? 0 : 16;
            int n = scan_number(in, buf, sizeof buf, width, base, 0);
            if (n < 0)
                return assigned; /* a matching failure: input was there */
            any_input = 1;
            if (suppress)
                break;
            if (conv == 'p') {
                *va_arg(ap, void **) = (void *)(uintptr_t)strtoull(buf, NULL, 16);
            } else if (conv == 'd' || conv == 'i') {
                /* long conversions saturate at the long range, as glibc's */
                long long v = len == L_LL ? strtoll(buf, NULL, base) : strtol(buf, NULL, base);
                store_int(va_arg(ap, void *), len, (unsigned long long)v);
            } else {
                unsigned long long v = len == L_LL ? strtoull(buf, NULL, base) : strtoul(buf, NULL, base);
                store_int(va_arg(ap, void *), len, v);
            }
            assigned++;
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            char buf[512];
            int n = scan_number(in, buf, sizeof buf, width, 0, 1);
            if (n < 0)
                return assigned; /* a matching failure: input was there */
            any_input = 1;
            if (suppress)
                break;
            if (len == L_L || len == L_BIGL)
                *va_arg(ap, double *) = strtod(buf, NULL);
            else
                *va_arg(ap, float *) = strtof(buf, NULL);
            assigned++;
            break;
        }
        case 'c': {
            if (width == 0)
                width = 1;
            char *dst = suppress ? NULL : va_arg(ap, char *);
            for (int i = 0; i < width; i++) {
                int c = get(in);
                if (c == EOF)
                    return any_input || assigned || i ? assigned : EOF;
                if (dst)
                    dst[i] = (char)c;
            }
            any_input = 1;
            if (dst)
                assigned++;
            break;
        }
        case 's':
        case '[': {
            unsigned char set[256];
            if (conv == 's') {
                for (int i = 0; i < 256; i++)
                    set[i] = !isspace(i);
                set[0] = 0;
            } else {
                p++;
                int neg = *p == '^';
                if (neg)
                    p++;
                memset(set, 0, sizeof set);
                if (*p == ']')
                    set[(unsigned char)*p++] = 1;
                for (; *p && *p != ']'; p++) {
                    if (p[1] == '-' && p[2] && p[2] != ']') {
                        for (int ch = (unsigned char)p[0]; ch <= (unsigned char)p[2]; ch++)
                            set[ch] = 1;
                        p += 2;
                    } else {
                        set[(unsigned char)*p] = 1;
                    }
                }
                if (!*p)
                    return assigned;
                if (neg)
                    for (int i = 0; i < 256; i++)
                        set[i] = !set[i];
                set[0] = 0;
            }
            char *dst = suppress ? NULL : va_arg(ap, char *);
            int n = 0, c = EOF;
            while ((width == 0 || n < width) && (c = get(in)) != EOF && set[c]) {
                if (dst)
                    dst[n] = (char)c;
                n++;
                c = EOF;
            }
            unget(in, c);
            if (n == 0)
                return c == EOF && !any_input && !assigned ? EOF : assigned;
            any_input = 1;
            if (dst) {
                dst[n] = 0;
                assigned++;
            }
            break;
        }
        default:
            return assigned;
        }
    }
    return assigned;
}

int vsscanf(const char *restrict s, const char *restrict fmt, va_list ap)
{
    struct src in = {s, NULL, 0};
    return vscan(&in, fmt, ap);
}

int sscanf(const char *restrict s, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

int vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap)
{
    struct src in = {NULL, f, 0};
    return vscan(&in, fmt, ap);
}

int fscanf(FILE *restrict f, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfscanf(f, fmt, ap);
    va_end(ap);
    return r;
}

int vscanf(const char *restrict fmt, va_list ap)
{
    return vfscanf(stdin, fmt, ap);
}

int scanf(const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfscanf(stdin, fmt, ap);
    va_end(ap);
    return r;
}

/* strtol.c: strtol, strtoul, strtoll, strtoull, strtoimax, strtoumax with
 * glibc's behaviour: leading white space, a sign, base 0 (prefix 0x or 0
 * decides) or 2..36 (16 accepts 0x); "0x" without hex digits reads as 0
 * ending at the 'x'; no digits: 0 and *end = the start; overflow: the
 * limit and ERANGE; a '-' negates an unsigned result. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

static int digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

/* Parses the magnitude (saturating at max, then *over = 1); *neg gets the sign. */
static unsigned long long parse(const char *s, char **end, int base, unsigned long long max, int *neg,
                                int *over)
{
    const char *p = s;
    *neg = 0;
    *over = 0;
    if (base < 0 || base == 1 || base > 36) {
        errno = EINVAL; /* glibc leaves *end alone here */
        return 0;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-' || *p == '+')
        *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 32) == 'x' && digit_value((unsigned char)p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    const char *digits = p;
    unsigned long long v = 0;
    unsigned long long cutoff = max / (unsigned)base;
    unsigned cutlim = (unsigned)(max % (unsigned)base);
    for (;; p++) {
        int d = digit_value((unsigned char)*p);
        if (d >= base)
            break;
        if (*over)
            continue;
        if (v > cutoff || (v == cutoff && (unsigned)d > cutlim)) {
            *over = 1;
            v = max;
        } else {
            v = v * (unsigned)base + (unsigned)d;
        }
    }
    if (p == digits) {
        /* No digits. "0x" followed by no hex digit was handled above. */
        if (end)
            *end = (char *)s;
        *neg = 0;
        return 0;
    }
    if (end)
        *end = (char *)p;
    return v;
}

static long long to_signed(const char *s, char **end, int base, long long min, long long max)
{
    int neg, over;
    unsigned long long limit = (unsigned long long)max + 1; /* |min| */
    unsigned long long v = parse(s, end, base, limit, &neg, &over);
    if (over || (!neg && v > (unsigned long long)max)) {
        errno = ERANGE;
        return neg ? min : max;
    }
    return neg ? (long long)(0 - v) : (long long)v;
}

static unsigned long long to_unsigned(const char *s, char **end, int base, unsigned long long max)
{
    int neg, over;
    unsigned long long v = parse(s, end, base, max, &neg, &over);
    if (over) {
        errno = ERANGE;
        return max;
    }
    return neg ? (0 - v) & max : v;
}

long strtol(const char *restrict s, char **restrict end, int base)
{
    return (long)to_signed(s, end, base, LONG_MIN, LONG_MAX);
}

long long strtoll(const char *restrict s, char **restrict end, int base)
{
    return to_signed(s, end, base, LLONG_MIN, LLONG_MAX);
}

intmax_t strtoimax(const char *restrict s, char **restrict end, int base)
{
    return to_signed(s, end, base, INTMAX_MIN, INTMAX_MAX);
}

unsigned long strtoul(const char *restrict s, char **restrict end, int base)
{
    return (unsigned long)to_unsigned(s, end, base, ULONG_MAX);
}

unsigned long long strtoull(const char *restrict s, char **restrict end, int base)
{
    return to_unsigned(s, end, base, ULLONG_MAX);
}

uintmax_t strtoumax(const char *restrict s, char **restrict end, int base)
{
    return to_unsigned(s, end, base, UINTMAX_MAX);
}

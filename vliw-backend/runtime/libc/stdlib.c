/* stdlib.c: integer arithmetic helpers, the ato* conversions, and the
 * environment queries of a program without an environment. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

int abs(int v) { return v < 0 ? -v : v; }
long labs(long v) { return v < 0 ? -v : v; }
long long llabs(long long v) { return v < 0 ? -v : v; }
intmax_t imaxabs(intmax_t v) { return v < 0 ? -v : v; }

div_t div(int a, int b)
{
    div_t r = {a / b, a % b};
    return r;
}

ldiv_t ldiv(long a, long b)
{
    ldiv_t r = {a / b, a % b};
    return r;
}

lldiv_t lldiv(long long a, long long b)
{
    lldiv_t r = {a / b, a % b};
    return r;
}

imaxdiv_t imaxdiv(intmax_t a, intmax_t b)
{
    imaxdiv_t r = {a / b, a % b};
    return r;
}

int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }
double atof(const char *s) { return strtod(s, NULL); }

char *getenv(const char *name)
{
    (void)name;
    return NULL;
}

int setenv(const char *name, const char *value, int overwrite)
{
    (void)name;
    (void)value;
    (void)overwrite;
    errno = ENOMEM;
    return -1;
}

int unsetenv(const char *name)
{
    (void)name;
    return 0;
}

int system(const char *cmd)
{
    /* No command processor: system(NULL) says so, others fail. */
    return cmd == NULL ? 0 : -1;
}

/* Multibyte conversions of the C locale: one byte per character. */
int mblen(const char *s, size_t n)
{
    if (!s)
        return 0;
    if (n == 0)
        return -1;
    return *s ? 1 : 0;
}

int mbtowc(wchar_t *restrict pwc, const char *restrict s, size_t n)
{
    if (!s)
        return 0;
    if (n == 0)
        return -1;
    if (pwc)
        *pwc = (unsigned char)*s;
    return *s ? 1 : 0;
}

int wctomb(char *s, wchar_t wc)
{
    if (!s)
        return 0;
    if ((unsigned)wc > 255) {
        errno = EILSEQ;
        return -1;
    }
    *s = (char)wc;
    return 1;
}

size_t mbstowcs(wchar_t *restrict d, const char *restrict s, size_t n)
{
    size_t i = 0;
    for (; s[i]; i++) {
        if (d && i < n)
            d[i] = (unsigned char)s[i];
        else if (d)
            return n;
    }
    if (d && i < n)
        d[i] = 0;
    return i;
}

size_t wcstombs(char *restrict d, const wchar_t *restrict s, size_t n)
{
    size_t i = 0;
    for (; s[i]; i++) {
        if ((unsigned)s[i] > 255) {
            errno = EILSEQ;
            return (size_t)-1;
        }
        if (d && i < n)
            d[i] = (char)s[i];
        else if (d)
            return n;
    }
    if (d && i < n)
        d[i] = 0;
    return i;
}

/* stdlib.c: integer arithmetic helpers and the ato* conversions (the
 * environment is in env.c). */
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

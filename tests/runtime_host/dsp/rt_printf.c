/* rt_printf.c: printf on the DSP against the host: every flag combination
 * for integers and floats over edge and pseudo-random values, %a, %p, %n,
 * snprintf truncation. */
#include <float.h>
#include <stdio.h>
#include <string.h>

static unsigned long long state = 88172645463325252ULL;
static unsigned long long next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void)
{
    static const char *const flags[] = {"", "-", "+", " ", "#", "0", "-+", "+0", " #", "#0", "-#0+ "};
    static const long long ints[] = {0, 1, -1, 42, -42, 2147483647LL, -2147483647LL - 1, 4294967295LL,
                                     -9223372036854775807LL - 1, 123456789012345LL};
    static const double dbls[] = {0.0, -0.0, 1.0, 0.5, 2.5, 1e-5, 123.456, 1e21, 1e23, 5e-324, DBL_MAX,
                                  DBL_MIN, 1.0 / 3, 99.5, 0.125, 9.9999995};
    char fmt[64];
    for (unsigned f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        for (unsigned i = 0; i < sizeof ints / sizeof ints[0]; i++) {
            snprintf(fmt, sizeof fmt, "[%%%s12lld|%%%s.5llx|%%%so]\n", flags[f], flags[f], flags[f]);
            printf(fmt, ints[i], ints[i], (unsigned)ints[i]);
        }
        for (unsigned i = 0; i < sizeof dbls / sizeof dbls[0]; i++) {
            snprintf(fmt, sizeof fmt, "[%%%s14.3f|%%%s.4e|%%%sg|%%%s.3a]\n", flags[f], flags[f], flags[f], flags[f]);
            printf(fmt, dbls[i], dbls[i], dbls[i], dbls[i]);
        }
    }
    for (int i = 0; i < 300; i++) {
        union {
            unsigned long long u;
            double d;
        } v = {next()};
        if ((v.u >> 52 & 0x7ff) == 0x7ff)
            continue;
        double w = (double)(long long)(next() >> 20) / 1024.0;
        printf("%.17g %.3e %a %f\n", v.d, v.d, v.d, w);
        int a = (int)next();
        unsigned b = (unsigned)next(), c = (unsigned)next();
        short d = (short)next();
        unsigned char e = (unsigned char)next();
        printf("%d %u %x %hd %hhu\n", a, b, c, d, e);
    }
    printf("%.60f\n%.40e\n%f\n", 1.0 / 3, 5e-324, 1e300);
    printf("[%p] [%10p] [%-10p] [%s] [%.2s] [%c%c]\n", (void *)0, (void *)0x1000, (void *)0, "str", "string", 'a', 'b');
    int n = 0;
    printf("abc%ndef\n", &n);
    printf("%d\n", n);
    char buf[8];
    int r = snprintf(buf, sizeof buf, "%d-%s", 123456, "xyz");
    printf("%d %s\n", r, buf);
    return 0;
}

/* t_strtod.c: strtod/strtof against glibc: shortest and 17-digit round
 * trips of random doubles, halfway cases between neighbours (exact decimal
 * expansions, one digit more, one less), long inputs, hex floats, special
 * words, partial parses (the end pointer) and errno. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void one(const char *s)
{
    char *e1, *e2;
    errno = 0;
    dsp_errno = 0;
    double want = strtod(s, &e1);
    int err1 = errno;
    double got = dsp_strtod(s, &e2);
    int err2 = dsp_errno;
    check(same_bits(want, got) && e1 - s == e2 - s && err1 == err2, "strtod",
          "\"%.80s\": glibc %a end %d errno %d, ours %a end %d errno %d", s, want, (int)(e1 - s), err1, got,
          (int)(e2 - s), err2);
    errno = 0;
    dsp_errno = 0;
    float fw = strtof(s, &e1);
    err1 = errno;
    float fg = dsp_strtof(s, &e2);
    err2 = dsp_errno;
    check(memcmp(&fw, &fg, 4) == 0 && e1 - s == e2 - s && err1 == err2, "strtof",
          "\"%.80s\": glibc %a end %d errno %d, ours %a end %d errno %d", s, fw, (int)(e1 - s), err1, fg,
          (int)(e2 - s), err2);
}

void test_strtod(void)
{
    static const char *const fixed[] = {
        "0", "-0", "+0", "1", "-1", "0.1", ".5", "5.", ".", "-.", "e5", "1e", "1e+", "1e-", "1e5x", "  \t\n42",
        "1.5e308", "1.8e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
        "1e23", "8.589973e9", "9007199254740993", "9007199254740992.5", "9007199254740993.0000000001", "1e-400",
        "1e400", "-1e400", "123456789012345678901234567890", "0.000000000000000000000000000000000001",
        "inf", "-inf", "INF", "Infinity", "-infinity", "infinit", "nan", "-nan", "NaN", "nan()", "nan(123)",
        "nan(0x1f)", "nan(abc", "nanx", "0x", "0x1", "0x1p3", "0X1.8P+1", "0x.8p1", "0x1.fffffffffffff8p1023",
        "0x1.fffffffffffff7p1023", "0x1p-1074", "0x1p-1075", "0x1.1p-1075", "0x0.0000000000001p-1022", "0x1p",
        "0x1p+", "0xg", "0x.p1", "-0x10", "0x123456789abcdef0123p0", "3.4028235e38", "3.4028236e38", "1.17549435e-38",
        "1.4e-45", "7.0064923e-46", "7.006492321624086e-46", "0.7006492321624087e-45", "340282356779733661637539395458142568448",
        "3.40282356779733661637539395458142568447e38", "1e-45", "1e-46", "2.5e-324", "1e-5000", "1e+5000",
        "00000000000000000000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
    };
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        one(fixed[i]);
    char buf[2048];
    for (int i = 0; i < 6000; i++) {
        double d = (i & 1) ? rnd_double_bits() : rnd_double_range();
        /* round trips */
        snprintf(buf, sizeof buf, "%.17g", d);
        one(buf);
        snprintf(buf, sizeof buf, "%.15g", d);
        one(buf);
        snprintf(buf, sizeof buf, "%a", d);
        one(buf);
        float f = (float)d;
        snprintf(buf, sizeof buf, "%.9g", f);
        one(buf);
        /* the exact halfway point to the next double, and its neighbours */
        double up = nextafter(d, INFINITY);
        if (isfinite(up) && isfinite(d) && i % 4 == 0) {
            long double mid = ((long double)d + (long double)up) / 2; /* exact in x87 extended */
            snprintf(buf, sizeof buf, "%.800Lg", mid);
            one(buf);
            size_t n = strlen(buf);
            char *epos = strchr(buf, 'e');
            if (!epos && n > 30) {
                buf[n - 1] = buf[n - 1] == '0' ? '1' : (char)(buf[n - 1] - 1); /* a hair off */
                one(buf);
            }
        }
        /* a few digits */
        snprintf(buf, sizeof buf, "%.3e", d);
        one(buf);
    }
    /* up to 19 digits with small exponents (the double-double fast path),
     * including exact integers at and next to midpoints */
    for (int i = 0; i < 20000; i++) {
        unsigned long long v = rnd64() >> (rnd32() % 12);
        if (v > 9999999999999999999ULL)
            v /= 10;
        if (i % 4 == 0)
            v = ((v >> 11) << 11) | 1024; /* a midpoint between doubles near 2^63 */
        int e = (int)(rnd32() % 61) - 30;
        snprintf(buf, sizeof buf, i % 3 ? "%llue%d" : "%llu", v, e);
        one(buf);
    }
    /* long inputs: many digits before and after the point */
    for (int i = 0; i < 300; i++) {
        int n = 0;
        int len = 20 + (int)(rnd32() % 900);
        for (int k = 0; k < len; k++) {
            buf[n++] = (char)('0' + rnd32() % 10);
            if (k == (int)(rnd32() % (unsigned)len))
                buf[n++] = '.';
        }
        n += snprintf(buf + n, 20, "e%d", (int)(rnd32() % 700) - 350);
        buf[n] = 0;
        one(buf);
    }
    /* atof/atoi family */
    static const char *const ints[] = {"0", "42", "-42", "  +7", "2147483647", "2147483648", "-2147483648",
                                       "-2147483649", "99999999999999999999", "0x1A", "012", "abc", "12abc", "", "-"};
    for (unsigned i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        check(atoi(ints[i]) == dsp_atoi(ints[i]), "atoi", "\"%s\": %d vs %d", ints[i], atoi(ints[i]), dsp_atoi(ints[i]));
        check(atol(ints[i]) == dsp_atol(ints[i]), "atol", "\"%s\"", ints[i]);
        check(atoll(ints[i]) == dsp_atoll(ints[i]), "atoll", "\"%s\"", ints[i]);
        check(same_bits(atof(ints[i]), dsp_atof(ints[i])), "atof", "\"%s\"", ints[i]);
    }
}

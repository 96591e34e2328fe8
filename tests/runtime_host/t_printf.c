/* t_printf.c: the printf family against glibc: every flag combination with
 * several widths, precisions and length modifiers for each conversion, on
 * edge values and random ones; exact floating-point output (halfway cases,
 * subnormals, huge precisions); snprintf truncation and return values. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

static char want[16384], got[16384];

static void cmp_result(const char *fmt, const char *what, int rw, int rg)
{
    check(rw == rg && strcmp(want, got) == 0, "printf", "format \"%s\" value %s: glibc \"%s\" (%d), ours \"%s\" (%d)",
          fmt, what, want, rw, got, rg);
}

static void one_ll(const char *fmt, long long v)
{
    char what[64];
    int rw = snprintf(want, sizeof want, fmt, v);
    int rg = dsp_snprintf(got, sizeof got, fmt, v);
    snprintf(what, sizeof what, "%lld", v);
    cmp_result(fmt, what, rw, rg);
}

static void one_int(const char *fmt, int v)
{
    char what[64];
    int rw = snprintf(want, sizeof want, fmt, v);
    int rg = dsp_snprintf(got, sizeof got, fmt, v);
    snprintf(what, sizeof what, "%d", v);
    cmp_result(fmt, what, rw, rg);
}

static void one_double(const char *fmt, double v)
{
    char what[64];
    int rw = snprintf(want, sizeof want, fmt, v);
    int rg = dsp_snprintf(got, sizeof got, fmt, v);
    snprintf(what, sizeof what, "%a", v);
    cmp_result(fmt, what, rw, rg);
}

static void flags_of(int mask, char *out)
{
    static const char fl[] = "-+ #0";
    int n = 0;
    for (int i = 0; i < 5; i++)
        if (mask & (1 << i))
            out[n++] = fl[i];
    out[n] = 0;
}

static void test_integers(void)
{
    static const long long vals[] = {0, 1, -1, 7, 42, -42, 255, 256, 65535, 65536, 2147483647LL, -2147483647LL - 1,
                                     4294967295LL, 123456789012LL, -9223372036854775807LL - 1, 9223372036854775807LL};
    static const char *const widths[] = {"", "1", "6", "21"};
    static const char *const precs[] = {"", ".", ".0", ".1", ".5", ".22"};
    static const char *const lens[] = {"", "hh", "h", "l", "ll", "z", "j", "t"};
    static const char convs[] = "diuxXo";
    char fmt[64], fl[8];
    for (const char *c = convs; *c; c++)
        for (int m = 0; m < 32; m++)
            for (unsigned w = 0; w < 4; w++)
                for (unsigned p = 0; p < 6; p++)
                    for (unsigned l = 0; l < 8; l++) {
                        flags_of(m, fl);
                        snprintf(fmt, sizeof fmt, "[%%%s%s%s%s%c]", fl, widths[w], precs[p], lens[l], *c);
                        int wide = l == 4 || l == 6;
                        /* a subset of the values for most formats keeps this fast */
                        for (unsigned v = 0; v < sizeof vals / sizeof vals[0]; v += (m % 3) + 1) {
                            if (wide)
                                one_ll(fmt, vals[v]);
                            else
                                one_int(fmt, (int)vals[v]);
                        }
                    }
    /* '*' widths and precisions, including negative ones. */
    static const int stars[] = {-12, -3, -1, 0, 1, 3, 12};
    for (unsigned i = 0; i < 7; i++)
        for (unsigned j = 0; j < 7; j++) {
            int rw = snprintf(want, sizeof want, "[%*.*d|%-*.*x|%0*.*i]", stars[i], stars[j], -77, stars[i], stars[j],
                              0xbeef, stars[i], stars[j], 5);
            int rg = dsp_snprintf(got, sizeof got, "[%*.*d|%-*.*x|%0*.*i]", stars[i], stars[j], -77, stars[i],
                                  stars[j], 0xbeef, stars[i], stars[j], 5);
            cmp_result("star", "-77/0xbeef/5", rw, rg);
        }
    /* random values */
    for (int i = 0; i < 3000; i++) {
        long long v = (long long)rnd64() >> (rnd32() % 64);
        static const char *const lf[] = {"%lld", "%llx", "%llo", "%+21lld", "%-25llu", "%#llX"};
        static const char *const f[] = {"%d", "%x", "%o", "%+11d", "%-12u", "%#X", "%hhd", "%hu"};
        for (unsigned k = 0; k < 6; k++)
            one_ll(lf[k], v);
        for (unsigned k = 0; k < 8; k++)
            one_int(f[k], (int)v);
    }
}

static void test_chars_strings(void)
{
    static const char *const fmts[] = {"[%s]", "[%10s]", "[%-10s]", "[%.2s]", "[%10.3s]", "[%-10.0s]", "[%05s]",
                                       "[%.20s]", "[%1s]", "[% s]", "[%+s]", "[%#s]"};
    static const char *const strs[] = {"", "a", "hello", "hello, world!"};
    for (unsigned f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
        for (unsigned s = 0; s < 4; s++) {
            int rw = snprintf(want, sizeof want, fmts[f], strs[s]);
            int rg = dsp_snprintf(got, sizeof got, fmts[f], strs[s]);
            cmp_result(fmts[f], strs[s], rw, rg);
        }
    static const char *const nfmts[] = {"[%s]", "[%10s]", "[%.3s]", "[%.6s]", "[%-8.5s]", "[%.7s]"};
    for (unsigned f = 0; f < 6; f++) {
        int rw = snprintf(want, sizeof want, nfmts[f], (char *)NULL);
        int rg = dsp_snprintf(got, sizeof got, nfmts[f], (char *)NULL);
        cmp_result(nfmts[f], "NULL", rw, rg);
    }
    static const char *const cfmts[] = {"[%c]", "[%5c]", "[%-5c]", "[%05c]", "[%.0c]", "[%lc]"};
    static const int chars[] = {'x', 0, 255, -1, ' '};
    for (unsigned f = 0; f < 6; f++)
        for (unsigned c = 0; c < 5; c++) {
            int rw = snprintf(want, sizeof want, cfmts[f], chars[c]);
            int rg = dsp_snprintf(got, sizeof got, cfmts[f], chars[c]);
            check(rw == rg && memcmp(want, got, (size_t)rw + 1) == 0, "printf", "%s with char %d", cfmts[f], chars[c]);
        }
    static const char *const pfmts[] = {"[%p]", "[%20p]", "[%-20p]", "[%020p]", "[%+p]", "[% p]", "[%.12p]", "[%#p]", "[%.0p]"};
    static void *const ptrs[] = {NULL, (void *)1, (void *)0x1234, (void *)0xdeadbeef, (void *)0x80000000};
    for (unsigned f = 0; f < 9; f++)
        for (unsigned p = 0; p < 5; p++) {
            int rw = snprintf(want, sizeof want, pfmts[f], ptrs[p]);
            int rg = dsp_snprintf(got, sizeof got, pfmts[f], ptrs[p]);
            cmp_result(pfmts[f], "pointer", rw, rg);
        }
    /* unknown conversions are printed back; a format ending inside a
     * directive fails (-1) after what came before */
    static const char *const unk[] = {"[%#-08.3lk]", "[%+ 5hhy]", "[%'5.0Lq]", "[%0-5k]", "[%-05k]", "[% +k]",
                                      "[%#0k]", "[%.k]", "[%ll]", "[%hk]", "[%05.k]", "[%I5k]", "[%'k]", "abc%",
                                      "abc%-5", "x%l", "[%5.*k]", "[%*k]", "[%-*.*y]"};
    for (unsigned i = 0; i < sizeof unk / sizeof unk[0]; i++) {
        memset(want, 0, 64);
        memset(got, 0, 64);
        int rw = snprintf(want, sizeof want, unk[i], 7, -9);
        int rg = dsp_snprintf(got, sizeof got, unk[i], 7, -9);
        cmp_result(unk[i], "7, -9", rw, rg);
    }
    /* %%, %n, unknown conversions */
    {
        int n1 = -1, n2 = -1;
        int rw = snprintf(want, sizeof want, "ab%%cd%nxyz%5%|%y|%-3k", &n1);
        int rg = dsp_snprintf(got, sizeof got, "ab%%cd%nxyz%5%|%y|%-3k", &n2);
        cmp_result("%n", "-", rw, rg);
        check(n1 == n2, "printf", "%%n: glibc %d ours %d", n1, n2);
    }
    {
        signed char hh1 = 0, hh2 = 0;
        long long ll1 = 0, ll2 = 0;
        snprintf(want, sizeof want, "%200s%hhn%lln", "", &hh1, &ll1);
        dsp_snprintf(got, sizeof got, "%200s%hhn%lln", "", &hh2, &ll2);
        check(hh1 == hh2 && ll1 == ll2, "printf", "%%hhn %d/%d %%lln %lld/%lld", hh1, hh2, ll1, ll2);
    }
}

static const double float_edges[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.5, 0.125, 0.375, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 9.5, 99.5,
    999.5, 0.05, 0.15, 0.25, 0.35, 0.45, 1e-5, 1.5e-5, 9.9999e-5, 1e-4, 123456.0, 1234567.0, 9999999.0,
    99999.95, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 5e22, 1e100, 1e300, 1e308, DBL_MAX, -DBL_MAX, DBL_MIN,
    DBL_MIN / 2, 4.9406564584124654e-324, 2.2250738585072009e-308, 1.7976931348623157e308,
    3.14159265358979323846, 2.718281828459045, 0.000123456789, 123.456, 1e-300, 1.1e-310, 6.02214076e23,
    0.9999999999999999, 0.09999999999999999, 4503599627370496.5, 9007199254740993.0, 1e-7, 5e-7, 0.0005,
    0.00049999999999999999, 1.25e-6, 65536.0, 0.1171875, 1.0e-20, 8.5, 7.45, 2.675, 1.005, 1.0 + 0x1p-52,
    INFINITY, -INFINITY, NAN, -NAN,
};

static void test_floats(void)
{
    static const char *const widths[] = {"", "1", "12", "30"};
    static const char *const precs[] = {"", ".", ".0", ".1", ".2", ".3", ".6", ".12", ".17", ".25"};
    static const char convs[] = "fFeEgGaA";
    char fmt[64], fl[8];
    unsigned nv = sizeof float_edges / sizeof float_edges[0];
    for (const char *c = convs; *c; c++)
        for (int m = 0; m < 32; m++)
            for (unsigned w = 0; w < 4; w++)
                for (unsigned p = 0; p < 10; p++) {
                    flags_of(m, fl);
                    snprintf(fmt, sizeof fmt, "[%%%s%s%s%c]", fl, widths[w], precs[p], *c);
                    for (unsigned v = (unsigned)(m + w) % 3; v < nv; v += 3)
                        one_double(fmt, float_edges[v]);
                }
    /* all edge values with the plain conversions */
    static const char *const plain[] = {"%f", "%e", "%g", "%a", "%.0f", "%.0e", "%.0g", "%.1f", "%.17g", "%.20e",
                                        "%.30f", "%#g", "%#.0f", "%#.0e", "%#.3g", "%.40g", "%.13a", "%.14a"};
    for (unsigned f = 0; f < sizeof plain / sizeof plain[0]; f++)
        for (unsigned v = 0; v < nv; v++)
            one_double(plain[f], float_edges[v]);
    /* huge precisions: every digit of the exact value */
    static const double exact[] = {DBL_MAX, 1e300, 4.9406564584124654e-324, DBL_MIN, 0.1, 1.0 / 3, 1e-320};
    for (unsigned v = 0; v < 7; v++) {
        one_double("%.1100f", exact[v]);
        one_double("%.800e", exact[v]);
        one_double("%.800g", exact[v]);
        one_double("%#.800g", exact[v]);
        one_double("%f", exact[v]);
    }
    /* random doubles: any bit pattern and ordinary magnitudes */
    static const char *const rf[] = {"%.17g", "%f", "%e", "%a", "%.3f", "%g", "%.0f", "%.20e", "%.15g", "%.1e",
                                     "%.4a", "%.0a", "%+.10g", "%-#14.5G"};
    for (int i = 0; i < 4000; i++) {
        double a = rnd_double_bits(), b = rnd_double_range();
        for (unsigned f = 0; f < sizeof rf / sizeof rf[0]; f++) {
            if (rf[f][1] != 'f' && rf[f][2] != 'f')
                one_double(rf[f], a);
            one_double(rf[f], b);
        }
    }
    /* halfway cases: k + 0.5 at every scale, exactly representable */
    for (int k = 0; k < 2000; k++) {
        double h = (k + 0.5) / 1024.0;
        one_double("%.0f", h * 1024.0);
        one_double("%.3f", h);
        one_double("%.2e", h);
        one_double("%.4g", h);
    }
}

static void test_truncation(void)
{
    static const unsigned sizes[] = {0, 1, 2, 5, 10, 11, 12, 100};
    for (unsigned i = 0; i < 8; i++) {
        memset(want, 'Z', 200);
        memset(got, 'Z', 200);
        int rw = snprintf(want, sizes[i], "hello %d %s %.3f", 12345, "world", 2.5);
        int rg = dsp_snprintf(got, sizes[i], "hello %d %s %.3f", 12345, "world", 2.5);
        check(rw == rg && memcmp(want, got, 200) == 0, "printf", "snprintf size %u: %d/%d", sizes[i], rw, rg);
    }
    int rw = sprintf(want, "%s=%08.3f|%-5d|", "x", -3.14159, 42);
    int rg = dsp_sprintf(got, "%s=%08.3f|%-5d|", "x", -3.14159, 42);
    cmp_result("sprintf", "-", rw, rg);
}

void test_printf(void)
{
    test_integers();
    test_chars_strings();
    test_floats();
    test_truncation();
}

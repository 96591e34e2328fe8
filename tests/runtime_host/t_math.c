/* t_math.c: libm against glibc on edge values and random arguments.
 * Functions that C and IEEE 754 define exactly (sqrt, fabs, floor, ceil,
 * trunc, round, rint, fmod, remainder, copysign, ldexp, frexp, modf, ...)
 * must match bit for bit, errno included; the transcendental ones must be
 * within 1 ulp of glibc, and the number of results that differ at all is
 * printed (glibc's own results are not always correctly rounded). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

#define D1(n) double dsp_##n(double); float dsp_##n##f(float);
#define D2(n) double dsp_##n(double, double); float dsp_##n##f(float, float);
D1(sqrt) D1(fabs) D1(floor) D1(ceil) D1(trunc) D1(round) D1(rint) D1(nearbyint) D1(logb)
D1(sin) D1(cos) D1(tan) D1(asin) D1(acos) D1(atan) D1(exp) D1(exp2) D1(expm1) D1(log) D1(log2) D1(log10)
D1(log1p) D1(sinh) D1(cosh) D1(tanh) D1(asinh) D1(acosh) D1(atanh) D1(cbrt)
D2(fmod) D2(remainder) D2(copysign) D2(fmin) D2(fmax) D2(fdim) D2(nextafter) D2(atan2) D2(pow) D2(hypot)
double dsp_fma(double, double, double);
float dsp_fmaf(float, float, float);
double dsp_ldexp(double, int), dsp_scalbn(double, int), dsp_frexp(double, int *), dsp_modf(double, double *);
double dsp_remquo(double, double, int *);
int dsp_ilogb(double);
long dsp_lrint(double), dsp_lround(double);
long long dsp_llrint(double), dsp_llround(double);

static int same(double a, double b)
{
    return memcmp(&a, &b, 8) == 0 || (a != a && b != b);
}

static int samef(float a, float b)
{
    return memcmp(&a, &b, 4) == 0 || (a != a && b != b);
}

/* Distance in ulps (on the ordered integer line of doubles). */
static double ulps(double a, double b)
{
    if (a != a || b != b)
        return (a != a && b != b) ? 0 : 1e9;
    uint64_t ua, ub;
    memcpy(&ua, &a, 8);
    memcpy(&ub, &b, 8);
    ua = (ua >> 63) ? ~ua : ua | 0x8000000000000000ULL;
    ub = (ub >> 63) ? ~ub : ub | 0x8000000000000000ULL;
    if (a == 0 && b == 0)
        return 0;
    return (double)(ua > ub ? ua - ub : ub - ua);
}

static double ulpsf(float a, float b)
{
    if (a != a || b != b)
        return (a != a && b != b) ? 0 : 1e9;
    uint32_t ua, ub;
    memcpy(&ua, &a, 4);
    memcpy(&ub, &b, 4);
    ua = (ua >> 31) ? ~ua : ua | 0x80000000u;
    ub = (ub >> 31) ? ~ub : ub | 0x80000000u;
    if (a == 0 && b == 0)
        return 0;
    return (double)(ua > ub ? ua - ub : ub - ua);
}

static const double edges[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, 0.1, 1e-300, 1e300, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN,
    4.9406564584124654e-324, 2.2250738585072009e-308, 1.5, 2.5, -2.5, 0.49999999999999994, 4503599627370495.5,
    4503599627370497.0, 9007199254740993.0, 1e15 + 0.5, 3.14159265358979323846, 1.5707963267948966, 6.283185307179586,
    710.0, 709.78, -745.0, -708.0, 1e-10, 1e-20, 0.7, 0.9999999999999999, 1.0000000000000002, 100.0, 1e22, 123.456,
    -7.25, 0x1p-1022, 0x1p1023, 0x1.fffffffffffffp-1, 22.0, 30.0, 1e6, 2.0e-8, 5e-324, -1e-310, INFINITY, -INFINITY,
    NAN,
};
#define NE (sizeof edges / sizeof edges[0])

struct stats {
    const char *name;
    long n, diff;
    double max;
};

static void report(struct stats *s, double limit)
{
    check(s->max <= limit, "math", "%s: max %.0f ulp from glibc (limit %.0f), %ld/%ld differ", s->name, s->max, limit,
          s->diff, s->n);
    if (verbose || s->diff)
        printf("  %-7s %7ld values, %6ld differ from glibc, max %.0f ulp\n", s->name, s->n, s->diff, s->max);
}

static double arg_for(const char *name, int i)
{
    double r = (i % 3 == 0) ? rnd_double_bits() : rnd_double_range();
    if (i % 5 == 1)
        r = (double)(int32_t)rnd32() / (double)(1u << (rnd32() % 31)); /* moderate values */
    if (!strcmp(name, "asin") || !strcmp(name, "acos") || !strcmp(name, "atanh"))
        r = fmod(r, 1.0);
    if (!strcmp(name, "acosh"))
        r = 1 + fabs(fmod(r, 100.0));
    return r;
}

typedef double (*fn1)(double);
typedef float (*fn1f)(float);

static void test_unary(const char *name, fn1 ref, fn1 ours, fn1f reff, fn1f oursf, int exact, int n)
{
    struct stats s = {name, 0, 0, 0}, sf = {0, 0, 0, 0};
    char namef[16];
    snprintf(namef, sizeof namef, "%sf", name);
    sf.name = namef;
    for (int i = 0; i < n + (int)NE; i++) {
        double x = i < (int)NE ? edges[i] : arg_for(name, i);
        errno = 0;
        dsp_errno = 0;
        double w = ref(x);
        int ew = errno;
        double g = ours(x);
        int eg = dsp_errno;
        s.n++;
        if (!same(w, g)) {
            s.diff++;
            double u = ulps(w, g);
            if (u > s.max)
                s.max = u;
            if (exact || u > 1)
                check(0, "math", "%s(%a): glibc %a, ours %a", name, x, w, g);
            else if (verbose > 1)
                printf("    %s(%a): glibc %a, ours %a\n", name, x, w, g);
        }
        if (!samef(reff((float)x), oursf((float)x)) && verbose > 1) {
            float xf2 = (float)x;
            printf("    %sf(%a): glibc %a, ours %a\n", name, (double)xf2, (double)reff(xf2), (double)oursf(xf2));
        }
        if (exact)
            check(ew == eg, "math", "%s(%a): errno %d, ours %d", name, x, ew, eg);
        float xf = (float)x;
        float wf = reff(xf), gf = oursf(xf);
        sf.n++;
        if (!samef(wf, gf)) {
            sf.diff++;
            double u = ulpsf(wf, gf);
            if (u > sf.max)
                sf.max = u;
            if (exact || u > 1)
                check(0, "math", "%s(%a): glibc %a, ours %a", namef, (double)xf, (double)wf, (double)gf);
        }
    }
    report(&s, exact ? 0 : 1);
    report(&sf, exact ? 0 : 1);
}

typedef double (*fn2)(double, double);
typedef float (*fn2f)(float, float);

static void test_binary(const char *name, fn2 ref, fn2 ours, fn2f reff, fn2f oursf, int exact, int n)
{
    struct stats s = {name, 0, 0, 0}, sf = {0, 0, 0, 0};
    char namef[16];
    snprintf(namef, sizeof namef, "%sf", name);
    sf.name = namef;
    int pw = !strcmp(name, "pow");
    for (int i = 0; i < n + (int)(NE * NE); i++) {
        double x, y;
        if (i < (int)(NE * NE)) {
            x = edges[i / NE];
            y = edges[i % NE];
        } else {
            x = arg_for(name, i);
            y = arg_for(name, i + 1);
            if (pw) {
                x = fabs(fmod(x, 1000.0));
                y = fmod(y, 300.0);
                if (i % 4 == 0)
                    y = (double)(int)fmod(y, 40.0);
                if (i % 8 == 0)
                    x = -x;
            }
        }
        errno = 0;
        dsp_errno = 0;
        double w = ref(x, y);
        int ew = errno;
        double g = ours(x, y);
        int eg = dsp_errno;
        s.n++;
        if (!same(w, g)) {
            s.diff++;
            double u = ulps(w, g);
            if (u > s.max)
                s.max = u;
            if (exact || u > 1)
                check(0, "math", "%s(%a, %a): glibc %a, ours %a", name, x, y, w, g);
            else if (verbose > 1)
                printf("    %s(%a, %a): glibc %a, ours %a\n", name, x, y, w, g);
        }
        if (!samef(reff((float)x, (float)y), oursf((float)x, (float)y)) && verbose > 1) {
            float xf2 = (float)x, yf2 = (float)y;
            printf("    %sf(%a, %a): glibc %a, ours %a\n", name, (double)xf2, (double)yf2, (double)reff(xf2, yf2),
                   (double)oursf(xf2, yf2));
        }
        if (exact)
            check(ew == eg, "math", "%s(%a, %a): errno %d, ours %d", name, x, y, ew, eg);
        float xf = (float)x, yf = (float)y;
        float wf = reff(xf, yf), gf = oursf(xf, yf);
        sf.n++;
        if (!samef(wf, gf)) {
            sf.diff++;
            double u = ulpsf(wf, gf);
            if (u > sf.max)
                sf.max = u;
            if (exact || u > 1)
                check(0, "math", "%s(%a, %a): glibc %a, ours %a", namef, (double)xf, (double)yf, (double)wf,
                      (double)gf);
        }
    }
    report(&s, exact ? 0 : 1);
    report(&sf, exact ? 0 : 1);
}

static void test_misc(void)
{
    for (int i = 0; i < 20000 + (int)NE; i++) {
        double x = i < (int)NE ? edges[i] : (i & 1 ? rnd_double_bits() : rnd_double_range());
        int e1, e2;
        double f1 = frexp(x, &e1), f2 = dsp_frexp(x, &e2);
        check(same(f1, f2) && (e1 == e2 || x != x || isinf(x)), "math", "frexp(%a)", x);
        int n = (int)(rnd32() % 4200) - 2100;
        check(same(ldexp(x, n), dsp_ldexp(x, n)), "math", "ldexp(%a, %d): glibc %a, ours %a", x, n, ldexp(x, n),
              dsp_ldexp(x, n));
        check(same(scalbn(x, n), dsp_scalbn(x, n)), "math", "scalbn(%a, %d)", x, n);
        double i1, i2;
        double m1 = modf(x, &i1), m2 = dsp_modf(x, &i2);
        check(same(m1, m2) && same(i1, i2), "math", "modf(%a)", x);
        check(ilogb(x) == dsp_ilogb(x), "math", "ilogb(%a)", x);
        if (fabs(x) < 1e9) {
            check(lrint(x) == dsp_lrint(x) && lround(x) == dsp_lround(x), "math", "lrint/lround(%a)", x);
            check(llrint(x) == dsp_llrint(x) && llround(x) == dsp_llround(x), "math", "llrint/llround(%a)", x);
        }
        double y = i & 2 ? rnd_double_range() : rnd_double_bits();
        int q1, q2;
        double r1 = remquo(x, y, &q1), r2 = dsp_remquo(x, y, &q2);
        check(same(r1, r2) && ((q1 & 7) == (q2 & 7) || r1 != r1), "math", "remquo(%a, %a): %a/%d vs %a/%d", x, y,
              r1, q1, r2, q2);
        double z = i & 4 ? rnd_double_range() : rnd_double_bits();
        double a = i < (int)NE ? x : rnd_double_range(), b = rnd_double_range();
        /* (the software fma may round a subnormal result twice: not checked) */
        double fw = fma(a, b, z);
        check(same(fw, dsp_fma(a, b, z)) || fabs(fw) < 0x1p-1021, "math", "fma(%a, %a, %a): glibc %a, ours %a", a,
              b, z, fw, dsp_fma(a, b, z));
        /* near-cancellation: z close to -a*b */
        double zz = -(a * b) * (1 + (double)(int)(rnd32() % 7 - 3) * 0x1p-52);
        fw = fma(a, b, zz);
        check(same(fw, dsp_fma(a, b, zz)) || fabs(fw) < 0x1p-1021, "math", "fma(%a, %a, %a) cancelling", a, b, zz);
        float af = (float)a, bf = (float)b, zf = (float)z;
        check(samef(fmaf(af, bf, zf), dsp_fmaf(af, bf, zf)), "math", "fmaf(%a, %a, %a)", (double)af, (double)bf,
              (double)zf);
    }
}

#define A1(n) double acc_##n(double); float acc_##n##f(float);
A1(sin) A1(cos) A1(tan) A1(asin) A1(acos) A1(atan) A1(exp) A1(exp2) A1(expm1) A1(log) A1(log2) A1(log10) A1(log1p)
A1(sinh) A1(cosh) A1(tanh) A1(asinh) A1(acosh) A1(atanh)
double acc_atan2(double, double), acc_pow(double, double);
float acc_atan2f(float, float), acc_powf(float, float);

/* The two-phase functions against their accurate phase alone: the fast
 * phase and its rounding test must never change a result. */
static void test_phases(void)
{
    static const struct {
        const char *name;
        fn1 two, acc;
        fn1f twof, accf;
    } f1[] = {
        {"sin", dsp_sin, acc_sin, dsp_sinf, acc_sinf}, {"cos", dsp_cos, acc_cos, dsp_cosf, acc_cosf},
        {"tan", dsp_tan, acc_tan, dsp_tanf, acc_tanf}, {"asin", dsp_asin, acc_asin, dsp_asinf, acc_asinf},
        {"acos", dsp_acos, acc_acos, dsp_acosf, acc_acosf}, {"atan", dsp_atan, acc_atan, dsp_atanf, acc_atanf},
        {"exp", dsp_exp, acc_exp, dsp_expf, acc_expf}, {"exp2", dsp_exp2, acc_exp2, dsp_exp2f, acc_exp2f},
        {"expm1", dsp_expm1, acc_expm1, dsp_expm1f, acc_expm1f}, {"log", dsp_log, acc_log, dsp_logf, acc_logf},
        {"log2", dsp_log2, acc_log2, dsp_log2f, acc_log2f}, {"log10", dsp_log10, acc_log10, dsp_log10f, acc_log10f},
        {"log1p", dsp_log1p, acc_log1p, dsp_log1pf, acc_log1pf}, {"sinh", dsp_sinh, acc_sinh, dsp_sinhf, acc_sinhf},
        {"cosh", dsp_cosh, acc_cosh, dsp_coshf, acc_coshf}, {"tanh", dsp_tanh, acc_tanh, dsp_tanhf, acc_tanhf},
        {"asinh", dsp_asinh, acc_asinh, dsp_asinhf, acc_asinhf}, {"acosh", dsp_acosh, acc_acosh, dsp_acoshf, acc_acoshf},
        {"atanh", dsp_atanh, acc_atanh, dsp_atanhf, acc_atanhf},
    };
    for (unsigned f = 0; f < sizeof f1 / sizeof f1[0]; f++) {
        int bad = 0, badf = 0;
        for (int i = 0; i < 12000; i++) {
            double x = arg_for(f1[f].name, i);
            if (i % 2)
                x = fmod(x, 40.0);
            if (!same(f1[f].two(x), f1[f].acc(x)) && bad++ < 3)
                printf("  %s(%a): two-phase %a, accurate %a\n", f1[f].name, x, f1[f].two(x), f1[f].acc(x));
            float xf = (float)x;
            if (!samef(f1[f].twof(xf), f1[f].accf(xf)) && badf++ < 3)
                printf("  %sf(%a): two-phase %a, accurate %a\n", f1[f].name, (double)xf, (double)f1[f].twof(xf),
                       (double)f1[f].accf(xf));
        }
        check(bad == 0 && badf == 0, "math", "%s: the fast phase changed %d double and %d float results",
              f1[f].name, bad, badf);
    }
    int bad = 0;
    for (int i = 0; i < 12000; i++) {
        double x = fabs(fmod(rnd_double_range(), 1000.0)), y = fmod(rnd_double_range(), 300.0);
        if (i % 3 == 0)
            y = rnd_double_range();
        double a = rnd_double_range(), b = rnd_double_range();
        if (!same(dsp_pow(x, y), acc_pow(x, y)) || !same(dsp_atan2(a, b), acc_atan2(a, b)) ||
            !samef(dsp_powf((float)x, (float)y), acc_powf((float)x, (float)y)) ||
            !samef(dsp_atan2f((float)a, (float)b), acc_atan2f((float)a, (float)b)))
            bad++;
    }
    check(bad == 0, "math", "pow/atan2: the fast phase changed %d results", bad);
}

void test_math(void)
{
    test_phases();
    int n = 20000, m = 5000;
    test_unary("sqrt", sqrt, dsp_sqrt, sqrtf, dsp_sqrtf, 1, n);
    test_unary("fabs", fabs, dsp_fabs, fabsf, dsp_fabsf, 1, n);
    test_unary("floor", floor, dsp_floor, floorf, dsp_floorf, 1, n);
    test_unary("ceil", ceil, dsp_ceil, ceilf, dsp_ceilf, 1, n);
    test_unary("trunc", trunc, dsp_trunc, truncf, dsp_truncf, 1, n);
    test_unary("round", round, dsp_round, roundf, dsp_roundf, 1, n);
    test_unary("rint", rint, dsp_rint, rintf, dsp_rintf, 1, n);
    test_unary("nearbyint", nearbyint, dsp_nearbyint, nearbyintf, dsp_nearbyintf, 1, n);
    test_unary("logb", logb, dsp_logb, logbf, dsp_logbf, 1, n);
    test_binary("fmod", fmod, dsp_fmod, fmodf, dsp_fmodf, 1, n);
    test_binary("remainder", remainder, dsp_remainder, remainderf, dsp_remainderf, 1, n);
    test_binary("copysign", copysign, dsp_copysign, copysignf, dsp_copysignf, 1, n);
    test_binary("fmin", fmin, dsp_fmin, fminf, dsp_fminf, 1, n);
    test_binary("fmax", fmax, dsp_fmax, fmaxf, dsp_fmaxf, 1, n);
    test_binary("fdim", fdim, dsp_fdim, fdimf, dsp_fdimf, 1, n);
    test_binary("nextafter", nextafter, dsp_nextafter, nextafterf, dsp_nextafterf, 1, n);
    test_misc();
    test_unary("sin", sin, dsp_sin, sinf, dsp_sinf, 0, m);
    test_unary("cos", cos, dsp_cos, cosf, dsp_cosf, 0, m);
    test_unary("tan", tan, dsp_tan, tanf, dsp_tanf, 0, m);
    test_unary("asin", asin, dsp_asin, asinf, dsp_asinf, 0, m);
    test_unary("acos", acos, dsp_acos, acosf, dsp_acosf, 0, m);
    test_unary("atan", atan, dsp_atan, atanf, dsp_atanf, 0, m);
    test_unary("exp", exp, dsp_exp, expf, dsp_expf, 0, m);
    test_unary("exp2", exp2, dsp_exp2, exp2f, dsp_exp2f, 0, m);
    test_unary("expm1", expm1, dsp_expm1, expm1f, dsp_expm1f, 0, m);
    test_unary("log", log, dsp_log, logf, dsp_logf, 0, m);
    test_unary("log2", log2, dsp_log2, log2f, dsp_log2f, 0, m);
    test_unary("log10", log10, dsp_log10, log10f, dsp_log10f, 0, m);
    test_unary("log1p", log1p, dsp_log1p, log1pf, dsp_log1pf, 0, m);
    test_unary("sinh", sinh, dsp_sinh, sinhf, dsp_sinhf, 0, m);
    test_unary("cosh", cosh, dsp_cosh, coshf, dsp_coshf, 0, m);
    test_unary("tanh", tanh, dsp_tanh, tanhf, dsp_tanhf, 0, m);
    test_unary("asinh", asinh, dsp_asinh, asinhf, dsp_asinhf, 0, m);
    test_unary("acosh", acosh, dsp_acosh, acoshf, dsp_acoshf, 0, m);
    test_unary("atanh", atanh, dsp_atanh, atanhf, dsp_atanhf, 0, m);
    test_unary("cbrt", cbrt, dsp_cbrt, cbrtf, dsp_cbrtf, 0, m);
    test_binary("atan2", atan2, dsp_atan2, atan2f, dsp_atan2f, 0, m);
    test_binary("pow", pow, dsp_pow, powf, dsp_powf, 0, m);
    test_binary("hypot", hypot, dsp_hypot, hypotf, dsp_hypotf, 0, m);
}

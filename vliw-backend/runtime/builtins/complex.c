/* complex.c: C99 complex multiplication and division (compiler-rt/libgcc
 * names __mulsc3 __muldc3 __divsc3 __divdc3). clang multiplies inline and
 * calls __mul?c3 only when both parts of the plain product are NaN; it
 * calls __div?c3 for every division. The algorithms are those of C11
 * Annex G (G.5.1, the _Cmultd and _Cdivd examples): infinities are
 * recovered from NaN results, division scales the divisor by a power of
 * two (logb/scalbn, here on the bits, so libc needs nothing from libm).
 * The float versions compute in double and round once. */
#include "builtins.h"

typedef double _Complex dcomplex;
typedef float _Complex fcomplex;

static int is_nan(double x) { return __builtin_isnan(x); }
static int is_inf(double x) { return __builtin_isinf(x); }
static int is_finite(double x) { return __builtin_isfinite(x); }
static double copysign_(double x, double y) { return __builtin_copysign(x, y); }

/* The unbiased exponent of a finite nonzero x (logb), as an int. */
static int ilogb_(double x)
{
    dbits b;
    b.f = x;
    int e = (int)((b.u >> 52) & 0x7ff);
    if (e == 0) {
        du_int m = b.u << 12;
        e = -1022;
        while (!(m >> 63)) {
            m <<= 1;
            e--;
        }
        return e - 1;
    }
    return e - 1023;
}

/* x * 2^n, exact unless the result is subnormal or overflows. */
static double scalbn_(double x, int n)
{
    while (n > 1000) {
        x *= 0x1p1000;
        n -= 1000;
    }
    while (n < -1000) {
        x *= 0x1p-1000;
        n += 1000;
    }
    dbits b;
    b.u = (du_int)(n + 1023) << 52;
    return x * b.f;
}

static dcomplex make(double re, double im)
{
    dcomplex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

dcomplex __muldc3(double a, double b, double c, double d)
{
    double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    double x = ac - bd, y = ad + bc;
    if (is_nan(x) && is_nan(y)) {
        int recalc = 0;
        if (is_inf(a) || is_inf(b)) {
            a = copysign_(is_inf(a) ? 1.0 : 0.0, a);
            b = copysign_(is_inf(b) ? 1.0 : 0.0, b);
            if (is_nan(c))
                c = copysign_(0.0, c);
            if (is_nan(d))
                d = copysign_(0.0, d);
            recalc = 1;
        }
        if (is_inf(c) || is_inf(d)) {
            c = copysign_(is_inf(c) ? 1.0 : 0.0, c);
            d = copysign_(is_inf(d) ? 1.0 : 0.0, d);
            if (is_nan(a))
                a = copysign_(0.0, a);
            if (is_nan(b))
                b = copysign_(0.0, b);
            recalc = 1;
        }
        if (!recalc && (is_inf(ac) || is_inf(bd) || is_inf(ad) || is_inf(bc))) {
            if (is_nan(a))
                a = copysign_(0.0, a);
            if (is_nan(b))
                b = copysign_(0.0, b);
            if (is_nan(c))
                c = copysign_(0.0, c);
            if (is_nan(d))
                d = copysign_(0.0, d);
            recalc = 1;
        }
        if (recalc) {
            x = __builtin_inf() * (a * c - b * d);
            y = __builtin_inf() * (a * d + b * c);
        }
    }
    return make(x, y);
}

dcomplex __divdc3(double a, double b, double c, double d)
{
    int ilogbw = 0;
    double mc = __builtin_fabs(c), md = __builtin_fabs(d);
    double m = mc > md ? mc : md; /* fmax: NaNs are handled below */
    if (is_nan(mc))
        m = md;
    if (is_finite(m) && m != 0) {
        ilogbw = ilogb_(m);
        c = scalbn_(c, -ilogbw);
        d = scalbn_(d, -ilogbw);
    }
    double denom = c * c + d * d;
    double x = scalbn_((a * c + b * d) / denom, -ilogbw);
    double y = scalbn_((b * c - a * d) / denom, -ilogbw);
    if (is_nan(x) && is_nan(y)) {
        if (denom == 0.0 && (!is_nan(a) || !is_nan(b))) {
            x = copysign_(__builtin_inf(), c) * a;
            y = copysign_(__builtin_inf(), c) * b;
        } else if ((is_inf(a) || is_inf(b)) && is_finite(c) && is_finite(d)) {
            a = copysign_(is_inf(a) ? 1.0 : 0.0, a);
            b = copysign_(is_inf(b) ? 1.0 : 0.0, b);
            x = __builtin_inf() * (a * c + b * d);
            y = __builtin_inf() * (b * c - a * d);
        } else if (is_inf(m) && is_finite(a) && is_finite(b)) {
            c = copysign_(is_inf(c) ? 1.0 : 0.0, c);
            d = copysign_(is_inf(d) ? 1.0 : 0.0, d);
            x = 0.0 * (a * c + b * d);
            y = 0.0 * (b * c - a * d);
        }
    }
    return make(x, y);
}

static fcomplex narrow(dcomplex z)
{
    fcomplex r;
    __real__ r = (float)__real__ z;
    __imag__ r = (float)__imag__ z;
    return r;
}

fcomplex __mulsc3(float a, float b, float c, float d) { return narrow(__muldc3(a, b, c, d)); }
fcomplex __divsc3(float a, float b, float c, float d) { return narrow(__divdc3(a, b, c, d)); }

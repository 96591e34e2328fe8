/* rt_libm.c: libm on the DSP against the host (printed to 13 significant
 * digits, where the rare 1-ulp differences between glibc and our
 * correctly rounded results do not show; the exact functions print every
 * bit with %a). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    static const double xs[] = {0.0, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, 100.0, -0.3, -2.5, 1e-8, 7.77, 1e6, -1e3};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        printf("x=%g\n", x);
        printf(" sin %.13g cos %.13g tan %.13g\n", sin(x), cos(x), tan(x));
        printf(" exp %.13g expm1 %.13g exp2 %.13g\n", exp(x), expm1(x), exp2(x));
        printf(" sinh %.13g cosh %.13g tanh %.13g\n", sinh(x), cosh(x), tanh(x));
        printf(" atan %.13g asinh %.13g cbrt %.13g\n", atan(x), asinh(x), cbrt(x));
        if (x > 0)
            printf(" log %.13g log2 %.13g log10 %.13g log1p %.13g\n", log(x), log2(x), log10(x), log1p(x));
        if (fabs(x) <= 1)
            printf(" asin %.13g acos %.13g atanh %.13g\n", asin(x), acos(x), fabs(x) < 1 ? atanh(x) : 0.0);
        if (x >= 1)
            printf(" acosh %.13g\n", acosh(x));
        printf(" pow %.13g %.13g atan2 %.13g hypot %.13g\n", pow(fabs(x), 1.7), pow(x, 3.0), atan2(x, 0.7), hypot(x, 2.0));
        printf(" sqrt %a floor %a ceil %a trunc %a round %a rint %a\n", sqrt(fabs(x)), floor(x), ceil(x), trunc(x), round(x),
               rint(x));
        printf(" fmod %a remainder %a ldexp %a\n", fmod(x, 0.7), remainder(x, 0.7), ldexp(x, 5));
        int e;
        double ip;
        double fr = frexp(x, &e);
        double fp = modf(x, &ip);
        printf(" frexp %a %d modf %a %a\n", fr, e, fp, ip);
        float xf = (float)x;
        printf(" f: %.6g %.6g %.6g %.6g %a %a\n", sinf(xf), expf(xf), atanf(xf), powf(fabsf(xf), 0.5f), sqrtf(fabsf(xf)),
               floorf(xf));
    }
    errno = 0;
    double r = sqrt(-1.0);
    printf("sqrt(-1) %f errno %d\n", r, errno);
    errno = 0;
    r = log(0.0);
    printf("log(0) %f errno %d\n", r, errno);
    errno = 0;
    r = exp(1000.0);
    printf("exp(1000) %f errno %d\n", r, errno);
    printf("fma %a %a\n", fma(0.1, 10.0, -1.0), (double)fmaf(0.1f, 10.0f, -1.0f));
    printf("nan %f inf %f %d %d\n", nan(""), INFINITY, isnan(NAN) != 0, isinf(-INFINITY));
    return 0;
}

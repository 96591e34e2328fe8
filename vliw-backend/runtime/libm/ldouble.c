/* ldouble.c: the long double functions of math.h. long double is double on
 * the DSP (ABI.md), so each one is its double twin. */
#include <math.h>

long double acosl(long double x) { return acos((double)x); }
long double asinl(long double x) { return asin((double)x); }
long double atanl(long double x) { return atan((double)x); }
long double cosl(long double x) { return cos((double)x); }
long double sinl(long double x) { return sin((double)x); }
long double tanl(long double x) { return tan((double)x); }
long double acoshl(long double x) { return acosh((double)x); }
long double asinhl(long double x) { return asinh((double)x); }
long double atanhl(long double x) { return atanh((double)x); }
long double coshl(long double x) { return cosh((double)x); }
long double sinhl(long double x) { return sinh((double)x); }
long double tanhl(long double x) { return tanh((double)x); }
long double expl(long double x) { return exp((double)x); }
long double exp2l(long double x) { return exp2((double)x); }
long double expm1l(long double x) { return expm1((double)x); }
long double logl(long double x) { return log((double)x); }
long double log10l(long double x) { return log10((double)x); }
long double log1pl(long double x) { return log1p((double)x); }
long double log2l(long double x) { return log2((double)x); }
long double logbl(long double x) { return logb((double)x); }
long double cbrtl(long double x) { return cbrt((double)x); }
long double fabsl(long double x) { return fabs((double)x); }
long double sqrtl(long double x) { return sqrt((double)x); }
long double ceill(long double x) { return ceil((double)x); }
long double floorl(long double x) { return floor((double)x); }
long double nearbyintl(long double x) { return nearbyint((double)x); }
long double rintl(long double x) { return rint((double)x); }
long double roundl(long double x) { return round((double)x); }
long double truncl(long double x) { return trunc((double)x); }
long double atan2l(long double x, long double y) { return atan2((double)x, (double)y); }
long double fmodl(long double x, long double y) { return fmod((double)x, (double)y); }
long double remainderl(long double x, long double y) { return remainder((double)x, (double)y); }
long double copysignl(long double x, long double y) { return copysign((double)x, (double)y); }
long double nextafterl(long double x, long double y) { return nextafter((double)x, (double)y); }
long double fdiml(long double x, long double y) { return fdim((double)x, (double)y); }
long double fmaxl(long double x, long double y) { return fmax((double)x, (double)y); }
long double fminl(long double x, long double y) { return fmin((double)x, (double)y); }
long double hypotl(long double x, long double y) { return hypot((double)x, (double)y); }
long double powl(long double x, long double y) { return pow((double)x, (double)y); }
long double fmal(long double x, long double y, long double z) { return fma((double)x, (double)y, (double)z); }
long double frexpl(long double x, int *e) { return frexp((double)x, e); }
long double ldexpl(long double x, int n) { return ldexp((double)x, n); }
long double scalbnl(long double x, int n) { return scalbn((double)x, n); }
long double scalblnl(long double x, long n) { return scalbln((double)x, n); }
long double modfl(long double x, long double *ip)
{
    double i;
    double f = modf((double)x, &i);
    *ip = i;
    return f;
}
int ilogbl(long double x) { return ilogb((double)x); }
long lrintl(long double x) { return lrint((double)x); }
long long llrintl(long double x) { return llrint((double)x); }
long lroundl(long double x) { return lround((double)x); }
long long llroundl(long double x) { return llround((double)x); }
long double remquol(long double x, long double y, int *q) { return remquo((double)x, (double)y, q); }
long double nanl(const char *s) { return nan(s); }
long double nexttowardl(long double x, long double y) { return nextafter((double)x, (double)y); }

// float_special: infinities and NaNs: printing, classification, comparisons and propagation.
#include <float.h>
#include <math.h>
#include <stdio.h>

double zero = 0.0, one = 1.0, big = 1e308;
float fzero = 0.0f, fbig = 3e38f;

/* The sign of a NaN made by an invalid operation differs between machines, so print it without one. */
static void show(const char *what, double x) {
    if (isnan(x))
        printf("%-12s nan\n", what);
    else
        printf("%-12s %g %f %e | isinf %d isfinite %d signbit %d\n", what, x, x, x, isinf(x) != 0, isfinite(x) != 0,
               signbit(x) != 0);
}

int main(void) {
    double inf = one / zero, ninf = -one / zero;
    show("1/0", inf);
    show("-1/0", ninf);
    show("big*10", big * 10.0);
    show("-big*10", -big * 10.0);
    show("0/0", zero / zero);
    show("inf-inf", inf - inf);
    show("inf*0", inf * zero);
    show("inf+1", inf + 1.0);
    show("1/inf", one / inf);
    show("-1/inf", -one / inf);
    show("inf*-2", inf * -2.0);
    show("HUGE_VAL", HUGE_VAL);
    show("INFINITY", (double)INFINITY);
    float finf = fbig * 10.0f;
    show("float inf", finf);
    show("float 0/0", fzero / fzero);
    /* The NAN macro is a quiet NaN with a clear sign bit; negating it sets the sign. */
    printf("NAN %f %g %e %F\n", (double)NAN, (double)NAN, (double)NAN, (double)NAN);
    printf("-NAN %f %g\n", -(double)NAN, -(double)NAN);
    printf("inf %f %e %g %F %E %G\n", inf, inf, inf, inf, inf, inf);
    printf("widths [%8f] [%-8f] [%+f] [%08.2f] [%5g]\n", inf, ninf, inf, ninf, inf);
    double nan = (double)NAN;
    printf("nan==nan %d nan!=nan %d nan<1 %d nan>1 %d nan<=nan %d\n", nan == nan, nan != nan, nan < 1.0, nan > 1.0,
           nan <= nan);
    printf("inf==inf %d -inf<inf %d inf>DBL_MAX %d\n", inf == inf, ninf < inf, inf > DBL_MAX);
    printf("isnan(NAN) %d isinf(NAN) %d isfinite(1) %d isnormal(1) %d isnormal(0) %d\n", isnan(nan) != 0,
           isinf(nan) != 0, isfinite(one) != 0, isnormal(one) != 0, isnormal(zero) != 0);
    printf("fpclassify: %d %d %d %d %d\n", fpclassify(inf) == FP_INFINITE, fpclassify(nan) == FP_NAN,
           fpclassify(zero) == FP_ZERO, fpclassify(one) == FP_NORMAL, fpclassify(DBL_MIN / 2) == FP_SUBNORMAL);
    /* NaN propagates through arithmetic and comparisons select the other operand. */
    double vals[] = {1.0, nan, -2.0, inf, 3.0};
    double mx = -inf, sum = 0.0;
    int nans = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (vals[i] > mx)
            mx = vals[i];
        sum += vals[i];
        nans += vals[i] != vals[i];
    }
    show("max", mx);
    show("sum", sum);
    printf("nans %d\n", nans);
    printf("fabs(-inf) %f copysign %f %f\n", fabs(ninf), copysign(inf, -1.0), copysign(one, ninf));
    printf("sqrt(inf) %f sqrt(-0.0) %f\n", sqrt(inf), sqrt(-zero));
    show("sqrt(-1)", sqrt(-one));
    printf("(int)(inf > 1e308) %d, inf as float %f\n", (int)(inf > 1e308), (double)(float)inf);
    return 0;
}

// math_exp_log: exp log log10 pow sinh cosh tanh (double and float), printed with 6 significant digits.
#include <math.h>
#include <stdio.h>

double xs[] = {-20.0, -5.0, -1.0, -0.5, -1e-5, 0.0, 1e-5, 0.5, 1.0, 2.0, 5.0, 10.0, 50.0, 700.0};
double pos[] = {1e-300, 1e-10, 0.001, 0.5, 1.0, 2.0, 2.718281828459045, 10.0, 1000.0, 123456.0, 1e300};
double bases[] = {0.5, 1.0, 2.0, 2.5, 10.0, 0.0, -2.0, -0.5};
double exps[] = {0.0, 1.0, 2.0, 3.0, 0.5, -1.0, -2.0, 10.0, 0.25, 1.5};

int main(void) {
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        printf("x=%g exp %.6g sinh %.6g cosh %.6g tanh %.6g\n", x, exp(x), sinh(x), cosh(x), tanh(x));
        if (x > -50.0 && x < 50.0)
            printf("   expf %.5g sinhf %.5g coshf %.5g tanhf %.5g\n", (double)expf((float)x), (double)sinhf((float)x),
                   (double)coshf((float)x), (double)tanhf((float)x));
    }
    for (unsigned i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        double x = pos[i];
        printf("x=%g log %.6g log10 %.6g exp(log) %.6g\n", x, log(x), log10(x), exp(log(x)));
        if (x > 1e-30 && x < 1e30)
            printf("   logf %.5g log10f %.5g\n", (double)logf((float)x), (double)log10f((float)x));
    }
    for (unsigned i = 0; i < sizeof bases / sizeof bases[0]; i++)
        for (unsigned j = 0; j < sizeof exps / sizeof exps[0]; j++) {
            double b = bases[i], e = exps[j];
            if (b < 0.0 && e != floor(e))
                continue; /* negative base, fractional exponent: NaN */
            if (b == 0.0 && e < 0.0)
                continue; /* pole */
            printf("pow(%g, %g) = %.6g powf %.5g\n", b, e, pow(b, e), (double)powf((float)b, (float)e));
        }
    /* Exact special cases that C requires. */
    printf("exp(0) %g log(1) %g pow(x,0) %g pow(1,y) %g log10(1000) %g pow(2,10) %g\n", exp(0.0), log(1.0),
           pow(123.0, 0.0), pow(1.0, 1e10), log10(1000.0), pow(2.0, 10.0));
    printf("exp(-inf) %g exp(inf) %g log(0) %g log(inf) %g tanh(inf) %g\n", exp(-(double)INFINITY),
           exp((double)INFINITY), log(0.0), log((double)INFINITY), tanh((double)INFINITY));
    /* Compound interest and a decibel table. */
    double balance = 1000.0;
    for (int year = 0; year < 30; year++)
        balance *= 1.05;
    printf("1000 at 5%% for 30 years: %.2f (closed form %.2f)\n", balance, 1000.0 * pow(1.05, 30.0));
    for (int db = -60; db <= 20; db += 20)
        printf("%d dB = %.6g\n", db, pow(10.0, db / 20.0));
    double lsum = 0.0;
    for (int k = 1; k <= 100; k++)
        lsum += log((double)k);
    printf("log(100!) %.6g\n", lsum);
    return 0;
}

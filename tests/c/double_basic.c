// double_basic: double-precision arithmetic, exact printing with %.17g and %.20f, and long sums.
#include <stdio.h>

double da[] = {0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 3.141592653589793, 2.718281828459045, 1e100, -1e-100,
               123456789.125, 9007199254740993.0, 1.0 / 3.0};

static double horner(const double *c, int n, double x) {
    double r = 0.0;
    for (int i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

int main(void) {
    unsigned n = sizeof da / sizeof da[0];
    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < n; j += 4) {
            double a = da[i], b = da[j];
            printf("%.17g %.17g: %.17g %.17g %.17g", a, b, a + b, a - b, a * b);
            if (b != 0.0)
                printf(" %.17g", a / b);
            printf("\n");
        }
    }
    printf("0.1+0.2 = %.17g (== 0.3: %d)\n", da[3] + da[4], da[3] + da[4] == da[5]);
    printf("%.17f\n%.17f\n%.16f\n", da[3], da[4], da[5]);
    printf("%.10e %.3e %e\n", da[6], da[8], da[9]);
    printf("%f %f %.1f %.0f\n", da[10], -da[10], da[10], da[10]);
    double coeffs[] = {1.0, -0.5, 0.25, -0.125, 0.0625, 1.0 / 7.0};
    for (unsigned i = 0; i < 5; i++)
        printf("horner(%g) = %.17g\n", da[i], horner(coeffs, 6, da[i]));
    /* Series: pi by Leibniz, e by factorials, sqrt(2) by Newton. */
    double pi = 0.0;
    for (int k = 0; k < 10000; k++)
        pi += (k % 2 ? -4.0 : 4.0) / (2.0 * k + 1.0);
    double e = 1.0, term = 1.0;
    for (int k = 1; k < 20; k++) {
        term /= k;
        e += term;
    }
    double r = 1.0;
    for (int k = 0; k < 8; k++)
        r = 0.5 * (r + 2.0 / r);
    printf("pi~%.17g e~%.17g sqrt2~%.17g\n", pi, e, r);
    /* Large and small magnitudes. */
    double big = 1.0;
    int steps = 0;
    while (big * 10.0 < 1e308) {
        big *= 10.0;
        steps++;
    }
    double small = 1.0;
    for (int k = 0; k < 300; k++)
        small /= 10.0;
    printf("big %.17g after %d steps, small %.17g\n", big, steps, small);
    printf("int conversions: %d %lld %.17g\n", (int)da[10], (long long)(da[10] * 1000.0), (double)9007199254740993LL);
    return 0;
}

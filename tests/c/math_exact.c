// math_exact: libm functions with exactly defined results (sqrt fabs floor ceil fmod copysign), printed in full.
#include <math.h>
#include <stdio.h>

double xs[] = {0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 10.0, 1e-5, 123456.789, 1e20, 4503599627370497.0,
               -0.75, -2.5, -1e-300, 0.1, 1.0 / 3.0, 2.0e-310};
double ys[] = {1.0, 0.3, -2.0, 7.5, 1e-3, 1e10};
float fxs[] = {0.0f, 0.5f, 2.0f, 3.0f, 1e-3f, 12345.678f, -2.5f, 16777215.0f};

/* Rounds a float result through memory: i386 glibc returns some float results unrounded in an x87 register. */
static float f32(float x) {
    volatile float v = x;
    return v;
}

int main(void) {
    unsigned n = sizeof xs / sizeof xs[0];
    for (unsigned i = 0; i < n; i++) {
        double x = xs[i];
        printf("x=%.17g fabs %.17g floor %.17g ceil %.17g", x, fabs(x), floor(x), ceil(x));
        if (x >= 0.0)
            printf(" sqrt %.17g", sqrt(x));
        printf("\n");
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < sizeof ys / sizeof ys[0]; j++)
            if ((i + j) % 2 == 0)
                printf("fmod(%.17g, %g) = %.17g copysign %g\n", xs[i], ys[j], fmod(xs[i], ys[j]),
                       copysign(ys[j], xs[i]));
    for (unsigned i = 0; i < sizeof fxs / sizeof fxs[0]; i++) {
        float x = fxs[i];
        printf("f=%.9g fabsf %.9g floorf %.9g ceilf %.9g fmodf(.,0.7) %.9g", (double)x, (double)fabsf(x),
               (double)floorf(x), (double)ceilf(x), (double)fmodf(x, 0.7f));
        if (x >= 0.0f)
            printf(" sqrtf %.9g", (double)f32(sqrtf(x)));
        printf("\n");
    }
    /* Square roots are correctly rounded: check r*r around x for many x. */
    unsigned exact = 0, below = 0, above = 0;
    for (int k = 1; k <= 2000; k++) {
        double x = k * 0.37;
        double r = sqrt(x);
        double sq = r * r;
        exact += sq == x;
        below += sq < x;
        above += sq > x;
    }
    printf("sqrt squares: exact %u below %u above %u\n", exact, below, above);
    double perfect = 0.0;
    for (int k = 0; k < 100; k++)
        perfect += sqrt((double)k * k) - k;
    printf("perfect squares error %g\n", perfect);
    /* fmod is exact even for huge quotients. */
    printf("fmod(1e300, 3) = %.17g, fmod(-1e20, 7) = %.17g, fmod(5.5, -2) = %.17g\n", fmod(1e300, 3.0),
           fmod(-1e20, 7.0), fmod(5.5, -2.0));
    printf("floor/ceil of large: %.17g %.17g\n", floor(4503599627370495.5), ceil(-4503599627370495.5));
    return 0;
}

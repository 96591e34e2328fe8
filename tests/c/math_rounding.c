// math_rounding: rounding helpers built from floor/ceil/fmod, and the halfway cases of printf rounding.
#include <math.h>
#include <stdio.h>

double vals[] = {-3.5, -2.5, -1.5, -0.5, -0.49999999999999994, 0.5, 1.5, 2.5, 3.5, 2.675, 1.005, 1234567.5,
                 -7.999999, 8.000001};

static double round_half_up(double x) { return floor(x + 0.5); }
static double round_half_away(double x) { return x < 0 ? -floor(-x + 0.5) : floor(x + 0.5); }
static double trunc_(double x) { return x < 0 ? ceil(x) : floor(x); }
static double round_half_even(double x) {
    double f = floor(x), d = x - f;
    if (d > 0.5)
        return f + 1.0;
    if (d < 0.5)
        return f;
    return fmod(f, 2.0) == 0.0 ? f : f + 1.0;
}
static double round_to(double x, int places) {
    double scale = 1.0;
    for (int i = 0; i < places; i++)
        scale *= 10.0;
    return round_half_away(x * scale) / scale;
}

int main(void) {
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        double x = vals[i];
        printf("%.17g: up %g away %g even %g trunc %g floor %g ceil %g\n", x, round_half_up(x), round_half_away(x),
               round_half_even(x), trunc_(x), floor(x), ceil(x));
        printf("   %%.0f %.0f %%.1f %.1f %%.2f %.2f %%.3e %.3e round_to2 %.17g\n", x, x, x, x, round_to(x, 2));
    }
    /* printf rounds the exact binary value: 0.125 is exact and ties to even, 0.1 is not exact. */
    printf("%.2f %.2f %.2f %.2f %.1f %.1f %.0f %.0f %.0f\n", 0.125, 0.375, 0.625, 2.675, 0.25, 0.35, 0.5, 1.5, 2.5);
    printf("%.3g %.3g %.2e %.2e\n", 1.0005, 99.95, 1.125, 1.135);
    /* Float rounding functions. */
    float fv[] = {-2.5f, -0.5f, 0.5f, 1.5f, 2.4999998f};
    for (unsigned i = 0; i < 5; i++)
        printf("floorf %g ceilf %g fmodf %g\n", (double)floorf(fv[i]), (double)ceilf(fv[i]),
               (double)fmodf(fv[i], 1.0f));
    /* Rounding a sampled signal to 12-bit integers, DSP style. */
    long sum = 0;
    int mismatches = 0;
    for (int k = 0; k < 500; k++) {
        double v = 2047.0 * sin(k * 0.0314159) ;
        long r1 = (long)round_half_away(v);
        long r2 = (long)(v < 0 ? v - 0.5 : v + 0.5);
        sum += r1;
        mismatches += r1 != r2;
    }
    printf("quantized sum %ld mismatches %d\n", sum, mismatches);
    return 0;
}

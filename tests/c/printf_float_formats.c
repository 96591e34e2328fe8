// printf_float_formats: %f %e %g %E %G with widths, precisions and flags, rounding of the exact binary value.
#include <stdio.h>

double vals[] = {0.0, 1.0, -1.0, 0.5, 0.1, -0.375, 3.14159265358979, 123.456, 1e-5, 1.5e-7, 6.02214076e23, -1e100,
                 999999.5, 0.00009999, 1e15, 123456789.0, 2.5, 5e-324, 1.7976931348623157e308};

int main(void) {
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        double v = vals[i];
        /* C asks for correct rounding up to 17 significant digits only, so huge values skip %f. */
        if (v < 1e16 && v > -1e16)
            printf("[%f] [%.2f] [%10.3f] [%-10.1f] [%+.0f] [%#.0f] [%010.2f]\n", v, v, v, v, v, v, v);
        printf("  [%e] [%.0e] [%#.0e] [%12.4e] [%E] [%+.2E]\n", v, v, v, v, v, v);
        printf("  [%g] [%.0g] [%.3g] [%#g] [%#.3g] [%10g] [%-10g|] [%G] [%.10g] [%.17g]\n", v, v, v, v, v, v, v, v, v,
               v);
    }
    /* %g switches between %f and %e style by the exponent. */
    double p = 1.234567e-6;
    for (int k = 0; k < 14; k++) {
        printf("%%g %g %%.3g %.3g %%#.3g %#.3g\n", p, p, p);
        p *= 10.0;
    }
    /* Halfway cases of exactly representable values round to even; others round by their binary value. */
    double halves[] = {0.5, 1.5, 2.5, 3.5, -0.5, -2.5, 0.125, 0.375, 2.675, 1.005, 1.25, 1.35, 9.995, 99.5};
    for (unsigned i = 0; i < sizeof halves / sizeof halves[0]; i++)
        printf("%.17g: %.0f %.1f %.2f %.0e %.1e\n", halves[i], halves[i], halves[i], halves[i], halves[i], halves[i]);
    /* 17 significant digits are correctly rounded; exact values print exactly at any length. */
    printf("%.17f\n%.16e\n%.17g\n", 0.1, 1.0 / 3.0, 2.0 / 3.0);
    printf("%.40f\n", 1.0 / 1024.0 / 1024.0);
    /* Large exactly representable values with %f print every integer digit. */
    printf("%f\n%.0f\n%.3f\n", 1e22, 9007199254740993.0, 4294967296.25);
    /* Floats are promoted to double. */
    float f = 0.1f;
    printf("float %f %.10f %e %g %.9g\n", f, f, f, f, f);
    /* Width from an argument. */
    for (int w = 4; w <= 16; w += 6)
        printf("[%*.*f] [%-*.*e]\n", w, w / 3, 3.14159, w, w / 4, -2.71828);
    int n = printf("%.3f|%g|%e\n", 1.0 / 7.0, 1.0 / 7.0, 1.0 / 7.0);
    printf("returned %d\n", n);
    return 0;
}

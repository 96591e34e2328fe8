// fma_explicit: fma() and fmaf() called explicitly: one rounding, visible where a separate multiply and add differ.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

double da[] = {0.1, 1.0 / 3.0, 1e16, -2.5, 1.0000000000000002, 3.0, 1e-300, 6.0};
double db[] = {10.0, 3.0, 1e16, 4.0, 0.9999999999999998, 1.0 / 3.0, 1e-10, 7.0};
double dc[] = {-1.0, -1.0, -1e32, 10.0, -1.0, -1.0, 0.0, -42.0};
float fa[] = {0.1f, 1.0f / 3.0f, 4097.0f, -2.5f, 1.00000012f, 3.0f, 1e-30f, 16777215.0f};
float fb[] = {10.0f, 3.0f, 4097.0f, 4.0f, 0.99999994f, 1.0f / 3.0f, 1e-10f, 16777215.0f};
float fc[] = {-1.0f, -1.0f, -16785409.0f, 10.0f, -1.0f, -1.0f, 0.0f, -281474943156225.0f};

static uint64_t dbits(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static uint32_t fbits(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

int main(void) {
    for (unsigned i = 0; i < sizeof da / sizeof da[0]; i++) {
        double fused = fma(da[i], db[i], dc[i]);
        double prod = da[i] * db[i];
        double split = prod + dc[i];
        printf("fma(%.17g, %.17g, %.17g) = %.17g [%016llx] unfused %.17g\n", da[i], db[i], dc[i], fused,
               (unsigned long long)dbits(fused), split);
    }
    for (unsigned i = 0; i < sizeof fa / sizeof fa[0]; i++) {
        float fused = fmaf(fa[i], fb[i], fc[i]);
        float prod = fa[i] * fb[i];
        float split = prod + fc[i];
        printf("fmaf(%.9g, %.9g, %.9g) = %.9g [%08x] unfused %.9g\n", (double)fa[i], (double)fb[i], (double)fc[i],
               (double)fused, fbits(fused), (double)split);
    }
    /* The rounding error of a product, recovered exactly with fma (two-product). */
    for (unsigned i = 0; i < 6; i++) {
        double p = da[i] * db[i];
        double err = fma(da[i], db[i], -p);
        printf("two-product %u: p %.17g err %.17g\n", i, p, err);
    }
    /* Special values. */
    double inf = 1.0 / dc[6] == 0.0 ? 0.0 : 1e308 * 10.0;
    printf("fma(inf, 2, 1) %g fma(0, 5, -0) %g fma(-0, 5, -0) %g fma(1e308, 10, -inf) %s\n", fma(inf, 2.0, 1.0),
           fma(0.0, 5.0, -0.0), fma(-0.0, 5.0, -0.0), isnan(fma(1e308, 10.0, -inf)) ? "nan" : "not nan");
    printf("fma(1e308, 10, -1e308) %g (no intermediate overflow)\n", fma(1e308, 10.0, -1e308) / 1e308);
    printf("fmaf(2^-100, 2^-100, 0) %g\n", (double)fmaf(7.88860905e-31f, 7.88860905e-31f, 0.0f));
    return 0;
}

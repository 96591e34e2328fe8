// float_basic: single-precision arithmetic (+ - * / and mixed with int) printed with %f, %e, %g and %.9g.
#include <stdio.h>

float fa[] = {0.0f, 1.0f, -1.5f, 3.14159265f, 0.1f, 1e10f, -2.5e-8f, 65504.0f, 16777216.0f, 0.333333343f};
int iv[] = {0, 1, -7, 1000000, 16777217};

static float poly(float x) { return ((2.5f * x - 1.25f) * x + 0.5f) * x - 3.0f; }

int main(void) {
    unsigned n = sizeof fa / sizeof fa[0];
    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < n; j += 3) {
            float a = fa[i], b = fa[j];
            float s = a + b, d = a - b, p = a * b;
            printf("%.9g %.9g: + %.9g - %.9g * %.9g", a, b, s, d, p);
            if (b != 0.0f)
                printf(" / %.9g", a / b);
            printf("\n");
        }
    }
    for (unsigned i = 0; i < n; i++)
        printf("%%f %f %%e %e %%g %g poly %.9g\n", fa[i], fa[i], fa[i], poly(fa[i]));
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        float f = (float)iv[i];
        printf("int %d -> %.9g, *0.5f %.9g, +0.1f %.9g\n", iv[i], f, f * 0.5f, f + 0.1f);
    }
    /* Accumulation in float: the rounding of each step shows. */
    float sum = 0.0f;
    for (int k = 1; k <= 1000; k++)
        sum += 1.0f / (float)k;
    printf("harmonic(1000) float %.9g\n", sum);
    float prod = 1.0f;
    for (int k = 1; k <= 30; k++)
        prod *= 1.1f;
    printf("1.1f^30 %.9g\n", prod);
    /* Newton iteration for reciprocal square root in float. */
    for (unsigned i = 1; i < 4; i++) {
        float x = fa[i] < 0 ? -fa[i] : fa[i];
        float y = 1.0f;
        for (int k = 0; k < 20; k++)
            y = y * (1.5f - 0.5f * x * y * y);
        printf("rsqrt(%.9g) ~ %.9g\n", x, y);
    }
    /* float is promoted to double in variadic calls; conversions are exact. */
    float third = 1.0f / 3.0f;
    double dthird = third;
    printf("third %.17g %.9g same %d\n", dthird, third, third == (float)dthird);
    return 0;
}

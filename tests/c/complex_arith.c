// complex_arith: C99 complex multiplication and division (__muldc3, __divdc3, __mulsc3, __divsc3)
#include <complex.h>
#include <math.h>
#include <stdio.h>

volatile double re[6] = {1.5, -2.25, 0.0, 1e300, -0.5, 3.0};
volatile double im[6] = {-2.25, 0.75, 1.0, 1e300, 4.0, 0.0};

/* A complex from its parts (C11 6.2.5: an array of two elements). */
static double _Complex mk(double r, double i)
{
    double _Complex z;
    ((double *)&z)[0] = r;
    ((double *)&z)[1] = i;
    return z;
}

static float _Complex mkf(float r, float i)
{
    float _Complex z;
    ((float *)&z)[0] = r;
    ((float *)&z)[1] = i;
    return z;
}

static void show(const char *what, double _Complex z)
{
    double r = creal(z), i = cimag(z);
    if (isnan(r) || isnan(i) || isinf(r) || isinf(i))
        printf("%s: %s%s %s%s\n", what, isinf(r) ? "inf" : "", isnan(r) ? "nan" : "", isinf(i) ? "inf" : "",
               isnan(i) ? "nan" : "");
    else
        printf("%s: %.6g %+.6gi\n", what, r, i);
}

static void showf(const char *what, float _Complex z)
{
    double r = crealf(z), i = cimagf(z);
    if (isnan(r) || isnan(i) || isinf(r) || isinf(i))
        show(what, mk(r, i));
    else
        printf("%s: %.5g %+.5gi\n", what, r, i);
}

int main(void)
{
    for (int k = 0; k < 6; k++) {
        double _Complex x = mk(re[k], im[k]);
        double _Complex y = mk(re[(k + 1) % 6], im[(k + 2) % 6]);
        char name[32];
        snprintf(name, sizeof name, "mul %d", k);
        show(name, x * y);
        snprintf(name, sizeof name, "div %d", k);
        show(name, x / y);
        float _Complex fx = mkf((float)re[k] * 1e-30f, (float)im[k]);
        float _Complex fy = mkf((float)im[k], (float)re[(k + 3) % 6] + 1.0f);
        snprintf(name, sizeof name, "fmul %d", k);
        showf(name, fx * fy);
        snprintf(name, sizeof name, "fdiv %d", k);
        showf(name, fx / fy);
    }
    /* Annex G: an infinite operand gives an infinite product and quotient. */
    double _Complex inf = mk(INFINITY, NAN);
    double _Complex one = mk(re[0], im[0]);
    show("inf*z", inf * one);
    show("z/0", one / mk(0.0, 0.0));
    show("z/inf", one / mk(INFINITY, 0.0));
    show("inf/z", inf / one);
    double _Complex acc = mk(1.0, 0.0);
    for (int k = 0; k < 10; k++)
        acc = acc * mk(0.6, 0.8) / mk(0.8, -0.6);
    show("rotations", acc);
    return 0;
}

// denormals: subnormal floats and doubles: creation by underflow, arithmetic, printing and gradual underflow.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double dmin = DBL_MIN;
float fmin_ = FLT_MIN;
double two = 2.0;

static unsigned long long dbits(double x) {
    unsigned long long u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static unsigned fbits(float x) {
    unsigned u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static double from_bits(unsigned long long u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

int main(void) {
    /* Halving the smallest normal walks down through every subnormal exponent. */
    double d = dmin;
    for (int k = 0; k <= 53; k++) {
        if (k % 8 == 0 || k >= 50)
            printf("DBL_MIN/2^%d = %.17g bits %016llx sub %d\n", k, d, dbits(d), fpclassify(d) == FP_SUBNORMAL);
        d /= two;
    }
    float f = fmin_;
    for (int k = 0; k <= 24; k++) {
        if (k % 4 == 0 || k >= 22)
            printf("FLT_MIN/2^%d = %.9g bits %08x\n", k, (double)f, fbits(f));
        f /= 2.0f;
    }
    /* Arithmetic entirely in the subnormal range is exact for add/sub. */
    double a = from_bits(0x000000000000abcdull), b = from_bits(0x0000000000001234ull);
    printf("sub+sub %016llx sub-sub %016llx sub*4 %016llx sub/3 %016llx\n", dbits(a + b), dbits(a - b),
           dbits(a * 4.0), dbits(a / 3.0));
    printf("sub*2^52 = %.17g\n", a * 4503599627370496.0);
    /* Rounding to the nearest subnormal, ties to even. */
    double smallest = from_bits(1);
    printf("smallest %.17g %e\n", smallest, smallest);
    printf("smallest*0.5 = %.17g smallest*1.5 = %016llx smallest*2.5 = %016llx\n", smallest * 0.5,
           dbits(smallest * 1.5), dbits(smallest * 2.5));
    /* Normal times small: crossing from normal to subnormal. */
    double x = 1.5;
    for (int k = 0; k < 6; k++) {
        double y = x * dmin * 0.25 * (k + 1);
        printf("cross %d: %.17g %016llx\n", k, y, dbits(y));
    }
    /* Subnormal float arithmetic and conversion from double. */
    float fs = (float)(dmin * 1e270);
    float fs2 = fmin_ / 1000.0f;
    printf("fs %.9g %08x fs2 %.9g %08x sum %08x prod %08x\n", (double)fs, fbits(fs), (double)fs2, fbits(fs2),
           fbits(fs + fs2), fbits(fs2 * 3.0f));
    /* Double subnormals converted to float flush to zero by rounding, keeping the sign. */
    printf("(float)DBL_MIN = %g, (float)-DBL_MIN = %g\n", (double)(float)dmin, (double)(float)-dmin);
    /* sqrt of a subnormal is normal and exact for perfect squares of powers of two. */
    printf("sqrt(2^-1074) = %.17g, sqrt(2^-1072) = %.17g\n", sqrt(smallest), sqrt(smallest * 4.0));
    /* Comparing and sorting subnormals. */
    double vals[5] = {a, b, smallest, -a, dmin};
    int less = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            less += vals[i] < vals[j];
    printf("less-than pairs %d, DBL_TRUE_MIN %g FLT_TRUE_MIN %g\n", less, DBL_TRUE_MIN, (double)FLT_TRUE_MIN);
    return 0;
}

// negative_zero: -0.0 in arithmetic, printing, comparison, division and conversions (float and double).
#include <math.h>
#include <stdio.h>
#include <string.h>

double pz = 0.0, one = 1.0;
float fpz = 0.0f;

static unsigned long long bits(double x) {
    unsigned long long u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static unsigned fbits(float x) {
    unsigned u;
    memcpy(&u, &x, sizeof u);
    return u;
}

int main(void) {
    double nz = -pz;
    float fnz = -fpz;
    printf("%f %f %g %g %e %.3f\n", pz, nz, pz, nz, nz, nz);
    printf("[%+f] [%+g] [% f] [%08.3f] [%-8.1f]\n", nz, nz, nz, nz, nz);
    printf("float %f %g\n", (double)fnz, (double)fnz);
    printf("bits %016llx %016llx %08x %08x\n", bits(pz), bits(nz), fbits(fpz), fbits(fnz));
    printf("-0 == 0: %d, -0 < 0: %d, signbit %d %d\n", nz == pz, nz < pz, signbit(nz) != 0, signbit(pz) != 0);
    printf("1/-0 = %f, 1/+0 = %f\n", one / nz, one / pz);
    /* Sums and products of signed zeros under round-to-nearest. */
    printf("-0 + -0 = %g, -0 + 0 = %g, 0 - 0 = %g, -0 - 0 = %g\n", nz + nz, nz + pz, pz - pz, nz - pz);
    printf("-0 * 5 = %g, -0 * -5 = %g, 0 * -5 = %g, -0 / 3 = %g\n", nz * 5.0, nz * -5.0, pz * -5.0, nz / 3.0);
    printf("1 - 1 = %g, -1 + 1 = %g, -(1 - 1) = %g\n", one - one, -one + one, -(one - one));
    printf("fabs(-0) = %g, copysign(3, -0) = %g, copysign(0, -1) = %g\n", fabs(nz), copysign(3.0, nz),
           copysign(pz, -one));
    printf("sqrt(-0) = %g, floor(-0.5) = %g, ceil(-0.5) = %g, fmod(-4, 2) = %g\n", sqrt(nz), floor(-0.5 * one),
           ceil(-0.5 * one), fmod(-4.0 * one, 2.0));
    printf("(float)-0.0 = %g, (double)-0.0f = %g, (int)-0.0 = %d, (long long)-0.0 = %lld\n", (double)(float)nz,
           (double)fnz, (int)nz, (long long)nz);
    /* Tiny negative values that round to zero keep their sign. */
    double tiny = -1e-300;
    double prod = tiny * 1e-300;
    float ftiny = (float)(tiny * 1e-10);
    printf("underflow: %g bits %016llx, to float %g bits %08x\n", prod, bits(prod), (double)ftiny, fbits(ftiny));
    /* Selecting between zeros: comparisons treat them as equal. */
    double m = nz < pz ? nz : pz;
    double m2 = pz < nz ? pz : nz;
    printf("select: %g %g\n", m, m2);
    /* Zero results of integer-to-float conversion are always +0. */
    int iz = 0;
    printf("(double)0 = %g, -(double)0 = %g\n", (double)iz, -(double)iz);
    double acc = -0.0;
    for (int k = 0; k < 4; k++)
        acc *= 2.0;
    printf("acc %g\n", acc);
    return 0;
}

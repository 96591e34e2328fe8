// float_compare: ordered and unordered comparisons, min/max selection and sorting of floats and doubles.
#include <math.h>
#include <stdio.h>

double d[] = {0.0, -0.0, 1.0, -1.0, 0.1, 1e-310, -1e300, 1e300, 2.5, 2.5000000000000004};
float f[] = {0.0f, 1.0f, -1.0f, 0.1f, 1e-40f, 3.4e38f, -3.4e38f, 2.5f, 2.50000024f};

int main(void) {
    unsigned nd = sizeof d / sizeof d[0], nf = sizeof f / sizeof f[0];
    for (unsigned i = 0; i < nd; i++) {
        unsigned code = 0;
        for (unsigned j = 0; j < nd; j++) {
            double a = d[i], b = d[j];
            code = code * 3 + (a < b) + (a <= b) + (a == b) * 2 + (a > b) * 3 + (a >= b) + (a != b) * 5;
        }
        printf("d[%u] %g: %08x\n", i, d[i], code);
    }
    for (unsigned i = 0; i < nf; i++) {
        unsigned code = 0;
        for (unsigned j = 0; j < nf; j++) {
            float a = f[i], b = f[j];
            code = code * 5 + (a < b) + (a <= b) * 2 + (a == b) * 4;
        }
        printf("f[%u] %g: %08x\n", i, (double)f[i], code);
    }
    /* With a NaN in the set: every ordered comparison is false, != is true. */
    double nan = (double)NAN;
    unsigned c = 0;
    for (unsigned i = 0; i < nd; i++)
        c = c * 2 + (nan < d[i]) + (nan > d[i]) + (nan <= d[i]) + (nan >= d[i]) + (nan == d[i]) + (d[i] != nan);
    printf("nan code %08x isless %d isgreater %d isunordered %d islessgreater %d\n", c, isless(nan, 1.0),
           isgreater(1.0, nan), isunordered(nan, 1.0), islessgreater(1.0, 2.0));
    /* Min and max by comparison and select, float and double. */
    double mn = d[0], mx = d[0];
    for (unsigned i = 1; i < nd; i++) {
        mn = d[i] < mn ? d[i] : mn;
        mx = d[i] > mx ? d[i] : mx;
    }
    float fmn = f[0], fmx = f[0];
    for (unsigned i = 1; i < nf; i++) {
        fmn = f[i] < fmn ? f[i] : fmn;
        fmx = fmx < f[i] ? f[i] : fmx;
    }
    printf("min %g max %g fmin %g fmax %g\n", mn, mx, (double)fmn, (double)fmx);
    /* Insertion sort by value (stable, so -0 and 0 keep their order). */
    double s[sizeof d / sizeof d[0]];
    for (unsigned i = 0; i < nd; i++)
        s[i] = d[i];
    for (unsigned i = 1; i < nd; i++) {
        double key = s[i];
        unsigned j = i;
        while (j > 0 && s[j - 1] > key) {
            s[j] = s[j - 1];
            j--;
        }
        s[j] = key;
    }
    for (unsigned i = 0; i < nd; i++)
        printf("%s%.17g", i ? " " : "sorted: ", s[i]);
    printf("\n");
    /* Float compared with double: the float is widened exactly. */
    printf("0.1f == 0.1: %d, 0.1f < 0.1: %d, 0.5f == 0.5: %d, (float)0.1 == 0.1f: %d\n", f[3] == d[4], f[3] < d[4],
           0.5f == 0.5, (float)d[4] == f[3]);
    /* Comparison-driven loops with float counters. */
    int steps = 0;
    for (float x = 0.0f; x < 1.0f; x += 0.1f)
        steps++;
    int dsteps = 0;
    for (double x = 0.0; x != 1.0 && dsteps < 20; x += 0.125)
        dsteps++;
    printf("float steps %d double steps %d\n", steps, dsteps);
    return 0;
}

// math_trig: sin cos tan asin acos atan atan2 and their float variants, printed with 6 significant digits.
#include <math.h>
#include <stdio.h>

#define PI 3.14159265358979323846

double angles[] = {0.0, 0.1, 0.5, 1.0, PI / 6, PI / 4, PI / 3, 2.0, 3.0, -0.7, 10.0, 100.0, -1234.5};
double ratios[] = {-1.0, -0.9, -0.5, -0.1, 0.0, 0.2, 0.5, 0.7071067811865476, 0.99, 1.0};
double pts[][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}, {0, 1}, {0, -1}, {3, 4}, {-2, 0.5}, {1e-3, 1e3}, {0, 0}};

int main(void) {
    for (unsigned i = 0; i < sizeof angles / sizeof angles[0]; i++) {
        double a = angles[i];
        printf("a=%.6g sin %.6g cos %.6g tan %.6g sin2+cos2 %.6g\n", a, sin(a), cos(a), tan(a),
               sin(a) * sin(a) + cos(a) * cos(a));
        float fa = (float)a;
        printf("   sinf %.5g cosf %.5g tanf %.5g\n", (double)sinf(fa), (double)cosf(fa), (double)tanf(fa));
    }
    for (unsigned i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
        double r = ratios[i];
        printf("r=%.6g asin %.6g acos %.6g atan %.6g asinf %.5g acosf %.5g atanf %.5g\n", r, asin(r), acos(r),
               atan(r), (double)asinf((float)r), (double)acosf((float)r), (double)atanf((float)r));
    }
    for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double y = pts[i][0], x = pts[i][1];
        printf("atan2(%g, %g) = %.6g atan2f %.5g\n", y, x, atan2(y, x), (double)atan2f((float)y, (float)x));
    }
    printf("atan(1e300) %.6g atan(-inf) %.6g\n", atan(1e300), atan(-(double)INFINITY));
    /* A rotation: repeatedly rotating a vector by 1 degree for a full turn returns near the start. */
    double c = cos(PI / 180), s = sin(PI / 180);
    double x = 1.0, y = 0.0;
    for (int k = 0; k < 360; k++) {
        double nx = c * x - s * y, ny = s * x + c * y;
        x = nx;
        y = ny;
    }
    printf("after 360 rotations: x %.6f y %.6f\n", x, y);
    /* Sampled sine table, the kind a DSP program generates. */
    int table[16];
    for (int k = 0; k < 16; k++)
        table[k] = (int)floor(32767.0 * sin(2 * PI * k / 16) + 0.5);
    for (int k = 0; k < 16; k++)
        printf("%d%s", table[k], k == 15 ? "\n" : " ");
    double area = 0.0;
    for (int k = 0; k < 1000; k++)
        area += sin((k + 0.5) * PI / 1000) * (PI / 1000);
    printf("integral of sin over [0,pi] %.6f\n", area);
    return 0;
}

// vec_float_loops: element-wise float and double loops (vectorizable, exact per element) at awkward lengths.
#include <stdio.h>

#define MAXN 260
float x[MAXN], y[MAXN], z[MAXN];
double dx[MAXN], dy[MAXN];
int lengths[] = {1, 5, 9, 16, 17, 33, 47, 64, 99, 128, 255, 260};

static void axpy(float *restrict out, float alpha, const float *restrict in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = out[i] + alpha * in[i];
}
static void poly(float *restrict out, const float *restrict in, int n) {
    for (int i = 0; i < n; i++) {
        float v = in[i];
        out[i] = ((0.5f * v - 1.25f) * v + 3.0f) * v - 0.125f;
    }
}
static void ratio(float *restrict out, const float *restrict p, const float *restrict q, int n) {
    for (int i = 0; i < n; i++)
        out[i] = (p[i] - q[i]) / (q[i] * q[i] + 1.0f);
}
static void clampf(float *restrict out, const float *restrict in, float lo, float hi, int n) {
    for (int i = 0; i < n; i++) {
        float v = in[i];
        v = v < lo ? lo : v;
        out[i] = v > hi ? hi : v;
    }
}
static void dscale(double *restrict out, const double *restrict in, double k, int n) {
    for (int i = 0; i < n; i++)
        out[i] = in[i] * k - out[i] / 3.0;
}
static void int_to_float(float *restrict out, const int *restrict in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = (float)in[i] * 0.001f;
}
int ints[MAXN];

static double digest(const float *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s = s * 0.5 + v[i];
    return s;
}
static void init(void) {
    for (int i = 0; i < MAXN; i++) {
        x[i] = (float)((i * 37) % 101) / 7.0f - 6.0f;
        y[i] = (float)((i * 53) % 97) / 11.0f;
        z[i] = 1.0f / (float)(i + 1);
        dx[i] = i * 0.1 - 3.0;
        dy[i] = 1.0 / (i + 3);
        ints[i] = i * 1000 - 77777;
    }
}

int main(void) {
    for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        int n = lengths[k];
        init();
        axpy(y, 1.5f, x, n);
        double h1 = digest(y, MAXN);
        poly(z, x, n);
        double h2 = digest(z, MAXN);
        ratio(z, x, y, n);
        double h3 = digest(z, MAXN);
        clampf(y, x, -2.0f, 3.5f, n);
        double h4 = digest(y, MAXN);
        dscale(dy, dx, 0.75, n);
        int_to_float(x, ints, n);
        double h6 = digest(x, MAXN);
        printf("n=%3d: %.9g %.9g %.9g %.9g %.17g %.9g | %.9g %.9g\n", n, h1, h2, h3, h4, dy[n - 1], h6,
               (double)z[n - 1], (double)y[n / 2]);
    }
    /* Element-wise sqrt and fabs-like operations. */
    init();
    for (int i = 0; i < MAXN; i++)
        z[i] = x[i] < 0 ? -x[i] : x[i];
    for (int i = 0; i < MAXN; i++)
        y[i] = z[i] * z[i] - x[i] * x[i];
    int nonzero = 0;
    for (int i = 0; i < MAXN; i++)
        nonzero += y[i] != 0.0f;
    printf("abs squares differ %d, digest %.9g\n", nonzero, digest(z, MAXN));
    return 0;
}

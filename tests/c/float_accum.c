// float_accum: summation order, Kahan compensated summation and pairwise sums in float and double.
#include <stdio.h>

#define N 1000
float fdata[N];
double ddata[N];

static float naive_f(const float *x, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
static float reverse_f(const float *x, int n) {
    float s = 0.0f;
    for (int i = n - 1; i >= 0; i--)
        s += x[i];
    return s;
}
static float kahan_f(const float *x, int n) {
    float s = 0.0f, c = 0.0f;
    for (int i = 0; i < n; i++) {
        float y = x[i] - c;
        float t = s + y;
        c = (t - s) - y;
        s = t;
    }
    return s;
}
static float pairwise_f(const float *x, int n) {
    if (n <= 4) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += x[i];
        return s;
    }
    int h = n / 2;
    return pairwise_f(x, h) + pairwise_f(x + h, n - h);
}
static double naive_d(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
static double kahan_d(const double *x, int n) {
    double s = 0.0, c = 0.0;
    for (int i = 0; i < n; i++) {
        double y = x[i] - c;
        double t = s + y;
        c = (t - s) - y;
        s = t;
    }
    return s;
}

int main(void) {
    unsigned seed = 12345u;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int r = (int)((seed >> 8) % 20001u) - 10000;
        fdata[i] = (float)r / 997.0f + ((i % 7 == 0) ? 10000.0f : 0.0f);
        ddata[i] = (double)r / 997.0 + ((i % 7 == 0) ? 1e12 : 0.0);
    }
    printf("float naive %.9g reverse %.9g kahan %.9g pairwise %.9g\n", (double)naive_f(fdata, N),
           (double)reverse_f(fdata, N), (double)kahan_f(fdata, N), (double)pairwise_f(fdata, N));
    printf("double naive %.17g kahan %.17g\n", naive_d(ddata, N), kahan_d(ddata, N));
    for (int n = 1; n <= N; n *= 3)
        printf("prefix %d: %.9g %.9g %.17g\n", n, (double)naive_f(fdata, n), (double)kahan_f(fdata, n),
               naive_d(ddata, n));
    /* The classic: adding 0.1 ten million times would be slow; a thousand shows the drift. */
    float f = 0.0f;
    double d = 0.0;
    for (int i = 0; i < 1000; i++) {
        f += 0.1f;
        d += 0.1;
    }
    printf("1000 x 0.1: float %.9g double %.17g\n", (double)f, d);
    /* Dot products and a mean/variance computed two ways. */
    double dot = 0.0, mean = 0.0, m2 = 0.0;
    for (int i = 0; i < N; i++) {
        dot += ddata[i] * ddata[(i * 7) % N];
        double delta = ddata[i] - mean;
        mean += delta / (i + 1);
        m2 += delta * (ddata[i] - mean);
    }
    printf("dot %.17g mean %.17g var %.17g\n", dot, mean, m2 / (N - 1));
    float fdot = 0.0f;
    for (int i = 0; i < N; i++)
        fdot += fdata[i] * fdata[N - 1 - i];
    printf("fdot %.9g\n", (double)fdot);
    return 0;
}

// iir_biquad: cascaded biquad IIR filters in float and double (direct form I and II transposed), step and impulse responses.
#include <stdio.h>

typedef struct {
    float b0, b1, b2, a1, a2;
    float z1, z2;
} biquad_f;
typedef struct {
    double b0, b1, b2, a1, a2;
    double x1, x2, y1, y2;
} biquad_d;

static float run_df2t(biquad_f *f, float x) {
    float y = f->b0 * x + f->z1;
    f->z1 = f->b1 * x - f->a1 * y + f->z2;
    f->z2 = f->b2 * x - f->a2 * y;
    return y;
}
static double run_df1(biquad_d *f, double x) {
    double y = f->b0 * x + f->b1 * f->x1 + f->b2 * f->x2 - f->a1 * f->y1 - f->a2 * f->y2;
    f->x2 = f->x1;
    f->x1 = x;
    f->y2 = f->y1;
    f->y1 = y;
    return y;
}

int main(void) {
    /* A low-pass and a high-pass section (coefficients precomputed). */
    biquad_f lp = {0.0675f, 0.1349f, 0.0675f, -1.1430f, 0.4128f, 0, 0};
    biquad_f hp = {0.6389f, -1.2779f, 0.6389f, -1.1430f, 0.4128f, 0, 0};
    biquad_d lpd = {0.0675, 0.1349, 0.0675, -1.1430, 0.4128, 0, 0, 0, 0};
    float step_f = 0;
    double step_d = 0;
    for (int n = 0; n < 60; n++) {
        step_f = run_df2t(&lp, 1.0f);
        step_d = run_df1(&lpd, 1.0);
        if (n % 10 == 9)
            printf("step n=%d float %.7g double %.15g\n", n, (double)step_f, step_d);
    }
    /* Impulse response of the cascade. */
    lp.z1 = lp.z2 = 0;
    float energy = 0;
    for (int n = 0; n < 40; n++) {
        float y = run_df2t(&hp, run_df2t(&lp, n == 0 ? 1.0f : 0.0f));
        energy += y * y;
        if (n < 8)
            printf("h[%d] = %.7g\n", n, (double)y);
    }
    printf("impulse energy %.7g\n", (double)energy);
    /* Filter a square wave plus noise in double; report a digest. */
    biquad_d f2 = {0.2929, 0.5858, 0.2929, 0.0, 0.1716, 0, 0, 0, 0};
    unsigned s = 1;
    double digest = 0, peak = 0;
    for (int n = 0; n < 2000; n++) {
        s = s * 1103515245u + 12345u;
        double noise = ((double)(s >> 16 & 0x7fff) / 32768.0 - 0.5) * 0.2;
        double x = ((n / 50) % 2 ? 1.0 : -1.0) + noise;
        double y = run_df1(&f2, x);
        digest = digest * 0.99 + y;
        if (y > peak)
            peak = y;
    }
    printf("square wave: digest %.12g peak %.12g\n", digest, peak);
    return 0;
}

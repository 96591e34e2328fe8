// Host check of powf's float fast path (see run): fst_powf (fast path on) against acc_powf
// (accurate only), bit for bit and errno; the float-float log against long double.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int fst_errno, acc_errno, pr_errno;
float fst_powf(float, float), acc_powf(float, float), pr_probe_fast(float, float), fst_expf(float), acc_expf(float);
float fst_logf(float), acc_logf(float);
void pr_probe_log(uint32_t, float *, float *);
static float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t B(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t s = 88172645463325252ull;
static uint64_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
static double urand(void) { return (rnd() >> 11) * 0x1p-53; }

static long n_checked, n_fastacc, n_wrong;
static long cat_checked[16], cat_acc[16];
static void check(int cat, float x, float y) {
    fst_errno = 1234; acc_errno = 1234;
    float a = fst_powf(x, y);
    float b = acc_powf(x, y);
    float p = pr_probe_fast(x, y);
    n_checked++; cat_checked[cat]++;
    if (!(p >= 0)) { n_fastacc++; cat_acc[cat]++; }
    if (B(a) != B(b) || fst_errno != acc_errno || (p >= 0 && B(p) != B(b))) {
        n_wrong++;
        if (n_wrong < 30)
            printf("WRONG cat %d x=%a y=%a fast=%a acc=%a probe=%a errno %d %d\n", cat, x, y, a, b, p, fst_errno, acc_errno);
    }
}
static float rand_pos_normal(void) { uint32_t u; do u = (uint32_t)rnd() & 0x7fffffff; while (u < 0x00800000 || u >= 0x7f800000); return F(u); }
static float any_float(void) { return F((uint32_t)rnd()); }

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "pairs";
    if (!strcmp(mode, "log")) {
        unsigned stride = argc > 2 ? atoi(argv[2]) : 1;
        long double worst = 0; uint32_t wx = 0; long n = 0;
        long double wb[8] = {0}; // worst per class: e==0 && near 1, etc.
        for (uint32_t ix = 0x00800000; ix < 0x7f800000; ix += stride) {
            float h, l; pr_probe_log(ix, &h, &l);
            long double ref = logl((long double)F(ix));
            n++;
            if (ref == 0) { if (h != 0 || l != 0) printf("x=1: %a %a\n", h, l); continue; }
            long double err = fabsl(((long double)h + l - ref) / ref);
            if (err > worst) { worst = err; wx = ix; }
            int c = (ix >> 23) == 127 || (ix >> 23) == 126 ? 0 : 1;
            if (err > wb[c]) wb[c] = err;
        }
        printf("log: %ld floats, max relative error %Lg = 2^%.2f at x=%a; near 1 (binades 126,127) 2^%.2f, others 2^%.2f\n", n, worst,
               (double)log2l(worst), F(wx), (double)log2l(wb[0]), (double)log2l(wb[1]));
        return worst > ldexpl(1, -42) / sqrtl(2); /* pow.c's error bound assumes 2^-42.5 */
    }
    if (!strcmp(mode, "expf")) { // fast expf/logf vs accurate over all floats (sanity of the refactor)
        unsigned stride = argc > 2 ? atoi(argv[2]) : 1; long bad = 0, n = 0;
        for (uint64_t u = 0; u < 0x100000000ull; u += stride) {
            float x = F((uint32_t)u);
            fst_errno = acc_errno = 0;
            float a = fst_expf(x), b = acc_expf(x);
            float c = fst_logf(x), d = acc_logf(x);
            n++;
            if (B(a) != B(b) || B(c) != B(d) || fst_errno != acc_errno) { if (bad++ < 10) printf("expf/logf differ at %a\n", x); }
        }
        printf("expf/logf: %ld floats, %ld differ\n", n, bad);
        return bad != 0;
    }
    if (!strcmp(mode, "fixy")) { // all positive normal x (stride) for the given y values
        unsigned stride = atoi(argv[2]);
        for (int a = 3; a < argc; a++) {
            float y = strtof(argv[a], 0);
            long c0 = n_checked, a0 = n_fastacc;
            for (uint32_t ix = 0x00800000; ix < 0x7f800000; ix += stride) check(8, F(ix), y);
            printf("y=%g: %ld x checked, accurate path %.4f%%\n", y, n_checked - c0, 100.0 * (n_fastacc - a0) / (n_checked - c0));
        }
        printf("fixy: %ld checked, %ld wrong\n", n_checked, n_wrong);
        return n_wrong != 0;
    }
    long N = argc > 2 ? atol(argv[2]) : 1000000;
    if (argc > 3) s = strtoull(argv[3], 0, 0);
    // 0: random bits for both
    for (long i = 0; i < N / 10; i++) check(0, any_float(), any_float());
    // 1: random positive normal x, y so that t = y log x is uniform in [-110, 100]
    for (long i = 0; i < 3 * N; i++) {
        float x = rand_pos_normal();
        double T = -110 + 210 * urand();
        float y = (float)(T / log((double)x));
        check(1, x, y);
    }
    // 2: y near integers and halves, random x (t mostly in range)
    for (long i = 0; i < N; i++) {
        int n = (int)(rnd() % 161) - 80;
        float y = n * 0.5f;
        if (y == 0) y = 0.5f;
        int k = (int)(rnd() % 5) - 2;
        y = F(B(y) + k);
        float x;
        if (rnd() & 1) x = rand_pos_normal();
        else x = (float)exp(((rnd() & 1) ? 1 : -1) * 88.0 * urand() / fabs(y));
        if (!(x > 0)) x = 1.5f;
        check(2, x, y);
    }
    // 3: x near 1 (|x-1| < 2^-10) with large |y|
    for (long i = 0; i < N; i++) {
        float x = (float)(1 + (2 * urand() - 1) * 0x1p-10 * pow(2, -14 * urand()));
        double T = -105 + 200 * urand();
        float y = (float)(T / log((double)x));
        if (!isfinite(y)) y = 1e20f;
        check(3, x, y);
    }
    // 4: results near the thresholds: overflow (t ~ 88.72), normal/subnormal (t ~ -87.34), e^-87, e^88.5, underflow to 0 (-103.97)
    static const double th[] = {88.7228391, -87.3365447, -87.0, 88.5, -103.972077, -103.2789, 0.0};
    for (long i = 0; i < N; i++) {
        float x = rand_pos_normal();
        double T = th[rnd() % 7] + (2 * urand() - 1) * 1e-3 * pow(2, -20 * urand());
        float y = (float)(T / log((double)x));
        int k = (int)(rnd() % 5) - 2;
        y = F(B(y) + k);
        check(4, x, y);
    }
    // 5: exact cases: powers of 2 with integer and half y, small integers to integer powers, perfect squares with y = 0.5, 1.5, -0.5, -1.5, 2.5
    for (int e = -149; e <= 127; e++)
        for (int n = -300; n <= 300; n++) { check(5, ldexpf(1, e), (float)n); check(5, ldexpf(1, e), n * 0.5f); check(5, ldexpf(1, e), n * 0.25f); }
    for (int b = 2; b <= 1000; b++)
        for (int n = -40; n <= 40; n++) { check(5, (float)b, (float)n); check(5, 1.0f / b, (float)n); check(5, b / 1024.0f, (float)n); }
    static const float hy[] = {0.5f, 1.5f, -0.5f, -1.5f, 2.5f, -2.5f, 3.5f, 0.25f, 0.75f, 1.25f};
    for (int n = 1; n <= 4096; n++)
        for (unsigned j = 0; j < sizeof hy / sizeof *hy; j++) {
            check(5, (float)n * n, hy[j]); check(5, (float)n * n * n * n, hy[j]); check(5, (float)n * n / 65536.0f, hy[j]);
            check(5, (float)n * n + 1, hy[j]); check(5, (float)n * n - 1, hy[j]);
        }
    for (int n = 1; n <= 400; n++) for (int k = 3; k <= 7; k++) { float c = powf((float)n, (float)k); if (c < 0x1p24f) check(5, c, 1.0f / k); }
    // 6: x near 1 within a few ulps, any y
    for (long i = 0; i < N / 4; i++) { float x = F(0x3f800000 + (int)(rnd() % 2001) - 1000); float y = F((uint32_t)rnd() & 0xffffffff); check(6, x, y); }
    // 7: inside the fast path's domain: t uniform in [-86.9, 88.4] (the rounding test's failures only)
    for (long i = 0; i < N; i++) {
        float x = rand_pos_normal();
        double T = -86.9 + 175.3 * urand();
        float y = (float)(T / log((double)x));
        if (x == 1 || !isfinite(y)) continue;
        check(7, x, y);
    }
    printf("pairs: %ld checked, %ld wrong, accurate path %ld (%.4f%%)\n", n_checked, n_wrong, n_fastacc, 100.0 * n_fastacc / n_checked);
    for (int c = 0; c < 8; c++) printf("  set %d: %ld checked, accurate path %.4f%%\n", c, cat_checked[c], 100.0 * cat_acc[c] / cat_checked[c]);
    return n_wrong != 0;
}

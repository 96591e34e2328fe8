// vec_conditional: loops with if-conversion (selects, masks), early-exit searches and conditional stores.
#include <stdio.h>

#define N 301
int a[N], b[N], c[N];
float fa[N], fb[N];

static void relu(int *restrict d, const int *restrict s, int n) {
    for (int i = 0; i < n; i++)
        d[i] = s[i] > 0 ? s[i] : 0;
}
static void abs_i(int *restrict d, const int *restrict s, int n) {
    for (int i = 0; i < n; i++)
        d[i] = s[i] < 0 ? -s[i] : s[i];
}
static void select_max(int *restrict d, const int *restrict x, const int *restrict y, int n) {
    for (int i = 0; i < n; i++)
        d[i] = x[i] >= y[i] ? x[i] * 2 : y[i] - 1;
}
static void cond_update(int *d, const int *s, int n) {
    for (int i = 0; i < n; i++)
        if (s[i] % 3 == 0)
            d[i] = s[i] / 3;
}
static int find_first(const int *s, int n, int key) {
    for (int i = 0; i < n; i++)
        if (s[i] == key)
            return i;
    return -1;
}
static void fsign(float *restrict d, const float *restrict s, int n) {
    for (int i = 0; i < n; i++)
        d[i] = s[i] > 0.0f ? 1.0f : (s[i] < 0.0f ? -1.0f : 0.0f);
}
static int count_in_range(const int *s, int n, int lo, int hi) {
    int c = 0;
    for (int i = 0; i < n; i++)
        c += (s[i] >= lo) & (s[i] <= hi);
    return c;
}
static unsigned digest(const int *v, int n) {
    unsigned h = 7;
    for (int i = 0; i < n; i++)
        h = h * 131u + (unsigned)v[i];
    return h;
}
static void init(void) {
    for (int i = 0; i < N; i++) {
        a[i] = (i * 7717) % 1999 - 999;
        b[i] = (i * 5153) % 1499 - 749;
        c[i] = -i;
        fa[i] = (float)((i * 13) % 21 - 10) * 0.5f;
    }
}

int main(void) {
    int lens[] = {1, 6, 16, 17, 50, 128, 129, 301};
    for (unsigned k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        int n = lens[k];
        init();
        relu(c, a, n);
        unsigned h1 = digest(c, N);
        abs_i(c, b, n);
        unsigned h2 = digest(c, N);
        select_max(c, a, b, n);
        unsigned h3 = digest(c, N);
        cond_update(c, a, n);
        unsigned h4 = digest(c, N);
        fsign(fb, fa, n);
        float fs = 0;
        for (int i = 0; i < n; i++)
            fs += fb[i];
        printf("n=%3d %08x %08x %08x %08x sign-sum %g in-range %d find %d %d\n", n, h1, h2, h3, h4, (double)fs,
               count_in_range(a, n, -100, 100), find_first(a, n, a[n / 2]), find_first(a, n, 5000));
    }
    /* Clamping in place with two conditions. */
    init();
    for (int i = 0; i < N; i++) {
        if (a[i] > 500)
            a[i] = 500;
        else if (a[i] < -500)
            a[i] = -500;
    }
    printf("clamped digest %08x\n", digest(a, N));
    return 0;
}

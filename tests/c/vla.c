// vla: variable-length arrays (dynamic stack allocation): 1D and 2D VLAs, VLA parameters, VLAs in loops and recursion.
#include <stdio.h>

int sizes[] = {1, 3, 7, 16, 33, 100};

static long sum_vla(int n) {
    int a[n];
    for (int i = 0; i < n; i++)
        a[i] = i * i - n;
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
static void fill(int rows, int cols, double m[rows][cols]) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            m[i][j] = i * 0.5 + j * 0.25;
}
static double trace_like(int rows, int cols, double m[rows][cols]) {
    double t = 0;
    for (int i = 0; i < rows && i < cols; i++)
        t += m[i][i];
    return t;
}
/* Recursion where every level has a VLA sized by its depth. */
static long nested(int depth) {
    if (depth == 0)
        return 1;
    char buf[depth * 8 + 1];
    for (int i = 0; i < depth * 8; i++)
        buf[i] = (char)('a' + (i + depth) % 26);
    buf[depth * 8] = 0;
    long below = nested(depth - 1);
    return (below * 3 + buf[depth * 4] + depth) % 1000003;
}
static int aligned_vla(int n) {
    double d[n];
    long long q[n];
    for (int i = 0; i < n; i++) {
        d[i] = i / 3.0;
        q[i] = (long long)i << 33;
    }
    return (int)(d[n - 1] * 3) + (int)(q[n - 1] >> 33);
}

int main(void) {
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        printf("n=%d sum %ld\n", n, sum_vla(n));
    }
    for (int r = 1; r <= 5; r += 2)
        for (int c = 2; c <= 6; c += 4) {
            double m[r][c];
            fill(r, c, m);
            printf("%dx%d trace %g last %g sizeof row %u\n", r, c, trace_like(r, c, m), m[r - 1][c - 1],
                   (unsigned)sizeof m[0]);
        }
    printf("nested %ld\n", nested(20));
    printf("aligned %d %d\n", aligned_vla(5), aligned_vla(64));
    /* A VLA in a loop body is freed each iteration: the stack does not grow without bound. */
    long total = 0;
    for (int it = 0; it < 2000; it++) {
        int len = 50 + it % 50;
        int tmp[len];
        for (int i = 0; i < len; i++)
            tmp[i] = it ^ i;
        total += tmp[len - 1] + tmp[0];
    }
    printf("loop total %ld\n", total);
    /* sizeof of a VLA is computed at run time. */
    int n = sizes[3] + sizes[1];
    short s[n][3];
    printf("sizeof vla %u elements %u\n", (unsigned)sizeof s, (unsigned)(sizeof s / sizeof s[0]));
    return 0;
}

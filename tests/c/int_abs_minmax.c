// int_abs_minmax: abs/labs/llabs/div/ldiv from <stdlib.h> and min/max/clamp idioms.
#include <stdio.h>
#include <stdlib.h>

int iv[] = {0, 1, -1, 17, -17, 2147483647, -2147483647, 1000, -999};
long long lv[] = {0, -1, 5000000000LL, -5000000000LL, 9223372036854775807LL, -9223372036854775807LL};
int dv[] = {1, -1, 3, -3, 7, 10};

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static int clamp(int v, int lo, int hi) { return imin(imax(v, lo), hi); }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }

int main(void) {
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        int v = iv[i];
        printf("abs(%d)=%d labs=%ld clamp=%d\n", v, abs(v), labs((long)v), clamp(v, -100, 100));
    }
    for (unsigned i = 0; i < sizeof lv / sizeof lv[0]; i++)
        printf("llabs(%lld)=%lld\n", lv[i], llabs(lv[i]));
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        for (unsigned j = 0; j < sizeof dv / sizeof dv[0]; j++) {
            div_t q = div(iv[i], dv[j]);
            ldiv_t lq = ldiv((long)iv[i], (long)dv[j]);
            printf("div(%d,%d) = {%d,%d} ldiv {%ld,%ld}\n", iv[i], dv[j], q.quot, q.rem, lq.quot, lq.rem);
        }
    }
    /* Running min/max over pairs, signed and unsigned views. */
    int mn = iv[0], mx = iv[0];
    unsigned umn = (unsigned)iv[0];
    for (unsigned i = 1; i < sizeof iv / sizeof iv[0]; i++) {
        mn = imin(mn, iv[i]);
        mx = imax(mx, iv[i]);
        umn = umin(umn, (unsigned)iv[i]);
    }
    printf("min %d max %d umin %u\n", mn, mx, umn);
    /* Absolute differences without overflow. */
    for (unsigned i = 0; i + 1 < sizeof iv / sizeof iv[0]; i++) {
        int a = iv[i], b = iv[i + 1];
        unsigned diff = a > b ? (unsigned)a - (unsigned)b : (unsigned)b - (unsigned)a;
        printf("|%d - %d| = %u\n", a, b, diff);
    }
    /* Clamping an array to a range and counting what moved. */
    int data[32];
    int moved = 0;
    for (int k = 0; k < 32; k++) {
        data[k] = (k * 37) % 101 - 50;
        int c = clamp(data[k], -20, 25);
        moved += c != data[k];
        data[k] = c;
    }
    long total = 0;
    for (int k = 0; k < 32; k++)
        total += data[k];
    printf("clamped: moved %d total %ld\n", moved, total);
    return 0;
}

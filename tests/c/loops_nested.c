// loops_nested: deeply nested loops, loop-carried dependences, labeled-style exits by flags, and loop interchange candidates.
#include <stdio.h>

#define N 12
int a[N][N], b[N][N], c[N][N];

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i * 3 + j * 5) % 11 - 5;
            b[i][j] = (i == j) * 2 + (j == i + 1) - (i == j + 1);
        }
    /* Matrix multiply (i, k, j order). */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            c[i][j] = 0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++)
            for (int j = 0; j < N; j++)
                c[i][j] += a[i][k] * b[k][j];
    long trace = 0, total = 0;
    for (int i = 0; i < N; i++) {
        trace += c[i][i];
        for (int j = 0; j < N; j++)
            total += c[i][j] * (j + 1);
    }
    printf("trace %ld total %ld\n", trace, total);
    /* Column-major traversal with a carried dependence down each column. */
    for (int j = 0; j < N; j++)
        for (int i = 1; i < N; i++)
            a[i][j] += a[i - 1][j];
    printf("column prefix last row:");
    for (int j = 0; j < N; j++)
        printf(" %d", a[N - 1][j]);
    printf("\n");
    /* Four-deep nest counting solutions of w + x + y + z == 20 with bounds. */
    int solutions = 0;
    for (int w = 0; w <= 10; w++)
        for (int x = w; x <= 10; x++)
            for (int y = x; y <= 10; y++)
                for (int z = y; z <= 10; z++)
                    solutions += w + x + y + z == 20;
    printf("solutions %d\n", solutions);
    /* Early exit from nested loops with a flag. */
    int found = 0, fr = -1, fc = -1;
    for (int i = 0; i < N && !found; i++)
        for (int j = 0; j < N; j++)
            if (c[i][j] == 7 || c[i][j] == -7) {
                found = 1;
                fr = i;
                fc = j;
                break;
            }
    printf("found %d at %d,%d\n", found, fr, fc);
    /* Wavefront (anti-diagonal) traversal. */
    int wave[N][N];
    for (int i = 0; i < N; i++)
        wave[i][0] = wave[0][i] = 1;
    for (int d = 2; d < 2 * N - 1; d++)
        for (int i = 1; i < N; i++) {
            int j = d - i;
            if (j >= 1 && j < N)
                wave[i][j] = (wave[i - 1][j] + wave[i][j - 1]) % 100003;
        }
    printf("paths %d %d\n", wave[5][5], wave[N - 1][N - 1]);
    /* Bubble sort: nested loop with an early-exit pass. */
    int v[20];
    for (int i = 0; i < 20; i++)
        v[i] = (i * 13 + 7) % 20;
    int passes = 0;
    for (int pass = 0; pass < 20; pass++) {
        int swapped = 0;
        for (int i = 0; i + 1 < 20 - pass; i++)
            if (v[i] > v[i + 1]) {
                int t = v[i];
                v[i] = v[i + 1];
                v[i + 1] = t;
                swapped = 1;
            }
        passes++;
        if (!swapped)
            break;
    }
    printf("bubble passes %d first %d last %d\n", passes, v[0], v[19]);
    return 0;
}

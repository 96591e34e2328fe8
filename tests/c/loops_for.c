// loops_for: for loops of many shapes: counting up and down, steps, empty bodies, multiple variables, nesting.
#include <stdio.h>

int n_small = 7;
unsigned n_big = 1000;

int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += i;
    printf("up %d\n", s);
    s = 0;
    for (int i = 10; i > 0; i--)
        s = s * 2 + i;
    printf("down %d\n", s);
    s = 0;
    for (int i = -20; i <= 20; i += 3)
        s += i * i;
    printf("step3 %d\n", s);
    long long p = 1;
    for (int i = 1; i <= 20; i *= 2)
        p *= i + 1;
    printf("doubling %lld\n", p);
    /* Unsigned countdown that stops at zero without wrapping. */
    unsigned u = 0, cnt = 0;
    for (unsigned i = n_big; i-- > 0;) {
        u += i % 7;
        cnt++;
    }
    printf("unsigned countdown %u over %u\n", u, cnt);
    /* Two induction variables. */
    int lo, hi, meet = 0;
    for (lo = 0, hi = 99; lo < hi; lo += 2, hi -= 3)
        meet++;
    printf("meet after %d: lo %d hi %d\n", meet, lo, hi);
    /* Empty-body loop that finds something. */
    int k;
    for (k = 1; k * k * k < 5000; k++)
        ;
    printf("first cube >= 5000: %d^3\n", k);
    /* Trip counts that depend on run-time values, including zero trips. */
    for (int n = 0; n < n_small; n++) {
        int t = 0;
        for (int i = n; i < 2 * n; i++)
            t += i;
        printf("n=%d t=%d\n", n, t);
    }
    /* Triangular nests. */
    long tri = 0;
    for (int i = 0; i < 30; i++)
        for (int j = 0; j <= i; j++)
            for (int m = j; m < i; m += 2)
                tri += (i ^ j) + m;
    printf("triangular %ld\n", tri);
    /* Loop with a 64-bit induction variable. */
    unsigned long long acc = 0;
    for (unsigned long long x = 1ull << 32; x < (1ull << 32) + 100; x += 7)
        acc += x >> 3;
    printf("64-bit iv %llu\n", acc);
    /* Loop over chars and pointers. */
    char alpha[27];
    for (char c = 'a'; c <= 'z'; c++)
        alpha[c - 'a'] = (char)(c - 32);
    alpha[26] = 0;
    printf("%s\n", alpha);
    int arr[16];
    for (int *q = arr, v = 1; q < arr + 16; q++, v = v * 3 % 17)
        *q = v;
    for (int i = 0; i < 16; i++)
        printf("%d%c", arr[i], i == 15 ? '\n' : ',');
    /* Loop whose bound changes inside the body. */
    int limit = 10, iters = 0;
    for (int i = 0; i < limit; i++) {
        if (i % 3 == 0 && limit < 40)
            limit += 4;
        iters++;
    }
    printf("moving bound: iters %d limit %d\n", iters, limit);
    return 0;
}

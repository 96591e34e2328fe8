// loops_while_do: while and do-while loops, early break and continue, loops that run zero times.
#include <stdio.h>

int data[] = {3, 8, -2, 7, 0, 15, -9, 4, 22, 1, -6, 11};
int n_data = 12;

static int collatz_steps(unsigned long long n) {
    int steps = 0;
    while (n != 1) {
        n = (n % 2) ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}

int main(void) {
    /* while with a compound condition. */
    int i = 0, sum = 0;
    while (i < n_data && data[i] != 0)
        sum += data[i++];
    printf("sum before zero %d at %d\n", sum, i);
    /* do-while always runs once. */
    int runs = 0;
    do
        runs++;
    while (runs < 0);
    printf("do-while runs %d\n", runs);
    /* Zero-trip while. */
    int zt = 0;
    while (n_data < 0)
        zt++;
    printf("zero trip %d\n", zt);
    /* continue skips negatives; break on a sentinel. */
    int pos = 0, seen = 0;
    i = 0;
    while (1) {
        if (i >= n_data)
            break;
        int v = data[i++];
        seen++;
        if (v < 0)
            continue;
        if (v > 20)
            break;
        pos += v;
    }
    printf("positives %d seen %d\n", pos, seen);
    /* do-while with continue: the condition is still evaluated. */
    int j = 0, odd = 0;
    do {
        j++;
        if (j % 2 == 0)
            continue;
        odd += j;
    } while (j < 15);
    printf("odd sum %d j %d\n", odd, j);
    /* Collatz: data-dependent trip counts. */
    int longest = 0;
    unsigned long long arg = 0;
    for (unsigned long long n = 1; n < 3000; n++) {
        int s = collatz_steps(n);
        if (s > longest) {
            longest = s;
            arg = n;
        }
    }
    printf("longest collatz below 3000: %llu (%d steps)\n", arg, longest);
    /* Digit reversal and a GCD loop. */
    unsigned x = 123456789u, rev = 0;
    while (x) {
        rev = rev * 10 + x % 10;
        x /= 10;
    }
    unsigned a = 1071u * 97u, b = 462u * 97u;
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    printf("reversed %u gcd %u\n", rev, a);
    /* Nested while loops with break from the inner one only. */
    int outer = 1, inner_total = 0;
    while (outer < 6) {
        int inner = 0;
        while (1) {
            if (inner * outer > 10)
                break;
            inner++;
        }
        inner_total += inner;
        outer++;
    }
    printf("inner total %d\n", inner_total);
    /* Newton iteration until convergence. */
    double r = 10.0, prev;
    int it = 0;
    do {
        prev = r;
        r = 0.5 * (r + 50.0 / r);
        it++;
    } while (r != prev && it < 100);
    printf("sqrt(50) %.17g in %d iterations\n", r, it);
    return 0;
}

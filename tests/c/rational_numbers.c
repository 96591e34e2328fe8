// rational_numbers: exact rational arithmetic on long long numerators/denominators with gcd normalization (structs by value).
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    long long num, den;
} rat;

static long long gcd(long long a, long long b) {
    a = llabs(a);
    b = llabs(b);
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}
static rat make(long long n, long long d) {
    if (d < 0) {
        n = -n;
        d = -d;
    }
    long long g = gcd(n, d);
    if (g > 1) {
        n /= g;
        d /= g;
    }
    return (rat){n, d};
}
static rat add(rat a, rat b) {
    long long g = gcd(a.den, b.den);
    return make(a.num * (b.den / g) + b.num * (a.den / g), a.den / g * b.den);
}
static rat mul(rat a, rat b) {
    long long g1 = gcd(a.num, b.den), g2 = gcd(b.num, a.den);
    return make((a.num / g1) * (b.num / g2), (a.den / g2) * (b.den / g1));
}
static rat sub(rat a, rat b) { return add(a, (rat){-b.num, b.den}); }
static rat divr(rat a, rat b) { return mul(a, make(b.den, b.num)); }
static void show(const char *label, rat r) { printf("%s = %lld/%lld (%.10g)\n", label, r.num, r.den, (double)r.num / r.den); }

int main(void) {
    /* Harmonic numbers exactly. */
    rat h = {0, 1};
    for (int k = 1; k <= 20; k++) {
        h = add(h, make(1, k));
        if (k % 5 == 0) {
            char label[16];
            snprintf(label, sizeof label, "H(%d)", k);
            show(label, h);
        }
    }
    /* Greedy Egyptian fraction decompositions. */
    rat targets[] = {{7, 15}, {4, 17}, {3, 7}};
    for (int t = 0; t < 3; t++) {
        rat r = targets[t];
        printf("%lld/%lld =", r.num, r.den);
        while (r.num != 0) {
            long long d = (r.den + r.num - 1) / r.num;
            printf(" 1/%lld", d);
            r = sub(r, make(1, d));
        }
        printf("\n");
    }
    /* Continued fraction convergents of sqrt(2): 1 + 1/(2 + 1/(2 + ...)). */
    rat x = {1, 1};
    for (int i = 0; i < 20; i++)
        x = add(make(1, 1), divr(make(1, 1), add(make(1, 1), x)));
    show("sqrt2 convergent", x);
    /* Bernoulli-style alternating sums and a product telescoping to a known value. */
    rat prod = {1, 1};
    for (int k = 2; k <= 30; k++)
        prod = mul(prod, make((long long)k * k - 1, (long long)k * k));
    show("prod (1 - 1/k^2)", prod);
    rat alt = {0, 1};
    for (int k = 1; k <= 15; k++)
        alt = add(alt, make(k % 2 ? 1 : -1, (long long)k * (k + 1)));
    show("alternating", alt);
    return 0;
}

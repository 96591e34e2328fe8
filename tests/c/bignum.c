// bignum: arbitrary-precision unsigned arithmetic on 32-bit limbs with 64-bit intermediates: factorials, powers, Fibonacci.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LIMBS 40
typedef struct {
    uint32_t d[LIMBS]; /* little-endian limbs */
    int n;
} big;

static void big_set(big *a, uint32_t v) {
    memset(a, 0, sizeof *a);
    a->d[0] = v;
    a->n = v ? 1 : 0;
}
static void big_mul_small(big *a, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < LIMBS)
        a->d[a->n++] = (uint32_t)carry;
}
static void big_add(big *r, const big *a, const big *b) {
    uint64_t carry = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        uint64_t t = (uint64_t)a->d[i] + b->d[i] + carry;
        r->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    for (int i = n; i < LIMBS; i++)
        r->d[i] = 0;
    r->n = n;
    if (carry && n < LIMBS)
        r->d[r->n++] = (uint32_t)carry;
}
static uint32_t big_divmod_small(big *a, uint32_t m) {
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = rem << 32 | a->d[i];
        a->d[i] = (uint32_t)(cur / m);
        rem = cur % m;
    }
    while (a->n > 0 && a->d[a->n - 1] == 0)
        a->n--;
    return (uint32_t)rem;
}
static void big_print(const char *label, const big *a) {
    big t = *a;
    char digits[400];
    int k = 0;
    if (t.n == 0)
        digits[k++] = '0';
    while (t.n > 0) {
        uint32_t chunk = big_divmod_small(&t, 1000000000u);
        for (int j = 0; j < 9; j++) {
            digits[k++] = (char)('0' + chunk % 10);
            chunk /= 10;
            if (t.n == 0 && chunk == 0)
                break;
        }
    }
    printf("%s = ", label);
    while (k > 0)
        putchar(digits[--k]);
    printf("\n");
}

int main(void) {
    big f;
    big_set(&f, 1);
    for (uint32_t i = 2; i <= 100; i++) {
        big_mul_small(&f, i);
        if (i == 20 || i == 52 || i == 100) {
            char label[16];
            snprintf(label, sizeof label, "%u!", i);
            big_print(label, &f);
        }
    }
    big p;
    big_set(&p, 1);
    for (int i = 0; i < 200; i++)
        big_mul_small(&p, 2);
    big_print("2^200", &p);
    big_set(&p, 1);
    for (int i = 0; i < 50; i++)
        big_mul_small(&p, 3);
    big_print("3^50", &p);
    big a, b, c;
    big_set(&c, 0);
    big_set(&a, 0);
    big_set(&b, 1);
    for (int i = 2; i <= 300; i++) {
        big_add(&c, &a, &b);
        a = b;
        b = c;
    }
    big_print("fib(300)", &b);
    uint32_t digit_sum = 0;
    big t = f;
    while (t.n > 0)
        digit_sum += big_divmod_small(&t, 10);
    printf("digit sum of 100! = %u, limbs used %d\n", digit_sum, f.n);
    return 0;
}

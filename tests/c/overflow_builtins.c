// overflow_builtins: checked arithmetic with __builtin_{add,sub,mul}_overflow on 32- and 64-bit types.
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

int vals[] = {0, 1, -1, 2, 46340, 46341, 65536, INT_MAX, INT_MIN, INT_MAX / 2, INT_MIN / 2 - 1};
unsigned uvals[] = {0u, 1u, 2u, 65535u, 65536u, 0x80000000u, UINT_MAX};
long long lvals[] = {0, 1, -1, 3037000499LL, 3037000500LL, LLONG_MAX, LLONG_MIN};

/* Multiplies with saturation, the usual use of the checked builtins. */
static int sat_mul(int a, int b) {
    int r;
    if (__builtin_mul_overflow(a, b, &r))
        return ((a < 0) != (b < 0)) ? INT_MIN : INT_MAX;
    return r;
}

int main(void) {
    unsigned n = sizeof vals / sizeof vals[0];
    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < n; j++) {
            int a = vals[i], b = vals[j], s, d, p;
            int os = __builtin_add_overflow(a, b, &s);
            int od = __builtin_sub_overflow(a, b, &d);
            int op = __builtin_mul_overflow(a, b, &p);
            printf("%d,%d: add %d%s sub %d%s mul %d%s sat %d\n", a, b, s, os ? "!" : "", d, od ? "!" : "", p,
                   op ? "!" : "", sat_mul(a, b));
        }
    }
    for (unsigned i = 0; i < sizeof uvals / sizeof uvals[0]; i++) {
        for (unsigned j = 0; j < sizeof uvals / sizeof uvals[0]; j++) {
            unsigned a = uvals[i], b = uvals[j], s, d, p;
            int os = __builtin_add_overflow(a, b, &s);
            int od = __builtin_sub_overflow(a, b, &d);
            int op = __builtin_mul_overflow(a, b, &p);
            printf("u %u,%u: %u%s %u%s %u%s\n", a, b, s, os ? "!" : "", d, od ? "!" : "", p, op ? "!" : "");
        }
    }
    for (unsigned i = 0; i < sizeof lvals / sizeof lvals[0]; i++) {
        for (unsigned j = 0; j < sizeof lvals / sizeof lvals[0]; j++) {
            long long a = lvals[i], b = lvals[j], s, p;
            int os = __builtin_add_overflow(a, b, &s);
            int op = __builtin_mul_overflow(a, b, &p);
            printf("ll %lld,%lld: %lld%s %lld%s\n", a, b, s, os ? "!" : "", p, op ? "!" : "");
        }
    }
    /* Mixed types: the result type decides what overflows. */
    int16_t r16;
    uint8_t r8;
    int o1 = __builtin_add_overflow(30000, 3000, &r16);
    int o2 = __builtin_mul_overflow(16, 16, &r8);
    int o3 = __builtin_sub_overflow(3, 5, &r8);
    printf("mixed: %d%s %u%s %u%s\n", r16, o1 ? "!" : "", r8, o2 ? "!" : "", r8, o3 ? "!" : "");
    /* Summing until overflow. */
    int total = 0, k = 0;
    while (!__builtin_add_overflow(total, k * k, &total))
        k++;
    printf("sum of squares overflows at k=%d (total %d)\n", k, total);
    return 0;
}

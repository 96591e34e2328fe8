// int_divmod: 32-bit division and remainder (truncation toward zero), by variables and by many constants.
#include <stdio.h>

int nums[] = {0, 1, -1, 5, -5, 7, -7, 100, -100, 12345, -12345, 2147483647, -2147483647 - 1, 65536, -65537};
int dens[] = {1, -1, 2, -2, 3, -3, 5, 7, -7, 10, 16, -16, 100, 641, 65535, 2147483647};
unsigned unums[] = {0u, 1u, 9u, 100u, 65535u, 65536u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};

#define DIVS(v) (v) / 2, (v) / 3, (v) / 5, (v) / 7, (v) / 10, (v) / 60, (v) / 1000, (v) / -3
#define MODS(v) (v) % 2, (v) % 3, (v) % 5, (v) % 7, (v) % 10, (v) % 60, (v) % 1000, (v) % -3

int main(void) {
    unsigned nn = sizeof nums / sizeof nums[0], nd = sizeof dens / sizeof dens[0];
    long long sum = 0;
    for (unsigned i = 0; i < nn; i++) {
        for (unsigned j = 0; j < nd; j++) {
            int a = nums[i], b = dens[j];
            if (a == -2147483647 - 1 && b == -1)
                continue;
            int q = a / b, r = a % b;
            sum += (long long)q * 3 + r;
            if (j % 4 == i % 4)
                printf("%d / %d = %d, %% = %d\n", a, b, q, r);
        }
    }
    printf("sum %lld\n", sum);
    for (unsigned i = 0; i < nn; i++) {
        int v = nums[i];
        printf("%d div: %d %d %d %d %d %d %d %d\n", v, DIVS(v));
        printf("%d mod: %d %d %d %d %d %d %d %d\n", v, MODS(v));
    }
    for (unsigned i = 0; i < sizeof unums / sizeof unums[0]; i++) {
        unsigned v = unums[i];
        printf("%u udiv: %u %u %u %u %u %u\n", v, v / 3u, v / 7u, v / 10u, v / 641u, v / 0x80000000u, v / 0xffffffffu);
        printf("%u umod: %u %u %u %u %u %u\n", v, v % 3u, v % 7u, v % 10u, v % 641u, v % 0x80000000u, v % 0xffffffffu);
        for (unsigned j = 0; j < sizeof unums / sizeof unums[0]; j++) {
            unsigned d = unums[j];
            if (d != 0 && j % 3 == 0)
                printf("  %u / %u = %u rem %u\n", v, d, v / d, v % d);
        }
    }
    /* Greatest common divisors and digit sums. */
    for (unsigned i = 0; i + 1 < nn; i += 2) {
        unsigned a = (unsigned)(nums[i] < 0 ? -(long long)nums[i] : nums[i]);
        unsigned b = (unsigned)(nums[i + 1] < 0 ? -(long long)nums[i + 1] : nums[i + 1]);
        while (b != 0) {
            unsigned t = a % b;
            a = b;
            b = t;
        }
        printf("gcd pair %u: %u\n", i / 2, a);
    }
    unsigned x = 4000000000u, digits = 0;
    while (x) {
        digits += x % 10;
        x /= 10;
    }
    printf("digit sum %u\n", digits);
    return 0;
}

// int64_divmod: signed and unsigned 64-bit division and remainder (the runtime's helper routines).
#include <stdint.h>
#include <stdio.h>

int64_t snum[] = {0, 1, -1, 7, -7, 100, -100, 4294967296LL, -4294967297LL, 9223372036854775807LL,
                  -9223372036854775807LL - 1, 123456789012345LL, -98765432109876LL};
int64_t sden[] = {1, -1, 2, -2, 3, -3, 7, 10, -10, 4294967295LL, 4294967296LL, -4294967296LL, 1000000007LL,
                  9223372036854775807LL};
uint64_t unum[] = {0, 1, 9, 0xffffffffull, 0x100000000ull, 0xffffffffffffffffull, 0x8000000000000000ull,
                   10000000000000000000ull, 0x123456789abcdef0ull};
uint64_t uden[] = {1, 2, 3, 10, 0xffffffffull, 0x100000000ull, 0x100000001ull, 0x8000000000000000ull,
                   0xffffffffffffffffull, 0x7fffffffffffffffull};

/* Converts a 64-bit value to decimal by repeated division by 10. */
static void to_decimal(uint64_t v, char *out) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = 0;
}

int main(void) {
    unsigned nsn = sizeof snum / sizeof snum[0], nsd = sizeof sden / sizeof sden[0];
    uint64_t check = 0;
    for (unsigned i = 0; i < nsn; i++) {
        for (unsigned j = 0; j < nsd; j++) {
            int64_t a = snum[i], b = sden[j];
            if (b == -1 && a == INT64_MIN)
                continue; /* the only overflowing case */
            int64_t q = a / b, r = a % b;
            if (q * b + r != a)
                printf("identity broken\n");
            check ^= (uint64_t)q + (uint64_t)r * 31u;
            if ((i + j) % 3 == 0)
                printf("%lld / %lld = %lld rem %lld\n", (long long)a, (long long)b, (long long)q, (long long)r);
        }
    }
    printf("signed check %llx\n", (unsigned long long)check);
    unsigned nun = sizeof unum / sizeof unum[0], nud = sizeof uden / sizeof uden[0];
    uint64_t ucheck = 0;
    for (unsigned i = 0; i < nun; i++) {
        for (unsigned j = 0; j < nud; j++) {
            uint64_t a = unum[i], b = uden[j];
            uint64_t q = a / b, r = a % b;
            ucheck = ucheck * 3 + q + r;
            if ((i * 7 + j) % 4 == 0)
                printf("%llu / %llu = %llu rem %llu\n", (unsigned long long)a, (unsigned long long)b,
                       (unsigned long long)q, (unsigned long long)r);
        }
    }
    printf("unsigned check %llu\n", (unsigned long long)ucheck);

    /* Division by constants (the compiler may use multiply-high sequences). */
    for (unsigned i = 0; i < nun; i++) {
        uint64_t v = unum[i];
        printf("%llu: /3=%llu /10=%llu %%7=%llu /1000=%llu\n", (unsigned long long)v, (unsigned long long)(v / 3),
               (unsigned long long)(v / 10), (unsigned long long)(v % 7), (unsigned long long)(v / 1000));
    }
    for (unsigned i = 0; i < nsn; i++) {
        int64_t v = snum[i];
        printf("%lld: /4=%lld %%4=%lld /-5=%lld %%16=%lld\n", (long long)v, (long long)(v / 4), (long long)(v % 4),
               (long long)(v / -5), (long long)(v % 16));
    }
    char buf[24];
    for (unsigned i = 0; i < nun; i++) {
        to_decimal(unum[i], buf);
        printf("decimal %s\n", buf);
    }
    return 0;
}

// int64_compare: signed and unsigned 64-bit comparisons, min/max, and sorting by 64-bit keys.
#include <stdint.h>
#include <stdio.h>

int64_t s[] = {0, 1, -1, 4294967295LL, 4294967296LL, -4294967296LL, -4294967295LL, 9223372036854775807LL,
               -9223372036854775807LL - 1, 2147483648LL, -2147483649LL, 0x100000001LL};
#define N (sizeof s / sizeof s[0])

int main(void) {
    /* Every comparison of every pair, packed into a number per pair. */
    for (unsigned i = 0; i < N; i++) {
        unsigned row = 0, urow = 0;
        for (unsigned j = 0; j < N; j++) {
            int64_t a = s[i], b = s[j];
            uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
            unsigned code = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5;
            unsigned ucode = (ua < ub) | (ua <= ub) << 1 | (ua > ub) << 2 | (ua >= ub) << 3;
            row = row * 7 + code;
            urow = urow * 5 + ucode;
        }
        printf("%21lld: %08x %08x\n", (long long)s[i], row, urow);
    }
    /* Min and max, signed and unsigned. */
    int64_t mn = s[0], mx = s[0];
    uint64_t umn = (uint64_t)s[0], umx = (uint64_t)s[0];
    for (unsigned i = 1; i < N; i++) {
        mn = s[i] < mn ? s[i] : mn;
        mx = s[i] > mx ? s[i] : mx;
        umn = (uint64_t)s[i] < umn ? (uint64_t)s[i] : umn;
        umx = (uint64_t)s[i] > umx ? (uint64_t)s[i] : umx;
    }
    printf("min %lld max %lld umin %llu umax %llu\n", (long long)mn, (long long)mx, (unsigned long long)umn,
           (unsigned long long)umx);
    /* Insertion sort, signed then unsigned order. */
    int64_t a[N];
    for (unsigned i = 0; i < N; i++)
        a[i] = s[i];
    for (unsigned i = 1; i < N; i++) {
        int64_t key = a[i];
        unsigned j = i;
        while (j > 0 && a[j - 1] > key) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = key;
    }
    printf("signed order:");
    for (unsigned i = 0; i < N; i++)
        printf(" %lld", (long long)a[i]);
    printf("\n");
    uint64_t u[N];
    for (unsigned i = 0; i < N; i++)
        u[i] = (uint64_t)s[i];
    for (unsigned i = 1; i < N; i++) {
        uint64_t key = u[i];
        unsigned j = i;
        while (j > 0 && u[j - 1] > key) {
            u[j] = u[j - 1];
            j--;
        }
        u[j] = key;
    }
    printf("unsigned order:");
    for (unsigned i = 0; i < N; i++)
        printf(" %llx", (unsigned long long)u[i]);
    printf("\n");
    /* Comparisons against constants, including ones that only differ in the high word. */
    for (unsigned i = 0; i < N; i++) {
        int64_t v = s[i];
        printf("%lld: >0x100000000=%d <=-1=%d ==0=%d u>0xffffffff=%d\n", (long long)v, v > 0x100000000LL,
               v <= -1, v == 0, (uint64_t)v > 0xffffffffull);
    }
    return 0;
}

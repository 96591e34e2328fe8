// sieve_primes: the sieve of Eratosthenes on a byte array, prime counting, twin primes, and trial-division factorization.
#include <stdio.h>
#include <string.h>

#define LIMIT 30000
unsigned char composite[LIMIT + 1];
unsigned long long to_factor[] = {2ull, 97ull, 1001ull, 65536ull, 999983ull * 2ull, 600851475143ull, 4294967297ull,
                                  1234567890123ull};

int main(void) {
    memset(composite, 0, sizeof composite);
    composite[0] = composite[1] = 1;
    for (int p = 2; p * p <= LIMIT; p++)
        if (!composite[p])
            for (int m = p * p; m <= LIMIT; m += p)
                composite[m] = 1;
    int count = 0, twins = 0, last = 0;
    long long sum = 0;
    int checkpoints[] = {10, 100, 1000, 10000, LIMIT};
    unsigned cp = 0;
    for (int n = 2; n <= LIMIT; n++) {
        if (!composite[n]) {
            count++;
            sum += n;
            if (n - last == 2)
                twins++;
            last = n;
        }
        if (cp < 5 && n == checkpoints[cp]) {
            printf("pi(%d) = %d\n", n, count);
            cp++;
        }
    }
    printf("primes %d sum %lld twins %d largest %d\n", count, sum, twins, last);
    /* Largest gap between consecutive primes below the limit. */
    int gap = 0, gap_at = 0, prev = 2;
    for (int n = 3; n <= LIMIT; n++)
        if (!composite[n]) {
            if (n - prev > gap) {
                gap = n - prev;
                gap_at = prev;
            }
            prev = n;
        }
    printf("largest gap %d after %d\n", gap, gap_at);
    for (unsigned i = 0; i < sizeof to_factor / sizeof to_factor[0]; i++) {
        unsigned long long n = to_factor[i];
        printf("%llu =", n);
        for (unsigned long long d = 2; d * d <= n; d += (d == 2 ? 1 : 2)) {
            int e = 0;
            while (n % d == 0) {
                n /= d;
                e++;
            }
            if (e)
                printf(" %llu^%d", d, e);
        }
        if (n > 1)
            printf(" %llu", n);
        printf("\n");
    }
    /* Goldbach pairs for a few even numbers. */
    for (int e = 100; e <= 1000; e += 300) {
        int pairs = 0;
        for (int p = 2; p <= e / 2; p++)
            pairs += !composite[p] && !composite[e - p];
        printf("goldbach(%d) = %d pairs\n", e, pairs);
    }
    return 0;
}

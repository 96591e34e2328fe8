// rand_sequences: rand/srand reproducibility and range (values are library-specific, so only properties are printed), plus own PRNGs.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t xorshift32(uint32_t *s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}
static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* The portable rand() example from the C standard, with its own state. */
static unsigned long next_state = 1;
static int c_rand(void) {
    next_state = next_state * 1103515245ul + 12345ul;
    return (int)((unsigned)(next_state / 65536ul) % 32768u);
}

int main(void) {
    /* The same seed gives the same sequence; values stay in [0, RAND_MAX]. */
    int a[200], b[200];
    srand(2024);
    for (int i = 0; i < 200; i++)
        a[i] = rand();
    srand(2024);
    for (int i = 0; i < 200; i++)
        b[i] = rand();
    int same = 1, in_range = 1, distinct = 0;
    for (int i = 0; i < 200; i++) {
        same &= a[i] == b[i];
        in_range &= a[i] >= 0 && a[i] <= RAND_MAX;
        distinct += i > 0 && a[i] != a[i - 1];
    }
    printf("reproducible %d in range %d distinct neighbours >= 190: %d RAND_MAX >= 32767: %d\n", same, in_range,
           distinct >= 190, RAND_MAX >= 32767);
    /* srand(1) is the default seed. */
    srand(1);
    int first = rand();
    srand(7);
    (void)rand();
    srand(1);
    printf("srand(1) restarts: %d\n", rand() == first);
    /* A rough uniformity check over 16 buckets: every bucket gets something. */
    int buckets[16] = {0};
    srand(99);
    for (int i = 0; i < 4000; i++)
        buckets[(int)((long long)rand() * 16 / ((long long)RAND_MAX + 1))]++;
    int empty = 0;
    for (int i = 0; i < 16; i++)
        empty += buckets[i] == 0;
    printf("empty buckets %d\n", empty);
    /* Own generators print actual values. */
    next_state = 1;
    printf("c_rand:");
    for (int i = 0; i < 8; i++)
        printf(" %d", c_rand());
    printf("\n");
    uint32_t xs = 2463534242u;
    printf("xorshift32:");
    for (int i = 0; i < 6; i++)
        printf(" %08x", xorshift32(&xs));
    printf("\n");
    uint64_t sm = 42;
    printf("splitmix64:");
    for (int i = 0; i < 4; i++)
        printf(" %016llx", (unsigned long long)splitmix64(&sm));
    printf("\n");
    /* A Monte Carlo estimate of pi with xorshift32: deterministic. */
    uint32_t s = 12345u;
    int inside = 0, trials = 20000;
    for (int i = 0; i < trials; i++) {
        double x = xorshift32(&s) / 4294967296.0, y = xorshift32(&s) / 4294967296.0;
        inside += x * x + y * y < 1.0;
    }
    printf("pi ~ %.6f (%d inside)\n", 4.0 * inside / trials, inside);
    /* Fisher-Yates shuffle driven by splitmix64. */
    int deck[20];
    for (int i = 0; i < 20; i++)
        deck[i] = i;
    for (int i = 19; i > 0; i--) {
        int j = (int)(splitmix64(&sm) % (uint64_t)(i + 1));
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    for (int i = 0; i < 20; i++)
        printf("%d%c", deck[i], i == 19 ? '\n' : ' ');
    return 0;
}

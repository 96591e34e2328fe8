// malloc_patterns: malloc/calloc/realloc/free in common patterns: growth, shrink, interleaved lifetimes, alignment.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned fill_and_sum(unsigned char *p, size_t n, unsigned seed) {
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) {
        p[i] = (unsigned char)(seed + i * 13);
        s += p[i];
    }
    return s;
}

int main(void) {
    /* calloc returns zeroed memory. */
    int *z = calloc(1000, sizeof *z);
    if (!z)
        return 1;
    int nonzero = 0;
    for (int i = 0; i < 1000; i++)
        nonzero += z[i] != 0;
    printf("calloc nonzero %d\n", nonzero);
    free(z);
    /* Growing with realloc keeps the contents. */
    size_t cap = 1, len = 0;
    long long *v = malloc(cap * sizeof *v);
    if (!v)
        return 1;
    for (int i = 0; i < 5000; i++) {
        if (len == cap) {
            cap *= 2;
            long long *nv = realloc(v, cap * sizeof *v);
            if (!nv)
                return 1;
            v = nv;
        }
        v[len++] = (long long)i * i;
    }
    long long sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += v[i];
    printf("grown to %u (cap %u) sum %lld\n", (unsigned)len, (unsigned)cap, sum);
    /* Shrinking keeps the prefix. */
    long long *shrunk = realloc(v, 10 * sizeof *v);
    if (!shrunk)
        return 1;
    printf("shrunk: %lld %lld\n", shrunk[0], shrunk[9]);
    free(shrunk);
    /* realloc(NULL, n) is malloc. */
    char *s = realloc(NULL, 32);
    if (!s)
        return 1;
    strcpy(s, "from realloc(NULL)");
    printf("%s\n", s);
    free(s);
    /* Many blocks of varied sizes with interleaved frees, then reuse. */
    unsigned char *blocks[64];
    size_t sizes[64];
    unsigned total = 0;
    for (int i = 0; i < 64; i++) {
        sizes[i] = (size_t)((i * 37) % 200 + 1);
        blocks[i] = malloc(sizes[i]);
        if (!blocks[i])
            return 1;
        total += fill_and_sum(blocks[i], sizes[i], (unsigned)i);
    }
    for (int i = 0; i < 64; i += 2) {
        free(blocks[i]);
        blocks[i] = NULL;
    }
    for (int i = 0; i < 64; i += 2) {
        sizes[i] = (size_t)((i * 11) % 300 + 1);
        blocks[i] = malloc(sizes[i]);
        if (!blocks[i])
            return 1;
        total += fill_and_sum(blocks[i], sizes[i], (unsigned)i * 3);
    }
    unsigned check = 0;
    int aligned = 1;
    for (int i = 0; i < 64; i++) {
        for (size_t k = 0; k < sizes[i]; k++)
            check += blocks[i][k];
        aligned &= (uintptr_t)blocks[i] % 8 == 0;
        free(blocks[i]);
    }
    printf("blocks total %u check %u aligned8 %d\n", total, check, aligned);
    /* A block big enough for doubles is suitably aligned. */
    double *d = malloc(100 * sizeof *d);
    if (!d)
        return 1;
    for (int i = 0; i < 100; i++)
        d[i] = i * 0.5;
    double ds = 0;
    for (int i = 0; i < 100; i++)
        ds += d[i];
    printf("doubles %g aligned %d\n", ds, (int)((uintptr_t)d % 8 == 0));
    free(d);
    /* free(NULL) is allowed; malloc of a large block works. */
    free(NULL);
    char *big = malloc(1 << 20);
    if (!big)
        return 1;
    memset(big, 1, 1 << 20);
    long bs = 0;
    for (int i = 0; i < (1 << 20); i += 4096)
        bs += big[i];
    printf("big block sum %ld\n", bs);
    free(big);
    return 0;
}

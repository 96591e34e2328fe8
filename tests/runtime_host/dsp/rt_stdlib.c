/* rt_stdlib.c: stdlib on the DSP against the host: qsort stability and
 * order, bsearch, rand sequences, strtod/strtol, malloc under random
 * traffic (contents checked), setjmp/longjmp through frames with live
 * callee-saved values, atexit order and the exit status. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
    int key, seq;
};

static int by_key(const void *a, const void *b)
{
    return ((const struct rec *)a)->key - ((const struct rec *)b)->key;
}

static jmp_buf env;

static long work(int n, double f, long long w)
{
    if (n == 0)
        longjmp(env, (int)(f + w));
    volatile double keep = f * 2;
    long r = work(n - 1, keep, w + n);
    return r + (long)keep;
}

static void h1(void) { printf("first registered, runs last\n"); }
static void h2(void) { printf("second registered, runs first\n"); }

int main(void)
{
    atexit(h1);
    atexit(h2);
    static struct rec r[500];
    srand(2024);
    for (int i = 0; i < 500; i++) {
        r[i].key = rand() % 37;
        r[i].seq = i;
    }
    qsort(r, 500, sizeof r[0], by_key);
    unsigned long h = 0;
    for (int i = 0; i < 500; i++)
        h = h * 31 + (unsigned)(r[i].key * 1000 + r[i].seq);
    printf("qsort hash %lu first %d/%d last %d/%d\n", h, r[0].key, r[0].seq, r[499].key, r[499].seq);
    struct rec key = {17, 0};
    struct rec *f = bsearch(&key, r, 500, sizeof r[0], by_key);
    printf("bsearch %d\n", f ? f->key : -1);
    for (unsigned s = 0; s < 4; s++) {
        srand(s * 1000003u);
        int a = rand(), b = rand(), c = rand();
        printf("rand(%u): %d %d %d\n", s, a, b, c);
    }
    static const char *const nums[] = {"0.1", "1e23", "2.2250738585072011e-308", "-4.9e-324", "0x1.8p3", "inf", "1e400",
                                       "123.456e-7", "9007199254740993", "  42xyz"};
    for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char *end;
        double d = strtod(nums[i], &end);
        printf("strtod %s -> %a (%d) %ld %lld\n", nums[i], d, (int)(end - nums[i]), strtol(nums[i], NULL, 0),
               strtoll(nums[i], NULL, 10));
    }
    /* malloc traffic */
    static char *blk[64];
    static unsigned sz[64];
    unsigned long sum = 0;
    srand(7);
    for (int step = 0; step < 1000; step++) {
        int k = rand() % 64;
        if (blk[k]) {
            for (unsigned i = 0; i < sz[k]; i++)
                if (blk[k][i] != (char)(k + i))
                    printf("corrupt block %d\n", k);
            sum += sz[k];
            if (rand() % 2) {
                free(blk[k]);
                blk[k] = NULL;
                continue;
            }
            unsigned nsz = (unsigned)(rand() % 600);
            blk[k] = realloc(blk[k], nsz);
            for (unsigned i = sz[k]; i < nsz; i++)
                blk[k][i] = (char)(k + i);
            sz[k] = nsz;
        } else {
            sz[k] = (unsigned)(rand() % 400);
            blk[k] = malloc(sz[k]);
            for (unsigned i = 0; i < sz[k]; i++)
                blk[k][i] = (char)(k + i);
        }
    }
    printf("malloc checksum %lu\n", sum);
    /* values live across setjmp in callee-saved registers (not modified
     * after setjmp, so longjmp must bring them back) */
    int i1 = rand(), i2 = rand() % 1000, i3 = rand() % 7;
    long long l1 = (long long)rand() * rand(), l2 = -l1 / 3;
    double d1 = rand() / 7.0, d2 = d1 * d1, d3 = 1.0 / (1 + i3);
    int v = setjmp(env);
    if (v == 0) {
        work(6, 1.5, 10);
        printf("not reached\n");
    }
    printf("longjmp value %d\n", v);
    printf("kept %d %d %d %lld %lld %.17g %.17g %.17g\n", i1, i2, i3, l1, l2, d1, d2, d3);
    if (v != 1) /* a second longjmp to the same buffer, with value 0 (returns 1) */
        longjmp(env, 0);
    exit(9);
}

/* t_stdlib.c: qsort (same order as glibc's merge sort, also for equal keys
 * and for elements of every size), bsearch, rand/srand sequences and
 * rand_r, strtol/strtoul/strtoll/strtoull (bases, prefixes, overflow,
 * errno, end pointers), abs, exit/atexit/abort/assert through the shim. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

struct rec {
    int key;
    int seq;
};

static long cmp_calls;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    cmp_calls++;
    return (x > y) - (x < y);
}

static int cmp_rec(const void *a, const void *b)
{
    cmp_calls++;
    return ((const struct rec *)a)->key - ((const struct rec *)b)->key;
}

static int cmp_bytes40(const void *a, const void *b)
{
    cmp_calls++;
    return memcmp(a, b, 3);
}

static void test_qsort(void)
{
    static int a[5000], b[5000];
    static struct rec ra[3000], rb[3000];
    static unsigned char ba[40 * 500], bb[40 * 500];
    static const int sizes[] = {0, 1, 2, 3, 5, 8, 17, 100, 255, 1000, 5000};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int i = 0; i < n; i++)
            a[i] = b[i] = (int)(rnd32() % (unsigned)(n / 2 + 1)) - n / 4;
        cmp_calls = 0;
        qsort(a, (size_t)n, sizeof a[0], cmp_int);
        long c1 = cmp_calls;
        cmp_calls = 0;
        dsp_qsort(b, (dsize)n, sizeof b[0], cmp_int);
        check(memcmp(a, b, (size_t)n * sizeof a[0]) == 0, "qsort", "ints, n=%d", n);
        check(c1 == cmp_calls, "qsort", "ints, n=%d: %ld comparisons in glibc, %ld ours", n, c1, cmp_calls);
    }
    for (int round = 0; round < 20; round++) {
        int n = 1 + (int)(rnd32() % 3000);
        for (int i = 0; i < n; i++) {
            ra[i].key = rb[i].key = (int)(rnd32() % 50);
            ra[i].seq = rb[i].seq = i;
        }
        qsort(ra, (size_t)n, sizeof ra[0], cmp_rec);
        dsp_qsort(rb, (dsize)n, sizeof rb[0], cmp_rec);
        check(memcmp(ra, rb, (size_t)n * sizeof ra[0]) == 0, "qsort", "equal keys (stability), n=%d", n);
        int stable = 1;
        for (int i = 1; i < n; i++)
            if (rb[i - 1].key == rb[i].key && rb[i - 1].seq > rb[i].seq)
                stable = 0;
        check(stable, "qsort", "stable, n=%d", n);
    }
    /* elements above 32 bytes (glibc sorts them indirectly) */
    for (int round = 0; round < 5; round++) {
        int n = 1 + (int)(rnd32() % 500);
        for (int i = 0; i < n * 40; i++)
            ba[i] = bb[i] = (unsigned char)(i % 40 < 3 ? rnd32() % 4 : rnd32());
        cmp_calls = 0;
        qsort(ba, (size_t)n, 40, cmp_bytes40);
        long c1 = cmp_calls;
        cmp_calls = 0;
        dsp_qsort(bb, (dsize)n, 40, cmp_bytes40);
        check(memcmp(ba, bb, (size_t)n * 40) == 0 && c1 == cmp_calls, "qsort", "40-byte elements, n=%d", n);
    }
    /* bsearch */
    for (int i = 0; i < 1000; i++)
        a[i] = i * 3;
    for (int k = -3; k < 3010; k++) {
        int *p1 = bsearch(&k, a, 1000, sizeof a[0], cmp_int);
        int *p2 = dsp_bsearch(&k, a, 1000, sizeof a[0], cmp_int);
        check(p1 == p2, "bsearch", "key %d", k);
    }
}

static void test_rand(void)
{
    static const unsigned seeds[] = {1, 0, 2, 42, 12345, 0x7fffffff, 0x80000000u, 0xdeadbeef, 0xffffffff};
    for (unsigned s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        srand(seeds[s]);
        dsp_srand(seeds[s]);
        int ok = 1;
        for (int i = 0; i < 2000; i++)
            if (rand() != dsp_rand())
                ok = 0;
        check(ok, "rand", "sequence after srand(%u)", seeds[s]);
        unsigned r1 = seeds[s], r2 = seeds[s];
        ok = 1;
        for (int i = 0; i < 100; i++)
            if (rand_r(&r1) != dsp_rand_r(&r2))
                ok = 0;
        check(ok && r1 == r2, "rand_r", "seed %u", seeds[s]);
    }
}

static void test_strtol(void)
{
    static const char *const strs[] = {
        "0", "1", "-1", "+1", " \t 42xyz", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "4294967295", "4294967296", "-4294967295", "-4294967296", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "0x", "0x1g", "0X7fffFFFF", "0xffffffff", "-0x10", "010", "08", "0", "00", "z", "Zz", "1010", "777",
        "", " ", "-", "+", "- 1", "0b101", "123456789012345678901234567890", "  -0x", "0x-1",
    };
    static const int bases[] = {0, 2, 8, 10, 16, 36, 1, 37, -1};
    for (unsigned i = 0; i < sizeof strs / sizeof strs[0]; i++)
        for (unsigned b = 0; b < sizeof bases / sizeof bases[0]; b++) {
            const char *s = strs[i];
            int base = bases[b];
            char *e1, *e2;
            errno = 0;
            dsp_errno = 0;
            long v1 = strtol(s, &e1, base);
            int er1 = errno;
            long v2 = dsp_strtol(s, &e2, base);
            check(v1 == v2 && e1 == e2 && er1 == dsp_errno, "strtol", "\"%s\" base %d: %ld/%ld end %d/%d errno %d/%d",
                  s, base, v1, v2, (int)(e1 - s), (int)(e2 - s), er1, dsp_errno);
            errno = 0;
            dsp_errno = 0;
            unsigned long u1 = strtoul(s, &e1, base);
            er1 = errno;
            unsigned long u2 = dsp_strtoul(s, &e2, base);
            check(u1 == u2 && e1 == e2 && er1 == dsp_errno, "strtoul", "\"%s\" base %d: %lu/%lu errno %d/%d", s, base,
                  u1, u2, er1, dsp_errno);
            errno = 0;
            dsp_errno = 0;
            long long l1 = strtoll(s, &e1, base);
            er1 = errno;
            long long l2 = dsp_strtoll(s, &e2, base);
            check(l1 == l2 && e1 == e2 && er1 == dsp_errno, "strtoll", "\"%s\" base %d: %lld/%lld errno %d/%d", s,
                  base, l1, l2, er1, dsp_errno);
            errno = 0;
            dsp_errno = 0;
            unsigned long long q1 = strtoull(s, &e1, base);
            er1 = errno;
            unsigned long long q2 = dsp_strtoull(s, &e2, base);
            check(q1 == q2 && e1 == e2 && er1 == dsp_errno, "strtoull", "\"%s\" base %d: %llu/%llu errno %d/%d", s,
                  base, q1, q2, er1, dsp_errno);
        }
    for (int i = 0; i < 2000; i++) {
        char buf[64];
        long long v = (long long)rnd64() >> (rnd32() % 64);
        snprintf(buf, sizeof buf, i % 3 == 0 ? "%lld" : i % 3 == 1 ? "%#llx" : "%#llo", v);
        check(strtoll(buf, NULL, 0) == dsp_strtoll(buf, NULL, 0), "strtoll", "random \"%s\"", buf);
        check(strtol(buf, NULL, 0) == dsp_strtol(buf, NULL, 0), "strtol", "random \"%s\"", buf);
    }
    check(dsp_abs(-5) == 5 && dsp_abs(INT_MIN) == INT_MIN && dsp_labs(-7L) == 7 && dsp_llabs(-8LL) == 8, "abs",
          "abs/labs/llabs");
    check(dsp_getenv("PATH") == NULL, "getenv", "returns NULL");
}

static int order[8], norder;
static void h1(void) { order[norder++] = 1; dsp_printf("h1 "); }
static void h2(void) { order[norder++] = 2; dsp_printf("h2 "); }

static void test_exit(void)
{
    /* exit: handlers in reverse order, then stdout flushed, then the status. */
    shim_reset_output();
    dsp_atexit(h1);
    dsp_atexit(h2);
    dsp_printf("buffered ");
    check(shim_out[1].len == 0, "exit", "stdout buffered before exit");
    shim_exit_armed = 1;
    if (!setjmp(shim_exit_jmp))
        dsp_exit(3);
    check(shim_exit_status == 3, "exit", "status %d", shim_exit_status);
    check(norder == 2 && order[0] == 2 && order[1] == 1, "exit", "atexit order");
    check(shim_out[1].len && strcmp(shim_out[1].buf, "buffered h2 h1 ") == 0, "exit", "flushed output \"%s\"",
          shim_out[1].len ? shim_out[1].buf : "");
    /* abort: status 134, buffered output lost (like glibc) */
    shim_reset_output();
    dsp_printf("lost");
    shim_exit_armed = 1;
    if (!setjmp(shim_exit_jmp))
        dsp_abort();
    check(shim_exit_status == 134 && shim_out[1].len == 0, "abort", "status %d, %u bytes out", shim_exit_status,
          (unsigned)shim_out[1].len);
    /* assert: glibc's message on stderr, then abort */
    shim_reset_output();
    shim_exit_armed = 1;
    if (!setjmp(shim_exit_jmp))
        dsp___assert_fail("x == 1", "prog.c", 12, "main");
    check(shim_exit_status == 134 && shim_out[2].len &&
              strcmp(shim_out[2].buf, "a.out: prog.c:12: main: Assertion `x == 1' failed.\n") == 0,
          "assert", "message \"%s\"", shim_out[2].len ? shim_out[2].buf : "");
    dsp_fflush(dsp_stdout);
    shim_reset_output();
}

void test_stdlib(void)
{
    test_qsort();
    test_rand();
    test_strtol();
    test_exit();
}

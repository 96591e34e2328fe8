/* main.c: runs every host test group of the runtime and prints
 * "N passed, N failed"; the exit status is 1 on any failure. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

long checks_passed, checks_failed;
int verbose;
static const char *last_group;
static int group_failures;

void check(int ok, const char *group, const char *fmt, ...)
{
    if (ok) {
        checks_passed++;
        return;
    }
    checks_failed++;
    if (last_group == NULL || strcmp(last_group, group) != 0) {
        last_group = group;
        group_failures = 0;
    }
    if (group_failures++ < 25 || verbose) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL [%s] ", group);
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

uint64_t rnd64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

uint32_t rnd32(void)
{
    return (uint32_t)(rnd64() >> 32);
}

double rnd_double_bits(void)
{
    for (;;) {
        union {
            uint64_t u;
            double d;
        } v = {rnd64()};
        if (((v.u >> 52) & 0x7ff) != 0x7ff)
            return v.d;
    }
}

double rnd_double_range(void)
{
    /* mantissa of 1..17 digits times a power of ten in [-30, 30] */
    static const double p10[] = {1e-30, 1e-20, 1e-10, 1e-5, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e5, 1e10, 1e20, 1e30};
    double m = (double)(rnd64() % 100000000000000000ULL) / (double)(1ULL << (rnd32() % 50));
    double d = m * p10[rnd32() % 15];
    return (rnd32() & 1) ? -d : d;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    const char *seed = getenv("RT_SEED"); /* another pseudo-random sequence */
    if (seed && *seed)
        rng_state ^= strtoull(seed, NULL, 0) * 0x9e3779b97f4a7c15ULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "-vv") == 0)
            verbose = 2;
        else
            only = argv[i];
    }
    static const struct {
        const char *name;
        void (*run)(void);
    } groups[] = {
        {"printf", test_printf}, {"strtod", test_strtod},   {"stdlib", test_stdlib},
        {"string", test_string}, {"stdio", test_stdio},     {"malloc", test_malloc},
        {"builtins", test_builtins}, {"softfloat", test_softfloat}, {"math", test_math},
    };
    for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        if (only && strcmp(only, groups[i].name) != 0)
            continue;
        long p0 = checks_passed, f0 = checks_failed;
        groups[i].run();
        printf("%-9s %8ld passed, %ld failed\n", groups[i].name, checks_passed - p0, checks_failed - f0);
    }
    printf("%ld passed, %ld failed\n", checks_passed, checks_failed);
    return checks_failed ? 1 : 0;
}

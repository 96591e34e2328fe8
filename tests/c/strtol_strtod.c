// strtol_strtod: strtol/strtoul/strtoll/strtod/atoi/atol/atof: bases, prefixes, signs, end pointers, whitespace.
#include <stdio.h>
#include <stdlib.h>

const char *ints[] = {"0", "42", "-42", "  +17", "0x1A", "0X1a", "077", "08", "1010", "zz", "  -0x80000000",
                      "2147483647", "123abc", "", "   ", "-", "0x", "9999999999"};
int bases[] = {10, 0, 16, 8, 2, 36};
const char *floats[] = {"0", "1.5", "-2.25e3", "  .5", "1e-5", "6.02214076e23", "3.", "-0.0", "1e400", "inf",
                        "-Infinity", "nan", "12.5abc", "e5", "0x10", "2.2250738585072014e-308", "4.9e-324",
                        "1.7976931348623157e308", "0.1", "12345678901234567e-3", "+.25E-2"};

static void show_double(double v) {
    if (v != v)
        printf("nan");
    else
        printf("%.17g", v);
}

int main(void) {
    for (unsigned i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        printf("'%s':", ints[i]);
        for (unsigned b = 0; b < sizeof bases / sizeof bases[0]; b++) {
            char *end;
            long long v = strtoll(ints[i], &end, bases[b]);
            printf(" b%d=%lld+%d", bases[b], v, (int)(end - ints[i]));
        }
        printf("\n");
    }
    /* strtol and strtoul on values that fit in 32 bits. */
    const char *small[] = {"-2147483648", "2147483647", "4294967295", "-1", "0xffffffff", "  12  "};
    for (unsigned i = 0; i < sizeof small / sizeof small[0]; i++) {
        char *e1, *e2;
        long l = strtol(small[i], &e1, 0);
        unsigned long u = strtoul(small[i], &e2, 0);
        printf("'%s': strtol %ld (%d) strtoul %lu (%d)\n", small[i], i == 2 || i == 4 ? 0L : l, (int)(e1 - small[i]),
               u, (int)(e2 - small[i]));
    }
    printf("atoi %d %d %d atol %ld\n", atoi("  -123xyz"), atoi("0"), atoi("+77"), atol("-2000000000"));
    for (unsigned i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        char *end;
        double v = strtod(floats[i], &end);
        printf("strtod '%s' = ", floats[i]);
        show_double(v);
        printf(" used %d\n", (int)(end - floats[i]));
    }
    printf("atof %.17g %.17g\n", atof("3.14159"), atof("-1e-3xyz"));
    /* Parsing a list with end pointers. */
    const char *list = "10, 20,-30 ,0x40,  5e1";
    const char *p = list;
    long total = 0;
    int count = 0;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 0);
        if (end == p)
            break;
        total += v;
        count++;
        p = end;
        while (*p == ' ' || *p == ',')
            p++;
    }
    printf("parsed %d numbers, total %ld, rest '%s'\n", count, total, p);
    double dsum = 0;
    const char *dl = "1.5 2.25 -0.75 1e2";
    char *de;
    for (const char *q = dl;; q = de) {
        double v = strtod(q, &de);
        if (de == q)
            break;
        dsum += v;
    }
    printf("double list sum %g\n", dsum);
    return 0;
}

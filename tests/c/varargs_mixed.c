// varargs_mixed: variadic functions walking int/double/long long/pointer/struct mixes driven by a format string.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct pt { int x, y; };

/* Format letters: i int, d double, L long long, s string, p int pointer, c char, S struct pt. */
static void describe(char *out, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t used = 0;
    out[0] = 0;
    for (const char *f = fmt; *f && used < cap; f++) {
        int n = 0;
        switch (*f) {
        case 'i': n = snprintf(out + used, cap - used, "i%d ", va_arg(ap, int)); break;
        case 'd': n = snprintf(out + used, cap - used, "d%.4f ", va_arg(ap, double)); break;
        case 'L': n = snprintf(out + used, cap - used, "L%lld ", va_arg(ap, long long)); break;
        case 's': n = snprintf(out + used, cap - used, "s'%s' ", va_arg(ap, const char *)); break;
        case 'p': { int *p = va_arg(ap, int *); *p += 1; n = snprintf(out + used, cap - used, "p%d ", *p); break; }
        case 'c': n = snprintf(out + used, cap - used, "c%c ", va_arg(ap, int)); break;
        case 'S': { struct pt q = va_arg(ap, struct pt); n = snprintf(out + used, cap - used, "S(%d,%d) ", q.x, q.y); break; }
        default: n = snprintf(out + used, cap - used, "? "); break;
        }
        if (n < 0)
            break;
        used += (size_t)n;
    }
    va_end(ap);
}
static double weighted(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double total = 0, weight = 0;
    for (int i = 0; i < n; i++) {
        double v = va_arg(ap, double);
        int w = va_arg(ap, int);
        total += v * w;
        weight += w;
    }
    va_end(ap);
    return weight ? total / weight : 0;
}
/* float arguments are promoted to double. */
static double sum_floats(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}

int main(void) {
    char buf[256];
    int counter = 10;
    struct pt a = {3, -4};
    describe(buf, sizeof buf, "idLs", 7, 2.5, 123456789012345LL, "hello");
    printf("%s\n", buf);
    describe(buf, sizeof buf, "dididL", 0.125, 1, -1e3, 2, 3.0, -5LL);
    printf("%s\n", buf);
    describe(buf, sizeof buf, "pcpSi", &counter, 'Q', &counter, a, -1);
    printf("%s counter %d\n", buf, counter);
    describe(buf, sizeof buf, "LdLdLdLd", 1LL, 1.5, 2LL, 2.5, 3LL, 3.5, -(1LL << 60), -0.0625);
    printf("%s\n", buf);
    describe(buf, sizeof buf, "iiiiiiiiiidS", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11.0, a);
    printf("%s\n", buf);
    describe(buf, 20, "ssss", "truncated", "output", "of", "describe");
    printf("short: '%s' (%u)\n", buf, (unsigned)strlen(buf));
    printf("weighted %.6f %.6f\n", weighted(3, 1.0, 1, 2.0, 2, 3.0, 3), weighted(0));
    float f1 = 0.1f, f2 = 1e-3f;
    printf("sum_floats %.9g\n", sum_floats(4, f1, f2, 2.0f, (double)f1 * 3));
    /* printf itself with every kind in one call. */
    printf("%d %f %lld %s %c %u %e %g %x\n", -5, 1.25, -99LL, "str", 'z', 17u, 12345.678, 0.0001, 255);
    return 0;
}

// varargs_int: own variadic functions over int, unsigned, long and long long arguments.
#include <stdarg.h>
#include <stdio.h>

static int sum_ints(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int s = 0;
    for (int i = 0; i < count; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}
/* A 0-terminated list. */
static int max_of(int first, ...) {
    va_list ap;
    va_start(ap, first);
    int m = first;
    for (int v = va_arg(ap, int); v != 0; v = va_arg(ap, int))
        if (v > m)
            m = v;
    va_end(ap);
    return m;
}
static long long sum_ll(int count, ...) {
    va_list ap;
    va_start(ap, count);
    long long s = 0;
    for (int i = 0; i < count; i++)
        s += va_arg(ap, long long);
    va_end(ap);
    return s;
}
/* char and short arguments are promoted to int. */
static unsigned checksum(unsigned n, ...) {
    va_list ap;
    va_start(ap, n);
    unsigned h = 5381;
    for (unsigned i = 0; i < n; i++)
        h = h * 33 + (unsigned)va_arg(ap, int);
    va_end(ap);
    return h;
}
/* Alternating int and long long arguments, and fixed arguments of several kinds. */
static long long alternate(const char *tag, double scale, int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long acc = 0;
    for (int i = 0; i < n; i++) {
        int a = va_arg(ap, int);
        long long b = va_arg(ap, long long);
        acc += a * b;
    }
    va_end(ap);
    printf("alternate %s: %lld scaled %g\n", tag, acc, (double)acc * scale);
    return acc;
}

int main(void) {
    printf("sum_ints: %d %d %d %d\n", sum_ints(0), sum_ints(1, 42), sum_ints(3, 1, 2, 3),
           sum_ints(12, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12));
    printf("max_of: %d %d\n", max_of(3, 9, -4, 12, 7, 0), max_of(-5, -7, 0));
    printf("sum_ll: %lld %lld\n", sum_ll(2, 1LL << 40, -(1LL << 39)),
           sum_ll(5, 1LL, 10000000000LL, -3LL, 0x7fffffffffLL, 123456789012LL));
    char c = 'x';
    short s = -300;
    unsigned char uc = 250;
    printf("checksum %u %u\n", checksum(4, c, s, uc, 7), checksum(3, (char)-1, (short)32767, 0));
    alternate("a", 0.5, 3, 2, 1000000000000LL, -3, 5LL, 7, -1LL);
    unsigned u = 4000000000u;
    long l = -123456789L;
    printf("mixed %u %ld %lu %x %lld\n", u, l, (unsigned long)u, u, (long long)l * 1000);
    int total = 0;
    for (int k = 0; k < 20; k++)
        total += sum_ints(4, k, k * k, -k, 1);
    printf("loop total %d\n", total);
    return 0;
}

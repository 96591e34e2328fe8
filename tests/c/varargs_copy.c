// varargs_copy: va_copy, passing va_list to helper functions, vsnprintf/vprintf/vfprintf wrappers.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Walks the same arguments twice: once to measure, once to add. */
static double mean(int n, ...) {
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += va_arg(ap, double);
    double m = sum / n;
    double var = 0;
    for (int i = 0; i < n; i++) {
        double d = va_arg(again, double) - m;
        var += d * d;
    }
    va_end(again);
    va_end(ap);
    printf("mean %.6g var %.6g\n", m, var / n);
    return m;
}
static int sum_list(int n, va_list ap) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    return s;
}
/* Consumes part of the list in a helper, continues with a copy taken before. */
static int partial(int n, ...) {
    va_list ap, saved;
    va_start(ap, n);
    va_copy(saved, ap);
    int first = sum_list(n / 2, ap);
    int all = sum_list(n, saved);
    va_end(saved);
    va_end(ap);
    return first * 1000 + all;
}
static int logf_(char *dst, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}
static void report(const char *level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("[%s] ", level);
    vprintf(fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    fprintf(stderr, "[%s] ", level);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}
/* Formats into a growing buffer: measure with a copy, then write. */
static char *format_twice(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int need = vsnprintf(NULL, 0, fmt, ap);
    if (need >= 0 && (size_t)need < cap)
        vsnprintf(buf, cap, fmt, ap2);
    else
        buf[0] = 0;
    va_end(ap2);
    va_end(ap);
    return buf;
}

int main(void) {
    mean(4, 1.0, 2.0, 3.0, 4.0);
    mean(3, -1.5, 1e3, 0.001);
    printf("partial %d %d\n", partial(4, 1, 2, 3, 4), partial(7, 10, 20, 30, 40, 50, 60, 70));
    char buf[64];
    int n = logf_(buf, sizeof buf, "x=%d y=%.2f s=%s", 42, 3.14159, "pi");
    printf("logf_ wrote %d: '%s'\n", n, buf);
    n = logf_(buf, 10, "%s-%s-%s", "alpha", "beta", "gamma");
    printf("truncated to '%s', would need %d\n", buf, n);
    report("info", "%d items, %u%% done\n", 12, 75u);
    report("warn", "value %lld out of range [%d, %d]\n", 1LL << 40, -5, 5);
    printf("twice: '%s'\n", format_twice(buf, sizeof buf, "%05d|%-6s|%+.1e", 42, "ab", 12345.0));
    printf("twice small: '%s'\n", format_twice(buf, 4, "%d", 123456));
    return 0;
}

// printf_misc: %s with widths and precisions, %c, %zu, snprintf truncation and return values, sprintf chains, puts/putchar.
#include <stdio.h>
#include <string.h>

const char *strs[] = {"", "a", "hello", "a longer string than the width"};
size_t cap = 10;

int main(void) {
    for (unsigned i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        const char *s = strs[i];
        printf("[%s] [%8s] [%-8s] [%.3s] [%8.2s] [%-8.4s] [%.0s]\n", s, s, s, s, s, s, s);
    }
    char not_terminated[5] = {'a', 'b', 'c', 'd', 'e'};
    printf("precision limits reading: [%.5s] [%.3s]\n", not_terminated, not_terminated);
    printf("[%.*s] [%*s]\n", 4, "truncate", 6, "pad");
    size_t sz = sizeof(int) * 10;
    printf("zu %zu zx %zx\n", sz, sz);
    for (int c = 32; c < 127; c += 9)
        printf("%c", c);
    printf("|\n");
    /* snprintf truncation: always terminated, returns the untruncated length. */
    char buf[64];
    for (size_t n = 0; n <= 12; n += 3) {
        memset(buf, '#', sizeof buf);
        int r = snprintf(buf, n, "%d-%s", 123456, "xyz");
        printf("n=%u r=%d buf='%s' next='%c'\n", (unsigned)n, r, n ? buf : "(untouched)", buf[n < 11 ? n : 11]);
    }
    int r = snprintf(buf, cap, "%s", "0123456789abcdef");
    printf("r=%d '%s'\n", r, buf);
    /* sprintf appending via its return value. */
    char line[128];
    int pos = 0;
    for (int i = 0; i < 6; i++)
        pos += sprintf(line + pos, "%s%02d", i ? ":" : "", i * 11);
    printf("%s (%d)\n", line, pos);
    /* puts adds a newline; putchar writes one character and returns it. */
    puts("puts line");
    puts("");
    int pc = putchar('X');
    putchar('\n');
    printf("putchar returned %d\n", pc);
    /* Mixed conversions in one format. */
    printf("%s=%d (%#x) %5.1f%% %c%c\n", "ratio", 37, 37u, 37.25, 'o', 'k');
    /* Very long output line, to cross any internal buffer boundary. */
    for (int i = 0; i < 300; i++)
        putchar('a' + i % 26);
    putchar('\n');
    char big[600];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = 0;
    printf("%s|%d\n", big, (int)strlen(big));
    fputs("fputs to stdout\n", stdout);
    fprintf(stdout, "fprintf to stdout %d\n", 7);
    return 0;
}

/* A buffer overflow into the frame: with -fstack-protector(-strong|-all)
 * the function's return check aborts with glibc's message (status 134);
 * functions that do not overflow return normally. */
#include <stdio.h>

__attribute__((noinline)) static int fill(const char *s, int extra)
{
    char buf[16];
    volatile char *p = buf;
    int n = 0;
    while (s[n] && n < 16 + extra)
        p[n] = s[n], n++;
    p[n < 16 ? n : 15] = 0;
    return p[0] + n;
}

int main(int argc, char **argv)
{
    (void)argv;
    fprintf(stderr, "fits: %d\n", fill("short", 0));
    fprintf(stderr, "overflows by %d\n", 24 + argc - 1);
    fill("a string much longer than sixteen bytes, it smashes the frame", 24 + argc - 1);
    fprintf(stderr, "not reached\n");
    return 0;
}

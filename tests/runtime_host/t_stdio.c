/* t_stdio.c: the streams: stdout's 4096-byte blocks (what glibc writes to
 * a pipe), fflush, putchar/puts/fputs/fwrite return values, stderr without
 * buffering, printf to stdout, setvbuf, reading stdin through the shim. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

static void test_sscanf(void)
{
    static const char *const inputs[] = {"42 -7 0x1f 017 3.5 hello world", "  12abc", "", "   ", "x", "-0 +5 1e3 .5e-2 0x1.8p1",
                                         "123456789012 4294967296 -1", "abc,def;ghi", "7:8:9", "nan inf -infinity 1e400",
                                         "   99 % 100"};
    for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        const char *in = inputs[i];
        int a1 = -1, b1 = -1, c1 = -1, d1 = -1, a2 = -1, b2 = -1, c2 = -1, d2 = -1;
        double x1 = -1, y1 = -1, x2 = -1, y2 = -1;
        char s1[32] = "", t1[32] = "", s2[32] = "", t2[32] = "";
        int n1 = -1, n2 = -1;
        long long l1 = -1, l2 = -1;
        int r1 = sscanf(in, "%d %i %x %o %lf %s %s%n", &a1, &b1, &c1, &d1, &x1, s1, t1, &n1);
        int r2 = dsp_sscanf(in, "%d %i %x %o %lf %s %s%n", &a2, &b2, &c2, &d2, &x2, s2, t2, &n2);
        check(r1 == r2 && a1 == a2 && b1 == b2 && c1 == c2 && d1 == d2 && x1 == x2 && !strcmp(s1, s2) &&
                  !strcmp(t1, t2) && n1 == n2,
              "sscanf", "\"%s\" (1): %d vs %d", in, r1, r2);
        r1 = sscanf(in, "%3d%lld %lg %*s %[a-z]", &a1, &l1, &y1, s1);
        r2 = dsp_sscanf(in, "%3d%lld %lg %*s %[a-z]", &a2, &l2, &y2, s2);
        check(r1 == r2 && a1 == a2 && l1 == l2 && (y1 == y2 || (y1 != y1 && y2 != y2)) && !strcmp(s1, s2), "sscanf",
              "\"%s\" (2): %d vs %d", in, r1, r2);
        r1 = sscanf(in, "%[^,;:]%*c%2c%d", s1, t1, &a1);
        r2 = dsp_sscanf(in, "%[^,;:]%*c%2c%d", s2, t2, &a2);
        check(r1 == r2 && !strcmp(s1, s2) && !memcmp(t1, t2, 2) && a1 == a2, "sscanf", "\"%s\" (3): %d vs %d", in, r1,
              r2);
        r1 = sscanf(in, "%d:%d:%d", &a1, &b1, &c1);
        r2 = dsp_sscanf(in, "%d:%d:%d", &a2, &b2, &c2);
        check(r1 == r2 && a1 == a2 && b1 == b2 && c1 == c2, "sscanf", "\"%s\" (4): %d vs %d", in, r1, r2);
        r1 = sscanf(in, "%d %% %d", &a1, &b1);
        r2 = dsp_sscanf(in, "%d %% %d", &a2, &b2);
        check(r1 == r2 && a1 == a2 && b1 == b2, "sscanf", "\"%s\" (5): %d vs %d", in, r1, r2);
    }
    for (int i = 0; i < 3000; i++) {
        char buf[64];
        double d = rnd_double_range(), x1 = 0, x2 = 0;
        snprintf(buf, sizeof buf, "%.17g", d);
        sscanf(buf, "%lf", &x1);
        dsp_sscanf(buf, "%lf", &x2);
        check(x1 == x2, "sscanf", "%%lf of \"%s\"", buf);
    }
}

void test_stdio(void)
{
    test_sscanf();
    shim_reset_output();
    /* return values as glibc */
    /* glibc: puts returns the length + 1, fputs 1, putchar the byte */
    check(dsp_puts("hello") == 6, "stdio", "puts return");
    check(dsp_fputs("abc", dsp_stdout) == 1, "stdio", "fputs return");
    check(dsp_putchar('x') == 'x' && dsp_putchar(0x1ff) == 0xff, "stdio", "putchar return");
    check(dsp_fwrite("12345", 1, 5, dsp_stdout) == 5 && dsp_fwrite("12345", 2, 2, dsp_stdout) == 2, "stdio",
          "fwrite return");
    check(dsp_printf("%d-%s", 42, "z") == 4, "stdio", "printf return");
    check(shim_out[1].len == 0, "stdio", "stdout is buffered");
    dsp_fflush(dsp_stdout);
    check(shim_out[1].len && strcmp(shim_out[1].buf, "hello\nabcx\xff" "12345123442-z") == 0, "stdio", "stdout content");
    /* 4096-byte blocks */
    shim_reset_output();
    for (int i = 0; i < 10000; i++)
        dsp_putchar('a' + i % 26);
    check(shim_out[1].len == 8192 && shim_out[1].writes == 2, "stdio", "putchar blocks: %u bytes in %d writes",
          (unsigned)shim_out[1].len, shim_out[1].writes);
    static char big[20000];
    memset(big, 'q', sizeof big);
    dsp_fwrite(big, 1, 10000, dsp_stdout);
    check(shim_out[1].len == 16384, "stdio", "fwrite blocks: %u bytes", (unsigned)shim_out[1].len);
    dsp_fflush(dsp_stdout);
    check(shim_out[1].len == 20000, "stdio", "after fflush: %u bytes", (unsigned)shim_out[1].len);
    /* stderr: immediate */
    shim_reset_output();
    dsp_fprintf(dsp_stderr, "err %d\n", 7);
    dsp_fputc('!', dsp_stderr);
    check(shim_out[2].len && strcmp(shim_out[2].buf, "err 7\n!") == 0 && shim_out[2].writes == 2, "stdio",
          "stderr unbuffered, one write per call (%d writes)", shim_out[2].writes);
    shim_reset_output();
    dsp_fprintf(dsp_stderr, "%600d|%s\n", 5, "end");
    check(shim_out[2].len == 605 && shim_out[2].buf[599] == '5', "stdio", "long stderr output: %u bytes",
          (unsigned)shim_out[2].len);
    dsp_errno = 2;
    dsp_perror("open");
    check(strstr(shim_out[2].buf, "open: No such file or directory\n") != NULL, "stdio", "perror");
    /* setvbuf(stdout, NULL, _IONBF, 0) */
    shim_reset_output();
    dsp_setvbuf(dsp_stdout, NULL, 2, 0);
    dsp_printf("now");
    check(shim_out[1].len == 3, "stdio", "unbuffered stdout");
    dsp_setvbuf(dsp_stdout, NULL, 0, 0);
    /* stdin */
    static const char input[] = "line one\nsecond\nlast";
    shim_set_input(input, sizeof input - 1);
    char buf[64];
    check(dsp_getchar() == 'l', "stdio", "getchar");
    check(dsp_ungetc('L', dsp_stdin) == 'L' && dsp_getchar() == 'L', "stdio", "ungetc");
    check(dsp_fgets(buf, sizeof buf, dsp_stdin) && strcmp(buf, "ine one\n") == 0, "stdio", "fgets \"%s\"", buf);
    check(dsp_fgets(buf, 4, dsp_stdin) && strcmp(buf, "sec") == 0, "stdio", "fgets short \"%s\"", buf);
    check(dsp_fread(buf, 1, 64, dsp_stdin) == 8 && memcmp(buf, "ond\nlast", 8) == 0 && dsp_feof(dsp_stdin),
          "stdio", "fread to the end");
    check(dsp_getchar() == -1 && dsp_feof(dsp_stdin), "stdio", "EOF");
    dsp_fflush(dsp_stdout);
    shim_reset_output();
}

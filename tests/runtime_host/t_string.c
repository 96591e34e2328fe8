/* t_string.c: string.h and ctype.h against glibc: every alignment and
 * length for the memory functions, overlapping memmove, the str*
 * functions on random strings, strtok sequences, strerror texts, and every
 * ctype function on -1..255. */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

static void test_mem(void)
{
    static unsigned char a[600], b[600], c[600];
    for (int srcoff = 0; srcoff < 8; srcoff++)
        for (int dstoff = 0; dstoff < 8; dstoff++)
            for (int n = 0; n < 80; n += (n < 20 ? 1 : 7)) {
                for (int i = 0; i < 600; i++)
                    a[i] = (unsigned char)rnd32(), b[i] = c[i] = (unsigned char)i;
                memcpy(b + dstoff, a + srcoff, (size_t)n);
                dsp_memcpy(c + dstoff, a + srcoff, (dsize)n);
                check(memcmp(b, c, 600) == 0, "memcpy", "src+%d dst+%d n=%d", srcoff, dstoff, n);
                /* overlapping moves in both directions */
                memcpy(b, a, 600);
                memcpy(c, a, 600);
                memmove(b + 100 + dstoff, b + 100 + srcoff * 3, (size_t)n * 5);
                dsp_memmove(c + 100 + dstoff, c + 100 + srcoff * 3, (dsize)n * 5);
                check(memcmp(b, c, 600) == 0, "memmove", "src+%d dst+%d n=%d", srcoff * 3, dstoff, n * 5);
                memset(b + dstoff, srcoff * 37, (size_t)n * 3);
                dsp_memset(c + dstoff, srcoff * 37, (dsize)n * 3);
                check(memcmp(b, c, 600) == 0, "memset", "dst+%d n=%d", dstoff, n * 3);
                memcpy(c, b, 600);
                if (n)
                    c[dstoff + (n - 1) * 3] ^= (unsigned char)(srcoff + 1);
                check(sign(memcmp(b + dstoff, c + dstoff, (size_t)n * 3)) ==
                          sign(dsp_memcmp(b + dstoff, c + dstoff, (dsize)n * 3)),
                      "memcmp", "n=%d", n * 3);
                int ch = (int)(rnd32() % 256);
                check(memchr(a + srcoff, ch, (size_t)n) ==
                          (const void *)((const char *)dsp_memchr(a + srcoff, ch, (dsize)n)),
                      "memchr", "n=%d", n);
            }
}

static void rnd_str(char *s, int maxlen, int alpha)
{
    int n = (int)(rnd32() % (unsigned)(maxlen + 1));
    for (int i = 0; i < n; i++)
        s[i] = (char)('a' + rnd32() % (unsigned)alpha);
    s[n] = 0;
}

static void test_str(void)
{
    char s1[64], s2[64], b1[160], b2[160];
    for (int round = 0; round < 3000; round++) {
        rnd_str(s1, 20, 4);
        rnd_str(s2, 6, 4);
        check(strlen(s1) == dsp_strlen(s1), "strlen", "\"%s\"", s1);
        check(sign(strcmp(s1, s2)) == sign(dsp_strcmp(s1, s2)), "strcmp", "\"%s\" \"%s\"", s1, s2);
        for (unsigned n = 0; n < 8; n++)
            check(sign(strncmp(s1, s2, n)) == sign(dsp_strncmp(s1, s2, n)), "strncmp", "\"%s\" \"%s\" %u", s1, s2, n);
        check(strstr(s1, s2) == dsp_strstr(s1, s2), "strstr", "\"%s\" \"%s\"", s1, s2);
        check(strspn(s1, s2) == dsp_strspn(s1, s2), "strspn", "\"%s\" \"%s\"", s1, s2);
        check(strcspn(s1, s2) == dsp_strcspn(s1, s2), "strcspn", "\"%s\" \"%s\"", s1, s2);
        check(strpbrk(s1, s2) == dsp_strpbrk(s1, s2), "strpbrk", "\"%s\" \"%s\"", s1, s2);
        int ch = round % 7 == 0 ? 0 : 'a' + (int)(rnd32() % 5);
        check(strchr(s1, ch) == dsp_strchr(s1, ch), "strchr", "\"%s\" %d", s1, ch);
        check(strrchr(s1, ch) == dsp_strrchr(s1, ch), "strrchr", "\"%s\" %d", s1, ch);
        memset(b1, 'x', sizeof b1);
        memset(b2, 'x', sizeof b2);
        strcpy(b1, s1);
        dsp_strcpy(b2, s1);
        strcat(b1, s2);
        dsp_strcat(b2, s2);
        strncat(b1, s1, 3);
        dsp_strncat(b2, s1, 3);
        check(memcmp(b1, b2, sizeof b1) == 0, "strcpy/strcat", "\"%s\" \"%s\"", s1, s2);
        memset(b1, 'x', sizeof b1);
        memset(b2, 'x', sizeof b2);
        unsigned n = rnd32() % 30;
        memcpy(b1, s1, strlen(s1) < n ? strlen(s1) : n); /* what strncpy does */
        memset(b1 + (strlen(s1) < n ? strlen(s1) : n), 0, n - (strlen(s1) < n ? strlen(s1) : n));
        dsp_strncpy(b2, s1, n);
        check(memcmp(b1, b2, sizeof b1) == 0, "strncpy", "\"%s\" %u", s1, n);
        char *d = dsp_strdup(s1);
        check(d && strcmp(d, s1) == 0, "strdup", "\"%s\"", s1);
        dsp_free(d);
        d = dsp_strndup(s1, 5);
        check(d && strncmp(d, s1, 5) == 0 && strlen(d) == (strlen(s1) < 5 ? strlen(s1) : 5), "strndup", "\"%s\"", s1);
        dsp_free(d);
        check(sign(strcasecmp("HeLLo", s1)) == sign(dsp_strcasecmp("HeLLo", s1)), "strcasecmp", "\"%s\"", s1);
    }
    /* strtok sequences */
    static const char *const toks[] = {"a,b,,c", ",,a", "", ",,,", "abc", "a b\tc,d", " lead and trail "};
    for (unsigned i = 0; i < sizeof toks / sizeof toks[0]; i++) {
        char t1[64] = {0}, t2[64] = {0};
        strcpy(t1, toks[i]);
        strcpy(t2, toks[i]);
        char *p1 = strtok(t1, ", \t"), *p2 = dsp_strtok(t2, ", \t");
        int ok = 1;
        while (p1 || p2) {
            if (!p1 || !p2 || p1 - t1 != p2 - t2 || strcmp(p1, p2) != 0) {
                ok = 0;
                break;
            }
            p1 = strtok(NULL, ", \t");
            p2 = dsp_strtok(NULL, ", \t");
        }
        check(ok && memcmp(t1, t2, 64) == 0, "strtok", "\"%s\"", toks[i]);
    }
    for (int e = -2; e < 140; e++) {
        const char *want = strerror(e);
        const char *got = dsp_strerror(e);
        /* texts we carry: 0-40 and a few more; others read "Unknown error N" in both only for unknown numbers */
        if ((e >= 0 && e <= 40) || e == 42 || e == 75 || e == 84 || e == 95 || e == 110 || e < 0 || e >= 134)
            check(strcmp(want, got) == 0, "strerror", "%d: \"%s\" vs \"%s\"", e, want, got);
    }
}

static void test_ctype(void)
{
    for (int c = -1; c < 256; c++) {
        int ok = isalnum(c) == dsp_isalnum(c) && isalpha(c) == dsp_isalpha(c) && isblank(c) == dsp_isblank(c) &&
                 iscntrl(c) == dsp_iscntrl(c) && isdigit(c) == dsp_isdigit(c) && isgraph(c) == dsp_isgraph(c) &&
                 islower(c) == dsp_islower(c) && isprint(c) == dsp_isprint(c) && ispunct(c) == dsp_ispunct(c) &&
                 isspace(c) == dsp_isspace(c) && isupper(c) == dsp_isupper(c) && isxdigit(c) == dsp_isxdigit(c) &&
                 tolower(c) == dsp_tolower(c) && toupper(c) == dsp_toupper(c);
        check(ok, "ctype", "character %d", c);
    }
}

void test_string(void)
{
    test_mem();
    test_str();
    test_ctype();
}

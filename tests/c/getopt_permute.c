// getopt_permute: getopt as glibc's: operands permuted after the options, '+' and '-' option strings, missing and unknown options, optind = 0 restarts.
// host-cflags: -D_GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Parses the NULL-terminated words with opts; prints what getopt returned
 * and argv afterwards. */
static void scan(const char *opts, const char **words) {
    char buf[12][16];
    char *argv[13];
    int argc = 0;
    for (; words[argc]; argc++) {
        strcpy(buf[argc], words[argc]);
        argv[argc] = buf[argc];
    }
    argv[argc] = NULL;
    optind = 0;
    opterr = 1;
    printf("[%s]", opts);
    int c;
    while ((c = getopt(argc, argv, opts)) != -1) {
        if (c == 1)
            printf(" operand(%s)", optarg);
        else if (c == '?' || c == ':')
            printf(" %c(%c)", c, optopt);
        else if (optarg)
            printf(" -%c=%s", c, optarg);
        else
            printf(" -%c", c);
    }
    printf(" | optind %d:", optind);
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    fflush(stdout);
}

int main(void) {
    const char *a[] = {"prog", "in.txt", "-v", "-o", "out", "x", "-n3", "y", NULL};
    const char *b[] = {"prog", "-a", "file", "--", "-b", "z", NULL};
    const char *c[] = {"prog", "file", "-ab", "more", "-c", NULL};
    const char *d[] = {"prog", "a", "b", "c", NULL};
    const char *e[] = {"prog", "-", "-x", "-q", "last", "-o", NULL};
    scan("vo:n:", a);
    scan("+vo:n:", a);
    scan("-vo:n:", a);
    scan("ab", b);
    scan("abc:", c);
    scan("ab", d);
    scan("q", e);
    scan(":qo:", e);
    return 0;
}

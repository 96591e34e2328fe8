/* env.c: the environment (environ is set by the start-up code to the block
 * dsp-sim writes: --env, --host-env), getenv/setenv/unsetenv/putenv,
 * temporary file names (mkstemp and friends: a deterministic sequence of
 * names, tried until one is free), realpath within the simulator's root,
 * and getopt as glibc's: operands are skipped and argv permuted so that they
 * end up after the options, unless the option string starts with '+' or
 * POSIXLY_CORRECT is set (then the first operand ends the options, as POSIX
 * says); a leading '-' returns each operand as the argument of option 1;
 * optind = 0 restarts a scan; glibc's messages. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char **environ;
static int env_owned; /* environ is our malloc'd copy */
static size_t env_cap;

static size_t env_count(void)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    return n;
}

/* The index of NAME (of length len) in environ, or -1. */
static long env_find(const char *name, size_t len)
{
    for (size_t i = 0; environ && environ[i]; i++)
        if (strncmp(environ[i], name, len) == 0 && environ[i][len] == '=')
            return (long)i;
    return -1;
}

char *getenv(const char *name)
{
    size_t len = strlen(name);
    long i = env_find(name, len);
    return i < 0 ? NULL : environ[i] + len + 1;
}

/* Makes environ ours with room for one more entry; -1 without memory. */
static int env_grow(void)
{
    size_t n = env_count();
    if (env_owned && n + 2 <= env_cap)
        return 0;
    size_t cap = (n + 2) * 2;
    char **e = malloc(cap * sizeof *e);
    if (!e) {
        errno = ENOMEM;
        return -1;
    }
    if (n)
        memcpy(e, environ, n * sizeof *e);
    e[n] = NULL;
    if (env_owned)
        free(environ);
    environ = e;
    env_owned = 1;
    env_cap = cap;
    return 0;
}

/* Puts the string "NAME=VALUE" (kept, not copied) in the environment. */
static int env_put(char *entry, size_t name_len)
{
    if (env_grow() != 0)
        return -1;
    long i = env_find(entry, name_len);
    if (i >= 0) {
        environ[i] = entry;
    } else {
        size_t n = env_count();
        environ[n] = entry;
        environ[n + 1] = NULL;
    }
    return 0;
}

int setenv(const char *name, const char *value, int overwrite)
{
    if (!name || !*name || strchr(name, '=')) {
        errno = EINVAL;
        return -1;
    }
    size_t len = strlen(name);
    if (!overwrite && env_find(name, len) >= 0)
        return 0;
    size_t vlen = strlen(value);
    char *entry = malloc(len + vlen + 2);
    if (!entry) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(entry, name, len);
    entry[len] = '=';
    memcpy(entry + len + 1, value, vlen + 1);
    return env_put(entry, len);
}

int putenv(char *entry)
{
    char *eq = strchr(entry, '=');
    if (!eq)
        return unsetenv(entry);
    return env_put(entry, (size_t)(eq - entry));
}

int unsetenv(const char *name)
{
    if (!name || !*name || strchr(name, '=')) {
        errno = EINVAL;
        return -1;
    }
    size_t len = strlen(name);
    long i;
    while ((i = env_find(name, len)) >= 0) {
        if (env_grow() != 0)
            return -1;
        size_t n = env_count();
        memmove(environ + i, environ + i + 1, (n - (size_t)i) * sizeof *environ);
    }
    return 0;
}

int clearenv(void)
{
    if (env_owned)
        free(environ);
    environ = NULL;
    env_owned = 0;
    return 0;
}

/* Replaces the trailing "XXXXXX" of tmpl by the next name of the sequence. */
static int next_name(char *tmpl, size_t suffix)
{
    static unsigned long long state = 0x2545F4914F6CDD1DULL;
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t len = strlen(tmpl);
    if (len < 6 + suffix || memcmp(tmpl + len - suffix - 6, "XXXXXX", 6) != 0) {
        errno = EINVAL;
        return -1;
    }
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned long long v = state >> 16;
    for (int i = 0; i < 6; i++) {
        tmpl[len - suffix - 6 + i] = chars[v % 62];
        v /= 62;
    }
    return 0;
}

int mkostemp(char *tmpl, int flags)
{
    char keep[7];
    size_t len = strlen(tmpl);
    if (len >= 6)
        memcpy(keep, tmpl + len - 6, 7);
    for (int tries = 0; tries < 100; tries++) {
        if (len >= 6)
            memcpy(tmpl + len - 6, keep, 6);
        if (next_name(tmpl, 0) != 0)
            return -1;
        int fd = open(tmpl, O_RDWR | O_CREAT | O_EXCL | (flags & ~O_ACCMODE), 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

int mkstemp(char *tmpl)
{
    return mkostemp(tmpl, 0);
}

char *mkdtemp(char *tmpl)
{
    size_t len = strlen(tmpl);
    for (int tries = 0; tries < 100; tries++) {
        if (len >= 6)
            memcpy(tmpl + len - 6, "XXXXXX", 6);
        if (next_name(tmpl, 0) != 0)
            return NULL;
        if (mkdir(tmpl, 0700) == 0)
            return tmpl;
        if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}

char *mktemp(char *tmpl)
{
    size_t len = strlen(tmpl);
    for (int tries = 0; tries < 100; tries++) {
        if (len >= 6)
            memcpy(tmpl + len - 6, "XXXXXX", 6);
        if (next_name(tmpl, 0) != 0) {
            tmpl[0] = 0;
            return tmpl;
        }
        if (access(tmpl, F_OK) != 0)
            return tmpl;
    }
    tmpl[0] = 0;
    return tmpl;
}

/* realpath: the working directory (the root) joined with a relative path,
 * "." and ".." folded lexically; the file must exist. */
char *realpath(const char *restrict path, char *restrict out)
{
    char buf[4096];
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    if (path[0] == '/') {
        buf[0] = 0;
    } else if (!getcwd(buf, sizeof buf)) {
        return NULL;
    }
    size_t n = strlen(buf);
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t k = (size_t)(e - p);
        if (k == 0 || (k == 1 && p[0] == '.')) {
        } else if (k == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && buf[n - 1] != '/')
                n--;
            if (n > 0)
                n--;
        } else {
            if (n + k + 2 > sizeof buf) {
                errno = ENAMETOOLONG;
                return NULL;
            }
            buf[n++] = '/';
            memcpy(buf + n, p, k);
            n += k;
        }
        p = e;
    }
    if (n == 0)
        buf[n++] = '/';
    buf[n] = 0;
    if (!out && !(out = malloc(n + 1))) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(out, buf, n + 1);
    return out;
}

char *optarg;
int optind = 1, opterr = 1, optopt;
static int optpos; /* position inside a group of short options */
static int group_end; /* argv[optind..group_end) is the current option group and its argument */

/* An option element (or "--"), not an operand. */
static int is_option(const char *a)
{
    return a && a[0] == '-' && a[1] != 0;
}

/* How many elements the option group argv[j] takes: 2 when its last option
 * needs the next element as its argument, else 1. */
static int option_span(int argc, char *const argv[], int j, const char *opts)
{
    if (strcmp(argv[j], "--") == 0)
        return 1;
    for (const char *p = argv[j] + 1; *p; p++) {
        const char *o = *p == ':' ? NULL : strchr(opts, *p);
        if (o && o[1] == ':')
            return p[1] == 0 && o[2] != ':' && j + 1 < argc ? 2 : 1;
    }
    return 1;
}

/* Moves the n elements at argv[j] before the operands argv[optind..j). */
static void permute(char *const argv[], int j, int n)
{
    char **v = (char **)argv;
    for (int k = 0; k < n; k++) {
        char *a = v[j + k];
        memmove(v + optind + k + 1, v + optind + k, (size_t)(j - optind) * sizeof *v);
        v[optind + k] = a;
    }
}

int getopt(int argc, char *const argv[], const char *opts)
{
    const char *prog = argc > 0 ? argv[0] : "";
    int colon = opts[0] == ':' || ((opts[0] == '+' || opts[0] == '-') && opts[1] == ':');
    int order = *opts == '+' || getenv("POSIXLY_CORRECT") ? '+' : *opts == '-' ? '-' : 0;
    if (*opts == '+' || *opts == '-')
        opts++;
    if (*opts == ':')
        opts++;
    optarg = NULL;
    if (optind == 0)
        optind = 1, optpos = 0;
    if (optpos == 0) {
        if (optind >= argc || !argv[optind])
            return -1;
        if (!is_option(argv[optind]) && order == '-') {
            optarg = argv[optind++];
            return 1;
        }
        group_end = argc;
        if (!is_option(argv[optind]) && order == 0) {
            int j = optind;
            while (j < argc && argv[j] && !is_option(argv[j]))
                j++;
            if (j >= argc || !argv[j])
                return -1;
            int n = option_span(argc, argv, j, opts);
            permute(argv, j, n);
            group_end = optind + n; /* an operand after it is no option argument */
        }
        if (!is_option(argv[optind]))
            return -1;
        if (strcmp(argv[optind], "--") == 0) {
            optind++;
            return -1;
        }
        optpos = 1;
    }
    char c = argv[optind][optpos++];
    const char *o = c == ':' ? NULL : strchr(opts, c);
    int last = argv[optind][optpos] == 0;
    if (!o) {
        optopt = c;
        if (opterr && !colon)
            fprintf(stderr, "%s: invalid option -- '%c'\n", prog, c);
        if (last)
            optind++, optpos = 0;
        return '?';
    }
    if (o[1] == ':') {
        if (!last) {
            optarg = argv[optind] + optpos;
        } else if (o[2] == ':') {
            optarg = NULL;
        } else if (optind + 1 < group_end) {
            optarg = argv[++optind];
        } else {
            optopt = c;
            optind++, optpos = 0;
            if (colon)
                return ':';
            if (opterr)
                fprintf(stderr, "%s: option requires an argument -- '%c'\n", prog, c);
            return '?';
        }
        optind++, optpos = 0;
        return c;
    }
    if (last)
        optind++, optpos = 0;
    return c;
}

/* fileio.c: streams on the simulator's hosted files: fopen, fdopen,
 * freopen, fclose, positioning (fseek/ftell, the o forms, fgetpos/fsetpos,
 * rewind), remove, rename, tmpfile, tmpnam, getline/getdelim, the
 * _unlocked aliases and the stream locks (nothing to lock: one thread).
 * popen fails with ENOSYS (no processes). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stdio_impl.h"
#include "syscalls.h"

/* The open(2) flags and stream flags of an fopen mode; -1 if invalid. */
static int mode_flags(const char *mode, int *oflags, int *fflags)
{
    int acc, o;
    switch (*mode) {
    case 'r':
        acc = O_RDONLY, o = 0, *fflags = __DSP_F_READ;
        break;
    case 'w':
        acc = O_WRONLY, o = O_CREAT | O_TRUNC, *fflags = __DSP_F_WRITE;
        break;
    case 'a':
        acc = O_WRONLY, o = O_CREAT | O_APPEND, *fflags = __DSP_F_WRITE;
        break;
    default:
        errno = EINVAL;
        return -1;
    }
    for (const char *m = mode + 1; *m; m++) {
        if (*m == '+')
            acc = O_RDWR, *fflags = __DSP_F_READ | __DSP_F_WRITE;
        else if (*m == 'x')
            o |= O_EXCL;
        else if (*m == 'e')
            o |= O_CLOEXEC;
    }
    *oflags = acc | o;
    return 0;
}

static FILE *new_stream(int fd, int fflags)
{
    int i = 3;
    while (i < __DSP_MAX_FILES && __dsp_stdio_files[i])
        i++;
    if (i == __DSP_MAX_FILES) {
        errno = EMFILE;
        return NULL;
    }
    FILE *f = malloc(sizeof *f + __DSP_FILE_BUF);
    if (!f) {
        errno = ENOMEM;
        return NULL;
    }
    f->fd = fd;
    f->flags = fflags | __DSP_F_ALLOC;
    f->mode = _IOFBF;
    f->buf = (unsigned char *)(f + 1);
    f->size = __DSP_FILE_BUF;
    f->wlen = f->rpos = f->rend = 0;
    f->unget = EOF;
    __dsp_stdio_files[i] = f;
    return f;
}

FILE *fopen(const char *path, const char *mode)
{
    int oflags, fflags;
    if (mode_flags(mode, &oflags, &fflags) != 0)
        return NULL;
    int fd = open(path, oflags, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = new_stream(fd, fflags);
    if (!f)
        close(fd);
    return f;
}

FILE *fdopen(int fd, const char *mode)
{
    int oflags, fflags;
    if (mode_flags(mode, &oflags, &fflags) != 0)
        return NULL;
    return new_stream(fd, fflags);
}

FILE *freopen(const char *path, const char *mode, FILE *f)
{
    int oflags, fflags;
    if (f->flags & __DSP_F_WRITE)
        fflush(f);
    if (mode_flags(mode, &oflags, &fflags) != 0 || path == NULL) {
        if (path == NULL)
            errno = EINVAL;
        return NULL;
    }
    if (f->fd > 2)
        close(f->fd);
    int fd = open(path, oflags, 0666);
    if (fd < 0) {
        f->flags = f->flags & __DSP_F_ALLOC;
        return NULL;
    }
    f->fd = fd;
    f->flags = fflags | (f->flags & __DSP_F_ALLOC);
    f->wlen = f->rpos = f->rend = 0;
    f->unget = EOF;
    return f;
}

int fclose(FILE *f)
{
    int r = 0;
    if (f->flags & __DSP_F_WRITE)
        r = fflush(f);
    if (f->fd > 2 && close(f->fd) != 0)
        r = EOF;
    for (int i = 0; i < __DSP_MAX_FILES; i++)
        if (__dsp_stdio_files[i] == f && i > 2)
            __dsp_stdio_files[i] = NULL;
    if (f->flags & __DSP_F_ALLOC)
        free(f);
    else
        f->flags = 0;
    return r;
}

int fseeko(FILE *f, off_t off, int whence)
{
    if (f->wlen && fflush(f) != 0)
        return -1;
    if (whence == SEEK_CUR)
        off -= (off_t)(f->rend - f->rpos) + (f->unget != EOF);
    if (__dsp_ret(__dsp_lseek(f->fd, off, whence)) < 0)
        return -1;
    f->rpos = f->rend = 0;
    f->unget = EOF;
    f->flags &= ~__DSP_F_EOF;
    return 0;
}

off_t ftello(FILE *f)
{
    long pos = __dsp_ret(__dsp_lseek(f->fd, 0, SEEK_CUR));
    if (pos < 0)
        return -1;
    return pos - (off_t)(f->rend - f->rpos) - (f->unget != EOF) + (off_t)f->wlen;
}

int fseek(FILE *f, long off, int whence)
{
    return fseeko(f, off, whence);
}

long ftell(FILE *f)
{
    return ftello(f);
}

void rewind(FILE *f)
{
    fseeko(f, 0, SEEK_SET);
    clearerr(f);
}

int fgetpos(FILE *f, fpos_t *pos)
{
    off_t p = ftello(f);
    if (p < 0)
        return -1;
    *pos = p;
    return 0;
}

int fsetpos(FILE *f, const fpos_t *pos)
{
    return fseeko(f, (off_t)*pos, SEEK_SET);
}

int remove(const char *path)
{
    int r = __dsp_unlink(path);
    if (r == -EISDIR)
        r = __dsp_rmdir(path);
    return (int)__dsp_ret(r);
}

int rename(const char *from, const char *to)
{
    return (int)__dsp_ret(__dsp_rename(from, to));
}

FILE *tmpfile(void)
{
    char name[] = "tmpfile.XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return NULL;
    unlink(name);
    FILE *f = fdopen(fd, "w+");
    if (!f)
        close(fd);
    return f;
}

char *tmpnam(char *s)
{
    static char own[L_tmpnam];
    static unsigned counter;
    char *out = s ? s : own;
    for (int tries = 0; tries < 1000; tries++) {
        snprintf(out, L_tmpnam, "tmp.%06u", ++counter % 1000000u);
        if (access(out, F_OK) != 0)
            return out;
    }
    return NULL;
}

ssize_t getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    if (!line || !cap) {
        errno = EINVAL;
        return -1;
    }
    size_t n = 0;
    for (;;) {
        int c = fgetc(f);
        if (c == EOF) {
            if (n == 0)
                return -1;
            break;
        }
        if (n + 2 > *cap || !*line) {
            size_t want = *cap < 120 ? 120 : *cap * 2;
            char *p = realloc(*line, want);
            if (!p) {
                errno = ENOMEM;
                return -1;
            }
            *line = p;
            *cap = want;
        }
        (*line)[n++] = (char)c;
        if (c == delim)
            break;
    }
    (*line)[n] = 0;
    return (ssize_t)n;
}

ssize_t getline(char **line, size_t *cap, FILE *f)
{
    return getdelim(line, cap, '\n', f);
}

FILE *popen(const char *cmd, const char *mode)
{
    (void)cmd;
    (void)mode;
    errno = ENOSYS;
    return NULL;
}

int pclose(FILE *f)
{
    (void)f;
    errno = ECHILD;
    return -1;
}

void flockfile(FILE *f) { (void)f; }
int ftrylockfile(FILE *f) { (void)f; return 0; }
void funlockfile(FILE *f) { (void)f; }
int getc_unlocked(FILE *f) { return fgetc(f); }
int getchar_unlocked(void) { return fgetc(stdin); }
int putc_unlocked(int c, FILE *f) { return fputc(c, f); }
int putchar_unlocked(int c) { return fputc(c, stdout); }
int fgetc_unlocked(FILE *f) { return fgetc(f); }
int fputc_unlocked(int c, FILE *f) { return fputc(c, f); }
int fflush_unlocked(FILE *f) { return fflush(f); }
size_t fread_unlocked(void *p, size_t s, size_t n, FILE *f) { return fread(p, s, n, f); }
size_t fwrite_unlocked(const void *p, size_t s, size_t n, FILE *f) { return fwrite(p, s, n, f); }
int fputs_unlocked(const char *s, FILE *f) { return fputs(s, f); }
char *fgets_unlocked(char *s, int n, FILE *f) { return fgets(s, n, f); }
int feof_unlocked(FILE *f) { return feof(f); }
int ferror_unlocked(FILE *f) { return ferror(f); }
void clearerr_unlocked(FILE *f) { clearerr(f); }
int fileno_unlocked(FILE *f) { return fileno(f); }

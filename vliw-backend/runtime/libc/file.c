/* file.c: the standard streams and character/block I/O on any stream. stdout
 * is fully buffered in 4096-byte blocks (what glibc does for a pipe or file:
 * the bytes out so far are always a whole number of blocks until fflush or
 * exit) and line-buffered when it is a terminal (isatty, checked on its first
 * write, as glibc does), stderr is unbuffered, stdin reads through __dsp_read
 * in blocks; reading stdin first flushes a line-buffered stdout (glibc flushes
 * every line-buffered stream when a read needs input), so an interactive
 * program's prompts and results appear in order with what is typed.
 * Streams of hosted files (fileio.c) share this code; one buffer serves
 * reading or writing, switched on the first operation of the other kind.
 * Return values follow glibc (fputs returns 1, puts the length + 1). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stdio_impl.h"
#include "syscalls.h"

static unsigned char stdout_buf[__DSP_STDOUT_BUF];
static unsigned char stdin_buf[__DSP_STDIN_BUF];

static struct __dsp_file file_stdin = {0, __DSP_F_READ, _IOFBF, stdin_buf, sizeof stdin_buf, 0, 0, 0, EOF};
static struct __dsp_file file_stdout = {1, __DSP_F_WRITE | __DSP_F_TTYCHECK, _IOFBF, stdout_buf, sizeof stdout_buf, 0, 0, 0, EOF};
static struct __dsp_file file_stderr = {2, __DSP_F_WRITE, _IONBF, NULL, 0, 0, 0, 0, EOF};

FILE *stdin = &file_stdin;
FILE *stdout = &file_stdout;
FILE *stderr = &file_stderr;

FILE *__dsp_stdio_files[__DSP_MAX_FILES] = {&file_stdin, &file_stdout, &file_stderr};
/* Read by dsp-sim (with __dsp_stdio_files) to flush the streams on a fault. */
unsigned __dsp_stdio_nfiles = __DSP_MAX_FILES;

void __dsp_drop_read(FILE *f)
{
    long back = (long)(f->rend - f->rpos) + (f->unget != EOF);
    if (back)
        __dsp_lseek(f->fd, -back, 1);
    f->rpos = f->rend = 0;
    f->unget = EOF;
}

/* Writes all n bytes to fd; 0, or EOF on an error. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        int k = __dsp_write(fd, p, (unsigned)n);
        if (k <= 0) {
            if (k < 0)
                errno = -k;
            return EOF;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int flush_buffer(FILE *f)
{
    if (f->wlen == 0)
        return 0;
    size_t n = f->wlen;
    f->wlen = 0;
    if (write_all(f->fd, f->buf, n) != 0) {
        f->flags |= __DSP_F_ERR;
        return EOF;
    }
    return 0;
}

/* The buffering of stdout, decided on its first use: line-buffered on a
 * terminal (unless setvbuf chose already). */
static void check_tty(FILE *f)
{
    f->flags &= ~__DSP_F_TTYCHECK;
    if (f->mode == _IOFBF && isatty(f->fd))
        f->mode = _IOLBF;
}

int __dsp_fwrite_bytes(FILE *f, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    if (f->flags & __DSP_F_TTYCHECK)
        check_tty(f);
    if (!(f->flags & __DSP_F_WRITE)) {
        f->flags |= __DSP_F_ERR;
        errno = EBADF;
        return EOF;
    }
    if (f->rend > f->rpos || f->unget != EOF)
        __dsp_drop_read(f);
    if (f->size == 0 || f->mode == _IONBF) {
        if (flush_buffer(f) != 0 || write_all(f->fd, p, len) != 0) {
            f->flags |= __DSP_F_ERR;
            return EOF;
        }
        return 0;
    }
    /* Fill the buffer; when it is full, write it whole. */
    size_t room = f->size - f->wlen;
    size_t k = len < room ? len : room;
    memcpy(f->buf + f->wlen, p, k);
    f->wlen += k;
    p += k;
    len -= k;
    if (len > 0 || f->wlen == f->size) {
        if (f->wlen == f->size && flush_buffer(f) != 0)
            return EOF;
        if (len >= f->size) {
            size_t direct = len - len % f->size;
            if (write_all(f->fd, p, direct) != 0) {
                f->flags |= __DSP_F_ERR;
                return EOF;
            }
            p += direct;
            len -= direct;
        }
        memcpy(f->buf, p, len);
        f->wlen = len;
    }
    if (f->mode == _IOLBF && memchr(s, '\n', (size_t)(p + len - (const unsigned char *)s)) != NULL)
        return flush_buffer(f);
    return 0;
}

int fflush(FILE *f)
{
    if (f == NULL) {
        __dsp_flush_all();
        return 0;
    }
    if (!(f->flags & __DSP_F_WRITE))
        return 0;
    return flush_buffer(f);
}

void __dsp_flush_all(void)
{
    for (int i = 0; i < __DSP_MAX_FILES; i++)
        if (__dsp_stdio_files[i])
            fflush(__dsp_stdio_files[i]);
}

int fputc(int c, FILE *f)
{
    char ch = (char)c;
    if (__dsp_fwrite_bytes(f, &ch, 1) != 0)
        return EOF;
    return (unsigned char)c;
}

int putc(int c, FILE *f)
{
    return fputc(c, f);
}

int putchar(int c)
{
    return fputc(c, stdout);
}

int fputs(const char *s, FILE *f)
{
    return __dsp_fwrite_bytes(f, s, strlen(s)) == 0 ? 1 : EOF;
}

int puts(const char *s)
{
    size_t n = strlen(s);
    if (__dsp_fwrite_bytes(stdout, s, n) != 0 || __dsp_fwrite_bytes(stdout, "\n", 1) != 0)
        return EOF;
    return n + 1 > 2147483647u ? 2147483647 : (int)(n + 1);
}

size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *f)
{
    size_t total = size * nmemb;
    if (total == 0)
        return 0;
    if (__dsp_fwrite_bytes(f, ptr, total) != 0)
        return 0;
    return nmemb;
}

/* Refills the read buffer; 0, or EOF at end of file or on an error. */
static int refill(FILE *f)
{
    if (!(f->flags & __DSP_F_READ)) {
        f->flags |= __DSP_F_ERR;
        errno = EBADF;
        return EOF;
    }
    if (f->wlen && flush_buffer(f) != 0)
        return EOF;
    if (f == stdin) {
        if (stdout->flags & __DSP_F_TTYCHECK)
            check_tty(stdout);
        if (stdout->mode == _IOLBF)
            flush_buffer(stdout);
    }
    unsigned char one;
    unsigned char *dst = f->size ? f->buf : &one;
    unsigned cap = f->size ? (unsigned)f->size : 1;
    int n = __dsp_read(f->fd, dst, cap);
    if (n < 0)
        errno = -n;
    if (n <= 0) {
        f->flags |= n == 0 ? __DSP_F_EOF : __DSP_F_ERR;
        return EOF;
    }
    if (!f->size) {
        f->unget = one;
        return 0;
    }
    f->rpos = 0;
    f->rend = (size_t)n;
    return 0;
}

int fgetc(FILE *f)
{
    if (f->unget != EOF) {
        int c = f->unget;
        f->unget = EOF;
        return c;
    }
    if (f->rpos >= f->rend && refill(f) != 0)
        return EOF;
    if (f->unget != EOF) {
        int c = f->unget;
        f->unget = EOF;
        return c;
    }
    return f->buf[f->rpos++];
}

int getc(FILE *f)
{
    return fgetc(f);
}

int getchar(void)
{
    return fgetc(stdin);
}

int ungetc(int c, FILE *f)
{
    if (c == EOF || f->unget != EOF)
        return EOF;
    f->unget = (unsigned char)c;
    f->flags &= ~__DSP_F_EOF;
    return (unsigned char)c;
}

char *fgets(char *s, int n, FILE *f)
{
    if (n <= 0)
        return NULL;
    int i = 0;
    while (i < n - 1) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        s[i++] = (char)c;
        if (c == '\n')
            break;
    }
    if (i == 0 && n > 1)
        return NULL;
    s[i] = 0;
    return s;
}

size_t fread(void *ptr, size_t size, size_t nmemb, FILE *f)
{
    size_t total = size * nmemb;
    unsigned char *p = ptr;
    size_t got = 0;
    if (total == 0)
        return 0;
    while (got < total) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        p[got++] = (unsigned char)c;
        size_t avail = f->rend - f->rpos;
        size_t want = total - got;
        size_t k = avail < want ? avail : want;
        if (k) {
            memcpy(p + got, f->buf + f->rpos, k);
            f->rpos += k;
            got += k;
        }
    }
    return got / size;
}

int feof(FILE *f)
{
    return (f->flags & __DSP_F_EOF) != 0;
}

int ferror(FILE *f)
{
    return (f->flags & __DSP_F_ERR) != 0;
}

void clearerr(FILE *f)
{
    f->flags &= ~(__DSP_F_EOF | __DSP_F_ERR);
}

int fileno(FILE *f)
{
    return f->fd;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF)
        return -1;
    fflush(f);
    f->flags &= ~__DSP_F_TTYCHECK;
    f->mode = mode;
    if (mode == _IONBF) {
        if (f->flags & __DSP_F_WRITE) {
            f->buf = NULL;
            f->size = 0;
        }
    } else if (buf != NULL && size > 0) {
        f->buf = (unsigned char *)buf;
        f->size = size;
        f->rpos = f->rend = 0;
    }
    return 0;
}

void setbuf(FILE *f, char *buf)
{
    setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

void perror(const char *s)
{
    const char *msg = strerror(errno);
    if (s && *s) {
        fputs(s, stderr);
        fputs(": ", stderr);
    }
    fputs(msg, stderr);
    fputs("\n", stderr);
}

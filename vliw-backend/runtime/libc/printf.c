/* printf.c: the printf family over the engine in vformat.c. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "stdio_impl.h"

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    if (f->mode == _IONBF || f->size == 0) {
        /* Like glibc, an unbuffered stream gets one write per call (or
         * per block of a long output) through a buffer on the stack. */
        char buf[256];
        struct __dsp_sink s = {f, buf, sizeof buf, 0, 0};
        int r = __dsp_vformat(&s, fmt, ap);
        size_t rest = s.pos % sizeof buf;
        if (rest && !s.error && __dsp_fwrite_bytes(f, buf, rest) != 0)
            r = -1;
        return s.error ? -1 : r;
    }
    struct __dsp_sink s = {f, NULL, 0, 0, 0};
    return __dsp_vformat(&s, fmt, ap);
}

int vprintf(const char *fmt, va_list ap)
{
    return vfprintf(stdout, fmt, ap);
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    struct __dsp_sink s = {NULL, buf, n ? n - 1 : 0, 0, 0};
    int r = __dsp_vformat(&s, fmt, ap);
    if (n)
        buf[s.pos < s.cap ? s.pos : s.cap] = 0;
    return r;
}

int vsprintf(char *buf, const char *fmt, va_list ap)
{
    return vsnprintf(buf, INT_MAX, fmt, ap);
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
    struct __dsp_file f = {fd, __DSP_F_WRITE, _IONBF, NULL, 0, 0, 0, 0, EOF};
    return vfprintf(&f, fmt, ap);
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return r;
}

int fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}

int sprintf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsprintf(buf, fmt, ap);
    va_end(ap);
    return r;
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int dprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vdprintf(fd, fmt, ap);
    va_end(ap);
    return r;
}

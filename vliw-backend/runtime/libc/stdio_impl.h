/* stdio_impl.h: the FILE structure and the output sinks shared by the stdio
 * sources of the runtime (internal; not installed for programs). */
#ifndef _DSP_STDIO_IMPL_H
#define _DSP_STDIO_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Size of stdout's buffer: glibc gives a pipe or file stream st_blksize =
 * 4096 bytes, so a program that aborts loses the same output here. */
#define __DSP_STDOUT_BUF 4096
#define __DSP_STDIN_BUF 4096

#define __DSP_F_READ 1   /* stream may be read */
#define __DSP_F_WRITE 2  /* stream may be written */
#define __DSP_F_EOF 4    /* end of file seen */
#define __DSP_F_ERR 8    /* error seen */
#define __DSP_F_ALLOC 16 /* FILE allocated by fopen/fdopen (freed by fclose) */
#define __DSP_F_TTYCHECK 32 /* stdout: line-buffered if a terminal (decided on first use) */

/* Streams open at once, the standard three included (the table
 * __dsp_stdio_files, which dsp-sim also reads to write out the buffers of
 * a program that faults: keep fd, flags, buf, size and wlen where they are). */
#define __DSP_MAX_FILES 64
/* Buffer of a stream opened by fopen/fdopen (glibc: st_blksize). */
#define __DSP_FILE_BUF 4096

struct __dsp_file {
    int fd;
    int flags;
    int mode;               /* _IOFBF, _IOLBF or _IONBF */
    unsigned char *buf;     /* write buffer or read buffer */
    size_t size;            /* its capacity (0: unbuffered) */
    size_t wlen;            /* bytes waiting to be written */
    size_t rpos, rend;      /* unread bytes: buf[rpos..rend) */
    int unget;              /* a byte pushed back by ungetc, or EOF */
};

/* Writes len bytes to the stream (through its buffer); 0 or EOF on error. */
int __dsp_fwrite_bytes(FILE *f, const char *s, size_t len);
/* Flushes every stream (at exit). */
void __dsp_flush_all(void);
/* The open streams: stdin, stdout, stderr, then fopen's (NULL: free slot). */
extern FILE *__dsp_stdio_files[__DSP_MAX_FILES];
/* Drops what the read buffer holds, moving the file offset back to the
 * stream's position (before writing or seeking). */
void __dsp_drop_read(FILE *f);

/* Where formatted output goes: a stream, a string of capacity cap, or a
 * stream through the block buffer str[0..cap) (both set; the caller writes
 * the last partial block). */
struct __dsp_sink {
    FILE *file;             /* non-null: output goes to this stream */
    char *str;              /* string (NUL written by the caller) or block buffer */
    size_t cap;
    size_t pos;             /* characters produced so far (also beyond cap) */
    int error;
};

void __dsp_sink_write(struct __dsp_sink *s, const char *p, size_t n);
void __dsp_sink_pad(struct __dsp_sink *s, char c, size_t n);

/* The printf engine: formats into s; returns the number of characters
 * produced, or -1 on an output error or overflow. */
int __dsp_vformat(struct __dsp_sink *s, const char *fmt, va_list ap);

/* Conversion flags of a printf directive. */
#define __DSP_FL_LEFT 1    /* '-' */
#define __DSP_FL_PLUS 2    /* '+' */
#define __DSP_FL_SPACE 4   /* ' ' */
#define __DSP_FL_ALT 8     /* '#' */
#define __DSP_FL_ZERO 16   /* '0' */

/* %f %F %e %E %g %G %a %A of x with flags, width, precision (-1: none). */
void __dsp_format_float(struct __dsp_sink *s, double x, int flags, int width, int prec, int conv);

#endif

/* stdio.h: input/output (C11 7.21). stdin (read through the simulator's
 * read call), stdout (fully buffered, BUFSIZ-independent 4096-byte buffer,
 * flushed at exit and by fflush) and stderr (unbuffered); fopen opens the
 * simulator's hosted files (4096-byte buffers). Single-threaded: the
 * _unlocked functions are the plain ones and flockfile does nothing. */
#ifndef _STDIO_H
#define _STDIO_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#ifndef __DSP_VA_LIST
#define __DSP_VA_LIST
typedef __builtin_va_list va_list;
#endif
#ifndef __DSP_SSIZE_T
#define __DSP_SSIZE_T
typedef int ssize_t;
#endif
#ifndef __DSP_OFF_T
#define __DSP_OFF_T
typedef long off_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

typedef struct __dsp_file FILE;
typedef long long fpos_t;

#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define TMP_MAX 238328
#define L_tmpnam 20
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

#if defined(__GNUC__) || defined(__clang__)
#define __DSP_PRINTF(f, a) __attribute__((__format__(__printf__, f, a)))
#else
#define __DSP_PRINTF(f, a)
#endif

int printf(const char *__restrict, ...) __DSP_PRINTF(1, 2);
int fprintf(FILE *__restrict, const char *__restrict, ...) __DSP_PRINTF(2, 3);
int sprintf(char *__restrict, const char *__restrict, ...) __DSP_PRINTF(2, 3);
int snprintf(char *__restrict, size_t, const char *__restrict, ...) __DSP_PRINTF(3, 4);
int dprintf(int, const char *__restrict, ...) __DSP_PRINTF(2, 3);
int vprintf(const char *__restrict, va_list) __DSP_PRINTF(1, 0);
int vfprintf(FILE *__restrict, const char *__restrict, va_list) __DSP_PRINTF(2, 0);
int vsprintf(char *__restrict, const char *__restrict, va_list) __DSP_PRINTF(2, 0);
int vsnprintf(char *__restrict, size_t, const char *__restrict, va_list) __DSP_PRINTF(3, 0);
int vdprintf(int, const char *__restrict, va_list) __DSP_PRINTF(2, 0);

int sscanf(const char *__restrict, const char *__restrict, ...);
int vsscanf(const char *__restrict, const char *__restrict, va_list);
int scanf(const char *__restrict, ...);
int fscanf(FILE *__restrict, const char *__restrict, ...);
int vscanf(const char *__restrict, va_list);
int vfscanf(FILE *__restrict, const char *__restrict, va_list);

int fputc(int, FILE *);
int putc(int, FILE *);
int putchar(int);
int fputs(const char *__restrict, FILE *__restrict);
int puts(const char *);
size_t fwrite(const void *__restrict, size_t, size_t, FILE *__restrict);
int fflush(FILE *);

int fgetc(FILE *);
int getc(FILE *);
int getchar(void);
int ungetc(int, FILE *);
char *fgets(char *__restrict, int, FILE *__restrict);
size_t fread(void *__restrict, size_t, size_t, FILE *__restrict);

int feof(FILE *);
int ferror(FILE *);
void clearerr(FILE *);
int fileno(FILE *);
void perror(const char *);

int setvbuf(FILE *__restrict, char *__restrict, int, size_t);
void setbuf(FILE *__restrict, char *__restrict);

FILE *fopen(const char *__restrict, const char *__restrict);
FILE *freopen(const char *__restrict, const char *__restrict, FILE *__restrict);
int fclose(FILE *);
int fseek(FILE *, long, int);
long ftell(FILE *);
void rewind(FILE *);
int fgetpos(FILE *__restrict, fpos_t *__restrict);
int fsetpos(FILE *, const fpos_t *);
int remove(const char *);
int rename(const char *, const char *);
FILE *tmpfile(void);
char *tmpnam(char *);
FILE *fdopen(int, const char *);
int fseeko(FILE *, off_t, int);
off_t ftello(FILE *);
ssize_t getline(char **__restrict, size_t *__restrict, FILE *__restrict);
ssize_t getdelim(char **__restrict, size_t *__restrict, int, FILE *__restrict);
FILE *popen(const char *, const char *);
int pclose(FILE *);
void flockfile(FILE *);
int ftrylockfile(FILE *);
void funlockfile(FILE *);
int getc_unlocked(FILE *);
int getchar_unlocked(void);
int putc_unlocked(int, FILE *);
int putchar_unlocked(int);
int fgetc_unlocked(FILE *);
int fputc_unlocked(int, FILE *);
int fflush_unlocked(FILE *);
size_t fread_unlocked(void *__restrict, size_t, size_t, FILE *__restrict);
size_t fwrite_unlocked(const void *__restrict, size_t, size_t, FILE *__restrict);
int fputs_unlocked(const char *__restrict, FILE *__restrict);
char *fgets_unlocked(char *__restrict, int, FILE *__restrict);
int feof_unlocked(FILE *);
int ferror_unlocked(FILE *);
void clearerr_unlocked(FILE *);
int fileno_unlocked(FILE *);

#endif

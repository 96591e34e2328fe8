/* stdlib.h: general utilities (C11 7.22): memory allocation on the heap
 * between the linker symbols __heap_start and __heap_end, numeric
 * conversions, glibc-compatible rand() and stable qsort, exit handling. */
#ifndef _STDLIB_H
#define _STDLIB_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#ifndef __cplusplus
#ifndef __DSP_WCHAR_T
#define __DSP_WCHAR_T
typedef __WCHAR_TYPE__ wchar_t;
#endif
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define MB_CUR_MAX ((size_t)1)

typedef struct {
    int quot;
    int rem;
} div_t;
typedef struct {
    long quot;
    long rem;
} ldiv_t;
typedef struct {
    long long quot;
    long long rem;
} lldiv_t;

void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void *reallocarray(void *, size_t, size_t);
void free(void *);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void *memalign(size_t, size_t);
void *valloc(size_t);

void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *));

long strtol(const char *__restrict, char **__restrict, int);
unsigned long strtoul(const char *__restrict, char **__restrict, int);
long long strtoll(const char *__restrict, char **__restrict, int);
unsigned long long strtoull(const char *__restrict, char **__restrict, int);
double strtod(const char *__restrict, char **__restrict);
float strtof(const char *__restrict, char **__restrict);
long double strtold(const char *__restrict, char **__restrict);
int atoi(const char *);
long atol(const char *);
long long atoll(const char *);
double atof(const char *);

int rand(void);
void srand(unsigned);
int rand_r(unsigned *);
long random(void);
void srandom(unsigned);

int abs(int);
long labs(long);
long long llabs(long long);
div_t div(int, int);
ldiv_t ldiv(long, long);
lldiv_t lldiv(long long, long long);

_Noreturn void exit(int);
_Noreturn void _Exit(int);
_Noreturn void abort(void);
int atexit(void (*)(void));
char *getenv(const char *);
int setenv(const char *, const char *, int);
int unsetenv(const char *);
int system(const char *);
int putenv(char *);
int clearenv(void);
int mkstemp(char *);
int mkostemp(char *, int);
char *mkdtemp(char *);
char *mktemp(char *);
char *realpath(const char *__restrict, char *__restrict);

int mblen(const char *, size_t);
int mbtowc(wchar_t *__restrict, const char *__restrict, size_t);
int wctomb(char *, wchar_t);
size_t mbstowcs(wchar_t *__restrict, const char *__restrict, size_t);
size_t wcstombs(char *__restrict, const wchar_t *__restrict, size_t);

#endif

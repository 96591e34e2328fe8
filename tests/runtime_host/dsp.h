/* dsp.h: the runtime's functions as the host test sees them. The runtime is
 * built for the host (-m32) and every symbol gets the prefix dsp_ (objcopy
 * --prefix-symbols), so it links next to glibc; these declarations name
 * the prefixed symbols. Streams are opaque (void *). */
#ifndef DSP_H
#define DSP_H

#include <stdarg.h>
#include <stddef.h>

typedef unsigned dsize; /* size_t of the runtime: unsigned int, like -m32 */

int dsp_printf(const char *, ...);
int dsp_fprintf(void *, const char *, ...);
int dsp_sprintf(char *, const char *, ...);
int dsp_snprintf(char *, dsize, const char *, ...);
int dsp_vsnprintf(char *, dsize, const char *, va_list);
int dsp_vsprintf(char *, const char *, va_list);
int dsp_vprintf(const char *, va_list);
int dsp_vfprintf(void *, const char *, va_list);
int dsp_dprintf(int, const char *, ...);
int dsp_sscanf(const char *, const char *, ...);
int dsp_puts(const char *);
int dsp_putchar(int);
int dsp_fputs(const char *, void *);
int dsp_fputc(int, void *);
int dsp_putc(int, void *);
dsize dsp_fwrite(const void *, dsize, dsize, void *);
int dsp_fflush(void *);
int dsp_getchar(void);
int dsp_fgetc(void *);
int dsp_ungetc(int, void *);
char *dsp_fgets(char *, int, void *);
dsize dsp_fread(void *, dsize, dsize, void *);
int dsp_feof(void *);
int dsp_ferror(void *);
int dsp_setvbuf(void *, char *, int, dsize);
void dsp_perror(const char *);
extern void *dsp_stdout, *dsp_stderr, *dsp_stdin;

void *dsp_memcpy(void *, const void *, dsize);
void *dsp_memmove(void *, const void *, dsize);
void *dsp_memset(void *, int, dsize);
int dsp_memcmp(const void *, const void *, dsize);
void *dsp_memchr(const void *, int, dsize);
dsize dsp_strlen(const char *);
char *dsp_strcpy(char *, const char *);
char *dsp_strncpy(char *, const char *, dsize);
char *dsp_strcat(char *, const char *);
char *dsp_strncat(char *, const char *, dsize);
int dsp_strcmp(const char *, const char *);
int dsp_strncmp(const char *, const char *, dsize);
char *dsp_strchr(const char *, int);
char *dsp_strrchr(const char *, int);
char *dsp_strstr(const char *, const char *);
char *dsp_strdup(const char *);
char *dsp_strndup(const char *, dsize);
dsize dsp_strspn(const char *, const char *);
dsize dsp_strcspn(const char *, const char *);
char *dsp_strpbrk(const char *, const char *);
char *dsp_strtok(char *, const char *);
char *dsp_strerror(int);
int dsp_strcasecmp(const char *, const char *);

int dsp_isalnum(int), dsp_isalpha(int), dsp_isblank(int), dsp_iscntrl(int), dsp_isdigit(int),
    dsp_isgraph(int), dsp_islower(int), dsp_isprint(int), dsp_ispunct(int), dsp_isspace(int),
    dsp_isupper(int), dsp_isxdigit(int), dsp_tolower(int), dsp_toupper(int);

void *dsp_malloc(dsize);
void *dsp_calloc(dsize, dsize);
void *dsp_realloc(void *, dsize);
void dsp_free(void *);
int dsp_posix_memalign(void **, dsize, dsize);
void *dsp_memalign(dsize, dsize);
void *dsp_aligned_alloc(dsize, dsize);
void dsp_qsort(void *, dsize, dsize, int (*)(const void *, const void *));
void *dsp_bsearch(const void *, const void *, dsize, dsize, int (*)(const void *, const void *));
long dsp_strtol(const char *, char **, int);
unsigned long dsp_strtoul(const char *, char **, int);
long long dsp_strtoll(const char *, char **, int);
unsigned long long dsp_strtoull(const char *, char **, int);
double dsp_strtod(const char *, char **);
float dsp_strtof(const char *, char **);
int dsp_atoi(const char *);
long dsp_atol(const char *);
long long dsp_atoll(const char *);
double dsp_atof(const char *);
int dsp_rand(void);
void dsp_srand(unsigned);
int dsp_rand_r(unsigned *);
int dsp_abs(int);
long dsp_labs(long);
long long dsp_llabs(long long);
int dsp_atexit(void (*)(void));
void dsp_exit(int);
void dsp_abort(void);
void dsp___assert_fail(const char *, const char *, unsigned, const char *);
char *dsp_getenv(const char *);
extern int dsp_errno;

long dsp_clock(void);
long dsp_time(long *);

/* The shim (shim.c): captured output, input, exit. */
struct shim_stream {
    char *buf;
    size_t len, cap;
    int writes; /* number of write calls */
};
extern struct shim_stream shim_out[3];
void shim_reset_output(void);
void shim_set_input(const char *data, size_t len);
extern int shim_exit_armed, shim_exit_status;
#include <setjmp.h>
extern jmp_buf shim_exit_jmp;

#endif

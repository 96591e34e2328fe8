/* shim.c: the host side of the runtime's system calls for tests: writes
 * to fd 1 and 2 are captured in memory, reads come from a test-provided
 * buffer, the cycle counter advances 1000 per call, exit returns to the
 * test through longjmp, and the heap is a 32 MiB array. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsp.h"

struct shim_stream shim_out[3];
static const char *input;
static size_t input_len, input_pos;
static unsigned long long cycles;
int shim_exit_armed, shim_exit_status;
jmp_buf shim_exit_jmp;

__asm__(".bss\n"
        ".globl dsp___heap_start\n"
        ".globl dsp___heap_end\n"
        ".balign 64\n"
        "dsp___heap_start:\n"
        ".skip 33554432\n"
        "dsp___heap_end:\n"
        ".text\n");

void shim_reset_output(void)
{
    for (int i = 0; i < 3; i++) {
        shim_out[i].len = 0;
        shim_out[i].writes = 0;
    }
}

void shim_set_input(const char *data, size_t len)
{
    input = data;
    input_len = len;
    input_pos = 0;
}

int dsp___dsp_write(int fd, const void *buf, unsigned len)
{
    if (fd != 1 && fd != 2)
        return -1;
    struct shim_stream *s = &shim_out[fd];
    if (s->len + len + 1 > s->cap) {
        s->cap = (s->len + len + 1) * 2;
        s->buf = realloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->len, buf, len);
    s->len += len;
    s->buf[s->len] = 0;
    s->writes++;
    return (int)len;
}

int dsp___dsp_read(int fd, void *buf, unsigned len)
{
    if (fd != 0)
        return -1;
    size_t k = input_len - input_pos;
    if (k > len)
        k = len;
    memcpy(buf, input + input_pos, k);
    input_pos += k;
    return (int)k;
}

unsigned long long dsp___dsp_cycles(void)
{
    return cycles += 1000;
}

void dsp___dsp_exit(int status)
{
    if (shim_exit_armed) {
        shim_exit_armed = 0;
        shim_exit_status = status;
        longjmp(shim_exit_jmp, 1);
    }
    _exit(status);
}

/* The hosted-file and environment calls: no files on the test host. */
#define SHIM_NOSYS(name) \
    long dsp___dsp_##name(void) { return -38; }
SHIM_NOSYS(open)
SHIM_NOSYS(close)
SHIM_NOSYS(lseek)
SHIM_NOSYS(unlink)
SHIM_NOSYS(rename)
SHIM_NOSYS(stat)
SHIM_NOSYS(fstat)
SHIM_NOSYS(lstat)
SHIM_NOSYS(isatty)
SHIM_NOSYS(access)
SHIM_NOSYS(opendir)
SHIM_NOSYS(readdir)
SHIM_NOSYS(mkdir)
SHIM_NOSYS(rmdir)
SHIM_NOSYS(host_time)
SHIM_NOSYS(getcwd)
SHIM_NOSYS(ftruncate)

/* exit.c: program termination: exit (atexit handlers in reverse order, then
 * the stdio buffers, then __dsp_exit), _Exit/_exit (no handlers, no
 * flushing), abort (raise(SIGABRT); like glibc it flushes nothing and the
 * status is 128 + SIGABRT = 134) and the assert failure message. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "stdio_impl.h"
#include "syscalls.h"

#define MAX_HANDLERS 64

static void (*handlers[MAX_HANDLERS])(void);
static int nhandlers;

int atexit(void (*f)(void))
{
    if (nhandlers == MAX_HANDLERS)
        return -1;
    handlers[nhandlers++] = f;
    return 0;
}

_Noreturn void exit(int status)
{
    while (nhandlers > 0)
        handlers[--nhandlers]();
    __dsp_flush_all();
    __dsp_exit(status);
}

_Noreturn void _Exit(int status)
{
    __dsp_exit(status);
}

_Noreturn void _exit(int status)
{
    __dsp_exit(status);
}

/* Ends the program as a SIGABRT would (also used by raise). */
_Noreturn void __dsp_abort_exit(void)
{
    __dsp_exit(128 + SIGABRT);
}

_Noreturn void abort(void)
{
    raise(SIGABRT);
    __dsp_abort_exit();
}

_Noreturn void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
    fprintf(stderr, "a.out: %s:%u: %s: Assertion `%s' failed.\n", file, line, func, expr);
    abort();
}

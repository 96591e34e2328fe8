/* ssp.c: the stack protector's guard and failure handler, for code built
 * with -fstack-protector[-strong|-all] (dsp-llc inserts the checks: see
 * llc/src/ssp.rs). The guard is a fixed terminator canary (a NUL, a line
 * feed and 0xff stop string copies); the failure prints glibc's message and
 * aborts (status 134, nothing flushed), as glibc does. */
#include <stdlib.h>
#include <unistd.h>

unsigned long __stack_chk_guard = 0xff0a0d00ul;

_Noreturn void __stack_chk_fail(void)
{
    static const char msg[] = "*** stack smashing detected ***: terminated\n";
    write(2, msg, sizeof msg - 1);
    abort();
}

_Noreturn void __stack_chk_fail_local(void)
{
    __stack_chk_fail();
}

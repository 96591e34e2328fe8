/* signal.c: signal() and raise() without asynchronous signals: raise calls
 * the recorded handler; the default action of every signal ends the
 * program with status 128 + N, SIG_IGN does nothing. */
#include <signal.h>

#include "syscalls.h"

static __sighandler_t handlers[NSIG];

__sighandler_t signal(int sig, __sighandler_t h)
{
    if (sig <= 0 || sig >= NSIG)
        return SIG_ERR;
    __sighandler_t old = handlers[sig];
    handlers[sig] = h;
    return old;
}

int raise(int sig)
{
    if (sig <= 0 || sig >= NSIG)
        return -1;
    __sighandler_t h = handlers[sig];
    if (h == SIG_IGN)
        return 0;
    if (h == SIG_DFL)
        __dsp_exit(128 + sig);
    handlers[sig] = SIG_DFL;
    h(sig);
    return 0;
}

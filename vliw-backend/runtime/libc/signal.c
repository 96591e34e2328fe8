/* signal.c: signal(), sigaction() and raise() without asynchronous signals:
 * raise (and kill of pid 0, 1 or -1: this program) calls the recorded
 * handler; the default action of a signal ends the program with status
 * 128 + N, except SIGCHLD, SIGURG and SIGWINCH (ignored) and SIGCONT;
 * SIG_IGN does nothing. Masks are recorded; nothing is ever pending. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "syscalls.h"

static struct sigaction actions[NSIG];
static sigset_t blocked;

static int bad(int sig)
{
    return sig <= 0 || sig >= NSIG;
}

__sighandler_t signal(int sig, __sighandler_t h)
{
    if (bad(sig) || sig == SIGKILL || sig == SIGSTOP) {
        errno = EINVAL;
        return SIG_ERR;
    }
    __sighandler_t old = actions[sig].sa_handler;
    memset(&actions[sig], 0, sizeof actions[sig]);
    actions[sig].sa_handler = h;
    actions[sig].sa_flags = SA_RESTART; /* BSD semantics, as glibc: the handler stays */
    return old;
}

int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old)
{
    if (bad(sig) || (act && (sig == SIGKILL || sig == SIGSTOP))) {
        errno = EINVAL;
        return -1;
    }
    if (old)
        *old = actions[sig];
    if (act)
        actions[sig] = *act;
    return 0;
}

int raise(int sig)
{
    if (bad(sig)) {
        errno = EINVAL;
        return -1;
    }
    struct sigaction a = actions[sig];
    if (a.sa_handler == SIG_IGN)
        return 0;
    if (a.sa_handler == SIG_DFL) {
        if (sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT)
            return 0;
        __dsp_exit(128 + sig);
    }
    if (a.sa_flags & SA_RESETHAND)
        actions[sig].sa_handler = SIG_DFL;
    if (a.sa_flags & SA_SIGINFO) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        info.si_signo = sig;
        info.si_pid = 1;
        a.sa_sigaction(sig, &info, 0);
    } else {
        a.sa_handler(sig);
    }
    return 0;
}

int kill(pid_t pid, int sig)
{
    if (pid != 0 && pid != 1 && pid != -1) {
        errno = ESRCH;
        return -1;
    }
    if (sig == 0)
        return 0;
    return raise(sig);
}

int sigemptyset(sigset_t *s) { *s = 0; return 0; }
int sigfillset(sigset_t *s) { *s = ~0ul; return 0; }

int sigaddset(sigset_t *s, int sig)
{
    if (bad(sig)) {
        errno = EINVAL;
        return -1;
    }
    *s |= 1ul << sig;
    return 0;
}

int sigdelset(sigset_t *s, int sig)
{
    if (bad(sig)) {
        errno = EINVAL;
        return -1;
    }
    *s &= ~(1ul << sig);
    return 0;
}

int sigismember(const sigset_t *s, int sig)
{
    if (bad(sig)) {
        errno = EINVAL;
        return -1;
    }
    return (*s >> sig) & 1;
}

int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old)
{
    if (old)
        *old = blocked;
    if (!set)
        return 0;
    switch (how) {
    case SIG_BLOCK:
        blocked |= *set;
        break;
    case SIG_UNBLOCK:
        blocked &= ~*set;
        break;
    case SIG_SETMASK:
        blocked = *set;
        break;
    default:
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int sigpending(sigset_t *s)
{
    *s = 0;
    return 0;
}

int sigsuspend(const sigset_t *s)
{
    (void)s;
    errno = ENOSYS;
    return -1;
}

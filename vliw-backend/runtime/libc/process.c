/* process.c: what a bare-metal DSP cannot do links and fails at run time:
 * no other processes (fork, exec*, wait, system), no dynamic loading
 * (dlopen), one core and no scheduler (sched_*), no timers (alarm), no MMU
 * (mmap and friends), no terminal or device control (ioctl: ENOTTY), no
 * changes to host file times (utime, utimes). */
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

static int nosys(void)
{
    errno = ENOSYS;
    return -1;
}

pid_t fork(void) { return nosys(); }
pid_t vfork(void) { return nosys(); }
int execv(const char *p, char *const a[]) { (void)p; (void)a; return nosys(); }
int execve(const char *p, char *const a[], char *const e[]) { (void)p; (void)a; (void)e; return nosys(); }
int execvp(const char *p, char *const a[]) { (void)p; (void)a; return nosys(); }
int execl(const char *p, const char *a, ...) { (void)p; (void)a; return nosys(); }
int execlp(const char *p, const char *a, ...) { (void)p; (void)a; return nosys(); }
int execle(const char *p, const char *a, ...) { (void)p; (void)a; return nosys(); }

pid_t wait(int *status)
{
    (void)status;
    errno = ECHILD;
    return -1;
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    (void)pid;
    (void)options;
    return wait(status);
}

/* No command processor: system(NULL) is 0, any command fails. */
int system(const char *cmd)
{
    if (cmd == NULL)
        return 0;
    return nosys();
}

static const char *dl_error;

void *dlopen(const char *file, int mode)
{
    (void)file;
    (void)mode;
    dl_error = "dlopen: dynamic loading is not supported on this static target";
    return NULL;
}

void *dlsym(void *restrict handle, const char *restrict name)
{
    (void)handle;
    (void)name;
    dl_error = "dlsym: dynamic loading is not supported on this static target";
    return NULL;
}

int dlclose(void *handle)
{
    (void)handle;
    dl_error = "dlclose: invalid handle";
    return -1;
}

char *dlerror(void)
{
    const char *e = dl_error;
    dl_error = NULL;
    return (char *)e;
}

int sched_yield(void) { return 0; }
int sched_get_priority_max(int p) { (void)p; return 0; }
int sched_get_priority_min(int p) { (void)p; return 0; }
int sched_getscheduler(pid_t pid) { (void)pid; return SCHED_OTHER; }
int sched_setscheduler(pid_t pid, int p, const struct sched_param *s) { (void)pid; (void)p; (void)s; return nosys(); }

int sched_getparam(pid_t pid, struct sched_param *s)
{
    (void)pid;
    s->sched_priority = 0;
    return 0;
}

int sched_setparam(pid_t pid, const struct sched_param *s) { (void)pid; (void)s; return nosys(); }

unsigned alarm(unsigned s)
{
    (void)s;
    return 0;
}

int pause(void) { return nosys(); }

void *mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
    (void)a; (void)n; (void)prot; (void)flags; (void)fd; (void)off;
    errno = ENOSYS;
    return MAP_FAILED;
}

void *mremap(void *a, size_t n, size_t m, int flags, ...)
{
    (void)a; (void)n; (void)m; (void)flags;
    errno = ENOSYS;
    return MAP_FAILED;
}

int munmap(void *a, size_t n) { (void)a; (void)n; return nosys(); }
int mprotect(void *a, size_t n, int p) { (void)a; (void)n; (void)p; return nosys(); }
int msync(void *a, size_t n, int f) { (void)a; (void)n; (void)f; return nosys(); }
int madvise(void *a, size_t n, int f) { (void)a; (void)n; (void)f; return nosys(); }
int utime(const char *p, const struct utimbuf *t) { (void)p; (void)t; return nosys(); }
int utimes(const char *p, const struct timeval t[2]) { (void)p; (void)t; return nosys(); }

int ioctl(int fd, unsigned long req, ...)
{
    (void)fd; (void)req;
    errno = ENOTTY;
    return -1;
}

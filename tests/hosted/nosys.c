/* What a bare-metal DSP cannot do links and fails at run time. */
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <pwd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

static int got;
static void on_usr1(int sig) { got = sig; }

int main(void)
{
    int r = (int)fork();
    printf("fork %d errno %d\n", r, errno);
    r = execv("/bin/sh", NULL);
    printf("execv %d errno %d\n", r, errno);
    FILE *p = popen("ls", "r");
    printf("popen %p errno %d\n", (void *)p, errno);
    int fds[2];
    r = pipe(fds);
    printf("pipe %d errno %d\n", r, errno);
    r = (int)waitpid(-1, NULL, 0);
    printf("waitpid %d errno %d\n", r, errno);
    printf("system(NULL) %d\n", system(NULL));
    void *h = dlopen("libm.so", RTLD_NOW);
    printf("dlopen %p: %s\n", h, dlerror());
    printf("sched_yield %d nprocs %ld\n", sched_yield(), sysconf(_SC_NPROCESSORS_ONLN));
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    printf("sigaction %d\n", sigaction(SIGUSR1, &sa, NULL));
    r = kill(getpid(), SIGUSR1);
    printf("kill self %d got %d\n", r, got);
    struct rusage ru;
    printf("getrusage %d\n", getrusage(RUSAGE_SELF, &ru));
    /* What the SQLite shell and others include: no MMU, no devices, no users. */
    void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap failed %d errno %d munmap %d\n", m == MAP_FAILED, errno, munmap(m, 4096));
    struct winsize ws;
    r = ioctl(1, TIOCGWINSZ, &ws);
    printf("ioctl %d errno %d\n", r, errno);
    r = utime("x", NULL);
    printf("utime %d errno %d\n", r, errno);
    r = utimes("x", NULL);
    printf("utimes %d errno %d\n", r, errno);
    r = fchown(1, 0, 0);
    printf("fchown %d errno %d\n", r, errno);
    struct passwd pw, *res = &pw;
    char buf[64];
    pthread_t t;
    printf("pthread_create %d pthread_join %d\n", pthread_create(&t, NULL, NULL, NULL), pthread_join(t, NULL));
    printf("getpwuid %p getpwnam %p getpwuid_r %d %p\n", (void *)getpwuid(getuid()), (void *)getpwnam("root"),
           getpwuid_r(0, &pw, buf, sizeof buf, &res), (void *)res);
    return 0;
}

/* unistd.c: POSIX I/O on the simulator's file descriptors 0, 1 and 2. */
#include <errno.h>
#include <unistd.h>

#include "syscalls.h"

ssize_t write(int fd, const void *buf, size_t n)
{
    int r = __dsp_write(fd, buf, (unsigned)n);
    if (r < 0) {
        errno = EBADF;
        return -1;
    }
    return r;
}

ssize_t read(int fd, void *buf, size_t n)
{
    int r = __dsp_read(fd, buf, (unsigned)n);
    if (r < 0) {
        errno = EBADF;
        return -1;
    }
    return r;
}

int isatty(int fd)
{
    (void)fd;
    errno = ENOTTY;
    return 0;
}

int close(int fd)
{
    (void)fd;
    return 0;
}

pid_t getpid(void)
{
    return 1;
}

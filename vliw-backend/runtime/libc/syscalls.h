/* syscalls.h: the system-call wrappers of sys/syscalls.s (internal). */
#ifndef _DSP_SYSCALLS_H
#define _DSP_SYSCALLS_H

#include <errno.h>

_Noreturn void __dsp_exit(int status);
int __dsp_write(int fd, const void *buf, unsigned len);
int __dsp_read(int fd, void *buf, unsigned len);
unsigned long long __dsp_cycles(void);
void *__dsp_args(void *top);
int __dsp_open(const char *path, int flags, int mode);
int __dsp_close(int fd);
long __dsp_lseek(int fd, long off, int whence);
int __dsp_unlink(const char *path);
int __dsp_rename(const char *from, const char *to);
int __dsp_stat(const char *path, void *record);
int __dsp_fstat(int fd, void *record);
int __dsp_isatty(int fd);
int __dsp_access(const char *path, int mode);
int __dsp_opendir(const char *path);
int __dsp_readdir(int fd, void *buf, unsigned len);
int __dsp_mkdir(const char *path, int mode);
int __dsp_rmdir(const char *path);
int __dsp_host_time(void *buf);
int __dsp_getcwd(char *buf, unsigned len);
int __dsp_ftruncate(int fd, long len);
int __dsp_lstat(const char *path, void *record);

/* The result of a call that returns -errno on failure: sets errno and gives -1. */
static inline long __dsp_ret(long r)
{
    if (r < 0 && r > -4096) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

/* The 80-byte record of calls 10, 11 and 21 (sim/src/host.rs, stat_record). */
struct __dsp_stat_record {
    unsigned dev, ino, mode, nlink, uid, gid, rdev, blksize;
    long long size, atime, mtime, ctime;
    unsigned blocks, atime_nsec, mtime_nsec, ctime_nsec;
};

#endif

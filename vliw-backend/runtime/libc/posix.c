/* posix.c: POSIX file calls on the simulator's hosted files (open, close,
 * read, write, lseek, unlink, rename, stat ..., confined by dsp-sim to its
 * root directory), process and system queries with fixed answers (one
 * process, pid 1, user 0, one processor, no user database: getpwuid and
 * friends find nobody), and the calls a bare-metal DSP cannot serve, which
 * fail with ENOSYS. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "syscalls.h"

int open(const char *path, int flags, ...)
{
    int mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    return (int)__dsp_ret(__dsp_open(path, flags, mode));
}

int creat(const char *path, mode_t mode)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

static int fd_flags[256]; /* F_SETFL/F_SETFD values, as recorded */

int fcntl(int fd, int cmd, ...)
{
    if (fd < 0 || fd >= 256) {
        errno = EBADF;
        return -1;
    }
    va_list ap;
    va_start(ap, cmd);
    int arg = va_arg(ap, int);
    va_end(ap);
    switch (cmd) {
    case F_GETFL:
    case F_GETFD:
        return fd_flags[fd];
    case F_SETFL:
    case F_SETFD:
        fd_flags[fd] = arg;
        return 0;
    case F_GETLK:
    case F_SETLK:
    case F_SETLKW:
        return 0; /* one process: every lock is granted */
    default:
        errno = ENOSYS;
        return -1;
    }
}

ssize_t write(int fd, const void *buf, size_t n)
{
    return __dsp_ret(__dsp_write(fd, buf, (unsigned)n));
}

ssize_t read(int fd, void *buf, size_t n)
{
    return __dsp_ret(__dsp_read(fd, buf, (unsigned)n));
}

int close(int fd)
{
    return (int)__dsp_ret(__dsp_close(fd));
}

off_t lseek(int fd, off_t off, int whence)
{
    return __dsp_ret(__dsp_lseek(fd, off, whence));
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    off_t was = lseek(fd, 0, SEEK_CUR);
    if (was < 0 || lseek(fd, off, SEEK_SET) < 0)
        return -1;
    ssize_t r = read(fd, buf, n);
    lseek(fd, was, SEEK_SET);
    return r;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    off_t was = lseek(fd, 0, SEEK_CUR);
    if (was < 0 || lseek(fd, off, SEEK_SET) < 0)
        return -1;
    ssize_t r = write(fd, buf, n);
    lseek(fd, was, SEEK_SET);
    return r;
}

int unlink(const char *path) { return (int)__dsp_ret(__dsp_unlink(path)); }
int rmdir(const char *path) { return (int)__dsp_ret(__dsp_rmdir(path)); }
int access(const char *path, int mode) { return (int)__dsp_ret(__dsp_access(path, mode)); }
int ftruncate(int fd, off_t len) { return (int)__dsp_ret(__dsp_ftruncate(fd, len)); }

int mkdir(const char *path, mode_t mode)
{
    return (int)__dsp_ret(__dsp_mkdir(path, (int)mode));
}

int truncate(const char *path, off_t len)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    int r = ftruncate(fd, len);
    close(fd);
    return r;
}

int isatty(int fd)
{
    int r = __dsp_isatty(fd);
    if (r < 0) {
        errno = -r;
        return 0;
    }
    if (r == 0)
        errno = ENOTTY;
    return r;
}

static void to_stat(const struct __dsp_stat_record *r, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_dev = r->dev;
    st->st_ino = r->ino;
    st->st_mode = r->mode;
    st->st_nlink = r->nlink;
    st->st_uid = r->uid;
    st->st_gid = r->gid;
    st->st_rdev = r->rdev;
    st->st_size = (off_t)r->size;
    st->st_blksize = (blksize_t)r->blksize;
    st->st_blocks = (blkcnt_t)r->blocks;
    st->st_atim.tv_sec = (time_t)r->atime;
    st->st_atim.tv_nsec = (long)r->atime_nsec;
    st->st_mtim.tv_sec = (time_t)r->mtime;
    st->st_mtim.tv_nsec = (long)r->mtime_nsec;
    st->st_ctim.tv_sec = (time_t)r->ctime;
    st->st_ctim.tv_nsec = (long)r->ctime_nsec;
}

/* A file of 2 GiB or more does not fit off_t: EOVERFLOW, as 32-bit glibc. */
static int finish_stat(int r, const struct __dsp_stat_record *rec, struct stat *st)
{
    if (__dsp_ret(r) < 0)
        return -1;
    if (rec->size > 0x7fffffffLL) {
        errno = EOVERFLOW;
        return -1;
    }
    to_stat(rec, st);
    return 0;
}

int stat(const char *restrict path, struct stat *restrict st)
{
    struct __dsp_stat_record rec;
    return finish_stat(__dsp_stat(path, &rec), &rec, st);
}

int lstat(const char *restrict path, struct stat *restrict st)
{
    struct __dsp_stat_record rec;
    return finish_stat(__dsp_lstat(path, &rec), &rec, st);
}

int fstat(int fd, struct stat *st)
{
    struct __dsp_stat_record rec;
    return finish_stat(__dsp_fstat(fd, &rec), &rec, st);
}

char *getcwd(char *buf, size_t size)
{
    static char own[4096];
    char *out = buf ? buf : own;
    unsigned cap = buf ? (unsigned)size : sizeof own;
    if (buf && size == 0) {
        errno = EINVAL;
        return NULL;
    }
    return __dsp_ret(__dsp_getcwd(out, cap)) < 0 ? NULL : out;
}

/* The working directory is the root; chdir only accepts it. */
int chdir(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    if (strcmp(path, ".") != 0 && strcmp(path, "./") != 0) {
        errno = ENOSYS;
        return -1;
    }
    return 0;
}

static mode_t cmask = 022;
mode_t umask(mode_t m)
{
    mode_t old = cmask;
    cmask = m & 0777;
    return old;
}

static int nosys(void)
{
    errno = ENOSYS;
    return -1;
}

int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
int fchdir(int fd) { (void)fd; return nosys(); }
int dup(int fd) { (void)fd; return nosys(); }
int dup2(int a, int b) { (void)a; (void)b; return nosys(); }
int pipe(int fds[2]) { (void)fds; return nosys(); }
int link(const char *a, const char *b) { (void)a; (void)b; return nosys(); }
int symlink(const char *a, const char *b) { (void)a; (void)b; return nosys(); }
ssize_t readlink(const char *restrict p, char *restrict b, size_t n) { (void)p; (void)b; (void)n; return nosys(); }
int chown(const char *p, uid_t u, gid_t g) { (void)p; (void)u; (void)g; return nosys(); }
int chmod(const char *p, mode_t m) { (void)p; (void)m; return nosys(); }
int fchmod(int fd, mode_t m) { (void)fd; (void)m; return nosys(); }
int mkfifo(const char *p, mode_t m) { (void)p; (void)m; return nosys(); }
int fchown(int fd, uid_t u, gid_t g) { (void)fd; (void)u; (void)g; return nosys(); }
int lchown(const char *p, uid_t u, gid_t g) { (void)p; (void)u; (void)g; return nosys(); }
int setuid(uid_t u) { (void)u; return nosys(); }
int setgid(gid_t g) { (void)g; return nosys(); }
pid_t setsid(void) { return nosys(); }

pid_t getpid(void) { return 1; }
pid_t getppid(void) { return 0; }
pid_t getpgrp(void) { return 1; }
uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
int nice(int inc) { return inc; }

int gethostname(char *name, size_t len)
{
    const char *h = "dsp";
    if (len < strlen(h) + 1) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(name, h);
    return 0;
}

char *getlogin(void)
{
    errno = ENOSYS;
    return NULL;
}

long sysconf(int name)
{
    switch (name) {
    case _SC_ARG_MAX:
        return 131072;
    case _SC_CHILD_MAX:
        return 1;
    case _SC_CLK_TCK:
        return 100;
    case _SC_NGROUPS_MAX:
        return 0;
    case _SC_OPEN_MAX:
        return 256;
    case _SC_PAGESIZE:
        return 4096;
    case _SC_NPROCESSORS_CONF:
    case _SC_NPROCESSORS_ONLN:
        return 1;
    case _SC_LINE_MAX:
        return 2048;
    case _SC_HOST_NAME_MAX:
        return 64;
    default:
        errno = EINVAL;
        return -1;
    }
}

long pathconf(const char *p, int name)
{
    (void)p;
    return name == _PC_PATH_MAX ? 4096 : name == _PC_NAME_MAX ? 255 : -1;
}

long fpathconf(int fd, int name)
{
    (void)fd;
    return pathconf("", name);
}

int getpagesize(void) { return 4096; }

struct passwd *getpwuid(uid_t u) { (void)u; return NULL; }
struct passwd *getpwnam(const char *n) { (void)n; return NULL; }
struct passwd *getpwent(void) { return NULL; }
void setpwent(void) {}
void endpwent(void) {}

int getpwuid_r(uid_t u, struct passwd *pw, char *buf, size_t len, struct passwd **res)
{
    (void)u; (void)pw; (void)buf; (void)len;
    *res = NULL;
    return 0;
}

int getpwnam_r(const char *n, struct passwd *pw, char *buf, size_t len, struct passwd **res)
{
    (void)n; (void)pw; (void)buf; (void)len;
    *res = NULL;
    return 0;
}

/* unistd.h: POSIX calls. Files are the simulator's hosted files (confined to
 * its root directory); what a bare-metal DSP cannot do (fork, exec*, pipe,
 * dup, links, chdir out of the root ...) is declared, links, and fails at
 * run time with ENOSYS. Sleeps only advance the program's clock. */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif

#define _POSIX_VERSION 200809L
#define _POSIX2_VERSION 200809L

#define _SC_ARG_MAX 0
#define _SC_CHILD_MAX 1
#define _SC_CLK_TCK 2
#define _SC_NGROUPS_MAX 3
#define _SC_OPEN_MAX 4
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84
#define _SC_PHYS_PAGES 85
#define _SC_LINE_MAX 43
#define _SC_HOST_NAME_MAX 180

#define _PC_PATH_MAX 4
#define _PC_NAME_MAX 3

extern char **environ;
extern char *optarg;
extern int optind, opterr, optopt;

ssize_t write(int, const void *, size_t);
ssize_t read(int, void *, size_t);
ssize_t pread(int, void *, size_t, off_t);
ssize_t pwrite(int, const void *, size_t, off_t);
int close(int);
off_t lseek(int, off_t, int);
int unlink(const char *);
int rmdir(const char *);
int access(const char *, int);
int isatty(int);
int ftruncate(int, off_t);
int truncate(const char *, off_t);
int fsync(int);
int fdatasync(int);
char *getcwd(char *, size_t);
int chdir(const char *);
int fchdir(int);
int dup(int);
int dup2(int, int);
int pipe(int[2]);
int link(const char *, const char *);
int symlink(const char *, const char *);
ssize_t readlink(const char *__restrict, char *__restrict, size_t);
int chown(const char *, uid_t, gid_t);

_Noreturn void _exit(int);
pid_t fork(void);
pid_t vfork(void);
int execv(const char *, char *const[]);
int execve(const char *, char *const[], char *const[]);
int execvp(const char *, char *const[]);
int execl(const char *, const char *, ...);
int execlp(const char *, const char *, ...);
int execle(const char *, const char *, ...);

unsigned sleep(unsigned);
int usleep(useconds_t);
unsigned alarm(unsigned);
int pause(void);

pid_t getpid(void);
pid_t getppid(void);
pid_t getpgrp(void);
pid_t setsid(void);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int setuid(uid_t);
int fchown(int, uid_t, gid_t);
int lchown(const char *, uid_t, gid_t);
int setgid(gid_t);
int gethostname(char *, size_t);
char *getlogin(void);
long sysconf(int);
long pathconf(const char *, int);
long fpathconf(int, int);
int getpagesize(void);
int getopt(int, char *const[], const char *);
int nice(int);

#endif

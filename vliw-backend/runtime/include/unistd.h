/* unistd.h: the few POSIX calls the simulator supports: write, read, _exit,
 * and sleeps that only advance the program's notion of time. */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

ssize_t write(int, const void *, size_t);
ssize_t read(int, void *, size_t);
_Noreturn void _exit(int);
unsigned sleep(unsigned);
int usleep(useconds_t);
int isatty(int);
int close(int);
pid_t getpid(void);

#endif

/* syscalls.h: the system-call wrappers of sys/syscalls.s (internal). */
#ifndef _DSP_SYSCALLS_H
#define _DSP_SYSCALLS_H

_Noreturn void __dsp_exit(int status);
int __dsp_write(int fd, const void *buf, unsigned len);
int __dsp_read(int fd, void *buf, unsigned len);
unsigned long long __dsp_cycles(void);

#endif

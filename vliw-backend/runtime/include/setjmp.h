/* setjmp.h: non-local jumps (C11 7.13). jmp_buf holds the stack pointer, the
 * link register and the callee-saved registers of ABI.md (runtime/sys/setjmp.s
 * lays it out: 32-bit registers, then 64-bit ones at byte 80; no vector
 * register is callee-saved). */
#ifndef _SETJMP_H
#define _SETJMP_H

typedef long long jmp_buf[18] __attribute__((__aligned__(8)));
typedef jmp_buf sigjmp_buf;

int setjmp(jmp_buf) __attribute__((__returns_twice__));
_Noreturn void longjmp(jmp_buf, int);
int _setjmp(jmp_buf) __attribute__((__returns_twice__));
_Noreturn void _longjmp(jmp_buf, int);
#define sigsetjmp(env, savemask) setjmp(env)
#define siglongjmp(env, val) longjmp(env, val)

#endif

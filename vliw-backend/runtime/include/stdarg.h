/* stdarg.h: variable arguments (C11 7.16), through the compiler's builtins.
 * On the DSP va_list is a char * walking the stack argument area (ABI.md). */
#ifndef _STDARG_H
#define _STDARG_H

#ifndef __DSP_VA_LIST
#define __DSP_VA_LIST
typedef __builtin_va_list va_list;
#endif
typedef __builtin_va_list __gnuc_va_list;

#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(dst, src) __builtin_va_copy(dst, src)
#define __va_copy(dst, src) __builtin_va_copy(dst, src)

#endif

/* stddef.h: common definitions (C11 7.19) for the DSP's ILP32 ABI. */
#ifndef _STDDEF_H
#define _STDDEF_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#ifndef __DSP_PTRDIFF_T
#define __DSP_PTRDIFF_T
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#ifndef __cplusplus
#ifndef __DSP_WCHAR_T
#define __DSP_WCHAR_T
typedef __WCHAR_TYPE__ wchar_t;
#endif
#endif

/* The most strictly aligned scalar: 8 bytes (long long, double). */
typedef struct {
    long long __ll __attribute__((__aligned__(8)));
    double __d __attribute__((__aligned__(8)));
} max_align_t;

#ifndef NULL
#define NULL ((void *)0)
#endif

#define offsetof(type, member) __builtin_offsetof(type, member)

#endif

/* builtins.h: types of the compiler support routines (compiler-rt's names). */
#ifndef _DSP_BUILTINS_H
#define _DSP_BUILTINS_H

typedef int si_int;
typedef unsigned int su_int;
typedef long long di_int;
typedef unsigned long long du_int;

/* A 64-bit value as two 32-bit halves (little-endian). */
typedef union {
    du_int all;
    struct {
        su_int low;
        su_int high;
    } s;
} dwords;

typedef union {
    float f;
    su_int u;
} fbits;

typedef union {
    double f;
    du_int u;
} dbits;

#endif

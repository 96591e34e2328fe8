/* complex.h: C99 complex types (arithmetic through the compiler and the
 * runtime's __mulsc3/__muldc3/__divsc3/__divdc3, builtins/complex.c).
 * creal, cimag and conj are the compiler's builtins; the transcendental
 * complex functions (cexp, cabs, ...) are not provided. */
#ifndef _COMPLEX_H
#define _COMPLEX_H

#define complex _Complex
#define _Complex_I (__extension__ 1.0fi)
#define I _Complex_I

#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#define CMPLXL(x, y) __builtin_complex((long double)(x), (long double)(y))

#define creal(z) __builtin_creal(z)
#define cimag(z) __builtin_cimag(z)
#define conj(z) __builtin_conj(z)
#define crealf(z) __builtin_crealf(z)
#define cimagf(z) __builtin_cimagf(z)
#define conjf(z) __builtin_conjf(z)
#define creall(z) __builtin_creall(z)
#define cimagl(z) __builtin_cimagl(z)
#define conjl(z) __builtin_conjl(z)

#endif

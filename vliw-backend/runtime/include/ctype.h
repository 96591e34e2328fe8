/* ctype.h: character classification in the "C" locale (C11 7.4). Bytes
 * outside ASCII belong to no class, as in glibc's C locale. */
#ifndef _CTYPE_H
#define _CTYPE_H

int isalnum(int);
int isalpha(int);
int isblank(int);
int iscntrl(int);
int isdigit(int);
int isgraph(int);
int islower(int);
int isprint(int);
int ispunct(int);
int isspace(int);
int isupper(int);
int isxdigit(int);
int isascii(int);
int toascii(int);
int tolower(int);
int toupper(int);

/* LLVM folds a call to isdigit into a 0/1 comparison; glibc returns its
 * class bit (2048), which programs may print. The macro keeps the call. */
int __dsp_isdigit(int);
#define isdigit(c) __dsp_isdigit(c)

#endif

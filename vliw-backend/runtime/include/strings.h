/* strings.h: POSIX string functions. */
#ifndef _STRINGS_H
#define _STRINGS_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif

int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, size_t);
int ffs(int);
void bzero(void *, size_t);
void bcopy(const void *, void *, size_t);
int bcmp(const void *, const void *, size_t);

#endif

/* string.h: string and memory functions (C11 7.24, plus common POSIX ones). */
#ifndef _STRING_H
#define _STRING_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

void *memcpy(void *__restrict, const void *__restrict, size_t);
void *memmove(void *, const void *, size_t);
void *memset(void *, int, size_t);
int memcmp(const void *, const void *, size_t);
void *memchr(const void *, int, size_t);
void *memrchr(const void *, int, size_t);
void *mempcpy(void *__restrict, const void *__restrict, size_t);
void *memccpy(void *__restrict, const void *__restrict, int, size_t);

size_t strlen(const char *);
size_t strnlen(const char *, size_t);
char *strcpy(char *__restrict, const char *__restrict);
char *strncpy(char *__restrict, const char *__restrict, size_t);
char *stpcpy(char *__restrict, const char *__restrict);
char *stpncpy(char *__restrict, const char *__restrict, size_t);
char *strcat(char *__restrict, const char *__restrict);
char *strncat(char *__restrict, const char *__restrict, size_t);
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, size_t);
int strcoll(const char *, const char *);
size_t strxfrm(char *__restrict, const char *__restrict, size_t);
char *strchr(const char *, int);
char *strrchr(const char *, int);
char *strchrnul(const char *, int);
char *strstr(const char *, const char *);
char *strdup(const char *);
char *strndup(const char *, size_t);
size_t strspn(const char *, const char *);
size_t strcspn(const char *, const char *);
char *strpbrk(const char *, const char *);
char *strtok(char *__restrict, const char *__restrict);
char *strtok_r(char *__restrict, const char *__restrict, char **__restrict);
char *strsep(char **__restrict, const char *__restrict);
char *strerror(int);
int strerror_r(int, char *, size_t);
int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, size_t);

#endif

/* dlfcn.h: no dynamic loading on a static target: dlopen returns NULL and
 * dlerror says why. */
#ifndef _DLFCN_H
#define _DLFCN_H

#define RTLD_LAZY 1
#define RTLD_NOW 2
#define RTLD_GLOBAL 0x100
#define RTLD_LOCAL 0
#define RTLD_DEFAULT ((void *)0)
#define RTLD_NEXT ((void *)-1)

void *dlopen(const char *, int);
void *dlsym(void *__restrict, const char *__restrict);
int dlclose(void *);
char *dlerror(void);

#endif

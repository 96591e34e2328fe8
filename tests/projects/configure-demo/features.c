/* features.c: prints what configure found and uses it. */
#include "config.h"

#include <stdio.h>

long probe_files(void);

int main(void)
{
    printf("sizeof(long) %d, sizeof(void *) %d, sizeof(off_t) %d\n", SIZEOF_LONG, SIZEOF_VOID_P, SIZEOF_OFF_T);
#ifdef WORDS_BIGENDIAN
    printf("big endian\n");
#else
    printf("little endian\n");
#endif
#if defined(HAVE_FCNTL_H) && defined(HAVE_SYS_RESOURCE_H) && defined(HAVE_SCHED_H) && defined(HAVE_MALLOC_H) && defined(HAVE_DIRENT_H) && defined(HAVE_DLFCN_H)
    printf("POSIX headers: all\n");
#endif
#if defined(HAVE_OPEN) && defined(HAVE_GETLINE) && defined(HAVE_CLOCK_GETTIME) && defined(HAVE_SIGACTION) && defined(HAVE_FORK) && defined(HAVE_DLOPEN)
    printf("POSIX functions: all link\n");
#endif
    printf("temporary file: %ld bytes\n", probe_files());
    return 0;
}

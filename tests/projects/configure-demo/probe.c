/* probe.c: features used as configure found them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_UNISTD_H
#include <unistd.h>
#endif
#ifdef HAVE_FCNTL_H
#include <fcntl.h>
#endif
#ifdef HAVE_SYS_STAT_H
#include <sys/stat.h>
#endif

/* Writes a temporary file, reads it back and removes it: its size, or -1. */
long probe_files(void)
{
#if defined(HAVE_MKSTEMP) && defined(HAVE_FSTAT) && defined(HAVE_UNLINK)
    char name[] = "tmp.XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return -1;
    const char text[] = "configured\n";
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        return -1;
    struct stat st;
    long size = fstat(fd, &st) == 0 ? (long)st.st_size : -1;
    close(fd);
    FILE *f = fopen(name, "r");
    char line[32] = "";
    if (!f || !fgets(line, sizeof line, f) || strcmp(line, text) != 0)
        size = -1;
    if (f)
        fclose(f);
    unlink(name);
    return size;
#else
    return -1;
#endif
}

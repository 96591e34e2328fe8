/* dirent.c: directory listings through the simulator (system calls 14 and
 * 15: "." and "..", then the entries sorted by name). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscalls.h"

struct __dsp_dir {
    int fd;
    char path[4096];
    struct dirent ent;
};

DIR *opendir(const char *path)
{
    if (strlen(path) >= sizeof ((DIR *)0)->path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    int fd = (int)__dsp_ret(__dsp_opendir(path));
    if (fd < 0)
        return NULL;
    DIR *d = malloc(sizeof *d);
    if (!d) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    d->fd = fd;
    strcpy(d->path, path);
    return d;
}

DIR *fdopendir(int fd)
{
    (void)fd;
    errno = ENOSYS;
    return NULL;
}

struct dirent *readdir(DIR *d)
{
    /* u32 inode, u32 d_type, name, NUL */
    unsigned char rec[8 + 256];
    int n = __dsp_readdir(d->fd, rec, sizeof rec);
    if (n <= 0) {
        if (n < 0)
            errno = -n;
        return NULL;
    }
    unsigned ino, type;
    memcpy(&ino, rec, 4);
    memcpy(&type, rec + 4, 4);
    d->ent.d_ino = ino;
    d->ent.d_off = 0;
    d->ent.d_reclen = sizeof d->ent;
    d->ent.d_type = (unsigned char)type;
    memcpy(d->ent.d_name, rec + 8, (size_t)n);
    return &d->ent;
}

int readdir_r(DIR *restrict d, struct dirent *restrict e, struct dirent **restrict out)
{
    int saved = errno;
    errno = 0;
    struct dirent *r = readdir(d);
    if (!r && errno) {
        int e2 = errno;
        errno = saved;
        return e2;
    }
    errno = saved;
    if (r)
        *e = *r;
    *out = r ? e : NULL;
    return 0;
}

int closedir(DIR *d)
{
    int r = close(d->fd);
    free(d);
    return r;
}

void rewinddir(DIR *d)
{
    close(d->fd);
    d->fd = (int)__dsp_ret(__dsp_opendir(d->path));
}

int dirfd(DIR *d)
{
    return d->fd;
}

/* utime.h: setting a file's access and modification times. The simulator
 * does not change host file times: utime fails with ENOSYS. */
#ifndef _UTIME_H
#define _UTIME_H

#include <sys/types.h>

struct utimbuf {
    time_t actime;
    time_t modtime;
};

int utime(const char *, const struct utimbuf *);

#endif

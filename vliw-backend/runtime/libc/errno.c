/* errno.c: errno and the glibc texts of strerror/strerror_r/perror for the
 * error numbers of errno.h ("Unknown error N" for the others). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#undef errno
int errno;

static const struct {
    int num;
    const char *text;
} messages[] = {
    {0, "Success"},
    {1, "Operation not permitted"},
    {2, "No such file or directory"},
    {3, "No such process"},
    {4, "Interrupted system call"},
    {5, "Input/output error"},
    {6, "No such device or address"},
    {7, "Argument list too long"},
    {8, "Exec format error"},
    {9, "Bad file descriptor"},
    {10, "No child processes"},
    {11, "Resource temporarily unavailable"},
    {12, "Cannot allocate memory"},
    {13, "Permission denied"},
    {14, "Bad address"},
    {15, "Block device required"},
    {16, "Device or resource busy"},
    {17, "File exists"},
    {18, "Invalid cross-device link"},
    {19, "No such device"},
    {20, "Not a directory"},
    {21, "Is a directory"},
    {22, "Invalid argument"},
    {23, "Too many open files in system"},
    {24, "Too many open files"},
    {25, "Inappropriate ioctl for device"},
    {26, "Text file busy"},
    {27, "File too large"},
    {28, "No space left on device"},
    {29, "Illegal seek"},
    {30, "Read-only file system"},
    {31, "Too many links"},
    {32, "Broken pipe"},
    {33, "Numerical argument out of domain"},
    {34, "Numerical result out of range"},
    {35, "Resource deadlock avoided"},
    {36, "File name too long"},
    {37, "No locks available"},
    {38, "Function not implemented"},
    {39, "Directory not empty"},
    {40, "Too many levels of symbolic links"},
    {42, "No message of desired type"},
    {60, "Device not a stream"},
    {61, "No data available"},
    {62, "Timer expired"},
    {67, "Link has been severed"},
    {71, "Protocol error"},
    {74, "Bad message"},
    {75, "Value too large for defined data type"},
    {84, "Invalid or incomplete multibyte or wide character"},
    {87, "Too many users"},
    {88, "Socket operation on non-socket"},
    {89, "Destination address required"},
    {90, "Message too long"},
    {91, "Protocol wrong type for socket"},
    {92, "Protocol not available"},
    {93, "Protocol not supported"},
    {95, "Operation not supported"},
    {97, "Address family not supported by protocol"},
    {98, "Address already in use"},
    {99, "Cannot assign requested address"},
    {100, "Network is down"},
    {101, "Network is unreachable"},
    {103, "Software caused connection abort"},
    {104, "Connection reset by peer"},
    {105, "No buffer space available"},
    {106, "Transport endpoint is already connected"},
    {107, "Transport endpoint is not connected"},
    {110, "Connection timed out"},
    {111, "Connection refused"},
    {113, "No route to host"},
    {114, "Operation already in progress"},
    {115, "Operation now in progress"},
    {116, "Stale file handle"},
    {122, "Disk quota exceeded"},
    {125, "Operation canceled"},
    {130, "Owner died"},
    {131, "State not recoverable"},
};

static char unknown[32];

static const char *lookup(int n)
{
    for (unsigned i = 0; i < sizeof messages / sizeof messages[0]; i++)
        if (messages[i].num == n)
            return messages[i].text;
    return NULL;
}

char *strerror(int n)
{
    const char *t = lookup(n);
    if (t)
        return (char *)t;
    snprintf(unknown, sizeof unknown, "Unknown error %d", n);
    return unknown;
}

int strerror_r(int n, char *buf, size_t len)
{
    const char *t = lookup(n);
    char tmp[32];
    if (!t) {
        snprintf(tmp, sizeof tmp, "Unknown error %d", n);
        t = tmp;
    }
    size_t l = strlen(t);
    if (len == 0)
        return ERANGE;
    if (l >= len) {
        memcpy(buf, t, len - 1);
        buf[len - 1] = 0;
        return ERANGE;
    }
    memcpy(buf, t, l + 1);
    return t == tmp ? EINVAL : 0;
}

/* Attempts to leave dsp-sim's root directory: each must fail with EACCES
 * (or ENOENT where nothing exists inside). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void try_open(const char *path, int flags)
{
    errno = 0;
    int fd = open(path, flags, 0644);
    printf("open %s: %s\n", path, fd >= 0 ? "OPENED" : strerror(errno));
    if (fd >= 0)
        close(fd);
}

int main(int argc, char **argv)
{
    const char *outside = argc > 1 ? argv[1] : "/etc/passwd";
    try_open("../outside.txt", O_RDONLY);
    try_open("../created.txt", O_WRONLY | O_CREAT);
    try_open("sub/../../outside.txt", O_RDONLY);
    try_open(outside, O_RDONLY);
    try_open("/etc/passwd", O_RDONLY);
    try_open("link_out", O_RDONLY);
    try_open("link_out", O_WRONLY | O_TRUNC);
    try_open("dir_link/outside.txt", O_RDONLY);
    try_open("dangling", O_WRONLY | O_CREAT);
    try_open("inside.txt", O_RDONLY);
    try_open("link_in", O_RDONLY);
    struct stat st;
    errno = 0;
    printf("stat ..: %d %s\n", stat("..", &st), strerror(errno));
    errno = 0;
    printf("rename out: %d %s\n", rename("inside.txt", "../moved.txt"), strerror(errno));
    errno = 0;
    printf("unlink out: %d %s\n", unlink("../outside.txt"), strerror(errno));
    errno = 0;
    printf("mkdir out: %d %s\n", mkdir("../newdir", 0755), strerror(errno));
    return 0;
}

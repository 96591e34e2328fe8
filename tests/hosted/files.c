/* File I/O on the working directory: stdio and POSIX calls, errors included. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *input = argc > 1 ? argv[1] : "input.txt";
    FILE *in = fopen(input, "r");
    if (!in) {
        perror(input);
        return 2;
    }
    char line[128];
    int n = 0;
    long sum = 0;
    while (fgets(line, sizeof line, in)) {
        n++;
        sum += strtol(line, NULL, 10);
    }
    printf("%d lines, sum %ld, eof %d\n", n, sum, feof(in));
    fclose(in);

    FILE *f = fopen("out.txt", "w+");
    for (int i = 0; i < 1000; i++)
        fprintf(f, "%d,", i * i);
    printf("ftell after writing %ld\n", ftell(f));
    fseek(f, 10, SEEK_SET);
    int c = fgetc(f);
    printf("byte 10 '%c', ftell %ld\n", c, ftell(f));
    fseek(f, -4, SEEK_END);
    printf("last 4: ");
    while ((c = fgetc(f)) != EOF)
        putchar(c);
    printf(", eof %d\n", feof(f));
    fseek(f, 0, SEEK_SET);
    fputs("XY", f);
    fseek(f, 0, SEEK_SET);
    fread(line, 1, 6, f);
    line[6] = 0;
    printf("rewritten start %s\n", line);
    fclose(f);

    struct stat st;
    int r = stat("out.txt", &st);
    printf("stat %d size %ld regular %d dir %d\n", r, (long)st.st_size, S_ISREG(st.st_mode), S_ISDIR(st.st_mode));
    errno = 0;
    r = stat("missing.txt", &st);
    printf("stat missing %d errno %d\n", r, errno);
    FILE *none = fopen("missing.txt", "r");
    printf("fopen missing %p errno %d %s\n", (void *)none, errno, strerror(errno));

    int fd = open("raw.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
    unsigned char bytes[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = (unsigned char)i;
    printf("write %zd\n", write(fd, bytes, sizeof bytes));
    printf("lseek %ld\n", (long)lseek(fd, 100, SEEK_SET));
    unsigned char back[8];
    ssize_t got = read(fd, back, sizeof back);
    printf("read %zd first %d\n", got, back[0]);
    r = fstat(fd, &st);
    printf("fstat %d size %ld\n", r, (long)st.st_size);
    r = open("raw.bin", O_WRONLY | O_CREAT | O_EXCL, 0644);
    printf("excl %d errno %d\n", r, errno);
    r = close(fd);
    int r2 = close(fd);
    printf("close %d, again %d errno %d\n", r, r2, errno);
    printf("isatty(fd of a file) %d\n", isatty(open("raw.bin", O_RDONLY)));

    FILE *a = fopen("log.txt", "a");
    fputs("one\n", a);
    fclose(a);
    a = fopen("log.txt", "a");
    fputs("two\n", a);
    fclose(a);
    a = fopen("log.txt", "r");
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, a)) > 0)
        printf("log line (%zd) %s", len, buf);
    fclose(a);
    free(buf);

    printf("mkdir %d\n", mkdir("sub", 0755));
    printf("rename %d\n", rename("log.txt", "sub/log2.txt"));
    r = access("log.txt", F_OK);
    r2 = access("sub/log2.txt", R_OK);
    printf("access old %d new %d\n", r, r2);
    r = rmdir("sub");
    printf("rmdir nonempty %d errno %d\n", r, errno);
    r = remove("sub/log2.txt");
    r2 = remove("sub");
    printf("remove %d %d\n", r, r2);

    DIR *d = opendir(".");
    char *names[64];
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)) && k < 64)
        if (e->d_name[0] != '.')
            names[k++] = strdup(e->d_name);
    closedir(d);
    qsort(names, k, sizeof names[0], cmp);
    for (int i = 0; i < k; i++)
        printf("entry %s\n", names[i]);

    char tmpl[] = "tmp.XXXXXX";
    int t = mkstemp(tmpl);
    printf("mkstemp %d suffix changed %d\n", t >= 0, strcmp(tmpl, "tmp.XXXXXX") != 0);
    close(t);
    unlink(tmpl);
    FILE *tf = tmpfile();
    fputs("tmp", tf);
    rewind(tf);
    printf("tmpfile reads %c\n", fgetc(tf));
    fclose(tf);
    r = unlink("out.txt");
    r2 = unlink("raw.bin");
    int r3 = unlink("out.txt");
    printf("unlink %d %d missing %d errno %d\n", r, r2, r3, errno);
    return 0;
}

/* interactive.c: a prompt-and-answer program. Each prompt is flushed before
 * the read (as interactive programs do); with "order" as argument it writes
 * to stdout and stderr alternately, flushing stdout, so that both streams
 * sent to one pipe show the order the program wrote them in. Without
 * flushes and on a terminal, stdout must be line-buffered (as with glibc):
 * "tty" writes a stdout line, then a stderr line, with no fflush. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "order") == 0) {
        for (int i = 0; i < 3; i++) {
            printf("out %d\n", i);
            fflush(stdout);
            fprintf(stderr, "err %d\n", i);
        }
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "tty") == 0) {
        printf("line on stdout\n");
        fprintf(stderr, "line on stderr\n");
        return 0;
    }
    char line[100];
    for (int n = 1;; n++) {
        printf("question %d? ", n);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            break;
        line[strcspn(line, "\n")] = 0;
        printf("answer %d: %s\n", n, line);
    }
    printf("bye\n");
    return 0;
}

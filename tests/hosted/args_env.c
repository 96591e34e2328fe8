/* argv and the environment: printed, then changed with setenv/unsetenv/putenv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv, char **envp)
{
    printf("argc %d\n", argc);
    for (int i = 1; i < argc; i++)
        printf("argv[%d] = \"%s\" (%zu)\n", i, argv[i], strlen(argv[i]));
    printf("argv[argc] %s\n", argv[argc] == NULL ? "NULL" : "set");
    printf("envp == environ: %d\n", envp == environ);
    const char *names[] = {"DSP_A", "DSP_EMPTY", "DSP_SPACES", "DSP_MISSING"};
    for (int i = 0; i < 4; i++) {
        const char *v = getenv(names[i]);
        printf("%s %s%s%s\n", names[i], v ? "= \"" : "unset", v ? v : "", v ? "\"" : "");
    }
    setenv("DSP_A", "changed", 0);
    printf("no overwrite: %s\n", getenv("DSP_A"));
    setenv("DSP_A", "changed", 1);
    printf("overwrite: %s\n", getenv("DSP_A"));
    setenv("DSP_NEW", "new", 1);
    static char put[] = "DSP_PUT=put";
    putenv(put);
    printf("new %s put %s\n", getenv("DSP_NEW"), getenv("DSP_PUT"));
    unsetenv("DSP_A");
    printf("after unset: %s\n", getenv("DSP_A") ? "set" : "unset");
    printf("setenv with '=': %d\n", setenv("A=B", "x", 1));
    int opt, count = 0;
    optind = 1;
    while ((opt = getopt(argc, argv, "ab:")) != -1) {
        if (opt == 'b')
            printf("option b with %s\n", optarg);
        else
            printf("option %c\n", opt);
        count++;
    }
    printf("%d options, first operand index %d\n", count, optind);
    return argc;
}

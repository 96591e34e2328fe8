#include <stdio.h>
#include "stats.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    struct stats st;
    if (parse_file(argv[1], &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    printf("%ld lines, %ld words, %ld chars, mean word %.2f\n", st.lines, st.words, st.chars, st.mean_len);
    return 0;
}

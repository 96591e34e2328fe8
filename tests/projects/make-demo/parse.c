#include <ctype.h>
#include <stdio.h>
#include "stats.h"

int parse_file(const char *path, struct stats *st)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int c, in_word = 0;
    long letters = 0;
    st->words = st->lines = st->chars = 0;
    while ((c = getc(f)) != EOF) {
        st->chars++;
        if (c == '\n')
            st->lines++;
        if (isalnum(c)) {
            letters++;
            if (!in_word)
                st->words++;
            in_word = 1;
        } else {
            in_word = 0;
        }
    }
    fclose(f);
    stats_finish(st, letters);
    return 0;
}

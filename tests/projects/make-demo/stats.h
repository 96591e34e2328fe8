#ifndef STATS_H
#define STATS_H
#include <stddef.h>

struct stats {
    long words, lines, chars;
    double mean_len;
};

int parse_file(const char *path, struct stats *st);
void stats_finish(struct stats *st, long letters);
#endif

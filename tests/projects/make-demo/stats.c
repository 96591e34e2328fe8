#include <math.h>
#include "stats.h"

void stats_finish(struct stats *st, long letters)
{
    st->mean_len = st->words ? (double)letters / (double)st->words : 0.0;
    st->mean_len = floor(st->mean_len * 100.0 + 0.5) / 100.0;
}

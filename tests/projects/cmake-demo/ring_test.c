#include <stdio.h>
#include <stdlib.h>
#include "ring.h"

/* Pushes 1..n through a ring of 16, popping when full: prints the sum. */
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    struct ring r = {{0}, 0, 0};
    long sum = 0;
    int v;
    for (int i = 1; i <= n; i++) {
        if (r.count == RING_CAP && ring_pop(&r, &v))
            sum += v;
        ring_push(&r, i);
    }
    while (ring_pop(&r, &v))
        sum += v;
    printf("sum %ld\n", sum);
    return 0;
}

/* Runaway recursion (issue 14): dsp-sim stops it at the first frame below
 * the stack, before the heap, .bss or .data is touched. `guard` in .bss
 * would be overwritten long before the stack reached .text. */
#include <stdio.h>

int guard[64];

static int recurse(volatile int *up, int n) {
    volatile int frame[16];
    frame[n & 15] = n;
    return recurse(frame, n + 1) + frame[(n + 3) & 15] + *up;
}

int main(int argc, char **argv) {
    int seed = argc;
    guard[0] = 42;
    printf("recursing\n");
    (void)argv;
    return recurse(&seed, 0);
}

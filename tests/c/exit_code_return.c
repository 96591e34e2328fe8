// exit_code_return: main returns a non-zero status (3) after printing; the status must reach the caller.
// expect-exit: 3
#include <stdio.h>

int inputs[] = {4, 9, 16, 25, 36, 49, 64, 81, 100, 121};

static int is_square(int v) {
    int r = 0;
    while (r * r < v)
        r++;
    return r * r == v;
}
static int classify(int v) {
    if (v % 2 == 0)
        return 1;
    if (v % 3 == 0)
        return 2;
    return 0;
}

int main(void) {
    int squares = 0, evens = 0, threes = 0, others = 0;
    for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        int v = inputs[i];
        squares += is_square(v);
        switch (classify(v)) {
        case 1: evens++; break;
        case 2: threes++; break;
        default: others++; break;
        }
    }
    printf("squares %d evens %d threes %d others %d\n", squares, evens, threes, others);
    int status = (squares == 10) + (evens == 5) + (threes == 2) - (others == 0);
    printf("returning %d\n", status);
    /* The output above is line-buffered or flushed at exit either way. */
    printf("no newline at the end of this line");
    return status;
}

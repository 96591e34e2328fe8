// exit_nested: exit() called from a nested function with pending output and atexit handlers (run in reverse order).
// expect-exit: 5
#include <stdio.h>
#include <stdlib.h>

int depth_reached;

static void handler_a(void) { printf("atexit handler a (registered first, runs last)\n"); }
static void handler_b(void) { printf("atexit handler b, depth %d\n", depth_reached); }
static void handler_c(void) { fprintf(stderr, "atexit handler c writes to stderr\n"); }

static int search(int depth, int target) {
    depth_reached = depth;
    if (depth > 100)
        return -1;
    if (depth == target) {
        printf("target depth %d reached, exiting with %d", depth, depth - 2);
        exit(depth - 2);
    }
    int r = search(depth + 1, target);
    printf("never printed %d\n", r);
    return r;
}

int main(void) {
    if (atexit(handler_a) != 0 || atexit(handler_b) != 0 || atexit(handler_c) != 0)
        return 100;
    printf("starting search\n");
    for (int i = 0; i < 3; i++)
        printf("iteration %d\n", i);
    search(0, 7);
    printf("not reached\n");
    return 0;
}

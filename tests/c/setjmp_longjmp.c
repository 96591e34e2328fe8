// setjmp_longjmp: non-local exits with setjmp/longjmp: error unwinding through nested calls, retry loops, return values.
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static jmp_buf retry_env;
int depth_log[16];

static void fail_at(int depth, int where, int code) {
    if (depth >= 15)
        return;
    depth_log[depth] = depth * 10;
    if (depth == where)
        longjmp(env, code);
    fail_at(depth + 1, where, code);
    depth_log[depth] = -1; /* never reached when we jump */
}
static int safe_div(int a, int b) {
    if (b == 0)
        longjmp(env, 99);
    return a / b;
}
static int checked_sum(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] < 0)
            longjmp(env, 1000 + i);
        s += v[i];
    }
    return s;
}

int main(void) {
    for (volatile int where = 0; where < 5; where++) {
        int rc = setjmp(env);
        if (rc == 0) {
            fail_at(0, where, where + 1);
            printf("not reached\n");
        } else {
            printf("jumped from depth %d with %d, log %d %d\n", where, rc, depth_log[0], depth_log[where]);
        }
    }
    /* longjmp(env, 0) makes setjmp return 1. */
    volatile int zero_seen = 0;
    if (setjmp(env) == 0) {
        zero_seen = 1;
        longjmp(env, 0);
    } else {
        printf("longjmp with 0 returned nonzero, zero_seen %d\n", zero_seen);
    }
    int dens[] = {5, 0, -3, 0, 2};
    for (volatile int i = 0; i < 5; i++) {
        int rc = setjmp(env);
        if (rc == 0)
            printf("100/%d = %d\n", dens[i], safe_div(100, dens[i]));
        else
            printf("100/%d failed (%d)\n", dens[i], rc);
    }
    int data[] = {3, 4, 5, -1, 7};
    int rc = setjmp(env);
    if (rc == 0)
        printf("sum %d\n", checked_sum(data, 3));
    rc = setjmp(env);
    if (rc == 0)
        printf("sum %d\n", checked_sum(data, 5));
    else
        printf("negative at index %d\n", rc - 1000);
    /* A retry loop: volatile locals keep their values across the jump. */
    volatile int attempts = 0;
    volatile double backoff = 1.0;
    if (setjmp(retry_env) != 0) {
        backoff = backoff * 1.5;
    }
    attempts = attempts + 1;
    if (attempts < 6)
        longjmp(retry_env, attempts);
    printf("attempts %d backoff %g\n", attempts, backoff);
    /* Nested setjmp buffers: the inner handler rethrows to the outer one. */
    jmp_buf outer;
    volatile int stage = 0;
    if (setjmp(outer) == 0) {
        stage = 1;
        if (setjmp(env) == 0) {
            stage = 2;
            longjmp(env, 5);
        } else {
            stage = 3;
            longjmp(outer, 7);
        }
    } else {
        printf("outer caught, stage %d\n", stage);
    }
    return 0;
}

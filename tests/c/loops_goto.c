// loops_goto: loops built with goto, breaking out of nested loops, and goto-based cleanup paths.
#include <stdio.h>
#include <stdlib.h>

int grid[6][7];

static int find_in_grid(int target, int *ri, int *ci) {
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 7; c++)
            if (grid[r][c] == target) {
                *ri = r;
                *ci = c;
                goto found;
            }
    return 0;
found:
    return 1;
}
/* Resource acquisition with a single cleanup exit. */
static int process(int n, int fail_at) {
    int rc = -1;
    int *a = malloc((size_t)n * sizeof *a);
    if (!a)
        goto out;
    int *b = malloc((size_t)n * sizeof *b);
    if (!b)
        goto free_a;
    for (int i = 0; i < n; i++) {
        if (i == fail_at)
            goto free_b;
        a[i] = i * i;
        b[i] = a[i] - i;
    }
    rc = 0;
    for (int i = 0; i < n; i++)
        rc += b[i];
free_b:
    free(b);
free_a:
    free(a);
out:
    return rc;
}

int main(void) {
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 7; c++)
            grid[r][c] = (r * 7 + c) * 5 % 43;
    int targets[] = {0, 17, 42, 44, 5};
    for (int t = 0; t < 5; t++) {
        int r = -1, c = -1;
        int ok = find_in_grid(targets[t], &r, &c);
        printf("find %d: %d at (%d,%d)\n", targets[t], ok, r, c);
    }
    /* A counting loop written with goto. */
    int i = 0, s = 0;
loop:
    if (i < 10) {
        s += i * 3;
        i++;
        goto loop;
    }
    printf("goto loop sum %d\n", s);
    /* Backward goto with a retry counter. */
    int attempts = 0;
    unsigned state = 12345u;
retry:
    attempts++;
    state = state * 1103515245u + 12345u;
    if ((state >> 16) % 5 != 0 && attempts < 50)
        goto retry;
    printf("attempts %d state %u\n", attempts, state);
    /* Breaking out of three nested loops. */
    int hits = 0, fi = -1, fj = -1, fk = -1;
    for (int a = 1; a < 20; a++)
        for (int b = a; b < 20; b++)
            for (int c = b; c < 30; c++) {
                if (a * a + b * b == c * c) {
                    hits++;
                    if (hits == 4) {
                        fi = a;
                        fj = b;
                        fk = c;
                        goto done;
                    }
                }
            }
done:
    printf("4th pythagorean triple %d %d %d\n", fi, fj, fk);
    printf("process: %d %d %d\n", process(10, -1), process(10, 3), process(100, 1000));
    /* goto into the middle of a sequence to skip the first step (a loop rotation). */
    int v = 1, steps = 0;
    goto middle;
top:
    v *= 3;
middle:
    v += 1;
    steps++;
    if (v < 1000)
        goto top;
    printf("rotated loop v %d steps %d\n", v, steps);
    return 0;
}

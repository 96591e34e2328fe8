// pointer_to_pointer: double pointers, arrays of pointers, output parameters and in-place pointer updates.
#include <stdio.h>
#include <stdlib.h>

static void swap_ptr(int **a, int **b) {
    int *t = *a;
    *a = *b;
    *b = t;
}
static int parse_int(const char **cursor) {
    const char *s = *cursor;
    int sign = 1, v = 0;
    while (*s == ' ')
        s++;
    if (*s == '-') {
        sign = -1;
        s++;
    }
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    *cursor = s;
    return sign * v;
}
static void minmax(const int *a, int n, int *mn, int *mx) {
    *mn = *mx = a[0];
    for (int i = 1; i < n; i++) {
        if (a[i] < *mn) *mn = a[i];
        if (a[i] > *mx) *mx = a[i];
    }
}
static int **make_matrix(int rows, int cols) {
    int **m = malloc((size_t)rows * sizeof *m);
    if (!m)
        return NULL;
    for (int i = 0; i < rows; i++) {
        m[i] = malloc((size_t)cols * sizeof **m);
        for (int j = 0; j < cols; j++)
            m[i][j] = (i + 1) * (j + 2);
    }
    return m;
}

int main(void) {
    int x = 1, y = 2;
    int *px = &x, *py = &y;
    int **ppx = &px;
    swap_ptr(&px, &py);
    **ppx += 10; /* px now points at y */
    printf("x %d y %d *px %d *py %d\n", x, y, *px, *py);
    const char *input = "12 -7 300 42 -1000 5";
    const char *cur = input;
    int vals[6];
    for (int i = 0; i < 6; i++)
        vals[i] = parse_int(&cur);
    int mn, mx;
    minmax(vals, 6, &mn, &mx);
    printf("parsed %d %d %d %d %d %d min %d max %d rest '%s'\n", vals[0], vals[1], vals[2], vals[3], vals[4], vals[5],
           mn, mx, cur);
    int **m = make_matrix(4, 3);
    if (!m)
        return 1;
    swap_ptr(&m[0], &m[3]); /* swapping rows is a pointer swap */
    for (int i = 0; i < 4; i++)
        printf("row %d: %d %d %d\n", i, m[i][0], m[i][1], m[i][2]);
    int ***pm = &m;
    (*pm)[1][2] = -1;
    printf("m[1][2] %d\n", m[1][2]);
    for (int i = 0; i < 4; i++)
        free(m[i]);
    free(m);
    /* A NULL-terminated array of strings, walked with a char **. */
    const char *names[] = {"ada", "grace", "edsger", "barbara", NULL};
    int total = 0;
    for (const char **n = names; *n; n++) {
        const char *s = *n;
        while (*s)
            total += *s++;
    }
    printf("name char total %d\n", total);
    /* Linked pointers through an array of pointers. */
    int a[5] = {10, 20, 30, 40, 50};
    int *ptrs[5];
    for (int i = 0; i < 5; i++)
        ptrs[i] = &a[4 - i];
    for (int i = 0; i < 5; i++)
        *ptrs[i] += i;
    printf("a: %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
    return 0;
}

// pointer_arith: pointer arithmetic, differences, comparisons and walking arrays of several element types.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int ints[20];
double doubles[10];
short shorts[16];
char text[] = "pointer arithmetic on a DSP";

static int *find(int *begin, int *end, int v) {
    for (int *p = begin; p != end; p++)
        if (*p == v)
            return p;
    return end;
}
static void reverse(short *lo, short *hi) {
    while (lo < hi) {
        short t = *lo;
        *lo++ = *--hi;
        *hi = t;
    }
}
static size_t my_strlen(const char *s) {
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

int main(void) {
    for (int i = 0; i < 20; i++)
        ints[i] = i * i - 3 * i;
    for (int i = 0; i < 10; i++)
        doubles[i] = i / 4.0;
    for (int i = 0; i < 16; i++)
        shorts[i] = (short)(i * 100 - 700);
    int *end = ints + 20;
    int *hit = find(ints, end, 40);
    printf("found 40 at index %d, 99 %s\n", (int)(hit - ints), find(ints, end, 99) == end ? "missing" : "found");
    int *p = &ints[5], *q = &ints[15];
    printf("q-p %d p<q %d *(p+3) %d p[-2] %d q[-10]==*p %d\n", (int)(q - p), p < q, *(p + 3), p[-2], q[-10] == *p);
    ptrdiff_t d = &doubles[9] - &doubles[2];
    printf("double diff %d value %g\n", (int)d, *(doubles + d));
    /* Byte distance via char pointers. */
    printf("byte distances: int %d double %d short %d\n", (int)((char *)q - (char *)p),
           (int)((char *)&doubles[3] - (char *)&doubles[1]), (int)((char *)&shorts[7] - (char *)shorts));
    reverse(shorts, shorts + 16);
    for (int i = 0; i < 16; i += 3)
        printf("shorts[%d]=%d ", i, shorts[i]);
    printf("\n");
    printf("strlen %u, last char '%c', middle '%s'\n", (unsigned)my_strlen(text), *(text + my_strlen(text) - 1),
           text + 8);
    /* Strided walk with a pointer step. */
    long sum = 0;
    for (int *r = ints; r < ints + 20; r += 3)
        sum += *r;
    printf("stride-3 sum %ld\n", sum);
    /* Pointer to array and pointer into 2D array. */
    int grid[4][5];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            grid[i][j] = i * 10 + j;
    int (*row)[5] = grid + 2;
    int *flat = &grid[0][0];
    printf("row[0][3]=%d row[1][0]=%d flat[13]=%d flat[19]=%d\n", (*row)[3], row[1][0], flat[13], flat[19]);
    /* uintptr_t round trip and alignment checks. */
    uintptr_t u = (uintptr_t)&doubles[3];
    double *back = (double *)u;
    printf("round trip %d aligned4 %d\n", back == &doubles[3], (int)(u % 4 == 0));
    /* Walking backwards with a pointer one past the end. */
    int count = 0;
    for (int *r = end; r != ints;) {
        --r;
        if (*r % 2 == 0)
            count++;
    }
    printf("even values %d\n", count);
    const char *words[] = {"alpha", "beta", "gamma", "delta"};
    const char **w = words;
    printf("%s %s %c %c\n", *w, *(w + 2), **(w + 1), *(*(w + 3) + 2));
    return 0;
}

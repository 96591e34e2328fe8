/* rt_stdio.c: streams on the DSP against the host: more than one stdout
 * block, puts/fputs/putchar return values, stderr, fwrite, scanf of a
 * string, then an abort that loses the unflushed part of stdout (exit 134,
 * as glibc). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    for (int i = 0; i < 700; i++)
        printf("line %d of a long output\n", i);
    int a = puts("puts");
    int b = fputs("fputs\n", stdout);
    int c = putchar('\n');
    printf("%d %d %d\n", a, b, c);
    fprintf(stderr, "stderr line\n");
    fwrite("fwrite\n", 1, 7, stdout);
    int x = 0, y = 0;
    char w[16] = "";
    int n = sscanf("12 0x1f word", "%d %i %15s", &x, &y, w);
    printf("sscanf %d %d %d %s\n", n, x, y, w);
    fflush(stdout);
    printf("this line is lost when the program aborts\n");
    assert(x == 13);
    return 0;
}

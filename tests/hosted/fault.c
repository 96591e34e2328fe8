/* Buffered output, then a store through a null pointer: dsp-sim writes out
 * what the streams hold, then reports the fault (exit status 125). */
#include <stdio.h>

int main(void)
{
    FILE *f = fopen("partial.txt", "w");
    fputs("kept in the file\n", f);
    printf("buffered on stdout\n");
    setvbuf(stderr, NULL, _IOFBF, 0);
    fputs("unbuffered on stderr\n", stderr);
    volatile int *p = (int *)0;
    *p = 1;
    return 0;
}

/* ubsan.c: undefined behaviour caught by -fsanitize=undefined (the
 * runtime's libc/ubsan.c reports FILE:LINE:COL and the check on stderr and
 * goes on; with -fno-sanitize-recover or -fsanitize-trap it aborts). */
#include <stdio.h>

volatile int big = 2147483647;
volatile int shift = 33;
volatile int index_ = 5;
volatile int zero = 0;

int main(void)
{
    int a[4] = {1, 2, 3, 4};
    int sum = big + 1;
    printf("sum done\n");
    int sh = 1 << shift;
    printf("shift done\n");
    int x = a[index_];
    printf("end %d\n", (sum ^ sh ^ x ^ zero) != 12345);
    return 0;
}

// printf_int_formats: integer conversions %d %i %u %x %X %o with flags, widths, precisions and length modifiers.
#include <limits.h>
#include <stdio.h>

int ints[] = {0, 1, -1, 42, -42, 255, 65535, 123456, -987654, INT_MAX, INT_MIN};
long long lls[] = {0, -1, 1LL << 40, -(1LL << 40), LLONG_MAX, LLONG_MIN, 1000000000000000000LL};
/* Not a literal: the compiler warns that these flags are ignored, which is what is tested. */
const char *prec_vs_zero = "prec vs zero: [%08.3d] [%-08d] [%08.0d]\n";
unsigned us[] = {0u, 1u, 8u, 255u, 4096u, 0xdeadbeefu, UINT_MAX};

int main(void) {
    for (unsigned i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        int v = ints[i];
        printf("[%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.4d] [%-+8d] [%+08d]\n", v, v, v, v, v, v, v, v,
               v, v, v);
    }
    for (unsigned i = 0; i < sizeof us / sizeof us[0]; i++) {
        unsigned v = us[i];
        printf("[%u] [%x] [%X] [%o] [%#x] [%#X] [%#o] [%08x] [%-10x] [%.6x] [%#10.6x] [%#.0o]\n", v, v, v, v, v, v, v,
               v, v, v, v, v);
    }
    for (unsigned i = 0; i < sizeof lls / sizeof lls[0]; i++) {
        long long v = lls[i];
        unsigned long long u = (unsigned long long)v;
        printf("[%lld] [%22lld] [%-22lld|] [%+lld] [%llu] [%llx] [%#llo] [%020lld]\n", v, v, v, v, u, u, u, v);
    }
    long l = -123456789L;
    unsigned long ul = 3000000000UL;
    printf("long [%ld] [%12ld] [%lu] [%lx] [%li]\n", l, l, ul, ul, l);
    /* Zero with precision 0 prints nothing (but # with %o prints one zero). */
    printf("zero: [%.0d] [%5.0d] [%.0x] [%#.0x] [%#.0o] [%.0u]\n", 0, 0, 0u, 0u, 0u, 0u);
    /* Precision overrides the 0 flag. */
    printf(prec_vs_zero, 42, 42, 7);
    /* Widths and precisions from arguments, including negative width (left-justify). */
    for (int w = -8; w <= 8; w += 4)
        printf("star w=%d: [%*d] [%.*d] [%*.*x]\n", w, w, 123, w < 0 ? 0 : w, 45, w, 5, 0xabcu);
    /* Narrow arguments through the default promotions, with h/hh modifiers. */
    short sh = -1234;
    unsigned short ush = 60000;
    signed char sc = -100;
    unsigned char uc = 200;
    printf("short [%hd] [%hu] [%hx] char [%hhd] [%hhu] [%hhx]\n", sh, ush, ush, sc, uc, uc);
    /* Characters and the percent sign. */
    printf("chars [%c] [%3c] [%-3c] [%%]\n", 'A', 'b', 'c');
    /* A table aligned with widths. */
    const char *names[] = {"alpha", "beta", "gamma"};
    int vals[] = {7, -1200, 33};
    for (int i = 0; i < 3; i++)
        printf("|%-8s|%6d|%06x|%+4d|\n", names[i], vals[i], (unsigned)vals[i] & 0xffffffu, vals[i] % 100);
    int n = printf("count me %d\n", 12345);
    printf("printf returned %d\n", n);
    return 0;
}

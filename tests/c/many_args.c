// many_args: calls with more arguments than argument registers: mixed int, long long, float, double and pointer stack arguments.
#include <stdio.h>

static int sum12(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j + 11 * k + 12 * l;
}
static long long mixed_ll(int a, long long b, int c, long long d, int e, long long f, int g, long long h, int i,
                          long long j, int k, long long l) {
    return a + b * 2 + c + d * 3 + e + f * 5 + g + h * 7 + i + j * 11 + k + l * 13;
}
static double mixed_fp(float a, double b, float c, double d, float e, double f, float g, double h, float i, double j,
                       int k, double l) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10 + k * 11 + l * 12;
}
static void out_params(int n, int *p1, int *p2, int *p3, int *p4, int *p5, int *p6, int *p7, int *p8, int *p9,
                       long long *p10) {
    *p1 = n;
    *p2 = n * 2;
    *p3 = n * 3;
    *p4 = n * 4;
    *p5 = n * 5;
    *p6 = n * 6;
    *p7 = n * 7;
    *p8 = n * 8;
    *p9 = n * 9;
    *p10 = (long long)n << 40;
}
/* Small types on the stack: char and short arguments are extended. */
static int narrow(char a, short b, unsigned char c, unsigned short d, char e, short f, unsigned char g,
                  unsigned short h, char i, short j, signed char k, _Bool l) {
    return a + b + c + d + e + f + g + h + i + j + k + l;
}
/* Forwarding many arguments through another call changes their positions. */
static int forward(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) {
    return sum12(l, k, j, i, h, g, f, e, d, c, b, a) - sum12(a, b, c, d, e, f, g, h, i, j, k, l);
}
static double many_doubles(double a, double b, double c, double d, double e, double f, double g, double h, double i,
                           double j) {
    return ((a - b) * (c - d) + (e - f) * (g - h)) / (i - j);
}

int main(void) {
    printf("sum12 %d\n", sum12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    printf("sum12 neg %d\n", sum12(-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12));
    printf("mixed_ll %lld\n", mixed_ll(1, 1LL << 33, 2, -(1LL << 35), 3, 5LL, 4, 1LL << 40, 5, -7LL, 6, 123456789LL));
    printf("mixed_fp %.17g\n", mixed_fp(0.5f, 0.25, 1.5f, -2.0, 0.125f, 3.0, -1.0f, 1e-3, 2.0f, 1e3, 7, -0.5));
    int r[9];
    long long big;
    out_params(3, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7], &r[8], &big);
    printf("out:");
    for (int i = 0; i < 9; i++)
        printf(" %d", r[i]);
    printf(" %lld\n", big);
    printf("narrow %d\n", narrow(-1, -300, 200, 60000, 'A', 32767, 255, 1, -128, -32768, -5, 1));
    printf("forward %d\n", forward(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    printf("many doubles %.17g\n", many_doubles(1, 2, 3, 5, 8, 13, 21, 34, 55, 89));
    /* Calls in a loop with arguments computed from the loop variable. */
    long long acc = 0;
    for (int k = 0; k < 50; k++)
        acc += sum12(k, k + 1, k * 2, k - 3, k * k, 7, -k, k % 5, k / 3, k ^ 5, k & 6, k | 1) +
               mixed_ll(k, k, k, k, k, k, k, k, k, k, k, k);
    printf("loop acc %lld\n", acc);
    return 0;
}

// recursion_deep: deep recursion (thousands of frames), mutual recursion, Ackermann and recursion with big frames.
#include <stdio.h>

int depth_limit = 5000;

static long long sum_to(int n) { return n == 0 ? 0 : n + sum_to(n - 1); }
static int is_even(unsigned n);
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static unsigned ackermann(unsigned m, unsigned n) {
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
/* Each frame holds an array, so the stack grows by more than a few words per call. */
static int big_frame(int n, int seed) {
    int local[32];
    for (int i = 0; i < 32; i++)
        local[i] = seed + i * n;
    if (n == 0)
        return local[31];
    int below = big_frame(n - 1, local[n % 32] % 1000);
    return (below + local[(n * 7) % 32]) % 100003;
}
/* Recursion with many live values across the call (callee-saved registers). */
static double mixed(int n, double x, long long y, float z) {
    if (n == 0)
        return x + (double)y + z;
    double a = x * 0.5 + n;
    long long b = y * 3 - n;
    float c = z + 0.25f;
    double r = mixed(n - 1, a, b % 1000003, c);
    return r + a - (double)(b % 7) + c;
}
static int depth_reached(int n) {
    volatile int guard = n;
    if (n >= depth_limit)
        return guard;
    return depth_reached(n + 1);
}
static unsigned long long binom(unsigned n, unsigned k) {
    if (k == 0 || k == n)
        return 1;
    return binom(n - 1, k - 1) + binom(n - 1, k);
}

int main(void) {
    printf("sum_to(4000) = %lld\n", sum_to(4000));
    printf("is_even(3001) %d is_odd(3001) %d\n", is_even(3001), is_odd(3001));
    for (unsigned m = 0; m <= 2; m++)
        for (unsigned n = 0; n <= 4; n++)
            printf("A(%u,%u)=%u ", m, n, ackermann(m, n));
    printf("\nA(3,3)=%u\n", ackermann(3, 3));
    printf("big_frame(500) = %d\n", big_frame(500, 17));
    printf("mixed(200) = %.10g\n", mixed(200, 1.0, 12345, 0.5f));
    printf("depth reached %d\n", depth_reached(0));
    printf("binom(20,10) = %llu binom(24,3) = %llu\n", binom(20, 10), binom(24, 3));
    return 0;
}

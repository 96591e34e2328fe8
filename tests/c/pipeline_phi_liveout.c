// pipeline_phi_liveout: values a software-pipelined loop's header phis hold
// in its last iteration, read after the loop. LLVM turns `x >> 1` of the
// final `x = x << 1 | b` into the phi's value (the one before the last
// update); the pipeliner once left it in a register the last iteration
// overwrote (libm's digit-by-digit square root came out twice too large).
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) unsigned bits_but_last(const unsigned *a, int n) {
    unsigned x = 0;
    for (int i = 0; i < n; i++)
        x = (x << 1) | (a[i] & 1);
    return x >> 1;
}

__attribute__((noinline)) uint64_t bits64_but_last(const unsigned *a, int n) {
    uint64_t x = 0;
    for (int i = 0; i < n; i++)
        x = (x << 1) | (a[i] & 1);
    return x >> 1;
}

/* Two phis, distance 1 and 2: the previous Fibonacci number after the loop. */
__attribute__((noinline)) unsigned fib_prev(int n) {
    unsigned a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        unsigned c = a + b;
        a = b;
        b = c;
    }
    return a;
}

/* The running sum before the last element, and the last element. */
__attribute__((noinline)) int sum_but_last(const int *a, int n, int *last) {
    int s = 0, prev = 0, cur = 0;
    for (int i = 0; i < n; i++) {
        prev = s;
        cur = a[i];
        s += cur;
    }
    *last = cur;
    return prev;
}

unsigned u[64];
int v[64];

int main(void) {
    for (int i = 0; i < 64; i++) {
        u[i] = i * 7 + 3;
        v[i] = i * i - 50;
    }
    for (int n = 0; n <= 40; n += 3) {
        int last = 0;
        int s = sum_but_last(v, n, &last);
        printf("n=%2d %08x %016llx fib %u sum %d last %d\n", n, bits_but_last(u, n),
               (unsigned long long)bits64_but_last(u, n), fib_prev(n), s, last);
    }
    return 0;
}

// assert_pass: assert() with conditions that hold: nothing is printed by the asserts, the program runs to the end.
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

int table[10] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55};

static int fib(int n) {
    assert(n >= 0);
    int a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        int t = a + b;
        a = b;
        b = t;
    }
    return a;
}
static unsigned isqrt(unsigned v) {
    unsigned r = 0;
    while ((r + 1) * (r + 1) <= v)
        r++;
    assert(r * r <= v && (r + 1) * (r + 1) > v);
    return r;
}

int main(void) {
    int checked = 0;
    for (int i = 0; i < 10; i++) {
        assert(fib(i + 1) == table[i]);
        checked++;
    }
    assert(sizeof(int) == 4);
    assert(sizeof(long long) == 8);
    assert(sizeof(void *) == 4);
    assert(CHAR_BIT == 8);
    assert((char)-1 < 0); /* char is signed on both targets */
    assert(strcmp("abc", "abd") < 0);
    assert(1.0 / 3.0 != 0.333);
    for (unsigned v = 0; v < 2000; v += 7) {
        unsigned r = isqrt(v);
        assert(r <= v);
        checked++;
    }
    int *p = &table[3];
    assert(p - table == 3);
    assert(*p == 3 && p[1] == 5);
    /* An assert with side-effect-free, complex expressions. */
    assert(((0x12345678u >> 16) & 0xffu) == 0x34u);
    assert((-7) / 2 == -3 && (-7) % 2 == -1);
    printf("all %d checks passed\n", checked);
    return 0;
}

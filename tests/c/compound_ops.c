// compound_ops: compound assignment operators, pre/post increment, the comma operator and sequence points on many types.
#include <stdint.h>
#include <stdio.h>

int arr[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

int main(void) {
    int i = 10;
    i += 5;
    i -= 3;
    i *= 4;
    i /= 3;
    i %= 7;
    i <<= 4;
    i >>= 2;
    i &= 0x1f;
    i |= 0x40;
    i ^= 0x55;
    printf("int chain %d\n", i);
    unsigned u = 0xffffffffu;
    u += 2;
    u *= 0x10001u;
    u >>= 3;
    u ^= ~0u;
    printf("unsigned chain %u\n", u);
    long long ll = 1;
    for (int k = 0; k < 10; k++) {
        ll *= -3;
        ll += k;
        ll %= 1000000007LL;
    }
    printf("ll chain %lld\n", ll);
    double d = 1.0;
    d *= 3.5;
    d /= 7.0;
    d -= 0.125;
    d += 1e-3;
    printf("double chain %.17g\n", d);
    float f = 2.0f;
    f *= f;
    f -= 0.5f;
    f /= 3.0f;
    printf("float chain %.9g\n", (double)f);
    uint8_t b = 200;
    b += 100;
    b *= 3;
    b >>= 1;
    printf("u8 chain %u\n", b);
    int16_t s = 1000;
    s *= 30;
    s /= 7;
    printf("s16 chain %d\n", s);
    /* Pre and post increments in separate full expressions. */
    int x = 5;
    int y = x++;
    int z = ++x;
    int w = x--;
    int v = --x;
    printf("x %d y %d z %d w %d v %d\n", x, y, z, w, v);
    int *p = arr;
    int first = *p++;
    int second = *p;
    int third = *++p;
    (*p)++;
    ++*p;
    printf("first %d second %d third %d arr[2] %d\n", first, second, third, arr[2]);
    /* The comma operator evaluates left to right and yields the right operand. */
    int c = (x = 3, x += 2, x + 10);
    int loops = 0;
    for (int a = 0, bb = 10; a < bb; a += 2, bb--, loops++)
        ;
    printf("comma %d x %d loops %d\n", c, x, loops);
    /* Assignment expressions chained. */
    int q, r, t;
    q = r = t = 7;
    q += r *= t -= 2;
    printf("q %d r %d t %d\n", q, r, t);
    /* Compound assignment through array subscripts with side effects in the index only. */
    int idx = 0;
    for (int k = 0; k < 10; k++)
        arr[idx++ % 10] *= 2;
    int sum = 0;
    for (int k = 0; k < 10; k++)
        sum += arr[k];
    printf("arr sum %d idx %d\n", sum, idx);
    return 0;
}

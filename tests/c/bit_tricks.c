// bit_tricks: classic branch-free bit manipulation idioms on 32-bit values.
#include <stdint.h>
#include <stdio.h>

uint32_t xs[] = {0u, 1u, 6u, 7u, 8u, 12u, 100u, 1023u, 1024u, 65535u, 0x12345678u, 0x80000000u, 0xfffffffeu};
int32_t ys[] = {0, 1, -1, 5, -5, 1000, -1000, 2147483647, -2147483647};

static uint32_t next_pow2(uint32_t v) {
    v--;
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    return v + 1;
}
static uint32_t gray(uint32_t v) { return v ^ (v >> 1); }
static uint32_t ungray(uint32_t g) {
    for (uint32_t s = 1; s < 32; s <<= 1)
        g ^= g >> s;
    return g;
}
static uint32_t swap_nibbles(uint32_t v) { return ((v & 0x0f0f0f0fu) << 4) | ((v & 0xf0f0f0f0u) >> 4); }
static uint32_t interleave16(uint32_t x) {
    x &= 0xffffu;
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    x = (x | (x << 1)) & 0x55555555u;
    return x;
}
/* Branch-free absolute value and sign, for non-minimal ints. */
static int32_t abs_bits(int32_t v) {
    uint32_t mask = 0u - ((uint32_t)v >> 31);
    return (int32_t)(((uint32_t)v ^ mask) - mask);
}
static int sign_of(int32_t v) { return (v > 0) - (v < 0); }

int main(void) {
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        uint32_t v = xs[i];
        printf("%08x: low %08x clearlow %08x pow2? %d next %08x gray %08x ungray %08x nib %08x morton %08x\n", v,
               v & (0u - v), v & (v - 1), v && !(v & (v - 1)), next_pow2(v), gray(v), ungray(gray(v)),
               swap_nibbles(v), interleave16(v));
    }
    for (unsigned i = 0; i < sizeof ys / sizeof ys[0]; i++) {
        int32_t v = ys[i];
        printf("%d: abs %d sign %d even %d\n", v, abs_bits(v), sign_of(v), (v & 1) == 0);
    }
    /* Branch-free min/max through masks. */
    for (unsigned i = 0; i + 1 < sizeof ys / sizeof ys[0]; i++) {
        int32_t a = ys[i] / 2, b = ys[i + 1] / 2;
        int32_t diff = a - b;
        uint32_t m = 0u - ((uint32_t)diff >> 31); /* all ones when a < b */
        int32_t mn = (int32_t)(((uint32_t)b & ~m) | ((uint32_t)a & m));
        int32_t mx = (int32_t)(((uint32_t)a & ~m) | ((uint32_t)b & m));
        printf("min/max(%d,%d) = %d %d\n", a, b, mn, mx);
    }
    /* Enumerate all 5-bit subsets of 8 bits in increasing order (Gosper's hack). */
    uint32_t set = 0x1fu, count = 0, xorsum = 0;
    while (set < 0x100u) {
        xorsum ^= set * (count + 1);
        count++;
        uint32_t c = set & (0u - set), r = set + c;
        set = (((r ^ set) >> 2) / c) | r;
    }
    printf("gosper: %u subsets, xorsum %08x\n", count, xorsum);
    /* Bit sets: sieve of small primes in a bitmap. */
    uint32_t bits[8] = {0};
    for (unsigned p = 2; p < 256; p++)
        if (!(bits[p / 32] & (1u << (p % 32))))
            for (unsigned m = p * p; m < 256; m += p)
                bits[m / 32] |= 1u << (m % 32);
    unsigned primes = 0;
    for (unsigned p = 2; p < 256; p++)
        primes += !(bits[p / 32] >> (p % 32) & 1u);
    printf("primes below 256: %u\n", primes);
    return 0;
}

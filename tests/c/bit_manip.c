// bit_manip: population count, leading/trailing zeros, byte swaps (builtins) and rotates, 32 and 64 bit.
#include <stdint.h>
#include <stdio.h>

uint32_t w[] = {1u, 2u, 3u, 0x80000000u, 0xffffffffu, 0x12345678u, 0x00f00f00u, 0x7fffffffu, 0x55555555u};
uint64_t d[] = {1ull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x00000001ffffffffull, 0x0123456789abcdefull,
                0x100000000ull};

static uint32_t rotl32(uint32_t x, unsigned r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
static uint32_t rotr32(uint32_t x, unsigned r) { return (x >> (r & 31)) | (x << ((32 - r) & 31)); }
static uint64_t rotl64(uint64_t x, unsigned r) { return (x << (r & 63)) | (x >> ((64 - r) & 63)); }

static int popcount_loop(uint32_t x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

int main(void) {
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++) {
        uint32_t x = w[i];
        printf("%08x: pop %2d/%2d clz %2d ctz %2d parity %d bswap %08x rotl7 %08x rotr7 %08x rotl0 %08x\n", x,
               __builtin_popcount(x), popcount_loop(x), __builtin_clz(x), __builtin_ctz(x), __builtin_parity(x),
               __builtin_bswap32(x), rotl32(x, 7), rotr32(x, 7), rotl32(x, 0));
        uint16_t h = (uint16_t)x;
        printf("    bswap16 %04x ffs %d clrsb %d\n", __builtin_bswap16(h), __builtin_ffs((int)x),
               __builtin_clrsb((int)x));
    }
    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++) {
        uint64_t x = d[i];
        printf("%016llx: pop %2d clz %2d ctz %2d bswap %016llx rotl13 %016llx\n", (unsigned long long)x,
               __builtin_popcountll(x), __builtin_clzll(x), __builtin_ctzll(x),
               (unsigned long long)__builtin_bswap64(x), (unsigned long long)rotl64(x, 13));
    }
    /* Rotates by every amount, folded into a checksum. */
    uint32_t acc = 0;
    for (unsigned r = 0; r < 64; r++)
        acc ^= rotl32(0x9e3779b9u, r) + r;
    printf("rotate checksum %08x\n", acc);
    /* Bit-by-bit reverse and a log2 table. */
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++) {
        uint32_t x = w[i], rev = 0;
        for (int b = 0; b < 32; b++)
            rev |= ((x >> b) & 1u) << (31 - b);
        printf("rev %08x = %08x log2 %d\n", x, rev, 31 - __builtin_clz(x));
    }
    unsigned total = 0;
    for (uint32_t v = 1; v < 5000; v += 3)
        total += (unsigned)__builtin_popcount(v) * (unsigned)__builtin_ctz(v << 3);
    printf("total %u\n", total);
    return 0;
}

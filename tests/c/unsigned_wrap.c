// unsigned_wrap: modular (wrapping) arithmetic of unsigned 8-, 16-, 32- and 64-bit values.
#include <stdint.h>
#include <stdio.h>

uint32_t u32s[] = {0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu, 0x12345678u, 0xdeadbeefu};
uint64_t u64s[] = {0ull, 1ull, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull, 0xffffffffffffffffull,
                   0x0123456789abcdefull};
uint8_t u8s[] = {0, 1, 0x7f, 0x80, 0xfe, 0xff, 0x5a};
uint16_t u16s[] = {0, 1, 0x7fff, 0x8000, 0xfffe, 0xffff, 0x1234};

static uint32_t hash32(uint32_t h, uint32_t v) { return (h ^ v) * 16777619u; }
static uint64_t hash64(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

int main(void) {
    uint32_t h = 2166136261u;
    unsigned n32 = sizeof u32s / sizeof u32s[0];
    for (unsigned i = 0; i < n32; i++) {
        for (unsigned j = 0; j < n32; j++) {
            uint32_t a = u32s[i], b = u32s[j];
            uint32_t s = a + b, d = a - b, p = a * b;
            h = hash32(hash32(hash32(h, s), d), p);
            if (i == j || j == n32 - 1 - i)
                printf("u32 %08x %08x: add %08x sub %08x mul %08x neg %08x\n", a, b, s, d, p, 0u - a);
        }
    }
    printf("u32 hash %08x\n", h);

    uint64_t h64 = 14695981039346656037ull;
    unsigned n64 = sizeof u64s / sizeof u64s[0];
    for (unsigned i = 0; i < n64; i++) {
        for (unsigned j = 0; j < n64; j++) {
            uint64_t a = u64s[i], b = u64s[j];
            h64 = hash64(hash64(hash64(h64, a + b), a - b), a * b);
            if (i == j)
                printf("u64 %016llx: add %016llx sub %016llx mul %016llx\n", (unsigned long long)a,
                       (unsigned long long)(a + b), (unsigned long long)(a - a / 3),
                       (unsigned long long)(a * b));
        }
    }
    printf("u64 hash %016llx\n", (unsigned long long)h64);

    for (unsigned i = 0; i < sizeof u8s; i++) {
        uint8_t a = u8s[i];
        uint8_t sum = (uint8_t)(a + 200), prod = (uint8_t)(a * 3), neg = (uint8_t)-a;
        printf("u8 %3u: +200=%3u *3=%3u neg=%3u shl=%3u\n", a, sum, prod, neg, (uint8_t)(a << 1));
    }
    for (unsigned i = 0; i < sizeof u16s / sizeof u16s[0]; i++) {
        uint16_t a = u16s[i];
        uint16_t sum = (uint16_t)(a + 40000u), prod = (uint16_t)(a * 7u);
        printf("u16 %5u: +40000=%5u *7=%5u\n", a, sum, prod);
    }

    /* Counting loops that wrap around. */
    uint8_t c = 250;
    unsigned steps = 0;
    do {
        c++;
        steps++;
    } while (c != 3);
    printf("u8 250 -> 3 in %u steps\n", steps);
    uint32_t x = 0xfffffff0u;
    unsigned k = 0;
    while (x > 10) {
        x += 3;
        k++;
    }
    printf("u32 wrap: x=%u after %u steps\n", x, k);
    uint64_t y = 1;
    for (int i = 0; i < 70; i++)
        y = y * 3 + 1;
    printf("u64 3x+1 chain: %llu\n", (unsigned long long)y);
    return 0;
}

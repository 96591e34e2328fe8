// crc_checksums: table-driven and bitwise CRC-32, CRC-16/CCITT, Adler-32 and Fletcher-16 over generated data.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

uint32_t crc_table[256];
uint8_t data[1500];

static void make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}
static uint32_t crc32_table(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}
static uint32_t crc32_bitwise(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return ~c;
}
static uint16_t crc16_ccitt(const uint8_t *p, size_t n) {
    uint16_t c = 0xffff;
    for (size_t i = 0; i < n; i++) {
        c ^= (uint16_t)(p[i] << 8);
        for (int k = 0; k < 8; k++)
            c = (uint16_t)((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
    }
    return c;
}
static uint32_t adler32(const uint8_t *p, size_t n) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}
static uint16_t fletcher16(const uint8_t *p, size_t n) {
    uint16_t s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        s1 = (uint16_t)((s1 + p[i]) % 255);
        s2 = (uint16_t)((s2 + s1) % 255);
    }
    return (uint16_t)(s2 << 8 | s1);
}

int main(void) {
    make_table();
    const char *msg = "123456789";
    size_t ml = strlen(msg);
    printf("check values: crc32 %08x %08x crc16 %04x adler %08x fletcher %04x\n",
           crc32_table((const uint8_t *)msg, ml), crc32_bitwise((const uint8_t *)msg, ml),
           crc16_ccitt((const uint8_t *)msg, ml), adler32((const uint8_t *)msg, ml),
           fletcher16((const uint8_t *)msg, ml));
    uint32_t s = 1;
    for (size_t i = 0; i < sizeof data; i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = (uint8_t)(s >> 24);
    }
    size_t lens[] = {0, 1, 3, 64, 65, 1000, 1500};
    for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t n = lens[i];
        uint32_t t = crc32_table(data, n), b = crc32_bitwise(data, n);
        printf("len %4u crc32 %08x same %d crc16 %04x adler %08x fletcher %04x\n", (unsigned)n, t, t == b,
               crc16_ccitt(data, n), adler32(data, n), fletcher16(data, n));
    }
    /* A single flipped bit always changes the CRC. */
    int detected = 0;
    uint32_t base = crc32_table(data, 256);
    for (int bit = 0; bit < 256 * 8; bit += 37) {
        data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        detected += crc32_table(data, 256) != base;
        data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    printf("bit flips detected %d\n", detected);
    return 0;
}

// packed_struct: packed structures with misaligned members (byte-wise accesses), read, written and passed by value.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct __attribute__((packed)) header {
    uint8_t tag;
    uint32_t length;
    uint16_t flags;
    int64_t stamp;
    float gain;
    double scale;
};
struct __attribute__((packed)) pair {
    char c;
    int v;
};

struct header headers[3];
struct pair pairs[7];

static uint32_t sum_lengths(const struct header *h, int n) {
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        s += h[i].length;
    return s;
}
static struct header bump(struct header h) {
    h.length += 1000;
    h.stamp -= 1;
    h.flags ^= 0xffff;
    h.gain *= 2.0f;
    h.scale /= 4.0;
    return h;
}

int main(void) {
    printf("sizeof header %u pair %u\n", (unsigned)sizeof(struct header), (unsigned)sizeof(struct pair));
    for (int i = 0; i < 3; i++) {
        headers[i].tag = (uint8_t)(0xa0 + i);
        headers[i].length = 0x01020304u * (uint32_t)(i + 1);
        headers[i].flags = (uint16_t)(0x8001 + i);
        headers[i].stamp = -1234567890123LL * (i + 1);
        headers[i].gain = 0.5f + (float)i;
        headers[i].scale = 1e10 * (i + 1);
    }
    for (int i = 0; i < 3; i++) {
        struct header h = bump(headers[i]);
        printf("h%d tag %02x len %08x flags %04x stamp %lld gain %g scale %g\n", i, h.tag, h.length, h.flags,
               (long long)h.stamp, (double)h.gain, h.scale);
    }
    printf("sum lengths %08x\n", sum_lengths(headers, 3));
    /* The packed bytes are laid out without padding, little-endian. */
    unsigned char raw[sizeof(struct header)];
    memcpy(raw, &headers[1], sizeof raw);
    printf("raw:");
    for (unsigned i = 0; i < 15; i++)
        printf(" %02x", raw[i]);
    printf("\n");
    for (int i = 0; i < 7; i++) {
        pairs[i].c = (char)('a' + i);
        pairs[i].v = i * 1000000 - 3000000;
    }
    long total = 0;
    for (int i = 0; i < 7; i++)
        total += pairs[i].v + pairs[i].c;
    printf("pairs total %ld\n", total);
    /* Pointers to members of packed structs are copied through memcpy, not dereferenced. */
    int32_t v;
    memcpy(&v, (char *)&pairs[3] + 1, sizeof v);
    printf("pair 3 value via memcpy %d\n", (int)v);
    /* Increment every misaligned field in place. */
    for (int i = 0; i < 7; i++)
        pairs[i].v += i;
    for (int i = 0; i < 3; i++) {
        headers[i].length++;
        headers[i].stamp *= 2;
    }
    printf("after: %d %d %08x %lld\n", pairs[6].v, pairs[1].v, headers[2].length, (long long)headers[0].stamp);
    return 0;
}

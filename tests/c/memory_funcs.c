// memory_funcs: memcpy memmove (overlapping both ways) memset memcmp memchr on byte, word and odd-sized buffers.
#include <stdio.h>
#include <string.h>

unsigned char src[256];
unsigned char dst[300];

static unsigned checksum(const unsigned char *p, size_t n) {
    unsigned h = 0;
    for (size_t i = 0; i < n; i++)
        h = h * 131 + p[i];
    return h;
}
static int sgn(int v) { return (v > 0) - (v < 0); }

int main(void) {
    for (int i = 0; i < 256; i++)
        src[i] = (unsigned char)(i * 7 + 3);
    /* memcpy at every small size and offset. */
    unsigned h = 0;
    for (size_t off = 0; off < 8; off++)
        for (size_t n = 0; n < 70; n += 3) {
            memset(dst, 0xaa, sizeof dst);
            memcpy(dst + off, src + (7 - off), n);
            h = h * 7 + checksum(dst, 100);
        }
    printf("memcpy checksum %08x\n", h);
    /* memmove forward and backward overlaps. */
    unsigned char buf[64];
    for (int i = 0; i < 64; i++)
        buf[i] = (unsigned char)i;
    memmove(buf + 5, buf, 40);
    printf("move right:");
    for (int i = 0; i < 16; i++)
        printf(" %d", buf[i]);
    printf(" ... %d\n", buf[44]);
    for (int i = 0; i < 64; i++)
        buf[i] = (unsigned char)i;
    memmove(buf, buf + 9, 50);
    printf("move left:");
    for (int i = 0; i < 16; i++)
        printf(" %d", buf[i]);
    printf(" ... %d %d\n", buf[49], buf[50]);
    /* memset with values that need masking to a byte. */
    memset(buf, 0x1ff, 10);
    memset(buf + 10, -2, 5);
    printf("memset: %d %d %d\n", buf[0], buf[9], buf[12]);
    /* memcmp: the sign reflects the first differing byte compared as unsigned char. */
    unsigned char a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    printf("memcmp equal %d", sgn(memcmp(a, b, 8)));
    b[5] = 200;
    printf(" less %d", sgn(memcmp(a, b, 8)));
    b[5] = 6;
    a[7] = 0x80;
    printf(" greater %d prefix %d zero-len %d\n", sgn(memcmp(a, b, 8)), sgn(memcmp(a, b, 7)), memcmp(a, b, 0));
    /* memchr finds bytes, including zero and high bytes. */
    unsigned char hay[] = {9, 0, 200, 17, 200, 255};
    unsigned char *f1 = memchr(hay, 200, sizeof hay);
    unsigned char *f2 = memchr(hay, 0, sizeof hay);
    unsigned char *f3 = memchr(hay, 255 + 256, sizeof hay);
    unsigned char *f4 = memchr(hay, 1, sizeof hay);
    printf("memchr %d %d %d %s\n", (int)(f1 - hay), (int)(f2 - hay), (int)(f3 - hay), f4 ? "found" : "null");
    /* Copying structs and arrays of ints with memcpy, including unaligned byte offsets. */
    int ints[10], ints2[10];
    for (int i = 0; i < 10; i++)
        ints[i] = i * i * i - 100;
    memcpy(ints2, ints, sizeof ints);
    unsigned char raw[sizeof ints + 3];
    memcpy(raw + 3, ints, sizeof ints);
    int back[10];
    memcpy(back, raw + 3, sizeof back);
    printf("ints equal %d back equal %d back[9] %d\n", memcmp(ints, ints2, sizeof ints) == 0,
           memcmp(ints, back, sizeof back) == 0, back[9]);
    /* A large memset + memcpy. */
    static char big1[5000], big2[5000];
    memset(big1, 'z', sizeof big1);
    big1[4999] = 'a';
    memcpy(big2, big1, sizeof big1);
    printf("big: %c%c %d\n", big2[0], big2[4999], memcmp(big1, big2, sizeof big1));
    return 0;
}

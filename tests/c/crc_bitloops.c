// crc_bitloops: CRC and polynomial bit loops (Hexagon's loop idiom pass makes them llvm.hexagon.M4.pmpyw)
#include <stdio.h>

unsigned char data[64];
unsigned seed = 12345;

static unsigned next(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

unsigned crc32_mask(const unsigned char *p, int n)
{
    unsigned crc = 0xffffffffu;
    for (int i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (-(crc & 1) & 0xEDB88320u);
    }
    return ~crc;
}

unsigned crc32_cond(const unsigned char *p, int n)
{
    unsigned crc = 0xffffffffu;
    for (int i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    }
    return ~crc;
}

unsigned short crc16_ccitt(const unsigned char *p, int n)
{
    unsigned short crc = 0xffff;
    for (int i = 0; i < n; i++) {
        crc ^= (unsigned short)(p[i] << 8);
        for (int k = 0; k < 8; k++)
            crc = (crc & 0x8000) ? (unsigned short)((crc << 1) ^ 0x1021) : (unsigned short)(crc << 1);
    }
    return crc;
}

unsigned char crc8_maxim(const unsigned char *p, int n)
{
    unsigned char crc = 0;
    for (int i = 0; i < n; i++) {
        unsigned char d = p[i];
        for (int k = 0; k < 8; k++) {
            if ((crc ^ d) & 1)
                crc = (unsigned char)((crc >> 1) ^ 0x8c);
            else
                crc >>= 1;
            d >>= 1;
        }
    }
    return crc;
}

unsigned long long clmul(unsigned a, unsigned b)
{
    unsigned long long r = 0;
    for (int i = 0; i < 32; i++)
        if (b & (1u << i))
            r ^= (unsigned long long)a << i;
    return r;
}

unsigned crc32_var(const unsigned char *p, int n, unsigned poly)
{
    unsigned crc = 0;
    for (int i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (-(crc & 1) & poly);
    }
    return crc;
}

int main(void)
{
    for (int i = 0; i < 64; i++)
        data[i] = (unsigned char)next();
    const unsigned char check[] = "123456789";
    printf("crc32 check %08x\n", crc32_mask(check, 9));
    printf("crc32c check %08x\n", crc32_cond(check, 9));
    printf("crc16 check %04x\n", crc16_ccitt(check, 9));
    printf("crc8 check %02x\n", crc8_maxim(check, 9));
    for (int n = 0; n <= 64; n += 16) {
        printf("n=%d: %08x %08x %04x %02x %08x\n", n, crc32_mask(data, n), crc32_cond(data, n),
               crc16_ccitt(data, n), crc8_maxim(data, n), crc32_var(data, n, 0x04C11DB7u));
    }
    for (int i = 0; i < 6; i++) {
        unsigned a = next() * 7u, b = next() * 13u;
        printf("clmul %08x %08x = %016llx\n", a, b, clmul(a, b));
    }
    return 0;
}

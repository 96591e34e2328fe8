// base64_codec: base64 encoding and decoding with lookup tables, round trips over binary data of every length mod 3.
#include <stdio.h>
#include <string.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static signed char reverse_table[256];

static size_t encode(const unsigned char *in, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < n) v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        out[o++] = alphabet[v >> 18 & 63];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? alphabet[v & 63] : '=';
    }
    out[o] = 0;
    return o;
}
static long decode(const char *in, unsigned char *out) {
    size_t n = strlen(in), o = 0;
    if (n % 4)
        return -1;
    for (size_t i = 0; i < n; i += 4) {
        unsigned v = 0;
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            char c = in[i + k];
            if (c == '=') {
                pad++;
                v <<= 6;
                continue;
            }
            int d = reverse_table[(unsigned char)c];
            if (d < 0 || pad)
                return -1;
            v = v << 6 | (unsigned)d;
        }
        out[o++] = (unsigned char)(v >> 16);
        if (pad < 2) out[o++] = (unsigned char)(v >> 8);
        if (pad < 1) out[o++] = (unsigned char)v;
    }
    return (long)o;
}

int main(void) {
    memset(reverse_table, -1, sizeof reverse_table);
    for (int i = 0; i < 64; i++)
        reverse_table[(unsigned char)alphabet[i]] = (signed char)i;
    const char *texts[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar", "Many hands make light work."};
    char enc[200];
    unsigned char dec[200];
    for (unsigned i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t len = strlen(texts[i]);
        encode((const unsigned char *)texts[i], len, enc);
        long d = decode(enc, dec);
        printf("'%s' -> '%s' -> %ld bytes, same %d\n", texts[i], enc, d,
               d == (long)len && memcmp(dec, texts[i], len) == 0);
    }
    unsigned char bin[100];
    for (int i = 0; i < 100; i++)
        bin[i] = (unsigned char)(i * 73 + 41);
    int ok = 0;
    for (size_t n = 0; n <= 100; n += 7) {
        size_t e = encode(bin, n, enc);
        long d = decode(enc, dec);
        ok += d == (long)n && memcmp(dec, bin, n) == 0 && e == (n + 2) / 3 * 4;
    }
    printf("binary round trips ok %d/15\n", ok);
    encode(bin, 20, enc);
    printf("bin20 %s\n", enc);
    const char *bad[] = {"abc", "ab!d", "a=bc", "====", "QUJD"};
    for (int i = 0; i < 5; i++)
        printf("decode '%s' -> %ld\n", bad[i], decode(bad[i], dec));
    return 0;
}

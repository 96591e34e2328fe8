// signed_unsigned_conv: conversions between signed and unsigned types and the usual arithmetic conversions.
#include <stdint.h>
#include <stdio.h>

int ints[] = {-2147483647 - 1, -65536, -32769, -32768, -257, -256, -129, -128, -1, 0, 1, 127, 128, 255, 256, 32767,
              32768, 65535, 65536, 2147483647};
long long wides[] = {-4294967296LL, -4294967295LL, -2147483649LL, -1LL, 4294967295LL, 4294967296LL,
                     0x123456789abcLL};

int main(void) {
    unsigned n = sizeof ints / sizeof ints[0];
    for (unsigned i = 0; i < n; i++) {
        int v = ints[i];
        signed char sc = (signed char)(unsigned char)v;   /* low byte, reinterpreted */
        short ss = (short)(unsigned short)v;
        unsigned char uc = (unsigned char)v;
        unsigned short us = (unsigned short)v;
        unsigned u = (unsigned)v;
        long long ll = v;
        unsigned long long ull = (unsigned long long)(long long)v;
        printf("%11d: sc=%4d ss=%6d uc=%3u us=%5u u=%10u ll=%lld ull=%llu\n", v, sc, ss, uc, us, u, ll, ull);
    }
    for (unsigned i = 0; i < sizeof wides / sizeof wides[0]; i++) {
        long long v = wides[i];
        unsigned lo = (unsigned)v;
        int lo_s = (int)(unsigned)v;
        unsigned long long u = (unsigned long long)v;
        printf("%lld: lo=%u lo_s=%d u=%llu hi=%d\n", v, lo, lo_s, u, (int)(v >> 32));
    }

    /* Usual arithmetic conversions: int vs unsigned compare as unsigned. */
    int minus_one = ints[8];
    unsigned zero_u = (unsigned)ints[9];
    printf("-1 < 0u: %d\n", (unsigned)minus_one < zero_u);
    printf("-1 < 0: %d\n", minus_one < ints[9]);
    printf("-1 < 0LL: %d\n", (long long)minus_one < 0LL);
    printf("-1 == UINT_MAX: %d\n", (unsigned)minus_one == 0xffffffffu);
    printf("(long long)-1 < 1u: %d\n", (long long)minus_one < (long long)1u);
    unsigned short us = 65535;
    int promoted = us + 1; /* unsigned short promotes to int */
    printf("us+1=%d\n", promoted);
    unsigned char uc = 200;
    printf("uc*uc=%d\n", uc * uc);
    printf("~uc=%d\n", ~uc);
    unsigned u = 3;
    int s = -5;
    printf("u+s=%u\n", u + (unsigned)s);
    printf("s/(int)u=%d s%%(int)u=%d\n", s / (int)u, s % (int)u);
    printf("(unsigned)s/u=%u\n", (unsigned)s / u);
    long long big = (long long)u * s;
    printf("(ll)u*s=%lld\n", big);
    uint64_t mixed = (uint64_t)(int64_t)s + u;
    printf("mixed=%llu\n", (unsigned long long)mixed);

    /* Sign and zero extension chains. */
    for (unsigned i = 0; i < n; i += 3) {
        int v = ints[i];
        int8_t b = (int8_t)(uint8_t)v;
        int16_t h = b;
        int32_t w = h;
        int64_t d = w;
        uint8_t ub = (uint8_t)v;
        uint16_t uh = ub;
        uint64_t ud = uh;
        printf("chain %d: %d %d %lld | %u %llu\n", v, h, w, (long long)d, uh, (unsigned long long)ud);
    }
    return 0;
}

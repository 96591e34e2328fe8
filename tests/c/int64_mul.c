// int64_mul: 64-bit multiplication, widening 32x32->64 products and the high half of 64x64 products.
#include <stdint.h>
#include <stdio.h>

int64_t svals[] = {0, 1, -1, 2, -2, 3037000499LL, -3037000499LL, 4294967295LL, -4294967296LL, 0x12345678LL,
                   -0x76543210LL, 1LL << 40, -(1LL << 31)};
uint64_t uvals[] = {0, 1, 0xffffffffull, 0x100000000ull, 0xfedcba9876543210ull, 0xffffffffffffffffull,
                    0x8000000000000000ull, 12345678901234567ull};
int32_t s32[] = {-2147483647 - 1, -65536, -1, 0, 1, 46341, 2147483647};
uint32_t u32[] = {0, 1, 65535, 65536, 0x80000000u, 0xffffffffu};

/* The high 64 bits of a 64x64 unsigned product, from 32-bit pieces. */
static uint64_t mulhi_u64(uint64_t a, uint64_t b) {
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

int main(void) {
    unsigned ns = sizeof svals / sizeof svals[0];
    for (unsigned i = 0; i < ns; i++) {
        for (unsigned j = i; j < ns; j++) {
            int64_t a = svals[i], b = svals[j];
            /* Products that would overflow are computed in unsigned arithmetic. */
            uint64_t p = (uint64_t)a * (uint64_t)b;
            printf("%lld * %lld = %lld (0x%016llx)\n", (long long)a, (long long)b, (long long)(int64_t)p,
                   (unsigned long long)p);
        }
    }
    unsigned nu = sizeof uvals / sizeof uvals[0];
    for (unsigned i = 0; i < nu; i++)
        for (unsigned j = 0; j < nu; j++)
            printf("u %llx * %llx = hi %016llx lo %016llx\n", (unsigned long long)uvals[i],
                   (unsigned long long)uvals[j], (unsigned long long)mulhi_u64(uvals[i], uvals[j]),
                   (unsigned long long)(uvals[i] * uvals[j]));
    for (unsigned i = 0; i < sizeof s32 / sizeof s32[0]; i++)
        for (unsigned j = 0; j < sizeof s32 / sizeof s32[0]; j++) {
            int64_t w = (int64_t)s32[i] * s32[j];
            printf("s32 %d*%d = %lld\n", s32[i], s32[j], (long long)w);
        }
    for (unsigned i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        for (unsigned j = 0; j < sizeof u32 / sizeof u32[0]; j++) {
            uint64_t w = (uint64_t)u32[i] * u32[j];
            printf("u32 %u*%u = %llu\n", u32[i], u32[j], (unsigned long long)w);
        }
    /* Factorials modulo 2^64 and a multiplicative hash. */
    uint64_t f = 1;
    for (unsigned k = 1; k <= 30; k++) {
        f *= k;
        if (k % 5 == 0)
            printf("%u! mod 2^64 = %llu\n", k, (unsigned long long)f);
    }
    uint64_t h = 0;
    for (unsigned k = 0; k < 1000; k++)
        h = h * 6364136223846793005ull + 1442695040888963407ull;
    printf("lcg64 after 1000: %016llx\n", (unsigned long long)h);
    return 0;
}

// int64_shift: 64-bit shifts by every amount 0..63, logical and arithmetic, constant and variable.
#include <stdint.h>
#include <stdio.h>

uint64_t pats[] = {1ull, 0x8000000000000000ull, 0xf0f0f0f0f0f0f0f0ull, 0x0123456789abcdefull, 0xffffffffffffffffull};
int64_t negs[] = {-1, -2, -0x123456789LL, -9223372036854775807LL - 1};
volatile int amount_bias = 0;

int main(void) {
    for (unsigned p = 0; p < sizeof pats / sizeof pats[0]; p++) {
        uint64_t v = pats[p];
        uint64_t acc_l = 0, acc_r = 0;
        for (int s = 0; s < 64; s++) {
            int sh = s + amount_bias;
            uint64_t l = v << sh, r = v >> sh;
            acc_l = acc_l * 31 + l;
            acc_r = acc_r * 37 + r;
            if (s % 9 == 0 || s == 31 || s == 32 || s == 33 || s == 63)
                printf("%016llx <<%2d = %016llx  >>%2d = %016llx\n", (unsigned long long)v, sh,
                       (unsigned long long)l, sh, (unsigned long long)r);
        }
        printf("sums %016llx %016llx\n", (unsigned long long)acc_l, (unsigned long long)acc_r);
    }
    /* Arithmetic right shift of negative values (two's complement, sign-filling on both targets). */
    for (unsigned i = 0; i < sizeof negs / sizeof negs[0]; i++) {
        int64_t v = negs[i];
        for (int s = 0; s < 64; s += 7) {
            int sh = s + amount_bias;
            printf("%lld >> %d = %lld\n", (long long)v, sh, (long long)(v >> sh));
        }
    }
    /* Constant shifts. */
    uint64_t x = pats[3];
    printf("const: %llx %llx %llx %llx %llx %llx\n", (unsigned long long)(x << 1), (unsigned long long)(x << 32),
           (unsigned long long)(x << 63), (unsigned long long)(x >> 1), (unsigned long long)(x >> 32),
           (unsigned long long)(x >> 63));
    int64_t y = negs[2];
    printf("const signed: %lld %lld %lld\n", (long long)(y >> 1), (long long)(y >> 32), (long long)(y >> 63));
    /* 32-bit shifts with variable amounts, and shifting through narrower types. */
    uint32_t w = 0x80000001u;
    for (int s = 0; s < 32; s += 5) {
        int sh = s + amount_bias;
        printf("u32 %08x <<%d=%08x >>%d=%08x s>>=%d\n", w, sh, w << sh, sh, w >> sh, (int32_t)0x80000001 >> sh);
    }
    /* Shift-and-mask extraction of fields. */
    uint64_t packed = 0;
    for (unsigned f = 0; f < 8; f++)
        packed |= (uint64_t)((f * 37 + 11) & 0xff) << (f * 8);
    for (unsigned f = 0; f < 8; f++)
        printf("field %u = %u\n", f, (unsigned)((packed >> (f * 8)) & 0xff));
    return 0;
}

// divmod_pow2_loop: division and remainder by a doubling counter (an FFT's
// n / len), unsigned and signed, 32 and 64 bits, negative dividends
// included; the backend selects a count of trailing zeros and shifts.
#include <stdint.h>
#include <stdio.h>

static const int32_t s32[] = {0, 1, -1, 7, -7, 1000, -1000, 65535, -65537, INT32_MAX, INT32_MIN, INT32_MIN + 1};
static const int64_t s64[] = {0, 1, -1, 4097, -4097, 123456789012345LL, -123456789012345LL, INT64_MAX, INT64_MIN, INT64_MIN + 1};

__attribute__((noinline)) static void by_len(int32_t x, int64_t y, unsigned n) {
    unsigned long long h = 0;
    for (int len = 1; len <= (int)n; len <<= 1) {
        uint32_t u = (uint32_t)x;
        int32_t q = x / len, r = x % len;
        uint32_t uq = u / (unsigned)len, ur = u % (unsigned)len;
        int64_t q64 = y / len, r64 = y % len;
        h = h * 31 + (uint32_t)q;
        h = h * 31 + (uint32_t)r;
        h = h * 31 + uq;
        h = h * 31 + ur;
        h = h * 31 + (uint64_t)q64;
        h = h * 31 + (uint64_t)r64;
        if (len == 1 || len == 8 || len == (1 << 30))
            printf("  len %d: %d %d %u %u %lld %lld\n", len, q, r, uq, ur, (long long)q64, (long long)r64);
        if (len == 1 << 30)
            break;
    }
    printf("x %d y %lld n %u: hash %016llx\n", x, (long long)y, n, h);
}

__attribute__((noinline)) static uint32_t unsigned_by_len(uint32_t x) {
    uint32_t h = 0;
    for (uint32_t len = 2; len != 0; len <<= 1)
        h = h * 33 + x / len + x % len;
    return h;
}

int main(void) {
    for (unsigned i = 0; i < sizeof s32 / sizeof s32[0]; i++)
        by_len(s32[i], s64[i % (sizeof s64 / sizeof s64[0])], i < 6 ? 64u : 0x7fffffffu);
    for (unsigned i = 0; i < sizeof s32 / sizeof s32[0]; i++)
        printf("unsigned %u: %u\n", (uint32_t)s32[i], unsigned_by_len((uint32_t)s32[i]));
    return 0;
}

// divmod_pow2: division and remainder by powers of two (truncation toward
// zero for signed values), 8 to 64 bits, at the edges of each type. At -O0
// clang leaves these as divisions; the backend selects shifts.
#include <stdint.h>
#include <stdio.h>

static const int64_t s64[] = {0, 1, -1, 15, -15, 16, -16, 17, -17, 1023, -1025, INT64_MAX, INT64_MIN, INT64_MIN + 1, -4611686018427387904LL};
static const int32_t s32[] = {0, 1, -1, 7, -7, 8, -8, 9, -9, 65535, -65537, INT32_MAX, INT32_MIN, INT32_MIN + 1};
static const int16_t s16[] = {0, 1, -1, 63, -63, 64, -64, 65, -65, INT16_MAX, INT16_MIN};
static const int8_t s8[] = {0, 1, -1, 3, -3, 4, -4, 5, -5, INT8_MAX, INT8_MIN};

int main(void) {
    for (unsigned i = 0; i < sizeof s64 / sizeof s64[0]; i++) {
        int64_t x = s64[i];
        uint64_t u = (uint64_t)x;
        printf("s64 %lld: %lld %lld %lld %lld %lld %lld\n", (long long)x, (long long)(x / 2), (long long)(x % 2), (long long)(x / 16),
               (long long)(x % 16), (long long)(x / 4611686018427387904LL), (long long)(x % 4611686018427387904LL));
        printf("u64 %llu: %llu %llu %llu %llu\n", (unsigned long long)u, (unsigned long long)(u / 32), (unsigned long long)(u % 32),
               (unsigned long long)(u / 9223372036854775808ULL), (unsigned long long)(u % 4294967296ULL));
    }
    for (unsigned i = 0; i < sizeof s32 / sizeof s32[0]; i++) {
        int32_t x = s32[i];
        uint32_t u = (uint32_t)x;
        printf("s32 %d: %d %d %d %d %d %d\n", x, x / 2, x % 2, x / 8, x % 8, x / 1073741824, x % 1073741824);
        printf("u32 %u: %u %u %u %u\n", u, u / 8u, u % 8u, u / 2147483648u, u % 65536u);
    }
    for (unsigned i = 0; i < sizeof s16 / sizeof s16[0]; i++) {
        int16_t x = s16[i];
        uint16_t u = (uint16_t)x;
        int16_t q = (int16_t)(x / 64), r = (int16_t)(x % 64);
        uint16_t uq = (uint16_t)(u / 4), ur = (uint16_t)(u % 4);
        printf("s16 %d: %d %d %u %u\n", x, q, r, uq, ur);
    }
    for (unsigned i = 0; i < sizeof s8 / sizeof s8[0]; i++) {
        int8_t x = s8[i];
        int8_t q = (int8_t)(x / 4), r = (int8_t)(x % 4);
        uint8_t u = (uint8_t)x, uq = (uint8_t)(u / 16), ur = (uint8_t)(u % 16);
        printf("s8 %d: %d %d %u %u\n", x, q, r, uq, ur);
    }
    // Through variables the optimizer cannot see: the same at every level.
    volatile int32_t vx = -12345;
    volatile int64_t vy = -123456789012345LL;
    int32_t a = vx;
    int64_t b = vy;
    printf("volatile: %d %d %lld %lld\n", a / 4, a % 4, (long long)(b / 1024), (long long)(b % 1024));
    return 0;
}

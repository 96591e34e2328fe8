// float_int_conv: rounding of conversions between integers and float/double in both directions.
#include <stdint.h>
#include <stdio.h>

int32_t i32[] = {0, 1, -1, 16777216, 16777217, 16777219, -16777217, 2147483647, -2147483647 - 1, 123456789};
uint32_t u32[] = {0u, 1u, 16777217u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffff7fu, 0xffffff80u, 0xffffffffu};
int64_t i64[] = {0, -1, 9007199254740993LL, 9007199254740995LL, -9007199254740993LL, 9223372036854775807LL,
                 -9223372036854775807LL - 1, 0x7ffffffffffffdffLL, 1LL << 62};
uint64_t u64[] = {0ull, 1ull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x8000000000000401ull,
                  0x20000000000001ull, 0xfffffffffffff800ull, 0x7ffffffffffffc00ull};
double dv[] = {0.0, 0.4, 0.5, 0.6, 1.5, 2.5, -0.5, -1.5, -2.7, 1e9, -2147483648.9, 2147483647.9, 4294967295.5,
               9.2e18, -9.2e18, 1.8e19, 123456.999999};
double rd[] = {1.0000000596046448, 1.0000000894069672, 1.0000001192092896, 3.4028235677973366e38, 1e-46, 7e-46,
               0.1, 16777217.0, 16777219.0, -33554435.0};

int main(void) {
    for (unsigned i = 0; i < sizeof i32 / sizeof i32[0]; i++)
        printf("i32 %d -> float %.9g double %.17g\n", i32[i], (double)(float)i32[i], (double)i32[i]);
    for (unsigned i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        printf("u32 %u -> float %.9g double %.17g\n", u32[i], (double)(float)u32[i], (double)u32[i]);
    for (unsigned i = 0; i < sizeof i64 / sizeof i64[0]; i++)
        printf("i64 %lld -> float %.9g double %.17g\n", (long long)i64[i], (double)(float)i64[i], (double)i64[i]);
    for (unsigned i = 0; i < sizeof u64 / sizeof u64[0]; i++)
        printf("u64 %llu -> float %.9g double %.17g\n", (unsigned long long)u64[i], (double)(float)u64[i],
               (double)u64[i]);
    /* Float to integer conversions truncate toward zero; only in-range values are converted. */
    for (unsigned i = 0; i < sizeof dv / sizeof dv[0]; i++) {
        double d = dv[i];
        printf("%.17g:", d);
        if (d > -2147483649.0 && d < 2147483648.0)
            printf(" i32 %d", (int32_t)d);
        if (d > -1.0 && d < 4294967296.0)
            printf(" u32 %u", (uint32_t)d);
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            printf(" i64 %lld", (long long)(int64_t)d);
        if (d > -1.0 && d < 18446744073709551616.0)
            printf(" u64 %llu", (unsigned long long)(uint64_t)d);
        float f = (float)d;
        if (f > -2147483649.0f && f < 2147483648.0f)
            printf(" f->i32 %d", (int32_t)f);
        if (f > -1.0f && f < 18446744073709551616.0f)
            printf(" f->u64 %llu", (unsigned long long)(uint64_t)f);
        printf(" i16 %d u8 %u\n", (d > -32769.0 && d < 32768.0) ? (int16_t)d : 0, (d > -1.0 && d < 256.0) ? (uint8_t)d : 0u);
    }
    /* Double to float rounds to nearest, ties to even; out of range gives infinity (IEEE 754). */
    for (unsigned i = 0; i < sizeof rd / sizeof rd[0]; i++) {
        float f = (float)rd[i];
        printf("(float)%.17g = %.9g\n", rd[i], (double)f);
    }
    /* Round trips. */
    unsigned exact = 0;
    for (int32_t k = -100000; k <= 100000; k += 7)
        exact += (int32_t)(float)k == k;
    unsigned exact64 = 0;
    for (int64_t k = (1LL << 53) - 50; k < (1LL << 53) + 50; k++)
        exact64 += (int64_t)(double)k == k;
    printf("exact float round trips %u, double near 2^53 %u\n", exact, exact64);
    /* Converting loop counters: int -> float -> int in both orders. */
    float facc = 0.0f;
    long long iacc = 0;
    for (int k = 0; k < 1000; k++) {
        facc += (float)k * 0.5f;
        iacc += (long long)((float)k * 1.7f);
    }
    printf("facc %.9g iacc %lld\n", (double)facc, iacc);
    return 0;
}

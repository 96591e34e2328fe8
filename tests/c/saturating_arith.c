// saturating_arith: saturating 8/16/32-bit add, subtract and multiply written in portable C (DSP-style).
#include <stdint.h>
#include <stdio.h>

int16_t a16[] = {0, 1, -1, 100, -100, 16384, -16384, 32767, -32768, 20000, -20000};
int32_t a32[] = {0, 1, -1, 1 << 30, -(1 << 30), 2147483647, -2147483647 - 1, 123456789};
uint8_t a8[] = {0, 1, 100, 128, 200, 255};

static int16_t sat16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }
static int16_t add_sat16(int16_t a, int16_t b) { return sat16((int32_t)a + b); }
static int16_t sub_sat16(int16_t a, int16_t b) { return sat16((int32_t)a - b); }
static int16_t mul_q15(int16_t a, int16_t b) { return sat16(((int32_t)a * b) >> 15); }
static int32_t sat32(int64_t v) {
    return (int32_t)(v > 2147483647LL ? 2147483647LL : v < -2147483648LL ? -2147483648LL : v);
}
static int32_t add_sat32(int32_t a, int32_t b) { return sat32((int64_t)a + b); }
static int32_t mul_q31(int32_t a, int32_t b) { return sat32(((int64_t)a * b) >> 31); }
static uint8_t add_sat_u8(uint8_t a, uint8_t b) {
    unsigned s = (unsigned)a + b;
    return (uint8_t)(s > 255 ? 255 : s);
}
static uint8_t sub_sat_u8(uint8_t a, uint8_t b) { return (uint8_t)(a > b ? a - b : 0); }

int main(void) {
    unsigned n16 = sizeof a16 / sizeof a16[0];
    for (unsigned i = 0; i < n16; i++)
        for (unsigned j = 0; j < n16; j++)
            if ((i + 2 * j) % 3 == 0)
                printf("q15 %6d %6d: add %6d sub %6d mul %6d\n", a16[i], a16[j], add_sat16(a16[i], a16[j]),
                       sub_sat16(a16[i], a16[j]), mul_q15(a16[i], a16[j]));
    unsigned n32 = sizeof a32 / sizeof a32[0];
    for (unsigned i = 0; i < n32; i++)
        for (unsigned j = 0; j < n32; j++)
            printf("q31 %d %d: add %d mul %d\n", a32[i], a32[j], add_sat32(a32[i], a32[j]), mul_q31(a32[i], a32[j]));
    for (unsigned i = 0; i < sizeof a8; i++)
        for (unsigned j = 0; j < sizeof a8; j++)
            printf("u8 %u %u: add %u sub %u\n", a8[i], a8[j], add_sat_u8(a8[i], a8[j]), sub_sat_u8(a8[i], a8[j]));
    /* A saturating accumulator over a ramp, like a DSP MAC loop. */
    int16_t acc = 0;
    int32_t acc32 = 0;
    unsigned sat_hits = 0;
    for (int k = 0; k < 200; k++) {
        int16_t x = (int16_t)(k * 311 % 2000 - 1000);
        int16_t next = add_sat16(acc, mul_q15(x, 30000));
        sat_hits += next == 32767 || next == -32768;
        acc = next;
        acc32 = add_sat32(acc32, (int32_t)x * 1000000);
    }
    printf("acc16 %d acc32 %d hits %u\n", acc, acc32, sat_hits);
    return 0;
}

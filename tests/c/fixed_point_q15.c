// fixed_point_q15: Q15 and Q7 FIRs on int16_t/int8_t data with widening loads, narrowing stores and odd lengths.
/* Fixed-point DSP kernels on 8- and 16-bit data: Q15 and Q7 FIRs (int16_t
   and int8_t samples and taps, int32_t accumulators, narrowed results),
   widening copies (sign and zero extension) and narrowing stores, with odd
   lengths so that vector loops run their tails, negative values, and
   values near the limits of the types (no overflow of int32_t). */
#include <stdint.h>
#include <stdio.h>

#define NT 16
#define NX 203 /* odd: vector loops leave a tail */

static int16_t x16[NX + NT];
static int16_t h16[NT];
static int16_t y16[NX];
static int8_t x8[NX + NT];
static int8_t h8[NT];
static int8_t y8[NX];
static uint8_t u8[NX];
static uint16_t u16[NX];
static int32_t w32[NX];
static uint32_t uw32[NX];
static uint32_t ux32[NX];
static uint8_t o8[NX];

static unsigned lcg = 12345u;
static int next(void) {
    lcg = lcg * 1103515245u + 12345u;
    return (int)((lcg >> 8) & 0xffff) - 32768;
}

__attribute__((noinline)) void fir_q15(const int16_t *restrict x, const int16_t *restrict h, int16_t *restrict y, int n) {
    for (int i = 0; i < n; i++) {
        int32_t acc = 0;
        for (int k = 0; k < NT; k++)
            acc += x[i + k] * h[k];
        y[i] = (int16_t)(acc >> 15);
    }
}

/* Rounded, with a run-time tap count (an inner loop that stays a loop). */
__attribute__((noinline)) void fir_q15_round(const int16_t *restrict x, const int16_t *restrict h, int16_t *restrict y, int n, int nt) {
    for (int i = 0; i < n; i++) {
        int32_t acc = 1 << 14;
        for (int k = 0; k < nt; k++)
            acc += x[i + k] * h[k];
        y[i] = (int16_t)(acc >> 15);
    }
}

__attribute__((noinline)) void fir_q7(const int8_t *restrict x, const int8_t *restrict h, int8_t *restrict y, int n) {
    for (int i = 0; i < n; i++) {
        int32_t acc = 0;
        for (int k = 0; k < NT; k++)
            acc += x[i + k] * h[k];
        y[i] = (int8_t)(acc >> 7);
    }
}

/* Element-wise: widening loads, a multiply-accumulate, narrowing stores. */
__attribute__((noinline)) void mix(const int16_t *restrict a, const int8_t *restrict b, const uint8_t *restrict c,
                                   int16_t *restrict out16, uint8_t *restrict out8, int32_t *restrict out32, int n) {
    for (int i = 0; i < n; i++) {
        int32_t v = a[i] * 3 + b[i] * c[i] + 7;
        out16[i] = (int16_t)v;
        out8[i] = (uint8_t)(v >> 3);
        out32[i] += a[i] * b[i];
    }
}

__attribute__((noinline)) void widen(const uint16_t *restrict a, const uint8_t *restrict b, uint32_t *restrict out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = a[i] + b[i];
}

/* Integer multiply-accumulate on 32-bit data (wrapping on unsigned). */
__attribute__((noinline)) void axpy_u32(uint32_t a, const uint32_t *restrict x, uint32_t *restrict y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static unsigned hash16(const int16_t *p, int n) {
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s = s * 31u + (uint16_t)p[i];
    return s;
}

static unsigned hash8(const int8_t *p, int n) {
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s = s * 31u + (uint8_t)p[i];
    return s;
}

int main(void) {
    for (int i = 0; i < NX + NT; i++) {
        int v = next();
        /* Some samples at the extremes of int16_t. */
        x16[i] = (int16_t)(i % 17 == 0 ? -32768 : i % 19 == 0 ? 32767 : v);
        x8[i] = (int8_t)(i % 13 == 0 ? -128 : i % 11 == 0 ? 127 : v >> 8);
    }
    /* Taps whose absolute sum stays below 32768 (no int32_t overflow). */
    for (int k = 0; k < NT; k++) {
        h16[k] = (int16_t)((k & 1 ? -1 : 1) * (2047 - 100 * k));
        h8[k] = (int8_t)((k % 3 == 0 ? -1 : 1) * (127 - 5 * k));
    }
    for (int i = 0; i < NX; i++) {
        u8[i] = (uint8_t)(next() & 0xff);
        u16[i] = (uint16_t)next();
        w32[i] = next();
        uw32[i] = (uint32_t)next() * 2654435761u;
    }

    for (int n = 1; n <= NX; n += 50) {
        fir_q15(x16, h16, y16, n);
        printf("fir_q15 n=%d: %u y[0]=%d y[n-1]=%d\n", n, hash16(y16, n), y16[0], y16[n - 1]);
    }
    fir_q15_round(x16, h16, y16, NX, NT);
    printf("fir_q15_round: %u\n", hash16(y16, NX));
    fir_q15_round(x16, h16, y16, NX - 2, 5);
    printf("fir_q15_round 5 taps: %u\n", hash16(y16, NX - 2));
    fir_q7(x8, h8, y8, NX);
    printf("fir_q7: %u y[1]=%d\n", hash8(y8, NX), y8[1]);
    fir_q7(x8, h8, y8, 17);
    printf("fir_q7 n=17: %u\n", hash8(y8, 17));

    mix(x16, x8, u8, y16, o8, w32, NX);
    printf("mix: %u %u", hash16(y16, NX), hash8((const int8_t *)o8, NX));
    unsigned s = 0;
    for (int i = 0; i < NX; i++)
        s = s * 31u + (unsigned)w32[i];
    printf(" %u\n", s);

    widen(u16, u8, uw32, NX);
    s = 0;
    for (int i = 0; i < NX; i++)
        s = s * 31u + uw32[i];
    printf("widen: %u\n", s);

    for (int i = 0; i < NX; i++)
        ux32[i] = uw32[i] ^ 0x9e3779b9u;
    axpy_u32(2654435761u, uw32, ux32, NX - 2);
    s = 0;
    for (int i = 0; i < NX; i++)
        s = s * 31u + ux32[i];
    printf("axpy_u32: %u\n", s);
    return 0;
}

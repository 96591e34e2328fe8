/* bench.h: what every benchmark kernel's main shares (vliw-backend/bench).
 *
 * - Deterministic inputs: a xorshift32 generator; integers in small ranges
 *   (no overflow anywhere) and floats in [-1, 1) made exactly (a 24-bit
 *   integer times a power of two), so the host and the DSP see the same bits.
 * - A checksum: FNV-1a over the 32-bit words of an output array.
 * - MACF(a, b, c): a multiply-add meant to be fused. On the DSP it is plain
 *   C, a * b + c, which clang contracts to llvm.fmuladd (the MAC units); the
 *   host reference (built with -DREF_FMA -ffp-contract=off) calls fmaf, so both
 *   round once and the checksums agree bit for bit. Every other floating-point
 *   expression in the kernels has at most one operation, so nothing else can
 *   be contracted differently on the two sides.
 * - SIZE: the problem size, set with -DSIZE=...; each kernel gives its default.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef REF_FMA
#include <math.h>
#define MACF(a, b, c) fmaf((a), (b), (c))
#else
#define MACF(a, b, c) ((a) * (b) + (c))
#endif

#define NOINLINE __attribute__((noinline))
#define ALIGNED __attribute__((aligned(128)))

static uint32_t bench_seed = 2463534242u;

/* xorshift32 */
static inline uint32_t bench_next(void) {
    uint32_t x = bench_seed;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    bench_seed = x;
    return x;
}

/* An integer in [-128, 127]. */
static inline int32_t bench_i8(void) {
    return (int32_t)(bench_next() >> 24) - 128;
}

/* A float in [-1, 1), exactly k / 2^23 for an integer k. */
static inline float bench_f32(void) {
    int32_t k = (int32_t)(bench_next() >> 8) - (1 << 23);
    return (float)k * (1.0f / 8388608.0f);
}

/* FNV-1a over n 32-bit words. */
static inline uint32_t bench_hash(const void *p, int n) {
    const unsigned char *b = (const unsigned char *)p;
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        uint32_t w;
        memcpy(&w, b + 4 * i, 4);
        h ^= w;
        h *= 16777619u;
    }
    return h;
}

static inline uint32_t bench_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#endif

/* wfv.h: what the function-vectorization benchmark programs share
 * (vliw-backend/bench/wfv, scripts/bench-wfv; seed 001 §4).
 *
 * - Deterministic inputs: a 32-bit LCG (Numerical Recipes constants);
 *   floats are made exactly from its high bits, so the host and the DSP see
 *   the same values.
 * - A checksum: FNV-1a over the 32-bit words of an output array. Programs
 *   whose results go through libm (expf, logf: the host's glibc and our
 *   runtime may differ in the last bit) print rounded sums instead.
 * - VECFN: how a vector function is declared. With the directives the
 *   function stays out of line (NOINLINE) so that its calls can become calls
 *   of its vector variant; built with -DNO_DIRECTIVES (and -fno-vec-function,
 *   which ignores the pragmas) it is an ordinary inlinable function, the
 *   plain loop nest that LLVM's loop and SLP vectorizers see (Fig. 5).
 * - kernel(): every program's measured function (NOINLINE); main only makes
 *   the inputs, calls it once and prints the checksum. Its sizes reach it as
 *   arguments read from globals (run-time values): with a constant trip
 *   count LLVM's unroller unrolls a vec-function loop before dsp-wfv sees it
 *   ("its counter does not step by 1").
 *
 * Build flags: -ffp-contract=off on both sides (no fused multiply-adds, so
 * every float result is the same bit for bit).
 */
#ifndef WFV_H
#define WFV_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#define NOINLINE __attribute__((noinline))
#define ALIGNED __attribute__((aligned(128)))

#ifdef NO_DIRECTIVES
#define VECFN static inline
#else
#define VECFN NOINLINE
#endif

static uint32_t lcg_state = 20170801u;

static inline uint32_t lcg_next(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

/* A float in [0, 1): the top 24 bits times 2^-24 (exact). */
static inline float lcg_unit(void) {
    return (float)(lcg_next() >> 8) * (1.0f / 16777216.0f);
}

/* An integer in [0, n), n <= 65536. */
static inline uint32_t lcg_below(uint32_t n) {
    return ((lcg_next() >> 16) * n) >> 16;
}

/* FNV-1a over n 32-bit words. */
static inline uint32_t wfv_hash(const void *p, int n) {
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

#endif

/* poly.h: what the polyhedral benchmark's kernels share (vliw-backend/bench/poly,
 * scripts/bench-poly).
 *
 * Each kernel is written from its mathematical definition in the style of
 * PolyBench/C (affine loop nests over fixed-size global arrays), not copied
 * from it. The dataset is chosen with -DMEDIUM (default: the small one); the
 * small one fits in ftm's 32 KB L1D, the medium one is several times larger.
 *
 * Exactness: inputs are small integers turned into floats (exact), every
 * float expression is evaluated in C order without contraction (both builds
 * get -ffp-contract=off), and the only library function is sqrtf (cholesky,
 * correctly rounded on both sides; -fno-math-errno makes it an instruction).
 * So the DSP's output equals the host build's bit for bit.
 *
 * The kernel is one NOINLINE function, so its cycles are measured alone;
 * main initializes, calls it once and prints an FNV-1a hash of each output.
 */
#ifndef POLY_H
#define POLY_H

#include "../kernels/bench.h"

/* (v mod m) / m for v >= 0: a float in [0, 1), the same on both sides. */
static inline float poly_init(int v, int m) {
    return (float)(v % m) / (float)m;
}

/* Prints "NAME HASH" for n 32-bit words at p. */
static inline void poly_print(const char *name, const void *p, int n) {
    printf("%s %08x\n", name, (unsigned)bench_hash(p, n));
}

#endif

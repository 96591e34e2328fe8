/* iir: a cascade of STAGES biquad sections (single precision, transposed
 * direct form II) over SIZE samples. Per section and sample:
 *   y = b0 x + s1;  s1 = b1 x - a1 y + s2;  s2 = b2 x - a2 y
 * with the coefficients stored as {b0, b1, b2, -a1, -a2}.
 * Essential work: 4 STAGES SIZE multiply-accumulates and STAGES SIZE
 * multiplies (f32), SIZE + 7 STAGES loads (samples, coefficients, state),
 * SIZE + 2 STAGES stores (samples, final state).
 * Each section is a recurrence: nothing here is vectorizable across samples. */
#include "bench.h"

#ifndef SIZE
#define SIZE 256
#endif
#define STAGES 4

float in[SIZE] ALIGNED, out[SIZE] ALIGNED;
float state[2 * STAGES];
/* Four low-pass sections (stable: poles well inside the unit circle). */
float coef[5 * STAGES] = {
    0.0675f, 0.1349f, 0.0675f, 1.1430f, -0.4128f,
    0.0976f, 0.1953f, 0.0976f, 0.9428f, -0.3333f,
    0.2066f, 0.4131f, 0.2066f, 0.3695f, -0.1958f,
    0.2929f, 0.5858f, 0.2929f, 0.0000f, -0.1716f,
};

NOINLINE void iir_biquad(const float *restrict x, float *restrict y, const float *restrict c, float *restrict s, int n) {
    for (int i = 0; i < n; i++) {
        float v = x[i];
        for (int st = 0; st < STAGES; st++) {
            const float *k = c + 5 * st;
            float w = MACF(k[0], v, s[2 * st]);
            float t = k[4] * w;
            s[2 * st] = MACF(k[1], v, MACF(k[3], w, s[2 * st + 1]));
            s[2 * st + 1] = MACF(k[2], v, t);
            v = w;
        }
        y[i] = v;
    }
}

int main(void) {
    for (int i = 0; i < SIZE; i++)
        in[i] = bench_f32();
    iir_biquad(in, out, coef, state, SIZE);
    printf("iir size %d stages %d: checksum 0x%08x state 0x%08x\n", SIZE, STAGES,
           (unsigned)bench_hash(out, SIZE), (unsigned)bench_hash(state, 2 * STAGES));
    return 0;
}

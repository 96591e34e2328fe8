/* shade: a per-pixel shader that branches at its entry on its input, with
 * a heavy computation on each side (not one of the seed's programs: the
 * case its instance restructuring, §2.2.3, is for). Half the pixels take
 * each side, at random, so almost every group of lanes diverges; regrouped
 * by the branch, three of every four vector calls run one side only (the
 * other is skipped by the branches on superword conditions). */
#include "wfv.h"

#define N 8192
#define STEPS 6

float in[N] ALIGNED;
float out[N] ALIGNED;

#pragma simd declare vec-function uniform(steps) nomask
VECFN float shade(float x, int steps) {
    float r;
    if (x > 0.5f) {
        /* a damped recurrence */
        r = x;
        for (int j = 0; j < steps; j++)
            r = r * 0.75f + (r + (float)j) * 0.125f;
    } else {
        /* a polynomial iteration */
        r = 1.0f - x;
        for (int j = 0; j < steps; j++)
            r = (r * r * 0.5f - r) * 0.25f + 0.75f;
    }
    return r;
}

int n_pixels = N, n_steps = STEPS;

NOINLINE void kernel(int n, int steps) {
    #pragma simd vec-function
    for (int i = 0; i < n; i++)
        out[i] = shade(in[i], steps);
}

int main(void) {
    for (int i = 0; i < N; i++)
        in[i] = lcg_unit();
    kernel(n_pixels, n_steps);
    printf("shade %d pixels, %d steps: checksum 0x%08x\n", N, STEPS, (unsigned)wfv_hash(out, N));
    return 0;
}

/* nbody: one time step of an N-body simulation (seed 001 Table 1 and
 * Fig. 5): each body's acceleration summed over all bodies (softened
 * inverse-square law, sqrtf), then velocities and positions advanced. The
 * vector function computes one body's acceleration; its loop over the other
 * bodies is uniform (every instance runs it in step). */
#include "wfv.h"
#include <math.h>

#define N 128

float px[N] ALIGNED, py[N] ALIGNED, pz[N] ALIGNED, mass[N] ALIGNED;
float vx[N] ALIGNED, vy[N] ALIGNED, vz[N] ALIGNED;
float ax[N] ALIGNED, ay[N] ALIGNED, az[N] ALIGNED;
float soften = 0.01f, dt = 0.01f;

#pragma simd declare vec-function uniform(x, y, z, m, oa, ob, oc, n, eps) linear(i) nomask
VECFN void accel(const float *x, const float *y, const float *z, const float *m,
                 float *oa, float *ob, float *oc, int i, int n, float eps) {
    float xi = x[i], yi = y[i], zi = z[i];
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int j = 0; j < n; j++) {
        float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
        float d2 = dx * dx + dy * dy + dz * dz + eps;
        float f = m[j] / (d2 * sqrtf(d2));
        sx += f * dx;
        sy += f * dy;
        sz += f * dz;
    }
    oa[i] = sx;
    ob[i] = sy;
    oc[i] = sz;
}

int bodies = N;

NOINLINE void kernel(int n) {
    #pragma simd vec-function
    for (int i = 0; i < n; i++)
        accel(px, py, pz, mass, ax, ay, az, i, n, soften);
    for (int i = 0; i < n; i++) {
        vx[i] += ax[i] * dt;
        vy[i] += ay[i] * dt;
        vz[i] += az[i] * dt;
        px[i] += vx[i] * dt;
        py[i] += vy[i] * dt;
        pz[i] += vz[i] * dt;
    }
}

int main(void) {
    for (int i = 0; i < N; i++) {
        px[i] = lcg_unit() - 0.5f;
        py[i] = lcg_unit() - 0.5f;
        pz[i] = lcg_unit() - 0.5f;
        mass[i] = 0.5f + lcg_unit();
        vx[i] = vy[i] = vz[i] = 0.0f;
    }
    kernel(bodies);
    printf("nbody %d bodies: positions 0x%08x 0x%08x 0x%08x\n", N,
           (unsigned)wfv_hash(px, N), (unsigned)wfv_hash(py, N), (unsigned)wfv_hash(pz, N));
    return 0;
}

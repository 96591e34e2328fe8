/* volume: volume rendering by ray marching (seed 001 Fig. 5). One ray per
 * pixel of a W x H image goes through a D^3 volume of 8-bit densities
 * along a slanted direction; each step samples the nearest voxel, maps the
 * density to an opacity and a brightness (a transfer function with a
 * threshold: a branch), and composites front to back. The ray stops when
 * it leaves the volume or when its opacity passes 0.95: a data-dependent
 * loop exit, different for every instance. */
#include "wfv.h"

#define W 32
#define H 32
#define D 32
#define MAX_STEPS 64

uint8_t vol[D * D * D] ALIGNED;
float image[H * W] ALIGNED;
float dir_x = 0.19f, dir_y = 0.13f, dir_z = 0.96f, step = 0.75f;

#pragma simd declare vec-function uniform(v, py, w, h) linear(px) nomask
VECFN float march(const uint8_t *v, int px, int py, int w, int h) {
    float x = (float)px * ((float)D / (float)w) + 0.5f;
    float y = (float)py * ((float)D / (float)h) + 0.5f;
    float z = 0.5f;
    float alpha = 0.0f, light = 0.0f;
    for (int s = 0; s < MAX_STEPS; s++) {
        if (x >= (float)D || y >= (float)D || z >= (float)D)
            break;
        int vx = (int)x, vy = (int)y, vz = (int)z;
        int d = v[(vz * D + vy) * D + vx];
        if (d > 96) {
            float a = (float)(d - 96) * (1.0f / 640.0f);
            float c = (float)d * (1.0f / 255.0f);
            float t = (1.0f - alpha) * a;
            light += t * c;
            alpha += t;
            if (alpha > 0.95f)
                break;
        }
        x += dir_x * step;
        y += dir_y * step;
        z += dir_z * step;
    }
    return light;
}

int width = W, height = H;

NOINLINE void kernel(int w, int h) {
    for (int py = 0; py < h; py++) {
        #pragma simd vec-function
        for (int px = 0; px < w; px++)
            image[py * w + px] = march(vol, px, py, w, h);
    }
}

int main(void) {
    /* blobs: density falls off with the distance from three centres, plus noise */
    for (int z = 0; z < D; z++)
        for (int y = 0; y < D; y++)
            for (int x = 0; x < D; x++) {
                int best = 0;
                static const int cx[3] = {10, 22, 16}, cy[3] = {12, 20, 6}, cz[3] = {14, 10, 24};
                for (int b = 0; b < 3; b++) {
                    int dx = x - cx[b], dy = y - cy[b], dz = z - cz[b];
                    int r2 = dx * dx + dy * dy + dz * dz;
                    int dens = 255 - 3 * r2;
                    if (dens > best)
                        best = dens;
                }
                best += (int)lcg_below(24);
                vol[(z * D + y) * D + x] = (uint8_t)(best > 255 ? 255 : best);
            }
    kernel(width, height);
    printf("volume %dx%d rays, %d^3 voxels: checksum 0x%08x\n", W, H, D,
           (unsigned)wfv_hash(image, H * W));
    return 0;
}

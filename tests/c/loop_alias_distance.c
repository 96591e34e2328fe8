// loop_alias_distance: loops whose run-time overlap checks compare the
// distance of two pointers that advance alike (the pipeliner's and egg's
// checks), on both sides of every check: backward loops, a butterfly on one
// array at a run-time distance d (x[i] and x[i + d], d of either sign, 0
// and around the lane counts), a step of two and three pointers, with trip
// counts around the pipelines' minimums and a long one.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 300
#define SPAN 40
#define LEN (MAXN + 4 * SPAN)

uint32_t bi[LEN];
float bf[LEN];

int dists[] = {0, 1, -1, 2, -3, 7, 8, -8, 15, 16, -16, 17, 31, 32, -33, 40};
#define ND ((int)(sizeof dists / sizeof dists[0]))
int trips[] = {0, 1, 3, 5, 7, 8, 9, 12, 16, 17, 33, 64, 100, 257};
#define NT ((int)(sizeof trips / sizeof trips[0]))

/* Backward: q[i] = p[i] * 3 + 1 from the top down (unsigned: chains
 * through overlapping arrays wrap, defined). */
NOINLINE void back_u32(uint32_t *p, uint32_t *q, int n) {
    for (int i = n - 1; i >= 0; i--)
        q[i] = p[i] * 3u + 1u;
}
/* A butterfly on one array at distance d: both halves read, both written. */
NOINLINE void fly_f32(float *x, int d, int n) {
    for (int i = 0; i < n; i++) {
        float a = x[i], b = x[i + d];
        x[i] = a * 0.5f + b * 0.25f;
        x[i + d] = a * 0.25f - b * 0.5f;
    }
}
NOINLINE void fly_u32(uint32_t *x, int d, int n) {
    for (int i = 0; i < n; i++) {
        uint32_t a = x[i], b = x[i + d];
        x[i] = a + (b >> 1);
        x[i + d] = a - b;
    }
}
/* A step of two: q[2i] from p[2i] and p[2i + 1]. */
NOINLINE void step2_u32(const uint32_t *p, uint32_t *q, int n) {
    for (int i = 0; i < 2 * n; i += 2)
        q[i] = p[i] - (p[i + 1] >> 2);
}
/* Three pointers into one array, r between p and q. */
NOINLINE void three_f32(const float *p, const float *q, float *r, int n) {
    for (int i = n - 1; i >= 0; i--)
        r[i] = p[i] * 0.25f - q[i] * 0.5f;
}

static void init(void) {
    for (int i = 0; i < LEN; i++) {
        uint32_t v = ((uint32_t)(i + 17) * 2654435761u) >> 9;
        bi[i] = v;
        bf[i] = (float)(int32_t)(v & 255) - 100.0f;
    }
}
static uint32_t hash(void) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < LEN; i++) {
        h = (h ^ bi[i]) * 0x01000193u;
        h = (h ^ (uint32_t)(int32_t)(bf[i] * 256.0f)) * 0x01000193u;
    }
    return h;
}

int main(void) {
    uint32_t all = 0;
    for (int t = 0; t < NT; t++) {
        int n = trips[t];
        printf("n=%3d", n);
        for (int k = 0; k < ND; k++) {
            int d = dists[k];
            uint32_t *pi = bi + 2 * SPAN;
            float *pf = bf + 2 * SPAN;
            init();
            back_u32(pi, pi + d, n);
            fly_f32(pf, d, n);
            uint32_t h = hash();
            init();
            fly_u32(pi, d, n);
            step2_u32(pi + (d & 1), pi + d, n / 2);
            three_f32(pf, pf + d, pf + d / 2, n);
            h = h * 31u + hash();
            all = all * 17u + h;
            printf(" %04x", (unsigned)((h >> 16) ^ (h & 0xffff)));
        }
        printf("\n");
    }
    printf("all %08x\n", (unsigned)all);
    return 0;
}

// loop_const_trips: loops whose trip counts are compile-time constants (1, 2, 3, 5, 8, 13, 16, 17, 24, 25, 31, 100, 1000) in float, integer and memory-recurrence bodies, so that guards and prologue/epilogue choices made from known counts are exercised.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1024

uint32_t seed = 0xfeed5u;

float xf[MAXN];
uint32_t xu[MAXN], yu[MAXN];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}
static uint32_t hash(const uint32_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ x[i]) * 0x01000193u;
    return h;
}

/* For each N: a float reduction in source order (not reassociable), an integer
   element-wise loop, a memory recurrence and a register recurrence. */
#define KERNELS(N)                                                         \
    NOINLINE float fsum_##N(const float *x) {                              \
        float s = 0.5f;                                                    \
        for (int i = 0; i < N; i++)                                        \
            s = s * 0.96875f + x[i];                                       \
        return s;                                                          \
    }                                                                      \
    NOINLINE void scale_##N(uint32_t *y, const uint32_t *x, uint32_t k) {  \
        for (int i = 0; i < N; i++)                                        \
            y[i] = x[i] * k + (y[i] >> 1);                                 \
    }                                                                      \
    NOINLINE void memrec_##N(uint32_t *y) {                                \
        for (int i = 2; i < N + 2; i++)                                    \
            y[i] = y[i - 1] ^ (y[i - 2] + 0x9e3779b9u);                    \
    }                                                                      \
    NOINLINE uint32_t down_##N(const uint32_t *x) {                        \
        uint32_t h = 1;                                                    \
        for (int i = N - 1; i >= 0; i--)                                   \
            h = h * 0x01000193u + x[i];                                    \
        return h;                                                          \
    }
KERNELS(1)
KERNELS(2)
KERNELS(3)
KERNELS(5)
KERNELS(8)
KERNELS(13)
KERNELS(16)
KERNELS(17)
KERNELS(24)
KERNELS(25)
KERNELS(31)
KERNELS(100)
KERNELS(1000)

/* A nest with constant bounds: 5 x 7 inner trips. */
NOINLINE uint32_t nest_5x7(const uint32_t *x) {
    uint32_t h = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            h += x[i * 7 + j] * (uint32_t)(i + j + 1);
    return h;
}

static void init(void) {
    for (int i = 0; i < MAXN; i++) {
        xf[i] = (float)((int)(lcg() % 2001u) - 1000) * 0.0078125f;
        xu[i] = lcg();
        yu[i] = (uint32_t)i * 3u;
    }
}

#define RUN(N)                                                                             \
    do {                                                                                   \
        init();                                                                            \
        float s = fsum_##N(xf);                                                            \
        scale_##N(yu, xu, 2654435761u);                                                    \
        uint32_t h1 = hash(yu, N + 3);                                                     \
        memrec_##N(yu);                                                                    \
        printf("N=%4d %.9g %08x %08x %08x\n", N, (double)s, h1, hash(yu, N + 4), down_##N(xu)); \
    } while (0)

int main(void) {
    RUN(1);
    RUN(2);
    RUN(3);
    RUN(5);
    RUN(8);
    RUN(13);
    RUN(16);
    RUN(17);
    RUN(24);
    RUN(25);
    RUN(31);
    RUN(100);
    RUN(1000);
    printf("nest %08x\n", nest_5x7(xu));
    return 0;
}

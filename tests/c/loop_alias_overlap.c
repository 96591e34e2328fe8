// loop_alias_overlap: q[i] = p[i] + 1 style loops called with overlapping arrays (q == p, p+1, p-1, p+3, around the lane counts, ...), so that a loop assumed independent breaks; trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000
#define SPAN 34   /* more than the largest |offset| */
#define LEN (MAXN + 4 * SPAN)

int big_trip = 1000;
int offsets[] = {0, 1, -1, 3, 2, -2, -3, 4, 7, 8, -8, 15, 16, 17, -16, 32, 33, -33};
#define NOFF ((int)(sizeof offsets / sizeof offsets[0]))

int32_t bi[LEN];
float bf[LEN];
int64_t bl[LEN];
int16_t bs[LEN];

static uint32_t mixin(uint32_t h, uint32_t v) { return (h ^ v) * 0x01000193u; }

NOINLINE void f_i32(int32_t *p, int32_t *q, int n) {
    for (int i = 0; i < n; i++)
        q[i] = p[i] + 1;
}
NOINLINE void f_f32(float *p, float *q, int n) {
    for (int i = 0; i < n; i++)
        q[i] = p[i] * 0.5f + 1.0f;
}
NOINLINE void f_i64(int64_t *p, int64_t *q, int n) {
    for (int i = 0; i < n; i++)
        q[i] = (p[i] >> 1) + 3;
}
NOINLINE void f_i16(int16_t *p, int16_t *q, int n) {
    for (int i = 0; i < n; i++)
        q[i] = (int16_t)((p[i] & 0x3fff) - 5);
}
/* Three pointers: r[i] = p[i]/2 - q[i]/4, r overlapping p and q. */
NOINLINE void f_sub3(const int32_t *p, const int32_t *q, int32_t *r, int n) {
    for (int i = 0; i < n; i++)
        r[i] = (p[i] >> 1) - (q[i] >> 2);
}
/* Load, then store through the other pointer, then load through it again. */
NOINLINE int32_t f_rw(int32_t *p, int32_t *q, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        q[i] = p[i] & 0xfff;
        s += p[i + 1] & 0xff;
    }
    return s;
}

/* Initializes the part of the kernel's array that the calls can touch: base[-SPAN .. n+SPAN). */
static void init(int kernel, int n) {
    for (int i = SPAN; i < n + 3 * SPAN; i++) {
        int32_t v = (int32_t)(((uint32_t)i * 2654435761u) >> 8) - 7000000;
        if (kernel == 1)
            bf[i] = (float)(v & 127) - 40.0f;
        else if (kernel == 2)
            bl[i] = (int64_t)v * 4096 - i;
        else if (kernel == 3)
            bs[i] = (int16_t)(v & 0x1fff);
        else
            bi[i] = v;
    }
}
static uint32_t hash_i32(const int32_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)x[i]) * 0x01000193u;
    return h;
}
static uint32_t hash_f32(const float *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)(int32_t)(x[i] * 1024.0f)) * 0x01000193u;
    return h;
}
static uint32_t hash_i64(const int64_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = mixin(mixin(h, (uint32_t)x[i]), (uint32_t)((uint64_t)x[i] >> 32));
    return h;
}
static uint32_t hash_i16(const int16_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint16_t)x[i]) * 0x01000193u;
    return h;
}
static unsigned short fold(uint32_t h) { return (unsigned short)((h >> 16) ^ h); }

static void run(int n) {
    int span = n + 2 * SPAN;
    for (int kernel = 0; kernel < 6; kernel++) {
        printf("n=%4d k%d", n, kernel);
        for (int o = 0; o < NOFF; o++) {
            int off = offsets[o];
            uint32_t h;
            init(kernel, n);
            switch (kernel) {
            case 0:
                f_i32(bi + 2 * SPAN, bi + 2 * SPAN + off, n);
                h = hash_i32(bi + SPAN, span);
                break;
            case 1:
                f_f32(bf + 2 * SPAN, bf + 2 * SPAN + off, n);
                h = hash_f32(bf + SPAN, span);
                break;
            case 2:
                f_i64(bl + 2 * SPAN, bl + 2 * SPAN + off, n);
                h = hash_i64(bl + SPAN, span);
                break;
            case 3:
                f_i16(bs + 2 * SPAN, bs + 2 * SPAN + off, n);
                h = hash_i16(bs + SPAN, span);
                break;
            case 4:
                f_sub3(bi + 2 * SPAN, bi + 2 * SPAN + off, bi + 2 * SPAN + off / 2, n);
                h = hash_i32(bi + SPAN, span);
                break;
            default:
                h = (uint32_t)f_rw(bi + 2 * SPAN, bi + 2 * SPAN + off, n);
                h = mixin(h, hash_i32(bi + SPAN, span));
                break;
            }
            printf(" %04x", fold(h));
        }
        printf("\n");
    }
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip);
    return 0;
}

// loop_strides_counters: counted loops of every shape (strides 2, 3, runtime, -1; down to 0; <= and != bounds; unsigned, uint8_t and uint16_t counters that wrap; pointer walks; do-while) at trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 3100

uint32_t seed = 0x7f4a7c15u;
int big_trip = 1000;

uint32_t src[MAXN], dst[MAXN];
uint16_t h16[MAXN];

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed;
}
static uint32_t hash(const uint32_t *x, int n) {
    uint32_t h = 0x811c9dc5u;
    for (int i = 0; i < n; i++)
        h = (h ^ x[i]) * 0x01000193u;
    return h;
}

NOINLINE void stride2(uint32_t *d, const uint32_t *s, int n) { /* n iterations, stride 2 */
    for (int i = 0; i < 2 * n; i += 2)
        d[i] = s[i + 1] * 3u + s[i];
}
NOINLINE void stride3(uint32_t *d, const uint32_t *s, int n) {
    for (int i = 0; i < 3 * n; i += 3)
        d[i + 1] = s[i] ^ (s[i + 2] >> 5);
}
NOINLINE uint32_t stride_var(const uint32_t *s, int step, int n) { /* i < n with a runtime step */
    uint32_t h = 0;
    for (int i = 0; i < n; i += step)
        h = h * 31u + s[i];
    return h;
}
NOINLINE void down1(uint32_t *d, const uint32_t *s, int n) { /* i = n-1 .. 0 */
    for (int i = n - 1; i >= 0; i--)
        d[i] = s[n - 1 - i] + (uint32_t)i;
}
NOINLINE uint32_t down_unsigned(const uint32_t *s, unsigned n) { /* i-- > 0 with an unsigned counter */
    uint32_t h = 1;
    for (unsigned i = n; i-- > 0;)
        h = (h << 1 | h >> 31) ^ s[i];
    return h;
}
NOINLINE void down_to_zero(uint32_t *d, int n) { /* i from n down to 0 inclusive: n+1 iterations */
    for (int i = n; i >= 0; i--)
        d[i] = d[i] * 5u + (uint32_t)i;
}
NOINLINE uint32_t le_bound(const uint32_t *s, int lo, int hi) { /* i <= hi */
    uint32_t h = 7;
    for (int i = lo; i <= hi; i++)
        h += s[i] * (uint32_t)(i - lo + 1);
    return h;
}
NOINLINE void ne_bound(uint32_t *d, const uint32_t *s, unsigned n) { /* i != n */
    for (unsigned i = 0; i != n; i++)
        d[i] = s[i] - d[i];
}
NOINLINE uint32_t walk(const uint32_t *p, const uint32_t *end) { /* pointer walk */
    uint32_t h = 0;
    while (p != end)
        h = (h ^ *p++) * 0x01000193u;
    return h;
}
NOINLINE uint32_t walk_down(uint32_t *p, int n) { /* pointer walk backwards, storing */
    uint32_t *q = p + n, h = 0;
    while (q > p) {
        --q;
        *q += h;
        h = *q >> 3;
    }
    return h;
}
NOINLINE uint32_t ring_u8(const uint32_t *ring, uint8_t start, uint8_t count) { /* uint8_t index wraps 255 -> 0 */
    uint32_t h = 0;
    uint8_t k = start;
    for (uint8_t c = 0; c != count; c++, k++)
        h = h * 33u + ring[k];
    return h;
}
NOINLINE uint32_t ring_u16(const uint16_t *x, uint16_t start, int n) { /* uint16_t index wraps 65535 -> 0 */
    uint32_t h = 0;
    uint16_t k = start;
    for (int i = 0; i < n; i++, k++)
        h += x[k % MAXN] ^ k;
    return h;
}
NOINLINE uint32_t do_while(const uint32_t *s, int n) { /* at least one iteration */
    uint32_t h = 0;
    int i = 0;
    do
        h += s[i] >> (i & 15);
    while (++i < n);
    return h;
}
NOINLINE uint32_t offset_range(const uint32_t *s, int lo, int hi) { /* i from lo to hi-1, lo maybe > hi */
    uint32_t h = 0;
    for (int i = lo; i < hi; i++)
        h = h * 7u + s[i];
    return h;
}

static void init(void) {
    for (int i = 0; i < MAXN; i++) {
        src[i] = lcg();
        dst[i] = (uint32_t)i;
        h16[i] = (uint16_t)(lcg() >> 16);
    }
}

static void run(int n) {
    init();
    int m = 3 * n + 4;
    stride2(dst, src, n);
    uint32_t a = hash(dst, m);
    stride3(dst, src, n);
    uint32_t b = hash(dst, m);
    down1(dst, src, n);
    uint32_t c = hash(dst, m);
    down_to_zero(dst, n);
    uint32_t d = hash(dst, m);
    ne_bound(dst, src, (unsigned)n);
    uint32_t e = hash(dst, m);
    printf("n=%4d st %08x %08x %08x %08x %08x %08x %08x %08x %08x\n", n, a, b, c, d, e,
           stride_var(src, 1 + n % 4, n), stride_var(src, 7, 3 * n), down_unsigned(src, (unsigned)n),
           le_bound(src, 5, 5 + n - 1));
    printf("n=%4d wk %08x %08x %08x %08x %08x %08x %08x %08x\n", n, walk(src, src + n),
           walk_down(dst, n), ring_u8(src, (uint8_t)(250 + n), (uint8_t)(n * 11)),
           ring_u16(h16, (uint16_t)(65530 + n), n), do_while(src, n), offset_range(src, 10, 10 + n),
           offset_range(src, 10 + n, 10), le_bound(src, n + 1, n));
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

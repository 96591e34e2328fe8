// loop_not_pipelined: loops a pipeliner must leave alone (calls inside, break and return exits, while loops on data, volatile accesses) next to pipelinable loops in the same functions; trip counts 0..25 and ~1000.
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define MAXN 1000

uint32_t seed = 0xc0ffeeu;
int big_trip = 1000;

int32_t x[MAXN + 8], y[MAXN + 8];
char text[MAXN + 8];
volatile int32_t vol_sink;
int32_t seen; /* a global the called function reads and writes */

static uint32_t lcg(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 12;
}
NOINLINE int32_t helper(int32_t v) {
    seen = seen * 3 % 1000003 + v % 1000;
    return v ^ seen;
}
static int32_t twice(int32_t v) { return v * 2; }
static int32_t negate(int32_t v) { return -v; }
int32_t (*ops[2])(int32_t) = {twice, negate};

/* A call in the body, then a pipelinable loop over its results. */
NOINLINE int32_t call_then_sum(int32_t *out, const int32_t *in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = helper(in[i]);
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += out[i] & 0xffff;
    return s;
}
/* Indirect call in the body. */
NOINLINE void call_indirect(int32_t *out, const int32_t *in, int n) {
    for (int i = 0; i < n; i++)
        out[i] = ops[in[i] & 1](in[i] >> 4);
}
/* Early exit by break; then a counted loop up to where it stopped. */
NOINLINE int find_then_scale(int32_t *a, int32_t limit, int n) {
    int k;
    for (k = 0; k < n; k++)
        if (a[k] > limit)
            break;
    for (int i = 0; i < k; i++)
        a[i] = a[i] * 3 + 1;
    return k;
}
/* Early return from inside the loop. */
NOINLINE int first_negative_pair(const int32_t *a, int n) {
    for (int i = 0; i + 1 < n; i++)
        if (a[i] < 0 && a[i + 1] < 0)
            return i;
    return -1;
}
/* While loops on data: a sentinel-terminated scan and a strlen. */
NOINLINE int run_length(const int32_t *a, int n) {
    int i = 0;
    while (i < n && (a[i] & 3) != 0)
        i++;
    return i;
}
NOINLINE int my_strlen(const char *s) {
    int n = 0;
    while (*s++)
        n++;
    return n;
}
/* Collatz-like data-driven trip counts per element, with a counted loop inside. */
NOINLINE uint32_t collatz_sum(const int32_t *a, int n) {
    uint32_t total = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v = (uint32_t)(a[i] & 0x3ff) + 1u;
        while (v != 1u)
            v = (v & 1u) ? 3u * v + 1u : v >> 1;
        for (int j = 0; j < (a[i] & 7); j++)
            total += (uint32_t)j * v;
    }
    return total;
}
/* Volatile stores in a counted loop: each one must happen, in order. */
NOINLINE void to_volatile(const int32_t *a, int n) {
    for (int i = 0; i < n; i++)
        vol_sink = a[i] + vol_sink;
}
/* goto loop with two exits. */
NOINLINE int goto_loop(const int32_t *a, int n) {
    int i = 0, acc = 0;
again:
    if (i >= n)
        return acc;
    acc += a[i] % 10;
    if (acc > 40)
        return -acc;
    i++;
    goto again;
}

static void init(int m) {
    for (int i = 0; i < m; i++) {
        x[i] = (int32_t)(lcg() % 20001u) - 10000;
        y[i] = 0;
        text[i] = (char)('a' + lcg() % 26u);
    }
}

static void run(int n) {
    init(n + 8);
    seen = 1;
    vol_sink = 0;
    text[n] = 0;
    int32_t s = call_then_sum(y, x, n);
    printf("n=%4d %d %d", n, (int)s, (int)seen);
    call_indirect(y, x, n);
    int32_t ys = 0;
    for (int i = 0; i < n; i++)
        ys += y[i] % 1000;
    int k = find_then_scale(x, 9000 - 100 * n, n);
    printf(" %d %d %d", (int)ys, k, k > 0 ? (int)x[k - 1] : 0);
    printf(" %d %d %d", first_negative_pair(x, n), run_length(x, n), my_strlen(text));
    to_volatile(x, n);
    printf(" %u %d %d\n", collatz_sum(x, n), (int)vol_sink, goto_loop(x, n));
}

int main(void) {
    for (int n = 0; n <= 25; n++)
        run(n);
    run(big_trip - 1);
    run(big_trip);
    return 0;
}

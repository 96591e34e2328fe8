// bit_reverse_vec: a bit-reversal permutation's swaps on the vector unit
// dsp-bitrev-vec, after dsp-reverse-carry: three arrays of 32-bit elements
// (ints and a float) swapped in one loop, as restrict arguments and as
// globals; sizes from 0 to 4096, powers of two (vectorized), 2^k + 1 (n - 1
// beyond the walked bits: the scalar loop) and others (not a power-of-two
// bit: the original loop). Loops the pass must leave alone give the same
// results: a swap that also counts, and arrays that may overlap (no
// restrict), here called with the same array twice.
#include <stdint.h>
#include <stdio.h>

#define MAXN 4100

static int32_t a[MAXN], c[MAXN];
static float b[MAXN];
static uint32_t st = 12345;
static uint32_t rnd(void) { st = st * 1103515245u + 12345u; return st >> 7; }

static uint32_t hash(const void *p, int n) {
    const uint32_t *x = p;
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ x[i]) * 16777619u;
    return h;
}

__attribute__((noinline)) void bitrev3(int32_t *restrict x, float *restrict y, int32_t *restrict z, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            int32_t t = x[i];
            x[i] = x[j];
            x[j] = t;
            float u = y[i];
            y[i] = y[j];
            y[j] = u;
            t = z[j];
            z[j] = z[i];
            z[i] = t;
        }
    }
}

/* The globals themselves (identified objects). */
__attribute__((noinline)) void bitrev_globals(int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            int32_t t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}

/* A swap that also counts: not only swaps under i < j. */
__attribute__((noinline)) int bitrev_count(int32_t *restrict x, int n) {
    int swaps = 0;
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            int32_t t = x[i];
            x[i] = x[j];
            x[j] = t;
            swaps++;
        }
    }
    return swaps;
}

/* Arrays that may overlap. */
__attribute__((noinline)) void bitrev_alias(int32_t *x, int32_t *y, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            int32_t t = x[i];
            x[i] = x[j];
            x[j] = t;
            t = y[i];
            y[i] = y[j];
            y[j] = t;
        }
    }
}

static void fill(void) {
    for (int i = 0; i < MAXN; i++) {
        a[i] = (int32_t)rnd();
        b[i] = (float)(int32_t)(rnd() % 20001 - 10000) / 8.0f;
        c[i] = i;
    }
}

int main(void) {
    static const int ns[] = {0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 64, 65, 100, 128, 129, 512, 1024, 1025, 2048, 4096};
    for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        fill();
        bitrev3(a, b, c, n);
        printf("n=%4d three %08x %08x %08x", n, (unsigned)hash(a, MAXN), (unsigned)hash(b, MAXN), (unsigned)hash(c, MAXN));
        if (n > 0 && n <= 17) {
            printf(" [");
            for (int i = 0; i < n; i++)
                printf("%s%d", i ? " " : "", (int)c[i]);
            printf("]");
        }
        printf("\n");
        fill();
        bitrev_globals(n);
        int s = bitrev_count(c, n);
        printf("n=%4d globals %08x count %d %08x\n", n, (unsigned)hash(a, MAXN), s, (unsigned)hash(c, MAXN));
        fill();
        bitrev_alias(a, c, n);
        bitrev_alias(c, c, n);
        printf("n=%4d alias %08x %08x\n", n, (unsigned)hash(a, MAXN), (unsigned)hash(c, MAXN));
    }
    return 0;
}

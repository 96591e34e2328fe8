// bit_reverse: bit-reversal permutations whose carry loop dsp-reverse-carry
// puts in closed form (n >> 1 zero or a power of two, the versioned copy),
// and the same loops for other n (the original loop). The forms: the
// textbook one on two float arrays, one on an int array with a long long
// counter, one with an arithmetic shift of a negative first bit, and one
// whose counter is used after the loop. Either way the output must be the
// host's, bit for bit.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAXN 1100
float re[MAXN], im[MAXN];
int32_t ia[MAXN];

static uint32_t st = 7;
static uint32_t rnd(void) { st = st * 1664525u + 1013904223u; return st >> 8; }

static uint32_t hash_f(const float *x, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], 4);
        h = (h ^ u) * 16777619u;
    }
    return h;
}

static uint32_t hash_i(const int32_t *x, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)x[i]) * 16777619u;
    return h;
}

__attribute__((noinline)) void bitrev_f(float *restrict xr, float *restrict xi, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            float t = xr[i];
            xr[i] = xr[j];
            xr[j] = t;
            t = xi[i];
            xi[i] = xi[j];
            xi[j] = t;
        }
    }
}

/* A 64-bit counter; the swap only when j is in range (n not a power of
 * two sends j anywhere). */
__attribute__((noinline)) void bitrev_ll(int32_t *x, long long n) {
    long long j = 0;
    for (long long i = 1; i < n; i++) {
        long long bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j && j < n) {
            int32_t t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
}

/* The counter's sequence summed, and the last one returned (used after
 * the loop); `m` may be negative (an arithmetic shift). */
__attribute__((noinline)) int rev_sum(int m, int count, int *last) {
    int j = 0, s = 0;
    for (int i = 0; i < count; i++) {
        int bit = m >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        s = s * 31 + j;
    }
    *last = j;
    return s;
}

int main(void) {
    static const int ns[] = {0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 17, 32, 100, 128, 256, 257, 1000, 1024};
    for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        for (int i = 0; i < MAXN; i++) {
            re[i] = (float)(rnd() % 2001) / 100.0f - 10.0f;
            im[i] = (float)i;
            ia[i] = (int32_t)(rnd() % 100001) - 50000;
        }
        bitrev_f(re, im, n);
        printf("f n=%4d re %08x im %08x", n, (unsigned)hash_f(re, MAXN), (unsigned)hash_f(im, MAXN));
        if (n > 0 && n <= 16) {
            printf(" [");
            for (int i = 0; i < n; i++)
                printf("%s%d", i ? " " : "", (int)im[i]);
            printf("]");
        }
        printf("\n");
        bitrev_ll(ia, n);
        printf("i n=%4d %08x\n", n, (unsigned)hash_i(ia, MAXN));
    }
    /* Negative m other than -1 and -2 can make the carry loop toggle forever. */
    static const int ms[] = {0, 1, 2, 3, 7, 8, 64, 65, 96, -1, -2, 0x40000000};
    for (unsigned k = 0; k < sizeof ms / sizeof ms[0]; k++) {
        int last = 0;
        int s = rev_sum(ms[k], 40, &last);
        printf("m=%d sum %d last %d\n", ms[k], s, last);
    }
    return 0;
}

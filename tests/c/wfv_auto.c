// wfv_auto: -fvec-function=auto: loops calling functions without directives vectorized when provably safe, refused otherwise; the output must not depend on it.
// dsp-cflags: -fvec-function=auto
/* Candidates: a divergent while loop (Collatz steps) and a polynomial with
   a uniform coefficient table, called from loops storing through restrict
   pointers; a call made only on some iterations (the masked variant).
   Refused: a callee that writes memory, a loop whose stores a read-only
   callee could read (a global), a loop carrying a sum. Trip counts around
   the lane counts exercise the scalar remainder. */
#include <stdint.h>
#include <stdio.h>

#define N 203

__attribute__((noinline)) int steps(int x, int limit) {
    int n = 0;
    while (x != 1 && n < limit) {
        if (x & 1)
            x = 3 * x + 1;
        else
            x = x / 2;
        n++;
    }
    return n;
}

__attribute__((noinline)) float horner(float x, const float *c) {
    float r = c[0];
    for (int k = 1; k < 6; k++)
        r = r * x + c[k];
    return r;
}

int counter;
__attribute__((noinline)) int bump(int x) {
    counter += x & 3; /* writes memory: never run side by side */
    return counter;
}

int table[N];
__attribute__((noinline)) int peek(int i) {
    return table[(i * 7) % N]; /* reads a global the caller writes */
}

float coef[6] = {1.0f, -2.0f, 0.5f, 3.0f, -1.0f, 0.25f};
int io[N], jo[N];
float fo[N];

__attribute__((noinline)) void fill(int *restrict o, float *restrict f, int *restrict c, int n) {
    for (int i = 0; i < n; i++)
        o[i] = steps(i + 1, 300);
    for (int i = 0; i < n; i++)
        f[i] = horner((float)i * 0.015625f - 1.0f, coef);
    for (int i = 0; i < n; i++)
        c[i] = (i % 3 == 0) ? steps(2 * i + 3, 40) : -i; /* conditional call */
}

__attribute__((noinline)) void refused(int n) {
    for (int i = 0; i < n; i++)
        jo[i] = bump(i);
    for (int i = 0; i < n; i++)
        table[i] = peek(i) + i;
}

__attribute__((noinline)) int total(int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += steps(i + 7, 100);
    return s;
}

static uint32_t hash_i(const int *p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)p[i]) * 16777619u;
    return h;
}

int main(void) {
    static const int sizes[] = {0, 1, 7, 15, 16, 17, 33, N};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int i = 0; i < N; i++) {
            io[i] = jo[i] = -1;
            fo[i] = 0.0f;
            table[i] = i * 5 - 100;
        }
        counter = 0;
        fill(io, fo, jo, n);
        uint32_t hf = 2166136261u;
        for (int i = 0; i < n; i++) {
            union { float f; uint32_t u; } b = {fo[i]};
            hf = (hf ^ b.u) * 16777619u;
        }
        printf("n=%3d fill %08x %08x %08x\n", n, (unsigned)hash_i(io, N), (unsigned)hf, (unsigned)hash_i(jo, N));
        refused(n);
        printf("n=%3d refused %08x %08x %d total %d\n", n, (unsigned)hash_i(jo, N), (unsigned)hash_i(table, N), counter, total(n));
    }
    return 0;
}

// loop_ifconv_loads: loops whose conditional blocks load from addresses
// no unconditional access reads, which if-conversion reroutes through a
// selected address (a scratch stack slot's when the block does not run):
// every width, a load whose address is itself loaded conditionally, a
// conditional swap, and loads that would fault if they ran unguarded (an
// index far outside memory, a null pointer). The output must be the host's.
#include <stdint.h>
#include <stdio.h>

#define N 200
uint8_t u8[N];
int16_t i16[N];
int32_t i32[N], idx[N];
int64_t i64[N];
float f32[N];
double f64[N];
int32_t *ptrs[N];

static uint32_t st = 5;
static uint32_t rnd(void) { st = st * 1103515245u + 12345u; return st >> 9; }

__attribute__((noinline)) int64_t widths(const uint8_t *c, int n) {
    int64_t s = 0;
    for (int k = 0; k < n; k++) {
        int32_t t = 0;
        if (c[k] & 1)
            t = i16[k] + u8[(k * 7) % N];
        else if (c[k] & 2)
            t = (int32_t)i64[k] ^ (int32_t)(i64[k] >> 32);
        s += t;
    }
    return s;
}

__attribute__((noinline)) double floats(int n, float lim) {
    double s = 0;
    for (int k = 0; k < n; k++) {
        float x = f32[k];
        if (x > lim)
            s += f64[k] * x;
    }
    return s;
}

/* The index is garbage (far outside memory) exactly when the test fails. */
__attribute__((noinline)) int64_t far_index(int n) {
    int64_t s = 0;
    for (int k = 0; k < n; k++) {
        int j = idx[k];
        if (j >= 0 && j < N)
            s += i32[j];
    }
    return s;
}

/* A null pointer when the test fails; the loaded pointer is loaded again. */
__attribute__((noinline)) uint32_t chase(int n) {
    uint32_t s = 0;
    for (int k = 0; k < n; k++) {
        int32_t *p = ptrs[k];
        if (p)
            s += (uint32_t)*p * (uint32_t)(k + 1);
    }
    return s;
}

__attribute__((noinline)) void swap_if(int32_t *restrict a, int n) {
    for (int k = 0; k + 1 < n; k += 2) {
        if (a[k] > a[k + 1]) {
            int32_t t = a[k];
            a[k] = a[k + 1];
            a[k + 1] = t;
        }
    }
}

/* Conditional loads of a strided partner, stored under the same test. */
__attribute__((noinline)) void partner(float *restrict x, const int32_t *restrict sel, int n) {
    for (int k = 1; k < n; k++) {
        int j = (k * 37) % n;
        if (sel[k] > 0 && k < j) {
            float t = x[k];
            x[k] = x[j];
            x[j] = t;
        }
    }
}

int main(void) {
    for (int k = 0; k < N; k++) {
        u8[k] = (uint8_t)rnd();
        i16[k] = (int16_t)(rnd() - 0x8000);
        i32[k] = (int32_t)rnd() - 0x400000;
        i64[k] = ((int64_t)rnd() << 20) ^ (int64_t)rnd();
        f32[k] = (float)(rnd() % 2000) / 100.0f - 10.0f;
        f64[k] = (double)(rnd() % 3000) / 7.0;
        idx[k] = (rnd() % 3 == 0) ? 0x7fff0000 + (int32_t)(rnd() % 1000) : (int32_t)(rnd() % N);
        if (rnd() % 4 == 0)
            idx[k] = -0x40000000;
        ptrs[k] = (rnd() % 3 == 0) ? (int32_t *)0 : &i32[rnd() % N];
    }
    for (int n = 0; n <= N; n += 37) {
        printf("n=%d widths %lld floats %.6f far %lld chase %u\n", n, (long long)widths(u8, n), floats(n, 1.5f),
               (long long)far_index(n), (unsigned)chase(n));
    }
    int32_t a[N];
    float x[N];
    for (int k = 0; k < N; k++) {
        a[k] = i32[(k * 13) % N];
        x[k] = f32[k];
    }
    swap_if(a, N);
    partner(x, i32, N);
    uint32_t h = 2166136261u;
    for (int k = 0; k < N; k++) {
        h = (h ^ (uint32_t)a[k]) * 16777619u;
        union { float f; uint32_t u; } cv = {x[k]};
        h = (h ^ cv.u) * 16777619u;
    }
    printf("swaps %08x\n", (unsigned)h);
    return 0;
}

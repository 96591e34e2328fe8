// interchange: dot-product nests (2mm) and a triangular one (trmm) over arrays larger than any shipped L1D: PLuTo's own
// schedule keeps their reductions innermost, so dsp-pluto falls back to an interchange schedule (permute), distributed
// below the outer loop. Also a column sweep (gemver's A^T y: PLuTo's tiling with the stride-1 loop innermost) and a nest
// whose interchange would be illegal (distance (1, -1): PLuTo skews it).
// dsp-cflags: -fpolyhedral -fno-math-errno
#include <stdio.h>

#define NI 64
#define NJ 72
#define NK 80
#define NL 88
#define M 96
#define N 112
#define NG 150
#define NX 130

static float A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], T[NI][NJ];
static float TA[M][M], TB[M][N];
static float GA[NG][NG], gx[NG], gy[NG];
static int X[NX][NX];

__attribute__((noinline)) void mm2(float alpha, float beta) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            T[i][j] = 0.0f;
            for (int k = 0; k < NK; k++)
                T[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++) {
            D[i][l] *= beta;
            for (int j = 0; j < NJ; j++)
                D[i][l] += T[i][j] * C[j][l];
        }
}

__attribute__((noinline)) void trmm(float alpha) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            for (int k = i + 1; k < M; k++)
                TB[i][j] += TA[k][i] * TB[k][j];
            TB[i][j] = alpha * TB[i][j];
        }
}

__attribute__((noinline)) void column(float beta) {
    for (int i = 0; i < NG; i++)
        for (int j = 0; j < NG; j++)
            gx[i] = gx[i] + beta * GA[j][i] * gy[j];
}

__attribute__((noinline)) void skewed(void) {
    for (int i = 1; i < NX; i++)
        for (int j = 0; j < NX - 1; j++)
            X[j][i] = X[j + 1][i - 1] + (i ^ j);
}

static unsigned hash(const void *p, int n) {
    const unsigned char *b = p;
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

int main(void) {
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (float)((i * k + 1) % 7) / 4.0f;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (float)((k + 2 * j) % 5) / 2.0f;
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++)
            C[j][l] = (float)((j * l + 3) % 9) / 8.0f;
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            D[i][l] = (float)((i + l) % 3);
    mm2(1.5f, 0.5f);
    printf("2mm T %08x D %08x\n", hash(T, sizeof T), hash(D, sizeof D));
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            TA[i][k] = (float)((i + k) % 5) / 4.0f;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            TB[i][j] = (float)((i * j) % 3) / 2.0f;
    trmm(0.75f);
    printf("trmm %08x\n", hash(TB, sizeof TB));
    for (int i = 0; i < NG; i++) {
        gx[i] = (float)(i % 4);
        gy[i] = (float)(i % 6) / 4.0f;
        for (int j = 0; j < NG; j++)
            GA[i][j] = (float)((i * j) % 11) / 8.0f;
    }
    column(1.25f);
    printf("column %08x\n", hash(gx, sizeof gx));
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NX; j++)
            X[i][j] = i * 3 + j;
    skewed();
    printf("skewed %08x %d\n", hash(X, sizeof X), X[5][NX - 1]);
    return 0;
}

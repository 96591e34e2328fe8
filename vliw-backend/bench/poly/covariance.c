/* covariance: the M x M covariance matrix of N observations of M variables
 * (data: N x M): means, centring, cov[i][j] = sum_k d[k][i] d[k][j] / (N - 1)
 * on and above the diagonal, mirrored below. */
#include "poly.h"

#ifdef MEDIUM
#define M 112
#define N 128
#else
#define M 28
#define N 32
#endif

static float data[N][M], cov[M][M], mean[M];

NOINLINE void kernel_covariance(float n) {
    for (int j = 0; j < M; j++) {
        mean[j] = 0.0f;
        for (int i = 0; i < N; i++)
            mean[j] += data[i][j];
        mean[j] /= n;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] -= mean[j];
    for (int i = 0; i < M; i++)
        for (int j = i; j < M; j++) {
            cov[i][j] = 0.0f;
            for (int k = 0; k < N; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= n - 1.0f;
            cov[j][i] = cov[i][j];
        }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] = poly_init(i * j + i, M);
    kernel_covariance((float)N);
    poly_print("cov", cov, M * M);
    return 0;
}

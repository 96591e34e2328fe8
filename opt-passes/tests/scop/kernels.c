/* PolyBench-style kernels written for the SCoP detection tests
 * (tests/scop.rs): each function is expected to be one SCoP. */
#define N 64
#define M 48

float A[N][N], B[N][N], C[N][N], D[N][N], E[N][N], tmp[N][N];
float x[N], y[N], t1[N];

void gemm(int n, float alpha, float beta) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < n; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

void mm2(int ni, int nj, int nk, float alpha, float beta) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      tmp[i][j] = 0.0f;
      for (int k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nk; j++) {
      D[i][j] *= beta;
      for (int k = 0; k < nj; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}

void jacobi1d(int tsteps, int n, float *restrict a, float *restrict b) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.33333f * (a[i - 1] + a[i] + a[i + 1]);
    for (int i = 1; i < n - 1; i++)
      a[i] = 0.33333f * (b[i - 1] + b[i] + b[i + 1]);
  }
}

void jacobi2d(int tsteps, int n) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
}

void seidel2d(int tsteps, int n) {
  for (int t = 0; t <= tsteps - 1; t++)
    for (int i = 1; i <= n - 2; i++)
      for (int j = 1; j <= n - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i][j + 1] +
                   A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0f;
}

void lu(int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}

void syrk(int n, int m, float alpha, float beta) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

void trmm(int m, int n, float alpha, float (*restrict a)[N], float (*restrict b)[N]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        b[i][j] += a[k][i] * b[k][j];
      b[i][j] = alpha * b[i][j];
    }
}

void floyd_warshall(int n, int (*p)[N]) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        p[i][j] = p[i][j] < p[i][k] + p[k][j] ? p[i][j] : p[i][k] + p[k][j];
}

void atax(int m, int n) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
  for (int i = 0; i < m; i++) {
    t1[i] = 0.0f;
    for (int j = 0; j < n; j++)
      t1[i] = t1[i] + A[i][j] * x[j];
    for (int j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * t1[i];
  }
}

void guarded(int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i < j)
        A[i][j] = B[j][i];
      else
        A[i][j] = 0.0f;
}

void linearized(int n, float *restrict a, const float *restrict b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++)
      a[i * M + j] = 2.0f * b[j * M + i];
}

void bounded_min(int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < (i + 8 < m ? i + 8 : m); j++)
      A[i][j] = 1.0f;
}

void reverse(int n) {
  for (int i = n - 1; i >= 0; i--)
    x[i] = y[n - 1 - i];
}

/* One array through two shapes: the global's own shape for both. */
void mixed_shapes(int n) {
  float *flat = &A[0][0];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < N - 1; j++)
      A[i][j] = flat[i * N + j + 1];
}

/* An equality guard: the statement's domain is the diagonal. */
void diagonal(int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i == j)
        A[i][j] = 1.0f;
}

/* A scalar reduction: the phis are zero-dimensional arrays. */
void sum_reduction(int n, float *out) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i];
  *out = s;
}

/* A value merged after an affine if: the phi is a zero-dimensional array
 * both sides write and the join reads. */
void merge(int n) {
  for (int i = 0; i < n; i++) {
    float t;
    if (i < 10)
      t = x[i] * 2.0f;
    else
      t = y[i] + 1.0f;
    t1[i] = t;
  }
}

/* Steps other than 1: the iterator counts iterations (i = 1 + 3 * i0). */
void strided(int n) {
  for (int i = 1; i <= n; i += 3)
    for (int j = i; j < n; j++)
      tmp[i][j] = x[j];
}

void down_by_four(int n) {
  for (int i = n; i > 0; i -= 4)
    y[i] = 1.0f;
}

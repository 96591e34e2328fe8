/* More PolyBench-style kernels (issue 12's bench list) that detection must
 * find whole: tests/scop.rs `more_polybench_kernels_are_scops`. */
#define N 32
float A[N][N], B[N][N], C[N][N], D[N][N], E[N][N], F[N][N], G[N][N];
float u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N], s[N], q[N], p[N], r[N];
float R[N][N][N], sum[N];
float data[N][N], cov[N][N], mean[N];
float ex[N][N], ey[N][N], hz[N][N], fict[N];
float H1[N][N][N], H2[N][N][N];

void mm3(int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      E[i][j] = 0;
      for (int k = 0; k < n; k++) E[i][j] += A[i][k] * B[k][j];
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      F[i][j] = 0;
      for (int k = 0; k < n; k++) F[i][j] += C[i][k] * D[k][j];
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      G[i][j] = 0;
      for (int k = 0; k < n; k++) G[i][j] += E[i][k] * F[k][j];
    }
}

void syr2k(int n, int m, float alpha, float beta) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) C[i][j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++) C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
}

void gemver(int n, float alpha, float beta) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x[i] = x[i] + beta * A[j][i] * y[j];
  for (int i = 0; i < n; i++) x[i] = x[i] + z[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) w[i] = w[i] + alpha * A[i][j] * x[j];
}

void mvt(int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) x[i] = x[i] + A[i][j] * y[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) z[i] = z[i] + A[j][i] * w[j];
}

void bicg(int n, int m) {
  for (int i = 0; i < m; i++) s[i] = 0;
  for (int i = 0; i < n; i++) {
    q[i] = 0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

void doitgen(int nr, int nq, int np) {
  for (int r0 = 0; r0 < nr; r0++)
    for (int q0 = 0; q0 < nq; q0++) {
      for (int p0 = 0; p0 < np; p0++) {
        sum[p0] = 0;
        for (int s0 = 0; s0 < np; s0++) sum[p0] += R[r0][q0][s0] * C[s0][p0];
      }
      for (int p0 = 0; p0 < np; p0++) R[r0][q0][p0] = sum[p0];
    }
}

void cholesky(int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++) A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (int k = 0; k < i; k++) A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = __builtin_sqrtf(A[i][i]);
  }
}

void covariance(int m, int n, float fn) {
  for (int j = 0; j < m; j++) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; i++) mean[j] += data[i][j];
    mean[j] /= fn;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) data[i][j] -= mean[j];
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      cov[i][j] = 0.0f;
      for (int k = 0; k < n; k++) cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (fn - 1.0f);
      cov[j][i] = cov[i][j];
    }
}

void fdtd2d(int tmax, int nx, int ny) {
  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++) ey[0][j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++) ey[i][j] = ey[i][j] - 0.5f * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++) ex[i][j] = ex[i][j] - 0.5f * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

void heat3d(int tsteps, int n) {
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          H2[i][j][k] = 0.125f * (H1[i + 1][j][k] - 2.0f * H1[i][j][k] + H1[i - 1][j][k]) +
                        0.125f * (H1[i][j + 1][k] - 2.0f * H1[i][j][k] + H1[i][j - 1][k]) +
                        0.125f * (H1[i][j][k + 1] - 2.0f * H1[i][j][k] + H1[i][j][k - 1]) + H1[i][j][k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          H1[i][j][k] = 0.125f * (H2[i + 1][j][k] - 2.0f * H2[i][j][k] + H2[i - 1][j][k]) +
                        0.125f * (H2[i][j + 1][k] - 2.0f * H2[i][j][k] + H2[i][j - 1][k]) +
                        0.125f * (H2[i][j][k + 1] - 2.0f * H2[i][j][k] + H2[i][j][k - 1]) + H2[i][j][k];
  }
}

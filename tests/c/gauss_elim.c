// gauss_elim: Gaussian elimination with partial pivoting on doubles, determinant, inverse and residual checks.
#include <math.h>
#include <stdio.h>

#define N 6
double A[N][N], b[N];

static int solve(double m[N][N], double rhs[N], double x[N], double *det) {
    double a[N][N + 1];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            a[i][j] = m[i][j];
        a[i][N] = rhs[i];
    }
    *det = 1.0;
    for (int col = 0; col < N; col++) {
        int piv = col;
        for (int r = col + 1; r < N; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (a[piv][col] == 0.0)
            return 0;
        if (piv != col) {
            for (int j = 0; j <= N; j++) {
                double t = a[col][j];
                a[col][j] = a[piv][j];
                a[piv][j] = t;
            }
            *det = -*det;
        }
        *det *= a[col][col];
        for (int r = col + 1; r < N; r++) {
            double f = a[r][col] / a[col][col];
            for (int j = col; j <= N; j++)
                a[r][j] -= f * a[col][j];
        }
    }
    for (int i = N - 1; i >= 0; i--) {
        double s = a[i][N];
        for (int j = i + 1; j < N; j++)
            s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return 1;
}

int main(void) {
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            A[i][j] = 1.0 / (i + j + 1) + (i == j ? 1.0 : 0.0) + ((i * 3 + j) % 4) * 0.125;
        b[i] = i - 2.5;
    }
    double x[N], det;
    if (!solve(A, b, x, &det)) {
        printf("singular\n");
        return 1;
    }
    printf("det %.15g\n", det);
    for (int i = 0; i < N; i++)
        printf("x[%d] = %.15g\n", i, x[i]);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        double r = -b[i];
        for (int j = 0; j < N; j++)
            r += A[i][j] * x[j];
        if (fabs(r) > worst)
            worst = fabs(r);
    }
    printf("residual below 1e-12: %d\n", worst < 1e-12);
    /* Inverse column by column. */
    double inv[N][N];
    for (int c = 0; c < N; c++) {
        double e[N] = {0}, col[N], d;
        e[c] = 1.0;
        solve(A, e, col, &d);
        for (int r = 0; r < N; r++)
            inv[r][c] = col[r];
    }
    double off = 0, diag = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * inv[k][j];
            if (i == j)
                diag += s;
            else
                off += fabs(s);
        }
    printf("A*inv: diagonal sum %.12f off-diagonal small %d\n", diag, off < 1e-12);
    printf("inv[0][0] %.15g inv[5][5] %.15g\n", inv[0][0], inv[N - 1][N - 1]);
    /* A singular system is detected. */
    double S[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            S[i][j] = (double)((i % 3) * (j + 1));
    printf("singular detected %d\n", !solve(S, b, x, &det));
    return 0;
}

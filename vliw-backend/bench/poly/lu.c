/* lu: A = L U in place without pivoting (L unit lower triangular below the
 * diagonal, U on and above it; A: N x N, diagonally dominant so no pivot is
 * small). Row i: first L's entries left of the diagonal, then U's. */
#include "poly.h"

#ifdef MEDIUM
#define N 144
#else
#define N 32
#endif

static float A[N][N];

NOINLINE void kernel_lu(void) {
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (int j = i; j < N; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = i == j ? (float)N : poly_init(i * 7 + j * 3, N);
    kernel_lu();
    poly_print("A", A, N * N);
    return 0;
}

/* floyd-warshall: all-pairs shortest path lengths in place on an N x N
 * matrix of integer edge weights (through every intermediate vertex k in
 * turn). */
#include "poly.h"

#ifdef MEDIUM
#define N 144
#else
#define N 40
#endif

static int32_t path[N][N];

NOINLINE void kernel_floyd_warshall(void) {
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int32_t through = path[i][k] + path[k][j];
                if (through < path[i][j])
                    path[i][j] = through;
            }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            path[i][j] = i * j % 7 + 1;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                path[i][j] = 999;
        }
    kernel_floyd_warshall();
    poly_print("path", path, N * N);
    return 0;
}

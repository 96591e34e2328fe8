/* fdtd-2d: T steps of the 2-D finite-difference time-domain method (Yee's
 * scheme, TE mode): the electric fields ex, ey from the magnetic field hz,
 * then hz from them; a source fict[t] drives the row ey[0] (NX x NY). */
#include "poly.h"

#ifdef MEDIUM
#define NX 100
#define NY 110
#define T 20
#else
#define NX 20
#define NY 24
#define T 10
#endif

static float ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[T];

NOINLINE void kernel_fdtd_2d(void) {
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5f * (hz[i][j] - hz[i - 1][j]);
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5f * (hz[i][j] - hz[i][j - 1]);
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
}

int main(void) {
    for (int t = 0; t < T; t++)
        fict[t] = (float)t;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = poly_init(i * (j + 1), NX);
            ey[i][j] = poly_init(i * (j + 2), NY);
            hz[i][j] = poly_init(i * (j + 3), NX);
        }
    kernel_fdtd_2d();
    poly_print("ex", ex, NX * NY);
    poly_print("ey", ey, NX * NY);
    poly_print("hz", hz, NX * NY);
    return 0;
}

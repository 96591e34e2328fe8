// arrays_2d: two- and three-dimensional arrays: indexing, passing to functions, transposes, row/column sums.
#include <stdio.h>

#define R 6
#define C 9
int m[R][C];
double md[4][4];
char board[8][8];

static long row_sum(const int row[C]) {
    long s = 0;
    for (int j = 0; j < C; j++)
        s += row[j];
    return s;
}
static long col_sum(int a[][C], int rows, int col) {
    long s = 0;
    for (int i = 0; i < rows; i++)
        s += a[i][col];
    return s;
}
static void transpose(const int in[R][C], int out[C][R]) {
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            out[j][i] = in[i][j];
}
static double det3(double a[3][3]) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

int main(void) {
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            m[i][j] = (i + 1) * (j - 4) + (i ^ j);
    for (int i = 0; i < R; i++)
        printf("row %d sum %ld\n", i, row_sum(m[i]));
    for (int j = 0; j < C; j += 2)
        printf("col %d sum %ld\n", j, col_sum(m, R, j));
    int t[C][R];
    transpose((const int(*)[C])m, t);
    printf("t[8][5] %d m[5][8] %d t[3][2] %d\n", t[8][5], m[5][8], t[3][2]);
    /* 3D array: a small volume with neighbour sums. */
    int vol[4][5][6];
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 6; c++)
                vol[a][b][c] = a * 100 + b * 10 + c;
    long nsum = 0;
    for (int a = 1; a < 3; a++)
        for (int b = 1; b < 4; b++)
            for (int c = 1; c < 5; c++)
                nsum += vol[a - 1][b][c] + vol[a + 1][b][c] + vol[a][b - 1][c] + vol[a][b + 1][c] +
                        vol[a][b][c - 1] + vol[a][b][c + 1] - 6 * vol[a][b][c];
    printf("laplacian sum %ld vol[3][4][5] %d\n", nsum, vol[3][4][5]);
    /* Doubles: identity-ish matrix, 3x3 minors and determinants. */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            md[i][j] = (i == j) ? 2.0 : 1.0 / (i + j + 1);
    for (int skip = 0; skip < 4; skip++) {
        double minor[3][3];
        for (int i = 1, mi = 0; i < 4; i++, mi++)
            for (int j = 0, mj = 0; j < 4; j++)
                if (j != skip)
                    minor[mi][mj++] = md[i][j];
        printf("minor %d det %.10g\n", skip, det3(minor));
    }
    /* A char board: place queens on a diagonal pattern and print it. */
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            board[i][j] = ((i + j) % 2) ? '.' : ' ';
    int queens[8] = {0, 4, 7, 5, 2, 6, 1, 3};
    for (int i = 0; i < 8; i++)
        board[i][queens[i]] = 'Q';
    for (int i = 0; i < 8; i++)
        printf("|%.8s|\n", board[i]);
    /* Check the queens do not attack each other. */
    int ok = 1;
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            if (queens[i] == queens[j] || queens[i] - queens[j] == i - j || queens[i] - queens[j] == j - i)
                ok = 0;
    printf("queens ok %d\n", ok);
    /* Array of arrays of strings. */
    const char *grid[2][3] = {{"a", "bb", "ccc"}, {"dddd", "", "f"}};
    int len = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (const char *p = grid[i][j]; *p; p++)
                len++;
    printf("total string length %d\n", len);
    return 0;
}

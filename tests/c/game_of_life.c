// game_of_life: Conway's game of life on a wrapped 2D byte grid, with glider and oscillator checks.
#include <stdio.h>
#include <string.h>

#define H 24
#define W 32
unsigned char grid[H][W], next[H][W];

static int neighbours(int r, int c) {
    int n = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (dr || dc)
                n += grid[(r + dr + H) % H][(c + dc + W) % W];
    return n;
}
static void step(void) {
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            int n = neighbours(r, c);
            next[r][c] = (unsigned char)(n == 3 || (n == 2 && grid[r][c]));
        }
    memcpy(grid, next, sizeof grid);
}
static int population(void) {
    int p = 0;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            p += grid[r][c];
    return p;
}
static unsigned hash(void) {
    unsigned h = 2166136261u;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            h = (h ^ grid[r][c]) * 16777619u;
    return h;
}
static void show(int rows) {
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < W; c++)
            putchar(grid[r][c] ? '#' : '.');
        putchar('\n');
    }
}

int main(void) {
    /* A glider returns to its shape shifted by (1,1) every 4 generations. */
    memset(grid, 0, sizeof grid);
    grid[0][1] = grid[1][2] = grid[2][0] = grid[2][1] = grid[2][2] = 1;
    unsigned h0 = hash();
    for (int g = 0; g < 4 * H; g++)
        step();
    printf("glider after %d generations: population %d, back home %d\n", 4 * H, population(), hash() == h0);
    /* Blinker: period 2. */
    memset(grid, 0, sizeof grid);
    grid[5][5] = grid[5][6] = grid[5][7] = 1;
    unsigned b0 = hash();
    step();
    unsigned b1 = hash();
    step();
    printf("blinker period 2: %d, changed %d\n", hash() == b0, b1 != b0);
    /* A pseudo-random soup. */
    unsigned s = 42;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            s = s * 1103515245u + 12345u;
            grid[r][c] = (unsigned char)((s >> 16) % 3 == 0);
        }
    printf("soup population %d\n", population());
    for (int g = 1; g <= 60; g++) {
        step();
        if (g % 15 == 0)
            printf("gen %d population %d hash %08x\n", g, population(), hash());
    }
    show(6);
    return 0;
}

// nqueens_backtrack: backtracking search (N-queens with bit masks, subset sums) with recursion and early pruning.
#include <stdio.h>

static long queens_bits(int n, unsigned cols, unsigned d1, unsigned d2) {
    unsigned full = (1u << n) - 1;
    if (cols == full)
        return 1;
    long count = 0;
    unsigned avail = full & ~(cols | d1 | d2);
    while (avail) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        count += queens_bits(n, cols | bit, (d1 | bit) << 1 & full, (d2 | bit) >> 1);
    }
    return count;
}
static int board[12];
static int first_solution(int row, int n) {
    if (row == n)
        return 1;
    for (int c = 0; c < n; c++) {
        int ok = 1;
        for (int r = 0; r < row && ok; r++)
            if (board[r] == c || board[r] - c == r - row || c - board[r] == r - row)
                ok = 0;
        if (ok) {
            board[row] = c;
            if (first_solution(row + 1, n))
                return 1;
        }
    }
    return 0;
}
int set[] = {3, 34, 4, 12, 5, 2, 27, 19, 8, 41, 6, 15};
static int subsets_with_sum(int i, int n, int target, int *nodes) {
    (*nodes)++;
    if (target == 0)
        return 1;
    if (i == n || target < 0)
        return 0;
    return subsets_with_sum(i + 1, n, target - set[i], nodes) + subsets_with_sum(i + 1, n, target, nodes);
}

int main(void) {
    for (int n = 1; n <= 10; n++)
        printf("queens(%d) = %ld\n", n, queens_bits(n, 0, 0, 0));
    for (int n = 4; n <= 12; n += 4) {
        if (first_solution(0, n)) {
            printf("first %d:", n);
            for (int r = 0; r < n; r++)
                printf(" %d", board[r]);
            printf("\n");
        }
    }
    for (int target = 10; target <= 70; target += 20) {
        int nodes = 0;
        int ways = subsets_with_sum(0, 12, target, &nodes);
        printf("subsets summing to %d: %d (%d nodes)\n", target, ways, nodes);
    }
    /* Permutation generation in lexicographic order (next_permutation). */
    int p[6] = {1, 2, 3, 4, 5, 6}, count = 1;
    for (;;) {
        int i = 4;
        while (i >= 0 && p[i] >= p[i + 1])
            i--;
        if (i < 0)
            break;
        int j = 5;
        while (p[j] <= p[i])
            j--;
        int t = p[i]; p[i] = p[j]; p[j] = t;
        for (int a = i + 1, b = 5; a < b; a++, b--) {
            t = p[a]; p[a] = p[b]; p[b] = t;
        }
        count++;
        if (count == 360)
            printf("perm 360: %d%d%d%d%d%d\n", p[0], p[1], p[2], p[3], p[4], p[5]);
    }
    printf("permutations %d\n", count);
    return 0;
}

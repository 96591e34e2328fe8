// dynamic_programming: longest common subsequence, edit distance, 0/1 knapsack and coin change with 2D and 1D tables.
#include <stdio.h>
#include <string.h>

static int lcs(const char *a, const char *b, char *out) {
    int n = (int)strlen(a), m = (int)strlen(b);
    static int t[64][64];
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++)
            t[i][j] = (i == 0 || j == 0) ? 0
                      : a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1
                      : (t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1]);
    int k = t[n][m];
    out[k] = 0;
    for (int i = n, j = m; i > 0 && j > 0;) {
        if (a[i - 1] == b[j - 1]) {
            out[--k] = a[i - 1];
            i--;
            j--;
        } else if (t[i - 1][j] >= t[i][j - 1])
            i--;
        else
            j--;
    }
    return t[n][m];
}
static int edit_distance(const char *a, const char *b) {
    int n = (int)strlen(a), m = (int)strlen(b);
    int prev[64], cur[64];
    for (int j = 0; j <= m; j++)
        prev[j] = j;
    for (int i = 1; i <= n; i++) {
        cur[0] = i;
        for (int j = 1; j <= m; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof cur);
    }
    return prev[m];
}
static int knapsack(const int *w, const int *v, int n, int cap) {
    int best[101] = {0};
    for (int i = 0; i < n; i++)
        for (int c = cap; c >= w[i]; c--)
            if (best[c - w[i]] + v[i] > best[c])
                best[c] = best[c - w[i]] + v[i];
    return best[cap];
}
static long long coin_ways(const int *coins, int n, int amount) {
    long long ways[501] = {1};
    for (int i = 0; i < n; i++)
        for (int a = coins[i]; a <= amount; a++)
            ways[a] += ways[a - coins[i]];
    return ways[amount];
}

int main(void) {
    const char *pairs[][2] = {{"AGGTAB", "GXTXAYB"}, {"kitten", "sitting"}, {"", "abc"},
                              {"dynamicprogramming", "programmingdynamic"}, {"vliwdsp", "simdvliw"}};
    char buf[64];
    for (unsigned i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int l = lcs(pairs[i][0], pairs[i][1], buf);
        printf("'%s' vs '%s': lcs %d '%s' edit %d\n", pairs[i][0], pairs[i][1], l, buf,
               edit_distance(pairs[i][0], pairs[i][1]));
    }
    int w[] = {12, 7, 11, 8, 9, 5, 3, 14, 6, 10}, v[] = {24, 13, 23, 15, 16, 8, 4, 30, 11, 19};
    for (int cap = 10; cap <= 100; cap += 30)
        printf("knapsack cap %d: %d\n", cap, knapsack(w, v, 10, cap));
    int coins[] = {1, 2, 5, 10, 20, 50, 100, 200};
    for (int amount = 10; amount <= 500; amount *= 3)
        printf("ways to make %d: %lld\n", amount, coin_ways(coins, 8, amount));
    /* Longest increasing subsequence, O(n^2). */
    int seq[40], len[40], best = 0;
    for (int i = 0; i < 40; i++) {
        seq[i] = (i * 17 + 5) % 41;
        len[i] = 1;
        for (int j = 0; j < i; j++)
            if (seq[j] < seq[i] && len[j] + 1 > len[i])
                len[i] = len[j] + 1;
        if (len[i] > best)
            best = len[i];
    }
    printf("LIS length %d\n", best);
    return 0;
}

// bool_logic: _Bool conversions, short-circuit evaluation with side effects, and comparison results.
#include <stdbool.h>
#include <stdio.h>

int calls;
int vals[] = {0, 1, -1, 2, 100, -100};
double dvals[] = {0.0, -0.0, 0.5, -2.0, 1e-300};

static int touch(int v) {
    calls++;
    return v;
}
static bool is_odd(int v) { return v & 1; }

int main(void) {
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        int v = vals[i];
        bool b = v;
        _Bool nb = !v;
        printf("%d: bool %d not %d notnot %d odd %d\n", v, b, nb, !!v, is_odd(v));
    }
    for (unsigned i = 0; i < sizeof dvals / sizeof dvals[0]; i++) {
        bool b = dvals[i];
        printf("double %g -> %d\n", dvals[i], b);
    }
    bool t = vals[4];
    int two = t + t;
    bool sum = two; /* 2 converts to true */
    printf("true+true -> %d, as int %d\n", sum, t + t);

    /* Short circuit: the right side runs only when needed. */
    calls = 0;
    int n = 0;
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        if (touch(vals[i]) && touch(vals[i] > 0))
            n++;
        if (touch(vals[i] == 2) || touch(vals[i] < 0))
            n += 10;
    }
    printf("n %d calls %d\n", n, calls);
    calls = 0;
    int r = touch(0) && touch(1) && touch(1);
    int s = touch(1) || touch(0) || touch(0);
    int c = touch(0) ? touch(5) : touch(7);
    printf("r %d s %d c %d calls %d\n", r, s, c, calls);

    /* Comparisons produce 0 or 1 and combine arithmetically. */
    int table[6][6];
    for (unsigned i = 0; i < 6; i++)
        for (unsigned j = 0; j < 6; j++)
            table[i][j] = (vals[i] < vals[j]) * 4 + (vals[i] == vals[j]) * 2 + (vals[i] > vals[j]);
    for (unsigned i = 0; i < 6; i++) {
        for (unsigned j = 0; j < 6; j++)
            printf("%d", table[i][j]);
        printf("\n");
    }
    /* Boolean arrays and counting. */
    bool flags[50];
    for (int k = 0; k < 50; k++)
        flags[k] = (k % 3 == 0) != (k % 5 == 0);
    int count = 0;
    for (int k = 0; k < 50; k++)
        count += flags[k];
    printf("xor-count %d\n", count);
    bool all = true, any = false;
    for (int k = 0; k < 50; k++) {
        all = all && (flags[k] || k % 2);
        any = any || (flags[k] && k > 45);
    }
    printf("all %d any %d\n", all, any);
    return 0;
}

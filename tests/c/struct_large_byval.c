// struct_large_byval: large structs passed by value (byval copies) and returned through a hidden pointer (sret).
#include <stdio.h>
#include <string.h>

struct big {
    int id;
    char name[20];
    double values[6];
    long long total;
    short flags[5];
};
struct matrix { float m[4][4]; };
struct pair_of_big { struct big a, b; };

static struct big make_big(int id, const char *name) {
    struct big b;
    memset(&b, 0, sizeof b);
    b.id = id;
    strncpy(b.name, name, sizeof b.name - 1);
    for (int i = 0; i < 6; i++)
        b.values[i] = id * 1.5 + i;
    b.total = (long long)id * 100000000000LL;
    for (int i = 0; i < 5; i++)
        b.flags[i] = (short)(id * (i + 1));
    return b;
}
/* Modifying the parameter must not change the caller's copy. */
static double consume(struct big b) {
    double s = 0;
    for (int i = 0; i < 6; i++) {
        s += b.values[i];
        b.values[i] = -1;
    }
    b.id = -1;
    return s + (double)b.total / 1e9 + b.flags[4];
}
static struct big merge(struct big x, struct big y, int k) {
    struct big r = x;
    r.id = x.id * 1000 + y.id + k;
    for (int i = 0; i < 6; i++)
        r.values[i] = x.values[i] - y.values[i] * k;
    r.total = x.total + y.total;
    memcpy(r.name + 3, y.name, 5);
    r.name[8] = 0;
    return r;
}
static void print_big(const char *what, struct big b) {
    printf("%s: id %d name '%s' total %lld values", what, b.id, b.name, b.total);
    for (int i = 0; i < 6; i++)
        printf(" %g", b.values[i]);
    printf(" flags %d %d\n", b.flags[0], b.flags[4]);
}
static struct matrix mat_mul(struct matrix a, struct matrix b) {
    struct matrix r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a.m[i][k] * b.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}
static struct pair_of_big swap_pair(struct pair_of_big p) {
    struct pair_of_big r = {p.b, p.a};
    return r;
}
/* A by-value struct after register arguments have run out. */
static int late(int a, int b, int c, int d, int e, int f, int g, int h, int i, struct big s, int j) {
    return a + b + c + d + e + f + g + h + i + s.id + s.flags[2] + j;
}

int main(void) {
    struct big a = make_big(7, "seven"), b = make_big(-3, "minus three");
    print_big("a", a);
    print_big("b", b);
    printf("consume(a) %.6g, a.id still %d, a.values[0] still %g\n", consume(a), a.id, a.values[0]);
    struct big m = merge(a, b, 2);
    print_big("merge", m);
    m = merge(m, m, 1);
    print_big("self-merge", m);
    struct matrix x, y;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            x.m[i][j] = (float)(i + j);
            y.m[i][j] = (float)(i == j ? 2 : (i - j));
        }
    struct matrix p = mat_mul(x, y);
    p = mat_mul(p, x);
    for (int i = 0; i < 4; i++)
        printf("row %d: %g %g %g %g\n", i, (double)p.m[i][0], (double)p.m[i][1], (double)p.m[i][2], (double)p.m[i][3]);
    struct pair_of_big pb = {a, b};
    pb = swap_pair(pb);
    printf("swapped: %d %d %s %s\n", pb.a.id, pb.b.id, pb.a.name, pb.b.name);
    printf("late %d\n", late(1, 2, 3, 4, 5, 6, 7, 8, 9, b, 10));
    struct big arr[3];
    for (int i = 0; i < 3; i++)
        arr[i] = make_big(i + 1, i == 1 ? "one" : "other");
    double s = 0;
    for (int i = 0; i < 3; i++)
        s += consume(arr[i]);
    printf("sum of consumes %.6g\n", s);
    return 0;
}

// function_pointers: tables of function pointers, callbacks, returning function pointers, pointers in structs.
#include <stdio.h>

typedef int (*binop)(int, int);
typedef double (*dfun)(double);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }
static int mod(int a, int b) { return b ? a % b : 0; }
static double twice(double x) { return 2 * x; }
static double square(double x) { return x * x; }
static double inc(double x) { return x + 1; }

binop ops[] = {add, sub, mul, maxi, mod};
const char *names[] = {"add", "sub", "mul", "max", "mod"};

static int fold(const int *a, int n, int init, binop f) {
    int acc = init;
    for (int i = 0; i < n; i++)
        acc = f(acc, a[i]);
    return acc;
}
static binop pick(char c) {
    switch (c) {
    case '+': return add;
    case '-': return sub;
    case '*': return mul;
    default: return 0;
    }
}
static double compose(dfun f, dfun g, double x) { return f(g(x)); }
static void apply_all(double *v, int n, dfun f) {
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

struct counter {
    int value;
    void (*step)(struct counter *);
};
static void step_up(struct counter *c) { c->value += 3; }
static void step_down(struct counter *c) { c->value -= 1; }

int main(void) {
    int data[] = {5, -3, 8, 2, 7, -1};
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        printf("fold %s = %d\n", names[i], fold(data, 6, i == 2 ? 1 : 100, ops[i]));
    const char *expr = "+*-+*";
    int acc = 1;
    for (const char *p = expr; *p; p++) {
        binop f = pick(*p);
        acc = f ? f(acc, 3) : acc;
    }
    printf("expr acc %d, pick('/') null %d\n", acc, pick('/') == 0);
    dfun fs[] = {twice, square, inc};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            printf("compose %d %d: %g\n", i, j, compose(fs[i], fs[j], 1.5));
    double v[4] = {1, 2, 3, 4};
    for (int k = 0; k < 3; k++)
        apply_all(v, 4, fs[k]);
    printf("v %g %g %g %g\n", v[0], v[1], v[2], v[3]);
    struct counter cs[3] = {{0, step_up}, {10, step_down}, {5, step_up}};
    for (int round = 0; round < 4; round++)
        for (int i = 0; i < 3; i++)
            cs[i].step(&cs[i]);
    printf("counters %d %d %d\n", cs[0].value, cs[1].value, cs[2].value);
    /* Calling through a pointer to a function pointer, and comparing function pointers. */
    binop *pp = &ops[2];
    printf("(*pp)(6,7) %d, same %d, different %d\n", (*pp)(6, 7), ops[0] == add, ops[0] == ops[1]);
    int (*table2[2][2])(int, int) = {{add, sub}, {mul, maxi}};
    int t = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            t += table2[i][j](i + 4, j + 2);
    printf("table2 sum %d\n", t);
    return 0;
}

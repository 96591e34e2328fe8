// global_init: complex static initializers: pointers to globals, arrays of structs, string tables, nested aggregates.
#include <stdio.h>

struct op {
    const char *name;
    int arity;
    int (*fn)(int, int);
};
static int op_add(int a, int b) { return a + b; }
static int op_neg(int a, int b) { (void)b; return -a; }
static int op_min(int a, int b) { return a < b ? a : b; }

int values[8] = {10, 20, 30, 40, 50, 60, 70, 80};
int *value_ptrs[] = {&values[7], &values[0], values + 3, &values[5]};
int *mid = &values[4];
const char *greetings[] = {"hello", "bonjour", "hola", "ciao", "hallo"};
const char banner[] = "static banner";
const char *banner_tail = banner + 7;
struct op ops[] = {{"add", 2, op_add}, {"neg", 1, op_neg}, {"min", 2, op_min}};
struct op *default_op = &ops[2];
struct config {
    const char *label;
    struct { int w, h; } size;
    double scale[3];
    const struct op *op;
} configs[] = {
    {"small", {4, 3}, {1.0, 0.5}, &ops[0]},
    {"large", {1920, 1080}, {2.0, 2.0, 2.0}, &ops[1]},
    {.label = "sparse", .scale[2] = 9.5},
};
char matrix[3][6] = {"one", "two", "three"};
unsigned long long masks[] = {0xffull << 56, 1ull << 63, ~0ull >> 4};
struct node { int v; const struct node *next; };
const struct node n3 = {3, 0};
const struct node n2 = {2, &n3};
const struct node n1 = {1, &n2};
const struct node *list = &n1;

int main(void) {
    for (unsigned i = 0; i < sizeof value_ptrs / sizeof value_ptrs[0]; i++)
        printf("value_ptrs[%u] -> %d (index %d)\n", i, *value_ptrs[i], (int)(value_ptrs[i] - values));
    printf("mid %d mid[-2] %d\n", *mid, mid[-2]);
    for (unsigned i = 0; i < sizeof greetings / sizeof greetings[0]; i++)
        printf("%s%s", greetings[i], i + 1 < sizeof greetings / sizeof greetings[0] ? ", " : "\n");
    printf("banner '%s' tail '%s' size %u\n", banner, banner_tail, (unsigned)sizeof banner);
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        printf("op %s/%d: %d\n", ops[i].name, ops[i].arity, ops[i].fn(7, 3));
    printf("default op %s -> %d\n", default_op->name, default_op->fn(-4, 9));
    for (unsigned i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        const struct config *c = &configs[i];
        printf("config %s %dx%d scale %g %g %g op %s\n", c->label, c->size.w, c->size.h, c->scale[0], c->scale[1],
               c->scale[2], c->op ? c->op->name : "(none)");
    }
    for (int i = 0; i < 3; i++)
        printf("matrix[%d] = '%s' last byte %d\n", i, matrix[i], matrix[i][5]);
    for (int i = 0; i < 3; i++)
        printf("mask %016llx\n", masks[i]);
    int sum = 0;
    for (const struct node *n = list; n; n = n->next)
        sum = sum * 10 + n->v;
    printf("list %d\n", sum);
    /* Writing through a pointer taken from an initializer. */
    *value_ptrs[1] = -1;
    *mid += 5;
    printf("values[0] %d values[4] %d\n", values[0], values[4]);
    return 0;
}

// struct_nested: nested structs, arrays of structs, designated initializers, compound literals and struct copies.
#include <stdio.h>

struct point { int x, y; };
struct rect { struct point lo, hi; };
struct shape {
    const char *name;
    struct rect box;
    int n;
    struct point pts[4];
};

struct shape shapes[] = {
    {"square", {{0, 0}, {2, 2}}, 4, {{0, 0}, {2, 0}, {2, 2}, {0, 2}}},
    {.name = "tri", .n = 3, .pts = {[2] = {1, 5}, [0] = {0, 0}, [1] = {4, 0}}},
    {.name = "line", .box = {.hi = {.x = 9, .y = 1}}, .n = 2, .pts = {{0, 0}, {9, 1}}},
};

static struct rect bounds(const struct shape *s) {
    struct rect r = {s->pts[0], s->pts[0]};
    for (int i = 1; i < s->n; i++) {
        struct point p = s->pts[i];
        if (p.x < r.lo.x) r.lo.x = p.x;
        if (p.y < r.lo.y) r.lo.y = p.y;
        if (p.x > r.hi.x) r.hi.x = p.x;
        if (p.y > r.hi.y) r.hi.y = p.y;
    }
    return r;
}
static int area2(const struct shape *s) {
    int a = 0;
    for (int i = 0; i < s->n; i++) {
        struct point p = s->pts[i], q = s->pts[(i + 1) % s->n];
        a += p.x * q.y - q.x * p.y;
    }
    return a < 0 ? -a : a;
}
static struct point add(struct point a, struct point b) { return (struct point){a.x + b.x, a.y + b.y}; }

int main(void) {
    unsigned n = sizeof shapes / sizeof shapes[0];
    for (unsigned i = 0; i < n; i++) {
        struct shape *s = &shapes[i];
        struct rect b = bounds(s);
        printf("%s: n=%d box (%d,%d)-(%d,%d) computed (%d,%d)-(%d,%d) 2*area %d\n", s->name, s->n, s->box.lo.x,
               s->box.lo.y, s->box.hi.x, s->box.hi.y, b.lo.x, b.lo.y, b.hi.x, b.hi.y, area2(s));
        s->box = b;
    }
    /* Whole-struct copies are deep for arrays inside structs. */
    struct shape copy = shapes[0];
    copy.pts[0].x = 100;
    copy.name = "copy";
    printf("orig %s %d, copy %s %d\n", shapes[0].name, shapes[0].pts[0].x, copy.name, copy.pts[0].x);
    /* Compound literals and translations. */
    struct point c = {0, 0};
    for (int i = 0; i < 5; i++)
        c = add(c, (struct point){i, -2 * i});
    printf("c = (%d,%d)\n", c.x, c.y);
    struct rect *rp = &(struct rect){{1, 2}, {3, 4}};
    rp->hi = add(rp->hi, rp->lo);
    printf("rect (%d,%d)-(%d,%d)\n", rp->lo.x, rp->lo.y, rp->hi.x, rp->hi.y);
    /* Arrays of nested structs and pointers into them. */
    struct rect grid[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            grid[i][j] = (struct rect){{i, j}, {i + j, i * j}};
    struct point *pp = &grid[1][2].hi;
    pp->x += 10;
    int sum = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            sum += grid[i][j].lo.x * 1 + grid[i][j].lo.y * 2 + grid[i][j].hi.x * 3 + grid[i][j].hi.y * 4;
    printf("grid sum %d\n", sum);
    /* Struct comparison field by field, and zero initialization. */
    struct shape zero = {0};
    printf("zero: %d %d %d %s\n", zero.n, zero.box.hi.y, zero.pts[3].x, zero.name ? "named" : "null");
    struct point a = {3, 4}, b2 = {3, 4};
    printf("equal %d\n", a.x == b2.x && a.y == b2.y);
    return 0;
}

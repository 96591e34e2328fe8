// struct_small_byval: small structs (1 to 8 bytes) passed and returned by value, as clang coerces them.
#include <stdio.h>

struct c1 { char a; };
struct c3 { char a, b, c; };
struct s2 { short a, b; };
struct i1 { int a; };
struct i2 { int a, b; };
struct f1 { float x; };
struct f2 { float x, y; };
struct mix { char tag; short code; int value; };
struct ll1 { long long v; };
struct d1 { double v; };

int seeds[] = {3, -7, 11, 100, -1000};

static struct c1 inc_c1(struct c1 s) { s.a++; return s; }
static struct c3 rot_c3(struct c3 s) { struct c3 r = {s.b, s.c, s.a}; return r; }
static struct s2 swap_s2(struct s2 s) { struct s2 r = {s.b, s.a}; return r; }
static struct i1 dbl_i1(struct i1 s) { s.a *= 2; return s; }
static struct i2 addsub(struct i2 s) { struct i2 r = {s.a + s.b, s.a - s.b}; return r; }
static struct f2 scale(struct f2 v, float k) { v.x *= k; v.y *= k; return v; }
static float dot(struct f2 a, struct f2 b) { return a.x * b.x + a.y * b.y; }
static struct f1 half(struct f1 f) { f.x /= 2; return f; }
static struct mix make_mix(char t, short c, int v) { struct mix m = {t, c, v}; return m; }
static int mix_sum(struct mix a, struct mix b, struct mix c) { return a.tag + b.code + c.value + a.value - c.tag; }
static struct ll1 neg_ll(struct ll1 s) { s.v = -s.v; return s; }
static struct d1 sq_d(struct d1 s) { s.v = s.v * s.v; return s; }
/* Many small structs: some go in registers, the rest on the stack. */
static int many(struct i2 a, struct i2 b, struct i2 c, struct i2 d, struct i2 e, struct i2 f, struct c3 g,
                struct i1 h) {
    return a.a + b.b + c.a * 2 + d.b * 3 + e.a * 5 + f.b * 7 + g.a + g.b + g.c + h.a;
}

int main(void) {
    for (unsigned i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        int k = seeds[i];
        struct c1 c = {(char)k};
        struct c3 t = {(char)k, (char)(k + 1), (char)(k + 2)};
        struct s2 s = {(short)k, (short)(k * 3)};
        struct i1 one = {k};
        struct i2 two = {k, k * k};
        struct f2 v = {(float)k, 0.5f};
        struct f1 f = {(float)k};
        struct ll1 l = {(long long)k * 1000000007LL};
        struct d1 d = {k * 0.25};
        c = inc_c1(c);
        t = rot_c3(t);
        s = swap_s2(s);
        one = dbl_i1(one);
        two = addsub(two);
        struct f2 w = scale(v, 1.5f);
        printf("k=%d c1 %d c3 %d,%d,%d s2 %d,%d i1 %d i2 %d,%d f2 %g,%g dot %g f1 %g ll %lld d %g\n", k, c.a, t.a, t.b,
               t.c, s.a, s.b, one.a, two.a, two.b, (double)w.x, (double)w.y, (double)dot(v, w),
               (double)half(f).x, neg_ll(l).v, sq_d(d).v);
        struct mix m1 = make_mix('a', (short)k, k * 10), m2 = make_mix('b', 7, -k), m3 = make_mix('c', -1, 42);
        printf("  mix %c %d %d sum %d\n", m1.tag, m1.code, m1.value, mix_sum(m1, m2, m3));
        printf("  many %d\n", many(two, two, addsub(two), two, addsub(addsub(two)), two, t, one));
    }
    /* Arrays of small structs updated through by-value calls. */
    struct i2 arr[10];
    for (int i = 0; i < 10; i++) {
        struct i2 x = {i, 10 - i};
        arr[i] = addsub(x);
    }
    int acc = 0;
    for (int i = 0; i < 10; i++)
        acc = acc * 3 + arr[i].a - arr[i].b;
    printf("acc %d\n", acc);
    return 0;
}

// unions: type punning through unions, unions of structs, tagged unions and unions passed by value.
#include <stdint.h>
#include <stdio.h>

union word {
    uint32_t u;
    int32_t i;
    float f;
    uint16_t h[2];
    uint8_t b[4];
};
enum kind { K_INT, K_DOUBLE, K_STR, K_PAIR };
struct value {
    enum kind kind;
    union {
        int i;
        double d;
        const char *s;
        struct { short a, b; } pair;
    } as;
};

uint32_t samples[] = {0x3f800000u, 0xc0490fdbu, 0x12345678u, 0x80000000u, 0x7f7fffffu};

static union word flip(union word w) {
    union word r;
    for (int i = 0; i < 4; i++)
        r.b[i] = w.b[3 - i];
    return r;
}
static double as_number(struct value v) {
    switch (v.kind) {
    case K_INT: return v.as.i;
    case K_DOUBLE: return v.as.d;
    case K_STR: {
        double n = 0;
        for (const char *p = v.as.s; *p; p++)
            n = n * 10 + (*p - '0');
        return n;
    }
    case K_PAIR: return v.as.pair.a * 1000 + v.as.pair.b;
    }
    return -1;
}

int main(void) {
    for (unsigned i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        union word w;
        w.u = samples[i];
        printf("%08x: i %d f %.9g h %04x %04x b %02x %02x %02x %02x\n", w.u, w.i, (double)w.f, w.h[0], w.h[1], w.b[0],
               w.b[1], w.b[2], w.b[3]);
        union word r = flip(w);
        printf("   flipped %08x\n", r.u);
    }
    union word w;
    w.f = 1.0f;
    w.b[3] ^= 0x80; /* flip the sign through the byte view */
    printf("negated through bytes: %g\n", (double)w.f);
    w.h[0] = 0xffff;
    printf("after h[0]: %08x\n", w.u);
    struct value vals[] = {
        {K_INT, {.i = -42}}, {K_DOUBLE, {.d = 2.5}}, {K_STR, {.s = "1234"}}, {K_PAIR, {.pair = {7, -3}}},
    };
    double total = 0;
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        double n = as_number(vals[i]);
        total += n;
        printf("value %u kind %d = %g\n", i, vals[i].kind, n);
    }
    printf("total %g\n", total);
    /* Writing one member and reading another of the same size. */
    union { uint64_t u; double d; uint32_t w[2]; } dw;
    dw.d = -0.1;
    printf("-0.1 = %016llx words %08x %08x\n", (unsigned long long)dw.u, dw.w[0], dw.w[1]);
    dw.w[1] = 0x40000000u;
    dw.w[0] = 0;
    printf("2.0 from words: %g\n", dw.d);
    /* An array of unions used as a tiny byte-code stack. */
    union word stack[8];
    int sp = 0;
    stack[sp++].i = 6;
    stack[sp++].i = 7;
    sp--;
    stack[sp - 1].i *= stack[sp].i;
    stack[sp++].f = 0.5f;
    printf("stack: %d %g (sp %d)\n", stack[0].i, (double)stack[1].f, sp);
    return 0;
}

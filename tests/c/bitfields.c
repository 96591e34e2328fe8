// bitfields: unsigned and signed bit-fields: reads, writes, wrap-around of unsigned fields, packing into words.
#include <stdio.h>
#include <string.h>

struct flags {
    unsigned int ready : 1;
    unsigned int mode : 3;
    unsigned int count : 12;
    signed int delta : 6;
    unsigned int : 0;
    unsigned int big : 20;
    unsigned int tiny : 2;
};
struct rgb565 {
    unsigned short b : 5;
    unsigned short g : 6;
    unsigned short r : 5;
};
struct instr {
    unsigned int opcode : 7;
    unsigned int rd : 5;
    unsigned int funct3 : 3;
    unsigned int rs1 : 5;
    unsigned int imm : 12;
};

int inputs[] = {0, 1, 5, 31, 32, 100, 4095, 4096, 70000};

static struct rgb565 blend(struct rgb565 a, struct rgb565 b) {
    struct rgb565 r;
    r.r = (a.r + b.r) / 2;
    r.g = (a.g + b.g) / 2;
    r.b = (a.b + b.b) / 2;
    return r;
}

int main(void) {
    struct flags f;
    memset(&f, 0, sizeof f);
    for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        unsigned v = (unsigned)inputs[i];
        f.ready = v & 1u;
        f.mode = v & 7u;
        f.count = v & 0xfffu;      /* stores wrap modulo 2^12 */
        f.delta = (int)(v % 64u) - 32;  /* in range -32..31 */
        f.big = v & 0xfffffu;
        f.tiny = (v >> 1) & 3u;
        printf("v=%u ready %u mode %u count %u delta %d big %u tiny %u\n", v, f.ready, f.mode, f.count, f.delta, f.big,
               f.tiny);
    }
    /* Increments of narrow unsigned fields wrap. */
    f.mode = 6;
    f.count = 4094;
    f.tiny = 3;
    for (int k = 0; k < 4; k++) {
        f.mode++;
        f.count++;
        f.tiny++;
        printf("inc %d: mode %u count %u tiny %u\n", k, f.mode, f.count, f.tiny);
    }
    /* Signed fields: negative values read back sign-extended. */
    for (int d = -32; d < 32; d += 9) {
        f.delta = d;
        int back = f.delta;
        printf("delta %d -> %d (x2 %d)\n", d, back, f.delta * 2);
    }
    /* Colour packing: the field values, not the layout, are printed. */
    struct rgb565 c1 = {31, 0, 10}, c2 = {1, 63, 20};
    struct rgb565 m = blend(c1, c2);
    printf("blend r %u g %u b %u\n", m.r, m.g, m.b);
    unsigned packed = (unsigned)m.r << 11 | (unsigned)m.g << 5 | m.b;
    printf("packed by shifts %04x\n", packed);
    /* Instruction encoding fields. */
    struct instr ins[4];
    for (int k = 0; k < 4; k++) {
        ins[k].opcode = (unsigned)(0x13 + k) & 0x7fu;
        ins[k].rd = (unsigned)(k * 7) & 31u;
        ins[k].funct3 = (unsigned)k & 7u;
        ins[k].rs1 = (unsigned)(31 - k) & 31u;
        ins[k].imm = (unsigned)(k * 1000 - 1500) & 0xfffu;
    }
    for (int k = 0; k < 4; k++) {
        unsigned word = ins[k].opcode | ins[k].rd << 7 | ins[k].funct3 << 12 | ins[k].rs1 << 15 |
                        (unsigned)ins[k].imm << 20;
        int imm = (int)ins[k].imm - (ins[k].imm & 0x800u ? 4096 : 0);
        printf("instr %d: %08x imm %d\n", k, word, imm);
    }
    /* Bit-fields in arithmetic are promoted to int. */
    f.count = 4000;
    f.mode = 5;
    printf("count*mode %d, count-5000 %d, ~mode %d\n", f.count * f.mode, f.count - 5000, ~f.mode);
    return 0;
}

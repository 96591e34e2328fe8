// computed_goto: GCC labels as values: a bytecode interpreter dispatching through a static table of label addresses (goto *tbl[op]), and a state machine stepping through label pointers kept in a variable (void *p = &&label; goto *p).
#include <stdio.h>

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC, OP_PRINT, OP_HALT, OP_XOR, OP_SHL, OP_OVER, OP_AND };

/* A stack machine; dispatch through a static table of label addresses. */
static long run(const int *code, int trace) {
    static void *const table[] = {
        &&do_push, &&do_add, &&do_sub, &&do_mul, &&do_dup, &&do_swap,
        &&do_jnz, &&do_dec, &&do_print, &&do_halt, &&do_xor, &&do_shl, &&do_over, &&do_and,
    };
    long stack[32];
    int sp = 0, pc = 0;
    long steps = 0;
#define NEXT                      \
    do {                          \
        steps++;                  \
        goto *table[code[pc++]];  \
    } while (0)
    NEXT;
do_push:
    stack[sp++] = code[pc++];
    NEXT;
do_add:
    sp--;
    stack[sp - 1] += stack[sp];
    NEXT;
do_sub:
    sp--;
    stack[sp - 1] -= stack[sp];
    NEXT;
do_mul:
    sp--;
    stack[sp - 1] *= stack[sp];
    NEXT;
do_dup:
    stack[sp] = stack[sp - 1];
    sp++;
    NEXT;
do_swap: {
    long t = stack[sp - 1];
    stack[sp - 1] = stack[sp - 2];
    stack[sp - 2] = t;
    NEXT;
}
do_jnz: {
    int target = code[pc++];
    if (stack[--sp] != 0)
        pc = target;
    NEXT;
}
do_dec:
    stack[sp - 1]--;
    NEXT;
do_print:
    if (trace)
        printf("  print %ld (sp %d)\n", stack[sp - 1], sp);
    NEXT;
do_xor:
    sp--;
    stack[sp - 1] ^= stack[sp];
    NEXT;
do_shl:
    sp--;
    stack[sp - 1] <<= (stack[sp] & 31);
    NEXT;
do_over:
    stack[sp] = stack[sp - 2];
    sp++;
    NEXT;
do_and:
    sp--;
    stack[sp - 1] &= stack[sp];
    NEXT;
do_halt:
#undef NEXT
    printf("halt after %ld steps, sp %d\n", steps, sp);
    return stack[0];
}

/* A state machine: the current state is a label address in a variable. */
static int scan(const char *s) {
    void *state = &&start;
    int words = 0, digits = 0, transitions = 0;
    const char *p = s;
    for (;;) {
        char c = *p++;
        transitions++;
        goto *state;
    start:
        if (c == 0)
            break;
        if (c >= '0' && c <= '9') {
            digits++;
            state = &&in_number;
        } else if (c != ' ') {
            words++;
            state = &&in_word;
        }
        continue;
    in_word:
        if (c == 0)
            break;
        if (c == ' ')
            state = &&start;
        continue;
    in_number:
        if (c == 0)
            break;
        if (c >= '0' && c <= '9')
            digits++;
        else
            state = c == ' ' ? &&start : &&in_word;
        continue;
    }
    printf("scan \"%s\": words %d, digits %d, transitions %d\n", s, words, digits, transitions);
    return words * 100 + digits;
}

/* Label addresses compared and selected as ordinary values. */
static int pick(int n) {
    void *labels[3] = {&&zero, &&one, &&many};
    void *l = labels[n < 2 ? n : 2];
    int r = (l == &&many) ? 1000 : 0;
    goto *l;
zero:
    return r + 10;
one:
    return r + 11;
many:
    return r + n;
}

int main(void) {
    /* stack "acc n": while (n != 0) { acc = acc OP n; n--; } */
    const int sum[] = {
        OP_PUSH, 0, OP_PUSH, 1000,  /* 0: acc n */
        OP_DUP, OP_JNZ, 8, OP_HALT, /* 4: n == 0: halt */
        OP_SWAP, OP_OVER, OP_ADD,   /* 8: n acc+n */
        OP_SWAP, OP_DEC,            /* acc' n-1 */
        OP_PUSH, 1, OP_JNZ, 4,      /* loop */
    };
    const int fact[] = {
        OP_PUSH, 1, OP_PUSH, 12,
        OP_DUP, OP_JNZ, 8, OP_HALT,
        OP_SWAP, OP_OVER, OP_MUL,
        OP_PRINT,
        OP_SWAP, OP_DEC,
        OP_PUSH, 1, OP_JNZ, 4,
    };
    /* h n: h = (h << 3) ^ (h >> 0) ^ n, 40 times */
    const int hash[] = {
        OP_PUSH, 5381, OP_PUSH, 40,
        OP_DUP, OP_JNZ, 8, OP_HALT,
        OP_SWAP, OP_PUSH, 3, OP_SHL, /* 8: n h<<3 */
        OP_OVER, OP_XOR,             /* n h' */
        OP_PUSH, 0xffff, OP_AND,     /* keep it small */
        OP_SWAP, OP_DEC,
        OP_PUSH, 1, OP_JNZ, 4,
    };
    printf("sum = %ld\n", run(sum, 0));
    printf("fact = %ld\n", run(fact, 1));
    printf("hash = %ld\n", run(hash, 0));
    int k;
    for (k = 0; k < 5; k++)
        printf("pick(%d) = %d\n", k, pick(k));
    const char *texts[] = {"", "hello world", "  abc 123 x9 42  ", "7 8 9", "a1b2 c3 44x"};
    int total = 0;
    for (k = 0; k < 5; k++)
        total += scan(texts[k]);
    printf("scan total = %d\n", total);
    return 0;
}

// dispatch_interp: a small stack-machine interpreter dispatching opcodes through a function-pointer table.
#include <stdio.h>

enum op { PUSH, ADD, SUB, MUL, DUP, SWAP, OVER, DROP, JNZ, DEC, PRINT, HALT, NOPS };
struct vm {
    int stack[32];
    int sp;
    int pc;
    int steps;
    int running;
};
typedef void (*handler)(struct vm *, const int *code);

static void op_push(struct vm *m, const int *code) { m->stack[m->sp++] = code[m->pc++]; }
static void op_add(struct vm *m, const int *code) { (void)code; m->sp--; m->stack[m->sp - 1] += m->stack[m->sp]; }
static void op_sub(struct vm *m, const int *code) { (void)code; m->sp--; m->stack[m->sp - 1] -= m->stack[m->sp]; }
static void op_mul(struct vm *m, const int *code) { (void)code; m->sp--; m->stack[m->sp - 1] *= m->stack[m->sp]; }
static void op_dup(struct vm *m, const int *code) { (void)code; m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; }
static void op_swap(struct vm *m, const int *code) {
    (void)code;
    int t = m->stack[m->sp - 1];
    m->stack[m->sp - 1] = m->stack[m->sp - 2];
    m->stack[m->sp - 2] = t;
}
static void op_over(struct vm *m, const int *code) { (void)code; m->stack[m->sp] = m->stack[m->sp - 2]; m->sp++; }
static void op_drop(struct vm *m, const int *code) { (void)code; m->sp--; }
static void op_jnz(struct vm *m, const int *code) {
    int target = code[m->pc++];
    if (m->stack[m->sp - 1] != 0)
        m->pc = target;
}
static void op_dec(struct vm *m, const int *code) { (void)code; m->stack[m->sp - 1]--; }
static void op_print(struct vm *m, const int *code) { (void)code; printf("  print %d\n", m->stack[m->sp - 1]); }
static void op_halt(struct vm *m, const int *code) { (void)code; m->running = 0; }

const handler handlers[NOPS] = {op_push, op_add, op_sub, op_mul, op_dup, op_swap, op_over, op_drop, op_jnz, op_dec, op_print, op_halt};

static int run(const int *code, const char *name) {
    struct vm m = {{0}, 0, 0, 0, 1};
    while (m.running && m.steps < 10000) {
        int op = code[m.pc++];
        handlers[op](&m, code);
        m.steps++;
    }
    printf("%s: top %d sp %d steps %d\n", name, m.sp ? m.stack[m.sp - 1] : 0, m.sp, m.steps);
    return m.sp ? m.stack[m.sp - 1] : 0;
}

/* factorial(10), stack [acc n]: acc *= n; n--; while n != 0 */
const int factorial[] = {PUSH, 1, PUSH, 10, /* 4: */ SWAP, OVER, MUL, SWAP, DEC, JNZ, 4, DROP, HALT};
/* countdown printing 3, 2, 1 */
const int countdown[] = {PUSH, 3, /* 2: */ PRINT, DEC, JNZ, 2, HALT};
/* sum of 1..100, stack [s n] */
const int sum100[] = {PUSH, 0, PUSH, 100, /* 4: */ SWAP, OVER, ADD, SWAP, DEC, JNZ, 4, DROP, HALT};
const int arith[] = {PUSH, 6, PUSH, 7, MUL, DUP, MUL, PUSH, 100, SUB, PRINT, PUSH, 3, SWAP, SUB, HALT};

int main(void) {
    int r = 0;
    r += run(factorial, "factorial");
    r += run(countdown, "countdown");
    r += run(sum100, "sum100");
    r += run(arith, "arith");
    /* A program generated at run time. */
    int prog[64];
    int n = 0;
    /* sum of squares of 1..50, stack [acc n] */
    prog[n++] = PUSH;
    prog[n++] = 0;
    prog[n++] = PUSH;
    prog[n++] = 50;
    int loop = n;
    prog[n++] = SWAP;
    prog[n++] = OVER;
    prog[n++] = DUP;
    prog[n++] = MUL;
    prog[n++] = ADD;
    prog[n++] = SWAP;
    prog[n++] = DEC;
    prog[n++] = JNZ;
    prog[n++] = loop;
    prog[n++] = DROP;
    prog[n++] = HALT;
    r += run(prog, "generated");
    printf("result sum %d\n", r);
    return 0;
}

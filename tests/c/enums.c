// enums: enumeration constants with explicit and implicit values, enums in switches, arrays indexed by enums, flag enums.
#include <stdio.h>

enum weekday { MON = 1, TUE, WED, THU, FRI, SAT = 10, SUN };
enum perm { P_READ = 1 << 0, P_WRITE = 1 << 1, P_EXEC = 1 << 2, P_ALL = P_READ | P_WRITE | P_EXEC };
enum signed_vals { NEG = -5, ZERO_ = 0, BIG = 100000 };
enum token { T_NUM, T_PLUS, T_MINUS, T_STAR, T_LPAREN, T_RPAREN, T_END, T_COUNT };

const char *token_names[T_COUNT] = {[T_NUM] = "num", [T_PLUS] = "+", [T_MINUS] = "-", [T_STAR] = "*",
                                    [T_LPAREN] = "(", [T_RPAREN] = ")", [T_END] = "end"};

static int is_weekend(enum weekday d) {
    switch (d) {
    case SAT:
    case SUN:
        return 1;
    default:
        return 0;
    }
}
static void perm_string(unsigned p, char out[4]) {
    out[0] = (p & P_READ) ? 'r' : '-';
    out[1] = (p & P_WRITE) ? 'w' : '-';
    out[2] = (p & P_EXEC) ? 'x' : '-';
    out[3] = 0;
}
static enum token classify(char c) {
    switch (c) {
    case '+': return T_PLUS;
    case '-': return T_MINUS;
    case '*': return T_STAR;
    case '(': return T_LPAREN;
    case ')': return T_RPAREN;
    case 0: return T_END;
    default: return T_NUM;
    }
}

int main(void) {
    enum weekday days[] = {MON, TUE, WED, THU, FRI, SAT, SUN};
    for (unsigned i = 0; i < sizeof days / sizeof days[0]; i++)
        printf("day %d weekend %d\n", days[i], is_weekend(days[i]));
    printf("values: %d %d %d %d %d\n", P_ALL, NEG, ZERO_, BIG, T_COUNT);
    char s[4];
    for (unsigned p = 0; p <= P_ALL; p++) {
        perm_string(p, s);
        printf("%u:%s ", p, s);
    }
    printf("\n");
    unsigned p = P_READ;
    p |= P_EXEC;
    p &= ~(unsigned)P_READ;
    perm_string(p, s);
    printf("after updates %s\n", s);
    int counts[T_COUNT] = {0};
    const char *expr = "(1+2)*3-(4*5)";
    for (const char *c = expr;; c++) {
        enum token t = classify(*c);
        counts[t]++;
        if (t == T_END)
            break;
    }
    for (int t = 0; t < T_COUNT; t++)
        printf("%s=%d ", token_names[t], counts[t]);
    printf("\n");
    /* Enums compare and do arithmetic as ints. */
    enum weekday d = WED;
    d = (enum weekday)(d + 2);
    printf("WED+2 = %d (FRI %d) equal %d, SUN-SAT %d, NEG*2 %d\n", d, FRI, d == FRI, SUN - SAT, NEG * 2);
    enum signed_vals v = NEG;
    printf("negative enum < 0: %d\n", v < 0);
    return 0;
}

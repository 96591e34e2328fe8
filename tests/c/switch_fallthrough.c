// switch_fallthrough: fall-through chains, nested switches, switch in loops with continue, and Duff's device.
#include <stdio.h>

static int fallthrough(int x) {
    int r = 0;
    switch (x) {
    case 5: r += 5; /* fall through */
    case 4: r += 4; /* fall through */
    case 3: r += 3; /* fall through */
    case 2: r += 2; /* fall through */
    case 1: r += 1; break;
    case 10: r = 100; /* fall through */
    default: r -= 1;
    }
    return r;
}
static int nested(int a, int b) {
    switch (a) {
    case 0:
        switch (b) {
        case 0: return 1;
        case 1: return 2;
        default: return 3;
        }
    case 1:
        switch (b) {
        case 0: return 10;
        default: break;
        }
        return 11;
    default:
        return a * 100 + b;
    }
}
static void duff_copy(short *to, const short *from, int count) {
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++; /* fall through */
    case 7:      *to++ = *from++; /* fall through */
    case 6:      *to++ = *from++; /* fall through */
    case 5:      *to++ = *from++; /* fall through */
    case 4:      *to++ = *from++; /* fall through */
    case 3:      *to++ = *from++; /* fall through */
    case 2:      *to++ = *from++; /* fall through */
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}

int main(void) {
    for (int x = 0; x <= 11; x++)
        printf("fallthrough(%d)=%d\n", x, fallthrough(x));
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            printf("nested(%d,%d)=%d\n", a, b, nested(a, b));
    short src[37], dst[37];
    for (int i = 0; i < 37; i++) {
        src[i] = (short)(i * 3 - 20);
        dst[i] = 0;
    }
    for (int count = 1; count <= 37; count += 6) {
        duff_copy(dst, src, count);
        int sum = 0;
        for (int i = 0; i < 37; i++)
            sum += dst[i];
        printf("duff %d: sum %d\n", count, sum);
    }
    /* continue inside a switch continues the loop. */
    int kept = 0, skipped = 0;
    for (int i = 0; i < 30; i++) {
        switch (i % 4) {
        case 0:
            skipped++;
            continue;
        case 1:
            if (i > 20)
                break;
            kept += i;
            continue;
        default:
            break;
        }
        kept -= 1;
    }
    printf("kept %d skipped %d\n", kept, skipped);
    /* A lexer-style switch on characters with shared actions. */
    const char *src_text = "x1 = (y2 + 30) * z;";
    int idents = 0, digits = 0, ops = 0, other = 0;
    for (const char *p = src_text; *p; p++) {
        switch (*p) {
        case 'x': case 'y': case 'z':
            idents++;
            break;
        case '0': case '1': case '2': case '3':
            digits++;
            break;
        case '+': case '*': case '=':
            ops++;
            /* fall through */
        case '(': case ')':
            other++;
            break;
        default:
            break;
        }
    }
    printf("idents %d digits %d ops %d other %d\n", idents, digits, ops, other);
    return 0;
}

// switch_dense: dense switch statements (jump tables) over small ranges, chars and enums.
#include <stdio.h>

enum color { RED, ORANGE, YELLOW, GREEN, BLUE, INDIGO, VIOLET };

static int dense(int x) {
    switch (x) {
    case 0: return 10;
    case 1: return 21;
    case 2: return 32;
    case 3: return 43;
    case 4: return 54;
    case 5: return 65;
    case 6: return 76;
    case 7: return 87;
    case 8: return 98;
    case 9: return 109;
    case 10: return -1;
    case 11: return -12;
    case 12: return 1 << 12;
    case 13: return x * x;
    case 14: return x ^ 0x55;
    case 15: return 1500;
    default: return 999;
    }
}
static const char *color_name(enum color c) {
    switch (c) {
    case RED: return "red";
    case ORANGE: return "orange";
    case YELLOW: return "yellow";
    case GREEN: return "green";
    case BLUE: return "blue";
    case INDIGO: return "indigo";
    case VIOLET: return "violet";
    }
    return "?";
}
static int char_class(char c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
    case 'b': case 'c': case 'd': case 'f': case 'g': case 'h': case 'j': case 'k': case 'l': case 'm':
    case 'n': case 'p': case 'q': case 'r': case 's': case 't': case 'v': case 'w': case 'x': case 'y':
    case 'z': return 2;
    case ' ': return 3;
    default: return 0;
    }
}
/* Offset range (100..115) so the table needs a bias. */
static int biased(int x) {
    int r = 0;
    switch (x) {
    case 100: r = 1; break;
    case 101: r = 3; break;
    case 102: r = 5; break;
    case 103: r = 7; break;
    case 104: r = 11; break;
    case 105: r = 13; break;
    case 106: r = 17; break;
    case 107: r = 19; break;
    case 109: r = 23; break;
    case 110: r = 29; break;
    case 112: r = 31; break;
    case 115: r = 37; break;
    default: r = -x; break;
    }
    return r;
}

int main(void) {
    long total = 0;
    for (int x = -3; x < 20; x++) {
        int d = dense(x);
        total += d;
        printf("dense(%d)=%d\n", x, d);
    }
    printf("total %ld\n", total);
    for (int c = RED; c <= VIOLET; c++)
        printf("%d:%s ", c, color_name((enum color)c));
    printf("\n");
    const char *text = "the quick brown fox, jumps over 13 lazy dogs!";
    int counts[4] = {0, 0, 0, 0};
    for (const char *p = text; *p; p++)
        counts[char_class(*p)]++;
    printf("other %d vowels %d consonants %d spaces %d\n", counts[0], counts[1], counts[2], counts[3]);
    unsigned bsum = 0;
    for (int x = 95; x < 120; x++)
        bsum = bsum * 3u + (unsigned)biased(x);
    printf("biased checksum %u\n", bsum);
    /* A switch driving a loop: a tiny state machine. */
    int state = 0, steps = 0, out = 0;
    while (state != 5 && steps < 100) {
        switch (state) {
        case 0: out += 1; state = 1; break;
        case 1: out *= 2; state = out > 50 ? 2 : 0; break;
        case 2: out -= 7; state = 3; break;
        case 3: state = out % 2 ? 4 : 2; break;
        case 4: out /= 3; state = out < 5 ? 5 : 3; break;
        }
        steps++;
    }
    printf("state machine: out %d steps %d\n", out, steps);
    return 0;
}

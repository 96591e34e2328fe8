// ctype_funcs: <ctype.h> classification and case conversion over all ASCII characters and EOF.
#include <ctype.h>
#include <stdio.h>

int main(void) {
    /* One row of class letters per block of 16 characters. */
    for (int base = 0; base < 128; base += 16) {
        printf("%3d:", base);
        for (int c = base; c < base + 16; c++) {
            unsigned mask = (isalpha(c) != 0) | (isdigit(c) != 0) << 1 | (isalnum(c) != 0) << 2 |
                            (isspace(c) != 0) << 3 | (isupper(c) != 0) << 4 | (islower(c) != 0) << 5 |
                            (ispunct(c) != 0) << 6 | (isprint(c) != 0) << 7 | (iscntrl(c) != 0) << 8 |
                            (isxdigit(c) != 0) << 9 | (isgraph(c) != 0) << 10 | (isblank(c) != 0) << 11;
            printf(" %03x", mask);
        }
        printf("\n");
    }
    int counts[12] = {0};
    for (int c = -1; c < 256; c++) { /* EOF and every unsigned char value */
        counts[0] += isalpha(c) != 0;
        counts[1] += isdigit(c) != 0;
        counts[2] += isspace(c) != 0;
        counts[3] += isupper(c) != 0;
        counts[4] += islower(c) != 0;
        counts[5] += ispunct(c) != 0;
        counts[6] += isprint(c) != 0;
        counts[7] += iscntrl(c) != 0;
        counts[8] += isxdigit(c) != 0;
        counts[9] += isgraph(c) != 0;
        counts[10] += toupper(c) != c;
        counts[11] += tolower(c) != c;
    }
    printf("counts:");
    for (int i = 0; i < 12; i++)
        printf(" %d", counts[i]);
    printf("\n");
    printf("EOF: toupper %d tolower %d isalpha %d\n", toupper(EOF), tolower(EOF), isalpha(EOF) != 0);
    const char *text = "Hello, World! 123 abc_DEF\tend\n";
    char up[64], low[64];
    int i = 0;
    for (; text[i]; i++) {
        up[i] = (char)toupper((unsigned char)text[i]);
        low[i] = (char)tolower((unsigned char)text[i]);
    }
    up[i] = low[i] = 0;
    printf("upper: %s", up);
    printf("lower: %s", low);
    /* Word and digit counting with classification. */
    int words = 0, digits = 0, in_word = 0;
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (isdigit(c))
            digits++;
        if (isalnum(c) || c == '_') {
            if (!in_word)
                words++;
            in_word = 1;
        } else
            in_word = 0;
    }
    printf("words %d digits %d\n", words, digits);
    /* Hex parsing with isxdigit. */
    const char *hex = "1aF3z";
    unsigned v = 0;
    for (const char *p = hex; isxdigit((unsigned char)*p); p++) {
        int c = tolower((unsigned char)*p);
        v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
    }
    printf("hex %s -> %u\n", hex, v);
    return 0;
}

// char_short_promote: integer promotions of char and short operands and truncation when storing back.
#include <stdio.h>

signed char sc[] = {-128, -100, -1, 0, 1, 99, 127};
unsigned char uc[] = {0, 1, 128, 200, 255};
short ss[] = {-32768, -1000, -1, 0, 1, 1000, 32767};
unsigned short us[] = {0, 1, 1000, 40000, 65535};
char text[] = "Hello, DSP! \x7f\x80\xff";

static int add_chars(signed char a, signed char b) { return a + b; }
static signed char add_chars_narrow(signed char a, signed char b) { return (signed char)(unsigned char)(a + b); }
static unsigned short mul_ushort(unsigned short a, unsigned short b) { return (unsigned short)((unsigned)a * b); }
static short neg_short(short a) { return (short)(unsigned short)-a; }

int main(void) {
    for (unsigned i = 0; i < sizeof sc; i++)
        for (unsigned j = 0; j < sizeof sc; j += 2)
            printf("sc %d+%d = %d narrow %d, %d*%d = %d, %d/%d = %d\n", sc[i], sc[j], add_chars(sc[i], sc[j]),
                   add_chars_narrow(sc[i], sc[j]), sc[i], sc[j], sc[i] * sc[j], sc[i], sc[j] ? sc[j] : 1,
                   sc[i] / (sc[j] ? sc[j] : 1));
    for (unsigned i = 0; i < sizeof uc; i++) {
        unsigned char a = uc[i];
        unsigned char shifted = (unsigned char)(a << 1);
        printf("uc %u: a<<1=%d (u8)=%u a>>1=%d -a=%d ~a=%d a*a=%d\n", a, a << 1, shifted, a >> 1, -a, ~a, a * a);
    }
    for (unsigned i = 0; i < sizeof ss / sizeof ss[0]; i++) {
        short a = ss[i];
        printf("ss %d: neg=%d x3=%d sq=%d >>2=%d\n", a, neg_short(a), a * 3, a * a, a >> 2);
    }
    for (unsigned i = 0; i < sizeof us / sizeof us[0]; i++)
        for (unsigned j = 0; j < sizeof us / sizeof us[0]; j++)
            printf("us %u*%u=%u (as u32 %u)\n", us[i], us[j], mul_ushort(us[i], us[j]), (unsigned)us[i] * us[j]);

    /* Character arithmetic on a string (char is signed on both targets). */
    int sum = 0;
    unsigned usum = 0;
    for (char *p = text; *p; p++) {
        sum += *p;
        usum += (unsigned char)*p;
    }
    printf("text sum %d usum %u\n", sum, usum);
    char rot[sizeof text];
    for (unsigned i = 0; i < sizeof text; i++) {
        char c = text[i];
        if (c >= 'a' && c <= 'z')
            c = (char)('a' + (c - 'a' + 13) % 26);
        else if (c >= 'A' && c <= 'Z')
            c = (char)('A' + (c - 'A' + 13) % 26);
        rot[i] = c;
    }
    rot[12] = 0;
    printf("rot13 '%s'\n", rot);

    /* Compound assignment on narrow types wraps on the store. */
    unsigned char acc8 = 0;
    unsigned short acc16 = 0;
    signed char sacc = 0;
    for (int k = 0; k < 300; k++) {
        acc8 += 7;
        acc16 *= 3;
        acc16 += (unsigned short)k;
        sacc = (signed char)(unsigned char)(sacc + 5);
    }
    printf("acc8 %u acc16 %u sacc %d\n", acc8, acc16, sacc);
    short sh = -2;
    sh *= 1000;
    sh /= 7;
    printf("sh %d\n", sh);
    printf("char compare: %d %d %d\n", text[13] < 0, (unsigned char)text[13] > 127, text[14] == (char)-1);
    return 0;
}

/* ctype.c: character classes and case mapping in the "C" locale. Values
 * outside 0..127 (EOF, negative chars, bytes above 127) are in no class.
 * The functions return glibc's class bits (isalpha('a') == 1024, …), not 1,
 * so programs that print the result agree with the host build. */
#include <ctype.h>

#define C_UPPER 256
#define C_LOWER 512
#define C_ALPHA 1024
#define C_DIGIT 2048
#define C_XDIGIT 4096
#define C_SPACE 8192
#define C_PRINT 16384
#define C_GRAPH 32768
#define C_BLANK 1
#define C_CNTRL 2
#define C_PUNCT 4
#define C_ALNUM 8

static int up(int c) { return (unsigned)c - 'A' < 26; }
static int low(int c) { return (unsigned)c - 'a' < 26; }
static int dig(int c) { return (unsigned)c - '0' < 10; }

int isupper(int c) { return up(c) ? C_UPPER : 0; }
int islower(int c) { return low(c) ? C_LOWER : 0; }
int isalpha(int c) { return up(c) || low(c) ? C_ALPHA : 0; }
int __dsp_isdigit(int c) { return dig(c) ? C_DIGIT : 0; }
#undef isdigit
int isdigit(int c) { return dig(c) ? C_DIGIT : 0; }
int isalnum(int c) { return up(c) || low(c) || dig(c) ? C_ALNUM : 0; }
int isxdigit(int c) { return dig(c) || (unsigned)c - 'a' < 6 || (unsigned)c - 'A' < 6 ? C_XDIGIT : 0; }
int isspace(int c) { return c == ' ' || (unsigned)c - '\t' < 5 ? C_SPACE : 0; }
int isblank(int c) { return c == ' ' || c == '\t' ? C_BLANK : 0; }
int iscntrl(int c) { return (unsigned)c < 32 || c == 127 ? C_CNTRL : 0; }
int isprint(int c) { return (unsigned)c - 32 < 95 ? C_PRINT : 0; }
int isgraph(int c) { return (unsigned)c - 33 < 94 ? C_GRAPH : 0; }
int ispunct(int c) { return (unsigned)c - 33 < 94 && !up(c) && !low(c) && !dig(c) ? C_PUNCT : 0; }
int isascii(int c) { return (unsigned)c < 128; }
int toascii(int c) { return c & 127; }
int tolower(int c) { return up(c) ? c + 32 : c; }
int toupper(int c) { return low(c) ? c - 32 : c; }

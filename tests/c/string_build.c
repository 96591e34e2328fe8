// string_build: building strings with sprintf/snprintf, own itoa/atoi, reversal, and in-place transformations.
#include <stdio.h>
#include <string.h>

static char *itoa_base(long long v, int base, char *out) {
    char tmp[70];
    int n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        int d = (int)(u % (unsigned)base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        u /= (unsigned)base;
    } while (u);
    int k = 0;
    if (v < 0)
        out[k++] = '-';
    while (n)
        out[k++] = tmp[--n];
    out[k] = 0;
    return out;
}
static long long my_atoll(const char *s) {
    int neg = 0;
    unsigned long long v = 0;
    while (*s == ' ')
        s++;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (unsigned)(*s++ - '0');
    if (neg && v != 0)
        return -(long long)(v - 1) - 1; /* no overflow, even for LLONG_MIN */
    return (long long)v;
}
static void reverse(char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        char t = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = t;
    }
}
static int is_palindrome(const char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++)
        if (s[i] != s[n - 1 - i])
            return 0;
    return 1;
}

size_t small_cap = 8;
long long nums[] = {0, 7, -7, 255, -256, 1000000, 2147483647LL, -2147483648LL, 9223372036854775807LL,
                    -9223372036854775807LL - 1};

int main(void) {
    char a[80], b[80], h[80], t[80], z[80];
    for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        sprintf(b, "%lld", nums[i]);
        itoa_base(nums[i], 10, a);
        itoa_base(nums[i], 16, h);
        itoa_base(nums[i] / 1000000000, 2, t);
        itoa_base(nums[i], 36, z);
        printf("%s: base10 %s base16 %s base2 %s base36 %s atoll ok %d\n", b, a, h, t, z, my_atoll(b) == nums[i]);
    }
    /* Appending with snprintf and a moving cursor. */
    char line[120];
    size_t used = 0;
    for (int i = 1; i <= 12; i++) {
        int n = snprintf(line + used, sizeof line - used, "%s%d^2=%d", i > 1 ? "," : "", i, i * i);
        if (n < 0 || (size_t)n >= sizeof line - used)
            break;
        used += (size_t)n;
    }
    printf("%s (%u)\n", line, (unsigned)used);
    /* snprintf never overflows and reports the full length. */
    char small[8];
    int need = snprintf(small, small_cap, "%s|%d|%.3f", "abcdef", 12345, 3.14159);
    printf("small '%s' need %d\n", small, need);
    need = snprintf(NULL, 0, "%08.3f", -3.5);
    printf("measure only %d\n", need);
    /* Palindromes and reversal. */
    const char *cands[] = {"racecar", "level", "dsp", "a", "", "abba", "abca"};
    for (unsigned i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        strcpy(a, cands[i]);
        reverse(a);
        printf("'%s' reversed '%s' palindrome %d\n", cands[i], a, is_palindrome(cands[i]));
    }
    /* Upper-casing, squeezing spaces and a Caesar shift in place. */
    strcpy(a, "  Signal   processing  on   VLIW   ");
    char *w = a;
    int space = 1;
    for (char *r = a; *r; r++) {
        if (*r == ' ') {
            if (!space)
                *w++ = ' ';
            space = 1;
        } else {
            *w++ = (*r >= 'a' && *r <= 'z') ? (char)(*r - 32) : *r;
            space = 0;
        }
    }
    if (w > a && w[-1] == ' ')
        w--;
    *w = 0;
    printf("squeezed '%s'\n", a);
    for (char *r = a; *r; r++)
        if (*r >= 'A' && *r <= 'Z')
            *r = (char)('A' + (*r - 'A' + 3) % 26);
    printf("caesar '%s'\n", a);
    sprintf(b, "%s-%c-%5.2f-%x-%o", "mix", 'Z', 2.0 / 3.0, 48879u, 8u);
    printf("sprintf '%s'\n", b);
    return 0;
}

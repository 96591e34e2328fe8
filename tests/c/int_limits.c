// int_limits: the <limits.h> constants and arithmetic at the edges of every integer type.
#include <limits.h>
#include <stdio.h>

signed char sc_vals[] = {SCHAR_MIN, -1, 0, 1, SCHAR_MAX};
short s_vals[] = {SHRT_MIN, -1, 0, 1, SHRT_MAX};
int i_vals[] = {INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1, INT_MAX};
long l_vals[] = {LONG_MIN, -1L, 0L, 1L, LONG_MAX};
long long ll_vals[] = {LLONG_MIN, LLONG_MIN + 1, -1LL, 0LL, 1LL, LLONG_MAX};
unsigned char uc_vals[] = {0, 1, 127, 128, UCHAR_MAX};
unsigned short us_vals[] = {0, 1, 0x7fff, 0x8000, USHRT_MAX};
unsigned u_vals[] = {0u, 1u, 0x7fffffffu, 0x80000000u, UINT_MAX};
unsigned long long ull_vals[] = {0ull, 1ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ULLONG_MAX};

int main(void) {
    printf("CHAR_BIT=%d SCHAR_MIN=%d SCHAR_MAX=%d UCHAR_MAX=%d\n", CHAR_BIT, SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
    printf("CHAR_MIN=%d CHAR_MAX=%d\n", CHAR_MIN, CHAR_MAX);
    printf("SHRT_MIN=%d SHRT_MAX=%d USHRT_MAX=%d\n", SHRT_MIN, SHRT_MAX, USHRT_MAX);
    printf("INT_MIN=%d INT_MAX=%d UINT_MAX=%u\n", INT_MIN, INT_MAX, UINT_MAX);
    printf("LONG_MIN=%ld LONG_MAX=%ld ULONG_MAX=%lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
    printf("LLONG_MIN=%lld LLONG_MAX=%lld ULLONG_MAX=%llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    printf("sizes: %u %u %u %u %u %u\n", (unsigned)sizeof(char), (unsigned)sizeof(short), (unsigned)sizeof(int),
           (unsigned)sizeof(long), (unsigned)sizeof(long long), (unsigned)sizeof(void *));

    for (unsigned i = 0; i < sizeof sc_vals / sizeof sc_vals[0]; i++) {
        signed char c = sc_vals[i];
        int widened = c;
        unsigned char as_u = (unsigned char)c;
        printf("sc %4d -> u8 %3u, neg %4d, x2 %4d\n", widened, as_u, -widened, widened * 2);
    }
    for (unsigned i = 0; i < sizeof s_vals / sizeof s_vals[0]; i++) {
        short s = s_vals[i];
        printf("s %6d -> u16 %5u, sq %d\n", s, (unsigned short)s, s * s);
    }
    for (unsigned i = 0; i < sizeof i_vals / sizeof i_vals[0]; i++) {
        int v = i_vals[i];
        long long wide = (long long)v * 2 - 1;
        printf("i %11d: u=%10u half=%d mod7=%d wide=%lld neg_u=%u\n", v, (unsigned)v, v / 2, v % 7, wide, 0u - (unsigned)v);
    }
    for (unsigned i = 0; i < sizeof l_vals / sizeof l_vals[0]; i++)
        printf("l %ld: %lu\n", l_vals[i], (unsigned long)l_vals[i]);
    for (unsigned i = 0; i < sizeof ll_vals / sizeof ll_vals[0]; i++) {
        long long v = ll_vals[i];
        printf("ll %lld: u=%llu hex=%llx div3=%lld mod3=%lld\n", v, (unsigned long long)v, (unsigned long long)v, v / 3, v % 3);
    }
    for (unsigned i = 0; i < sizeof uc_vals / sizeof uc_vals[0]; i++) {
        unsigned char c = uc_vals[i];
        unsigned char inc = (unsigned char)(c + 1);
        printf("uc %3u: +1=%3u ~=%d (u8)~=%u\n", c, inc, ~c, (unsigned char)~c);
    }
    for (unsigned i = 0; i < sizeof us_vals / sizeof us_vals[0]; i++) {
        unsigned short s = us_vals[i];
        unsigned short dbl = (unsigned short)(s * 2u);
        printf("us %5u: x2=%5u as_s=%d\n", s, dbl, (short)s);
    }
    for (unsigned i = 0; i < sizeof u_vals / sizeof u_vals[0]; i++) {
        unsigned v = u_vals[i];
        printf("u %10u: +1=%u -1=%u *3=%u >>31=%u as_i=%d\n", v, v + 1, v - 1, v * 3, v >> 31, (int)v);
    }
    for (unsigned i = 0; i < sizeof ull_vals / sizeof ull_vals[0]; i++) {
        unsigned long long v = ull_vals[i];
        printf("ull %20llu: +1=%llu *5=%llu >>63=%llu lo=%u hi=%u\n", v, v + 1, v * 5, v >> 63, (unsigned)v,
               (unsigned)(v >> 32));
    }
    return 0;
}

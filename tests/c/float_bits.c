// float_bits: IEEE bit patterns of float and double via unions and memcpy, and building values from bits.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

union fpun {
    float f;
    uint32_t u;
};
union dpun {
    double d;
    uint64_t u;
    uint32_t w[2];
};

float fv[] = {1.0f, -2.0f, 0.5f, 0.1f, 3.4028235e38f, 1.17549435e-38f, 1e-45f, 1234.5678f};
double dv[] = {1.0, -2.0, 0.1, 1.7976931348623157e308, 2.2250738585072014e-308, 4.9e-324, 3.141592653589793};

static float make_float(unsigned sign, int exp, uint32_t mant) {
    union fpun p;
    p.u = (sign << 31) | ((uint32_t)(exp + 127) << 23) | (mant & 0x7fffffu);
    return p.f;
}

int main(void) {
    for (unsigned i = 0; i < sizeof fv / sizeof fv[0]; i++) {
        union fpun p = {fv[i]};
        unsigned exp = (p.u >> 23) & 0xff, mant = p.u & 0x7fffff;
        printf("float %.9g = %08x sign %u exp %u mant %06x\n", (double)fv[i], p.u, p.u >> 31, exp, mant);
    }
    for (unsigned i = 0; i < sizeof dv / sizeof dv[0]; i++) {
        union dpun p;
        p.d = dv[i];
        uint64_t m;
        memcpy(&m, &dv[i], 8);
        printf("double %.17g = %016llx lo %08x hi %08x same %d exp %u\n", dv[i], (unsigned long long)p.u, p.w[0],
               p.w[1], m == p.u, (unsigned)((p.u >> 52) & 0x7ff));
    }
    for (int e = -3; e <= 3; e++)
        printf("make_float(0,%d,0x400000) = %g, make_float(1,%d,1) = %.9g\n", e, (double)make_float(0, e, 0x400000u),
               e, (double)make_float(1, e, 1u));
    /* Next representable values by incrementing the bit pattern. */
    union dpun x;
    x.d = 1.0;
    for (int k = 0; k < 3; k++) {
        x.u++;
        printf("1.0 + %d ulp = %.17g\n", k + 1, x.d);
    }
    union fpun y = {1.0f};
    y.u--;
    printf("1.0f - 1 ulp = %.9g\n", (double)y.f);
    /* Fast exponent extraction and frexp-like decomposition via bits. */
    for (unsigned i = 0; i < 5; i++) {
        union dpun p;
        p.d = dv[i] * 3.0;
        int e = (int)((p.u >> 52) & 0x7ff) - 1023;
        p.u = (p.u & ~(0x7ffull << 52)) | (1023ull << 52);
        printf("%.17g = %.17g * 2^%d\n", dv[i] * 3.0, p.d, e);
    }
    /* Absolute value and negation by bit operations agree with the arithmetic ones. */
    unsigned agree = 0;
    for (unsigned i = 0; i < sizeof fv / sizeof fv[0]; i++) {
        union fpun p = {fv[i]}, q = {-fv[i]}, r = {fv[i] < 0 ? -fv[i] : fv[i]};
        agree += (p.u ^ 0x80000000u) == q.u;
        agree += (p.u & 0x7fffffffu) == r.u;
    }
    printf("bit ops agree %u/%u\n", agree, (unsigned)(2 * (sizeof fv / sizeof fv[0])));
    return 0;
}

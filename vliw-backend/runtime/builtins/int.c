/* int.c: integer support routines with the libgcc/compiler-rt names, for
 * machines without a divider, a multiplier or 64-bit shifts: 32- and 64-bit
 * division and remainder (binary long division: shifts, compares and
 * subtractions only, so the compiler cannot turn them back into the
 * operation they implement), 64-bit shifts, multiplication, negation and
 * comparison. Division by zero returns 0 quotient and the dividend as the
 * remainder (C leaves it undefined). */
#include "builtins.h"

su_int __udivmodsi4(su_int a, su_int b, su_int *rem)
{
    su_int q = 0, r = 0;
    if (b == 0) {
        if (rem)
            *rem = a;
        return 0;
    }
    for (int i = 31; i >= 0; i--) {
        r = (r << 1) | ((a >> i) & 1);
        if (r >= b) {
            r -= b;
            q |= 1u << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

su_int __udivsi3(su_int a, su_int b)
{
    return __udivmodsi4(a, b, 0);
}

su_int __umodsi3(su_int a, su_int b)
{
    su_int r;
    __udivmodsi4(a, b, &r);
    return r;
}

si_int __divsi3(si_int a, si_int b)
{
    su_int ua = a < 0 ? 0u - (su_int)a : (su_int)a;
    su_int ub = b < 0 ? 0u - (su_int)b : (su_int)b;
    su_int q = __udivmodsi4(ua, ub, 0);
    return (si_int)((a < 0) != (b < 0) ? 0u - q : q);
}

si_int __modsi3(si_int a, si_int b)
{
    su_int ua = a < 0 ? 0u - (su_int)a : (su_int)a;
    su_int ub = b < 0 ? 0u - (su_int)b : (su_int)b;
    su_int r;
    __udivmodsi4(ua, ub, &r);
    return (si_int)(a < 0 ? 0u - r : r);
}

si_int __divmodsi4(si_int a, si_int b, si_int *rem)
{
    si_int q = __divsi3(a, b);
    *rem = (si_int)((su_int)a - (su_int)q * (su_int)b);
    return q;
}

static int clz64(du_int v)
{
    int n = 0;
    if (!(v >> 32)) {
        n += 32;
        v <<= 32;
    }
    while (!(v >> 63)) {
        n++;
        v <<= 1;
    }
    return n;
}

du_int __udivmoddi4(du_int a, du_int b, du_int *rem)
{
    if (b == 0) {
        if (rem)
            *rem = a;
        return 0;
    }
    if (b > a) {
        if (rem)
            *rem = a;
        return 0;
    }
    if (!(a >> 32)) {
        su_int r32;
        su_int q32 = __udivmodsi4((su_int)a, (su_int)b, &r32);
        if (rem)
            *rem = r32;
        return q32;
    }
    /* Align b's top bit with a's, then one quotient bit per step. */
    int shift = clz64(b) - clz64(a);
    du_int d = b << shift, q = 0, r = a;
    for (int i = shift; i >= 0; i--) {
        if (r >= d) {
            r -= d;
            q |= 1ULL << i;
        }
        d >>= 1;
    }
    if (rem)
        *rem = r;
    return q;
}

du_int __udivdi3(du_int a, du_int b)
{
    return __udivmoddi4(a, b, 0);
}

du_int __umoddi3(du_int a, du_int b)
{
    du_int r;
    __udivmoddi4(a, b, &r);
    return r;
}

di_int __divdi3(di_int a, di_int b)
{
    du_int ua = a < 0 ? 0ULL - (du_int)a : (du_int)a;
    du_int ub = b < 0 ? 0ULL - (du_int)b : (du_int)b;
    du_int q = __udivmoddi4(ua, ub, 0);
    return (di_int)((a < 0) != (b < 0) ? 0ULL - q : q);
}

di_int __moddi3(di_int a, di_int b)
{
    du_int ua = a < 0 ? 0ULL - (du_int)a : (du_int)a;
    du_int ub = b < 0 ? 0ULL - (du_int)b : (du_int)b;
    du_int r;
    __udivmoddi4(ua, ub, &r);
    return (di_int)(a < 0 ? 0ULL - r : r);
}

di_int __divmoddi4(di_int a, di_int b, di_int *rem)
{
    di_int q = __divdi3(a, b);
    *rem = (di_int)((du_int)a - (du_int)q * (du_int)b);
    return q;
}

/* 64-bit shifts on 32-bit halves (b in 0..63). */
di_int __ashldi3(di_int a, int b)
{
    dwords x = {.all = (du_int)a};
    if (b & 32) {
        x.s.high = x.s.low << (b & 31);
        x.s.low = 0;
    } else if (b & 31) {
        x.s.high = (x.s.high << b) | (x.s.low >> (32 - b));
        x.s.low <<= b;
    }
    return (di_int)x.all;
}

di_int __lshrdi3(di_int a, int b)
{
    dwords x = {.all = (du_int)a};
    if (b & 32) {
        x.s.low = x.s.high >> (b & 31);
        x.s.high = 0;
    } else if (b & 31) {
        x.s.low = (x.s.low >> b) | (x.s.high << (32 - b));
        x.s.high >>= b;
    }
    return (di_int)x.all;
}

di_int __ashrdi3(di_int a, int b)
{
    dwords x = {.all = (du_int)a};
    su_int fill = (si_int)x.s.high < 0 ? 0xffffffffu : 0;
    if (b & 32) {
        su_int h = x.s.high;
        x.s.low = (b & 31) ? (h >> (b & 31)) | (fill << (32 - (b & 31))) : h;
        x.s.high = fill;
    } else if (b & 31) {
        x.s.low = (x.s.low >> b) | (x.s.high << (32 - b));
        x.s.high = (x.s.high >> b) | (fill << (32 - b));
    }
    return (di_int)x.all;
}

/* Multiplication by shifts and adds. */
si_int __mulsi3(si_int a, si_int b)
{
    su_int x = (su_int)a, y = (su_int)b, r = 0;
    while (y) {
        if (y & 1)
            r += x;
        x <<= 1;
        y >>= 1;
    }
    return (si_int)r;
}

di_int __muldi3(di_int a, di_int b)
{
    du_int x = (du_int)a, y = (du_int)b, r = 0;
    while (y) {
        if (y & 1)
            r += x;
        x <<= 1;
        y >>= 1;
    }
    return (di_int)r;
}

di_int __negdi2(di_int a)
{
    return (di_int)(0ULL - (du_int)a);
}

/* Comparisons: 0 if a < b, 1 if equal, 2 if a > b. */
si_int __cmpdi2(di_int a, di_int b)
{
    return a < b ? 0 : a == b ? 1 : 2;
}

si_int __ucmpdi2(du_int a, du_int b)
{
    return a < b ? 0 : a == b ? 1 : 2;
}

/* bits.c: bit-counting support routines (compiler-rt names): population
 * count, leading and trailing zeros, ffs, parity, byte swaps, written so
 * that the compiler cannot recognize them as the intrinsic they implement
 * (which could call them back on a machine without the instruction). clz/ctz of 0 return the width. */
#include "builtins.h"

si_int __popcountsi2(si_int a)
{
    /* A nibble table: no shape the compiler could turn back into ctpop. */
    static const unsigned char bits4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    su_int x = (su_int)a;
    si_int n = 0;
    for (int i = 0; i < 8; i++) {
        n += bits4[x & 15];
        x >>= 4;
    }
    return n;
}

si_int __popcountdi2(di_int a)
{
    dwords x = {.all = (du_int)a};
    return __popcountsi2((si_int)x.s.low) + __popcountsi2((si_int)x.s.high);
}

si_int __clzsi2(si_int a)
{
    su_int x = (su_int)a;
    si_int n = 0;
    if (!x)
        return 32;
    if (!(x & 0xffff0000u)) { n += 16; x <<= 16; }
    if (!(x & 0xff000000u)) { n += 8; x <<= 8; }
    if (!(x & 0xf0000000u)) { n += 4; x <<= 4; }
    if (!(x & 0xc0000000u)) { n += 2; x <<= 2; }
    if (!(x & 0x80000000u)) { n += 1; }
    return n;
}

si_int __clzdi2(di_int a)
{
    dwords x = {.all = (du_int)a};
    return x.s.high ? __clzsi2((si_int)x.s.high) : 32 + __clzsi2((si_int)x.s.low);
}

si_int __ctzsi2(si_int a)
{
    su_int x = (su_int)a;
    si_int n = 0;
    if (!x)
        return 32;
    if (!(x & 0xffffu)) { n += 16; x >>= 16; }
    if (!(x & 0xffu)) { n += 8; x >>= 8; }
    if (!(x & 0xfu)) { n += 4; x >>= 4; }
    if (!(x & 0x3u)) { n += 2; x >>= 2; }
    if (!(x & 0x1u)) { n += 1; }
    return n;
}

si_int __ctzdi2(di_int a)
{
    dwords x = {.all = (du_int)a};
    return x.s.low ? __ctzsi2((si_int)x.s.low) : 32 + __ctzsi2((si_int)x.s.high);
}

si_int __ffssi2(si_int a)
{
    return a ? __ctzsi2(a) + 1 : 0;
}

si_int __ffsdi2(di_int a)
{
    return a ? __ctzdi2(a) + 1 : 0;
}

si_int __paritysi2(si_int a)
{
    return __popcountsi2(a) & 1;
}

si_int __paritydi2(di_int a)
{
    return __popcountdi2(a) & 1;
}

/* Byte swaps go through volatile bytes, so that the compiler cannot
 * recognize the pattern and call the routine from itself. */
su_int __bswapsi2(su_int a)
{
    volatile unsigned char b[4];
    b[0] = (unsigned char)a;
    b[1] = (unsigned char)(a >> 8);
    b[2] = (unsigned char)(a >> 16);
    b[3] = (unsigned char)(a >> 24);
    return ((su_int)b[0] << 24) | ((su_int)b[1] << 16) | ((su_int)b[2] << 8) | b[3];
}

du_int __bswapdi2(du_int a)
{
    dwords x = {.all = a}, r;
    r.s.low = __bswapsi2(x.s.high);
    r.s.high = __bswapsi2(x.s.low);
    return r.all;
}

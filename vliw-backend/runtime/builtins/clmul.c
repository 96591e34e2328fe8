/* clmul.c: __dsp_clmul32, the carry-less (polynomial over GF(2)) product
 * of two 32-bit values, 64 bits wide. The compiler calls it for
 * llvm.hexagon.M4.pmpyw, which the Hexagon loop-idiom pass of clang's
 * pipeline makes out of CRC and polynomial-multiply bit loops
 * (vliw-backend/isel/src/intrinsics.rs). Four bits of b at a time through
 * a table of a's products with 0..15, written without loops so that the
 * same pass cannot recognize this routine as the idiom and make it call
 * itself. */
#include "builtins.h"

du_int __dsp_clmul32(su_int a, su_int b)
{
    du_int t[16];
    du_int x = a;
    t[0] = 0;
    t[1] = x;
    t[2] = x << 1;
    t[3] = t[2] ^ x;
    t[4] = x << 2;
    t[5] = t[4] ^ x;
    t[6] = t[4] ^ t[2];
    t[7] = t[6] ^ x;
    t[8] = x << 3;
    t[9] = t[8] ^ x;
    t[10] = t[8] ^ t[2];
    t[11] = t[10] ^ x;
    t[12] = t[8] ^ t[4];
    t[13] = t[12] ^ x;
    t[14] = t[12] ^ t[2];
    t[15] = t[14] ^ x;
    du_int r = t[b >> 28];
    r = (r << 4) ^ t[(b >> 24) & 15];
    r = (r << 4) ^ t[(b >> 20) & 15];
    r = (r << 4) ^ t[(b >> 16) & 15];
    r = (r << 4) ^ t[(b >> 12) & 15];
    r = (r << 4) ^ t[(b >> 8) & 15];
    r = (r << 4) ^ t[(b >> 4) & 15];
    return (r << 4) ^ t[b & 15];
}

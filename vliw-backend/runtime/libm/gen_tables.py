#!/usr/bin/env python3
"""gen_tables.py: writes tables.c, the constants of libm (double-double
values of mathematical constants, series coefficients, logarithm and
arctangent tables, the bits of 2/pi), computed with mpmath at 700 digits.
Run it from this directory: python3 gen_tables.py > tables.c"""
import mpmath as mp

mp.mp.dps = 700


def dd(v):
    """v as hi + lo, both doubles, hi = round(v), lo = round(v - hi)."""
    hi = float(v)
    lo = float(v - mp.mpf(hi))
    return hi, lo


def h(x):
    return float(x).hex()


out = []
w = out.append
w("/* tables.c: constants of libm, written by gen_tables.py (mpmath, 700 digits):")
w(" * double-double values (hi + lo, |lo| <= ulp(hi) / 2) and the bits of 2/pi.")
w(" * Do not edit; run python3 gen_tables.py > tables.c instead. */")
w('#include "libm.h"')
w("")


def const(name, v):
    a, b = dd(v)
    w(f"const dd {name} = {{{h(a)}, {h(b)}}};")


const("__dd_ln2", mp.log(2))
const("__dd_inv_ln2", 1 / mp.log(2))
const("__dd_inv_ln10", 1 / mp.log(10))
const("__dd_ln10", mp.log(10))
const("__dd_pi", mp.pi)
const("__dd_pi_2", mp.pi / 2)
const("__dd_pi_4", mp.pi / 4)
w("")


def table(name, values, comment):
    w(f"/* {comment} */")
    w(f"const dd {name}[{len(values)}] = {{")
    for v in values:
        a, b = dd(v)
        w(f"    {{{h(a)}, {h(b)}}},")
    w("};")
    w("")


table("__dd_inv_fact", [1 / mp.factorial(n) for n in range(0, 28)], "1/n! for n = 0..27")
table("__dd_inv_odd", [mp.mpf(1) / (2 * n + 1) for n in range(0, 24)], "1/(2n+1) for n = 0..23")
table("__dd_log_j32", [mp.log(mp.mpf(j) / 32) for j in range(22, 47)], "log(j/32) for j = 22..46")
table("__dd_atan_j16", [mp.atan(mp.mpf(j) / 16) for j in range(0, 17)], "atan(j/16) for j = 0..16")

# 2/pi as 32-bit limbs, most significant first: limb i holds bits 32i+1 .. 32i+32
# after the binary point.
n = 48
v = 2 / mp.pi
limbs = []
for i in range(n):
    v *= 2**32
    d = int(mp.floor(v))
    limbs.append(d)
    v -= d
w("/* 2/pi = 0.b1 b2 b3 ... in binary; limb i holds bits 32i+1 .. 32i+32. */")
w(f"const unsigned __two_over_pi_bits[{n}] = {{")
for i in range(0, n, 6):
    w("    " + ", ".join(f"0x{x:08x}u" for x in limbs[i:i + 6]) + ",")
w("};")
print("\n".join(out))

//! Bit-manipulation intrinsics for `dsp-expand-intrinsics` (Hacker's Delight
//! §5-1, §5-3, §5-4, §7-1):
//!
//! - `ctpop/ctlz/cttz` on scalars narrower than 32 bits use the machine's
//!   32-bit instruction on the zero-extended value (`ctlz.i8(x)` =
//!   `ctlz.i32(zext x) - 24`, `cttz.i8(x)` = `cttz.i32(zext x | 0x100)`);
//!   when the `.isa` has no `popcnt`/`clz`/`ctz` for the type they become
//!   bit tricks: the SWAR population count, `ctlz(x) = popcount(~smear(x))`,
//!   `cttz(x) = popcount(~x & (x - 1))`;
//! - `bswap` without a `bswap` instruction: shifts, masks and ors (always for
//!   `i16`, where it is two shifts);
//! - `bitreverse` (no such operation in the vocabulary): bits, pairs and
//!   nibbles swapped within each byte by masks and shifts, then a byte swap;
//! - `fshl/fshr` (the rotate idioms; the vocabulary has no rotate):
//!   `(a << s) | ((b >> 1) >> (N - 1 - s))` with `s = c mod N`, and its mirror;
//! - `{u,s}{add,sub}.sat`: the wrapped result, selected against the
//!   saturation value on overflow.
//!
//! Everything works lane-wise on vectors.

use inkwell::llvm_sys::core::LLVMTypeOf;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::*;
use isa_tablegen::SemOp;

use crate::caps::{Caps, Sign};
use crate::ir::{self, Builder, Shape};

const PREFIXES: &[&str] = &[
    "llvm.ctpop.",
    "llvm.ctlz.",
    "llvm.cttz.",
    "llvm.bswap.",
    "llvm.bitreverse.",
    "llvm.fshl.",
    "llvm.fshr.",
    "llvm.uadd.sat.",
    "llvm.usub.sat.",
    "llvm.sadd.sat.",
    "llvm.ssub.sat.",
];

/// Runs the expansion; returns whether anything changed.
pub fn run(m: LLVMModuleRef, caps: &Caps) -> bool {
    let mut changed = false;
    for (call, name) in ir::intrinsic_calls(m, PREFIXES) {
        let rest = &name[5..];
        let kind = if rest.contains(".sat.") {
            &rest[..rest.find(".sat.").unwrap_or(0) + 4]
        } else {
            rest.split('.').next().unwrap_or("")
        };
        changed |= lower(m, call, kind, caps);
    }
    ir::drop_unused_declarations(m, PREFIXES);
    changed
}

fn lower(m: LLVMModuleRef, call: LLVMValueRef, kind: &str, caps: &Caps) -> bool {
    let a = ir::arg(call, 0);
    let ty = unsafe { LLVMTypeOf(a) };
    let Some(shape) = ir::shape(ty) else {
        return false;
    };
    if shape.float || shape.bits > 64 {
        return false;
    }
    let n = shape.bits;
    let bld = Builder::before(call);
    let new = match kind {
        "ctpop" | "ctlz" | "cttz" => {
            let op = match kind {
                "ctpop" => SemOp::Popcnt,
                "ctlz" => SemOp::Clz,
                _ => SemOp::Ctz,
            };
            let scalar_narrow = shape.lanes.is_none() && n < 32;
            if caps.has(op, shape, Sign::Any) && !scalar_narrow {
                return false;
            }
            if scalar_narrow && caps.has(op, shape, Sign::Any) {
                match widen_count(m, &bld, kind, a, ty, n) {
                    Some(v) => v,
                    None => return false,
                }
            } else {
                match kind {
                    "ctpop" => popcount(m, &bld, a, caps),
                    "ctlz" => {
                        let smeared = smear_right(&bld, a, n);
                        popcount(m, &bld, bld.not(smeared), caps)
                    }
                    _ => {
                        let below = bld.and(bld.not(a), bld.sub(a, ir::const_int(ty, 1)));
                        popcount(m, &bld, below, caps)
                    }
                }
            }
        }
        "bswap" => {
            if n != 16 && caps.has(SemOp::Bswap, shape, Sign::Any) {
                return false;
            }
            byte_swap(&bld, a, ty, n)
        }
        "bitreverse" => {
            if n % 8 != 0 {
                return false;
            }
            // Swap bits, pairs and nibbles within each byte, then the bytes.
            let mut v = a;
            for (s, pattern) in [(1u64, 0x55u8), (2, 0x33), (4, 0x0f)] {
                let mask = ir::const_int(ty, u64::from_ne_bytes([pattern; 8]));
                let k = ir::const_int(ty, s);
                v = bld.or(bld.and(bld.lshr(v, k), mask), bld.shl(bld.and(v, mask), k));
            }
            if n == 8 {
                v
            } else if n != 16 && caps.has(SemOp::Bswap, shape, Sign::Any) {
                match bld.call_intrinsic(m, "llvm.bswap", &[ty], &[v]) {
                    Some(r) => r,
                    None => byte_swap(&bld, v, ty, n),
                }
            } else {
                byte_swap(&bld, v, ty, n)
            }
        }
        "fshl" | "fshr" => {
            let (b, c) = (ir::arg(call, 1), ir::arg(call, 2));
            let s = if n.is_power_of_two() {
                bld.and(c, ir::const_int(ty, (n - 1) as u64))
            } else {
                unsafe {
                    inkwell::llvm_sys::core::LLVMBuildURem(
                        bld.raw(),
                        c,
                        ir::const_int(ty, n as u64),
                        c"".as_ptr(),
                    )
                }
            };
            let one = ir::const_int(ty, 1);
            let inv = bld.sub(ir::const_int(ty, (n - 1) as u64), s);
            if kind == "fshl" {
                bld.or(bld.shl(a, s), bld.lshr(bld.lshr(b, one), inv))
            } else {
                bld.or(bld.shl(bld.shl(a, one), inv), bld.lshr(b, s))
            }
        }
        "uadd.sat" => {
            let b = ir::arg(call, 1);
            let r = bld.add(a, b);
            bld.select(bld.icmp(LLVMIntULT, r, a), ir::all_ones(ty), r)
        }
        "usub.sat" => {
            let b = ir::arg(call, 1);
            bld.select(bld.icmp(LLVMIntULT, a, b), ir::zero(ty), bld.sub(a, b))
        }
        "sadd.sat" | "ssub.sat" => {
            let b = ir::arg(call, 1);
            let zero = ir::zero(ty);
            let (r, t) = if kind == "sadd.sat" {
                let r = bld.add(a, b);
                (r, bld.and(bld.xor(a, r), bld.xor(b, r)))
            } else {
                let r = bld.sub(a, b);
                (r, bld.and(bld.xor(a, b), bld.xor(a, r)))
            };
            let overflow = bld.icmp(LLVMIntSLT, t, zero);
            let min = ir::const_int(ty, ir::signed_min(n));
            let max = ir::const_int(ty, ir::low_mask(n - 1));
            let sat = bld.select(bld.icmp(LLVMIntSLT, a, zero), min, max);
            bld.select(overflow, sat, r)
        }
        _ => return false,
    };
    ir::replace(call, new);
    true
}

/// `ctpop/ctlz/cttz` of a narrow scalar through the 32-bit intrinsic.
fn widen_count(
    m: LLVMModuleRef,
    bld: &Builder,
    kind: &str,
    a: LLVMValueRef,
    ty: LLVMTypeRef,
    n: u32,
) -> Option<LLVMValueRef> {
    let i32t = ir::int_like(ty, 32);
    let wide = bld.zext(a, i32t);
    let no_poison = ir::zero(ir::bool_like(i32t));
    let r = match kind {
        "ctpop" => bld.call_intrinsic(m, "llvm.ctpop", &[i32t], &[wide])?,
        "ctlz" => {
            let c = bld.call_intrinsic(m, "llvm.ctlz", &[i32t], &[wide, no_poison])?;
            bld.sub(c, ir::const_int(i32t, (32 - n) as u64))
        }
        _ => {
            let guarded = bld.or(wide, ir::const_int(i32t, 1u64 << n));
            bld.call_intrinsic(m, "llvm.cttz", &[i32t], &[guarded, no_poison])?
        }
    };
    Some(bld.trunc(r, ty))
}

/// `x | x >> 1 | x >> 2 | …`: every bit below the highest set bit set.
fn smear_right(bld: &Builder, x: LLVMValueRef, n: u32) -> LLVMValueRef {
    let ty = unsafe { LLVMTypeOf(x) };
    let mut x = x;
    let mut s = 1;
    while s < n {
        x = bld.or(x, bld.lshr(x, ir::const_int(ty, s as u64)));
        s *= 2;
    }
    x
}

/// The population count of `x`: the machine's instruction when it has one
/// for the type, else the SWAR sum (computed in a power-of-two width ≥ 8).
fn popcount(m: LLVMModuleRef, bld: &Builder, x: LLVMValueRef, caps: &Caps) -> LLVMValueRef {
    let ty = unsafe { LLVMTypeOf(x) };
    let shape = ir::shape(ty).unwrap_or(Shape {
        bits: 32,
        lanes: None,
        float: false,
    });
    if caps.has(SemOp::Popcnt, shape, Sign::Any) && (shape.lanes.is_some() || shape.bits >= 32) {
        if let Some(v) = bld.call_intrinsic(m, "llvm.ctpop", &[ty], &[x]) {
            return v;
        }
    }
    let n = shape.bits;
    let w = n.next_power_of_two().max(8);
    let wty = ir::int_like(ty, w);
    let mut v = if w == n { x } else { bld.zext(x, wty) };
    let c = |pattern: u8| ir::const_int(wty, u64::from_ne_bytes([pattern; 8]));
    let k = |s: u64| ir::const_int(wty, s);
    v = bld.sub(v, bld.and(bld.lshr(v, k(1)), c(0x55)));
    v = bld.add(bld.and(v, c(0x33)), bld.and(bld.lshr(v, k(2)), c(0x33)));
    v = bld.and(bld.add(v, bld.lshr(v, k(4))), c(0x0f));
    let mut s = 8;
    while s < w {
        v = bld.add(v, bld.lshr(v, k(s as u64)));
        s *= 2;
    }
    if w > 8 {
        v = bld.and(v, k(0xff));
    }
    if w == n {
        v
    } else {
        bld.trunc(v, ty)
    }
}

/// Reverses the bytes of `x` (`n` a multiple of 16).
fn byte_swap(bld: &Builder, x: LLVMValueRef, ty: LLVMTypeRef, n: u32) -> LLVMValueRef {
    let mut out = ir::zero(ty);
    let bytes = n / 8;
    for i in 0..bytes {
        let j = bytes - 1 - i;
        let byte = if i < j {
            bld.shl(
                bld.and(x, ir::const_int(ty, 0xff << (8 * i))),
                ir::const_int(ty, (8 * (j - i)) as u64),
            )
        } else {
            bld.and(
                bld.lshr(x, ir::const_int(ty, (8 * (i - j)) as u64)),
                ir::const_int(ty, 0xff << (8 * j)),
            )
        };
        out = if i == 0 { byte } else { bld.or(out, byte) };
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    fn eval(call: &str, ty: &str, args: &str, isa: &str) -> i64 {
        let decl_args = args
            .split(", ")
            .map(|a| a.split(' ').next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(", ");
        let src = format!("declare {ty} @llvm.{call}({decl_args})\ndefine {ty} @f() {{\n  %r = call {ty} @llvm.{call}({args})\n  ret {ty} %r\n}}\n");
        eval_ret("dsp-expand-intrinsics", &src, isa)[0]
    }

    #[test]
    fn bit_tricks_match_rust_on_a_machine_without_bit_counts() {
        let isa = machine_without(&[
            "popcnt.i32",
            "popcnt.i64",
            "clz.i32",
            "clz.i64",
            "ctz.i32",
            "ctz.i64",
            "bswap.i32",
            "bswap.i64",
        ]);
        let samples: [u64; 9] = [
            0,
            1,
            0x80,
            0xff,
            0x1234_5678_9abc_def0,
            u64::MAX,
            0x8000_0000_0000_0000,
            0x00f0_0000,
            6,
        ];
        for &x in &samples {
            for bits in [8u32, 16, 32, 64] {
                let v = x & crate::ir::low_mask(bits);
                let ty = format!("i{bits}");
                let arg = format!("{ty} {}", v as i64);
                let sx = |r: i64| r & crate::ir::low_mask(bits) as i64;
                let (pop, lz, tz) = match bits {
                    8 => (
                        (v as u8).count_ones(),
                        (v as u8).leading_zeros(),
                        (v as u8).trailing_zeros(),
                    ),
                    16 => (
                        (v as u16).count_ones(),
                        (v as u16).leading_zeros(),
                        (v as u16).trailing_zeros(),
                    ),
                    32 => (
                        (v as u32).count_ones(),
                        (v as u32).leading_zeros(),
                        (v as u32).trailing_zeros(),
                    ),
                    _ => (v.count_ones(), v.leading_zeros(), v.trailing_zeros()),
                };
                assert_eq!(
                    sx(eval(&format!("ctpop.{ty}"), &ty, &arg, isa.path())),
                    pop as i64,
                    "ctpop {ty} {v:#x}"
                );
                assert_eq!(
                    sx(eval(
                        &format!("ctlz.{ty}"),
                        &ty,
                        &format!("{arg}, i1 false"),
                        isa.path()
                    )),
                    lz as i64,
                    "ctlz {ty} {v:#x}"
                );
                assert_eq!(
                    sx(eval(
                        &format!("cttz.{ty}"),
                        &ty,
                        &format!("{arg}, i1 false"),
                        isa.path()
                    )),
                    tz as i64,
                    "cttz {ty} {v:#x}"
                );
                let rev = match bits {
                    8 => (v as u8).reverse_bits() as u64,
                    16 => (v as u16).reverse_bits() as u64,
                    32 => (v as u32).reverse_bits() as u64,
                    _ => v.reverse_bits(),
                };
                assert_eq!(
                    sx(eval(&format!("bitreverse.{ty}"), &ty, &arg, isa.path())) as u64,
                    rev,
                    "bitreverse {ty} {v:#x}"
                );
                assert_eq!(
                    sx(eval(&format!("bitreverse.{ty}"), &ty, &arg, "ftm")) as u64,
                    rev,
                    "bitreverse {ty} {v:#x} (ftm)"
                );
                if bits >= 16 {
                    let want = match bits {
                        16 => (v as u16).swap_bytes() as u64,
                        32 => (v as u32).swap_bytes() as u64,
                        _ => v.swap_bytes(),
                    };
                    assert_eq!(
                        sx(eval(&format!("bswap.{ty}"), &ty, &arg, isa.path())) as u64,
                        want,
                        "bswap {ty} {v:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn narrow_counts_use_the_32_bit_instruction_on_the_shipped_machine() {
        let src = "declare i8 @llvm.ctlz.i8(i8, i1)\ndeclare i16 @llvm.cttz.i16(i16, i1)\ndeclare i32 @llvm.ctpop.i32(i32)\n\
                   define i32 @g(i8 %a, i16 %b, i32 %c) {\n\
                     %1 = call i8 @llvm.ctlz.i8(i8 %a, i1 false)\n  %2 = call i16 @llvm.cttz.i16(i16 %b, i1 true)\n\
                     %3 = call i32 @llvm.ctpop.i32(i32 %c)\n\
                     %x = zext i8 %1 to i32\n  %y = zext i16 %2 to i32\n  %s = add i32 %x, %y\n  %t = add i32 %s, %3\n  ret i32 %t\n}\n";
        let out = run_pass_on("dsp-expand-intrinsics", src, "ftm");
        check_in_order(
            &out,
            &[
                "zext i8 %a to i32",
                "call i32 @llvm.ctlz.i32",
                "sub i32",
                "trunc i32",
                "or i32",
                "65536",
                "call i32 @llvm.cttz.i32",
                "call i32 @llvm.ctpop.i32(i32 %c)",
            ],
        );
        for (v, want) in [(0i64, 8i64), (1, 7), (0x80, 0), (0x3f, 2)] {
            assert_eq!(
                eval("ctlz.i8", "i8", &format!("i8 {v}, i1 false"), "ftm"),
                want
            );
        }
    }

    #[test]
    fn vector_popcount_is_expanded_lane_wise() {
        let src = "declare <16 x i32> @llvm.ctpop.v16i32(<16 x i32>)\n\
                   define <16 x i32> @g(<16 x i32> %v) {\n  %r = call <16 x i32> @llvm.ctpop.v16i32(<16 x i32> %v)\n  ret <16 x i32> %r\n}\n";
        let out = run_pass_on("dsp-expand-intrinsics", src, "ftm");
        assert!(
            !out.contains("@llvm.ctpop.v16i32(<16 x i32> %v)\n"),
            "{out}"
        );
        check_in_order(
            &out,
            &["lshr <16 x i32> %v", "and <16 x i32>", "1431655765"],
        );
    }

    #[test]
    fn funnel_shifts_and_saturation_match_rust() {
        for (a, b, c) in [
            (0x1234_5678u32, 0x9abc_def0u32, 0u32),
            (0x1234_5678, 0x9abc_def0, 4),
            (1, 2, 31),
            (0xffff_ffff, 0, 33),
            (0x8000_0001, 0x8000_0001, 1),
        ] {
            let args = format!("i32 {}, i32 {}, i32 {}", a as i32, b as i32, c as i32);
            let s = c % 32;
            let fshl = if s == 0 {
                a
            } else {
                (a << s) | (b >> (32 - s))
            };
            let fshr = if s == 0 {
                b
            } else {
                (a << (32 - s)) | (b >> s)
            };
            assert_eq!(
                eval("fshl.i32", "i32", &args, "ftm") as u32,
                fshl,
                "fshl({a:#x}, {b:#x}, {c})"
            );
            assert_eq!(
                eval("fshr.i32", "i32", &args, "ftm") as u32,
                fshr,
                "fshr({a:#x}, {b:#x}, {c})"
            );
        }
        for (a, b) in [
            (100i8, 100i8),
            (-100, -100),
            (-100, 100),
            (127, -1),
            (-128, 1),
            (5, 7),
            (0, -128),
        ] {
            let args = format!("i8 {a}, i8 {b}");
            assert_eq!(
                eval("sadd.sat.i8", "i8", &args, "ftm"),
                a.saturating_add(b) as i64,
                "sadd.sat({a}, {b})"
            );
            assert_eq!(
                eval("ssub.sat.i8", "i8", &args, "ftm"),
                a.saturating_sub(b) as i64,
                "ssub.sat({a}, {b})"
            );
            let (ua, ub) = (a as u8, b as u8);
            assert_eq!(
                eval("uadd.sat.i8", "i8", &args, "ftm") as u8,
                ua.saturating_add(ub),
                "uadd.sat({ua}, {ub})"
            );
            assert_eq!(
                eval("usub.sat.i8", "i8", &args, "ftm") as u8,
                ua.saturating_sub(ub),
                "usub.sat({ua}, {ub})"
            );
        }
    }
}

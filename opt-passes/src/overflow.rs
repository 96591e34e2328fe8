//! `dsp-lower-overflow`: `llvm.{s,u}{add,sub,mul}.with.overflow.*` become
//! plain arithmetic and compares (Hacker's Delight §2-13), so the backend
//! never sees the `{iN, i1}` aggregate:
//!
//! - `uadd`: `r = a + b`, overflow `r <u a`;
//! - `sadd`: overflow when `(a ^ r) & (b ^ r)` is negative;
//! - `usub`: `r = a - b`, overflow `a <u b`;
//! - `ssub`: overflow when `(a ^ b) & (a ^ r)` is negative;
//! - `umul`/`smul` up to 32 bits: the product in twice the width, overflow
//!   when its high half is not zero (unsigned) or not the sign extension of
//!   the low half (signed);
//! - 64-bit `umul`/`smul`: `r = a * b`, overflow when `a != 0` and
//!   `r / a != b` (with `a == -1` handled apart so the division cannot trap).
//!
//! `extractvalue` users take the two results directly; any other use gets
//! the rebuilt aggregate. Works lane-wise for vector types. Wider types
//! (`i128`, which C on this target does not produce) are left alone.

use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::*;
use inkwell::llvm_sys::LLVMOpcode;

use crate::ir::{self, Builder};

const PREFIXES: &[&str] = &[
    "llvm.sadd.with.overflow.",
    "llvm.uadd.with.overflow.",
    "llvm.ssub.with.overflow.",
    "llvm.usub.with.overflow.",
    "llvm.smul.with.overflow.",
    "llvm.umul.with.overflow.",
];

/// Runs the pass; returns whether anything changed.
pub fn run(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for (call, name) in ir::intrinsic_calls(m, PREFIXES) {
        changed |= lower(call, &name[5..9]);
    }
    ir::drop_unused_declarations(m, PREFIXES);
    changed
}

/// Lowers one call of kind `sadd`/`uadd`/`ssub`/`usub`/`smul`/`umul`.
fn lower(call: LLVMValueRef, kind: &str) -> bool {
    let (a, b) = (ir::arg(call, 0), ir::arg(call, 1));
    let ty = unsafe { inkwell::llvm_sys::core::LLVMTypeOf(a) };
    let Some(shape) = ir::shape(ty) else {
        return false;
    };
    let n = shape.bits;
    if n > 64 {
        return false;
    }
    let bld = Builder::before(call);
    let zero = ir::zero(ty);
    let (r, ovf) = match kind {
        "uadd" => {
            let r = bld.add(a, b);
            (r, bld.icmp(LLVMIntULT, r, a))
        }
        "sadd" => {
            let r = bld.add(a, b);
            let t = bld.and(bld.xor(a, r), bld.xor(b, r));
            (r, bld.icmp(LLVMIntSLT, t, zero))
        }
        "usub" => (bld.sub(a, b), bld.icmp(LLVMIntULT, a, b)),
        "ssub" => {
            let r = bld.sub(a, b);
            let t = bld.and(bld.xor(a, b), bld.xor(a, r));
            (r, bld.icmp(LLVMIntSLT, t, zero))
        }
        "umul" | "smul" if 2 * n <= 64 => {
            let wide = ir::int_like(ty, 2 * n);
            let signed = kind == "smul";
            let ext = |v| {
                if signed {
                    bld.sext(v, wide)
                } else {
                    bld.zext(v, wide)
                }
            };
            let p = bld.mul(ext(a), ext(b));
            let r = bld.trunc(p, ty);
            let ovf = if signed {
                bld.icmp(LLVMIntNE, p, bld.sext(r, wide))
            } else {
                bld.icmp(
                    LLVMIntNE,
                    bld.lshr(p, ir::const_int(wide, n as u64)),
                    ir::zero(wide),
                )
            };
            (r, ovf)
        }
        "umul" => {
            let r = bld.mul(a, b);
            let one = ir::const_int(ty, 1);
            let a_zero = bld.icmp(LLVMIntEQ, a, zero);
            let q = bld.udiv(r, bld.select(a_zero, one, a));
            let differs = bld.icmp(LLVMIntNE, q, b);
            (r, bld.and(bld.not(a_zero), differs))
        }
        "smul" => {
            let r = bld.mul(a, b);
            let one = ir::const_int(ty, 1);
            let a_zero = bld.icmp(LLVMIntEQ, a, zero);
            let a_m1 = bld.icmp(LLVMIntEQ, a, ir::all_ones(ty));
            let q = bld.sdiv(r, bld.select(bld.or(a_zero, a_m1), one, a));
            let differs = bld.and(bld.not(a_zero), bld.icmp(LLVMIntNE, q, b));
            let b_min = bld.icmp(LLVMIntEQ, b, ir::const_int(ty, ir::signed_min(n)));
            (r, bld.select(a_m1, b_min, differs))
        }
        _ => return false,
    };
    replace_pair(call, &bld, r, ovf);
    true
}

/// Replaces an `{iN, i1}`-returning call by the pair `(r, ovf)`.
pub(crate) fn replace_pair(call: LLVMValueRef, bld: &Builder, r: LLVMValueRef, ovf: LLVMValueRef) {
    use inkwell::llvm_sys::core::*;
    unsafe {
        for user in ir::users(call) {
            if ir::opcode(user) == LLVMOpcode::LLVMExtractValue && LLVMGetNumIndices(user) == 1 {
                let idx = *LLVMGetIndices(user);
                let with = if idx == 0 { r } else { ovf };
                ir::replace(user, with);
            }
        }
        if ir::users(call).is_empty() {
            LLVMInstructionEraseFromParent(call);
        } else {
            let agg = LLVMGetPoison(LLVMTypeOf(call));
            let agg = bld.insert_value(agg, r, 0);
            let agg = bld.insert_value(agg, ovf, 1);
            ir::replace(call, agg);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    #[test]
    fn lowers_every_kind_and_width() {
        let mut src = String::new();
        for kind in ["sadd", "uadd", "ssub", "usub", "smul", "umul"] {
            for bits in [8, 16, 32, 64] {
                src += &format!(
                    "declare {{i{bits}, i1}} @llvm.{kind}.with.overflow.i{bits}(i{bits}, i{bits})\n\
                     define i1 @{kind}{bits}(i{bits} %a, i{bits} %b, ptr %p) {{\n\
                       %s = call {{i{bits}, i1}} @llvm.{kind}.with.overflow.i{bits}(i{bits} %a, i{bits} %b)\n\
                       %r = extractvalue {{i{bits}, i1}} %s, 0\n\
                       store i{bits} %r, ptr %p\n\
                       %o = extractvalue {{i{bits}, i1}} %s, 1\n\
                       ret i1 %o\n}}\n"
                );
            }
        }
        let out = run_pass_on("dsp-lower-overflow", &src, "ftm");
        assert!(!out.contains("with.overflow"), "{out}");
        assert!(!out.contains("extractvalue"), "{out}");
        assert!(out.contains("icmp ult i32 %a, %b"), "{out}");
    }

    #[test]
    fn evaluates_like_the_intrinsic() {
        // Exhaustive over i8 by constant folding: every lowered form, with
        // constant arguments, must fold to the intrinsic's own result.
        for kind in ["sadd", "uadd", "ssub", "usub", "smul", "umul"] {
            for bits in [8u32, 64] {
                let vals: Vec<i64> = if bits == 8 {
                    (-128..128)
                        .step_by(7)
                        .chain([127, -128, -1, 0, 1])
                        .collect()
                } else {
                    vec![
                        0,
                        1,
                        -1,
                        2,
                        i64::MIN,
                        i64::MAX,
                        3037000499,
                        3037000500,
                        -3037000500,
                        1 << 32,
                        0x7fff_ffff_ffff_fff0,
                    ]
                };
                for &x in &vals {
                    for &y in &vals {
                        let expect = reference(kind, bits, x, y);
                        let src = format!(
                            "declare {{i{bits}, i1}} @llvm.{kind}.with.overflow.i{bits}(i{bits}, i{bits})\n\
                             define {{i{bits}, i1}} @f() {{\n  %s = call {{i{bits}, i1}} @llvm.{kind}.with.overflow.i{bits}(i{bits} {x}, i{bits} {y})\n  ret {{i{bits}, i1}} %s\n}}\n"
                        );
                        let got = eval_ret("dsp-lower-overflow", &src, "ftm");
                        let got = (got[0], got[1] != 0);
                        assert_eq!(got, expect, "{kind}.i{bits}({x}, {y})");
                    }
                }
            }
        }
    }

    fn reference(kind: &str, bits: u32, x: i64, y: i64) -> (i64, bool) {
        if bits == 8 {
            let (a, b) = (x as i8, y as i8);
            let (ua, ub) = (a as u8, b as u8);
            let (r, o) = match kind {
                "sadd" => {
                    let (r, o) = a.overflowing_add(b);
                    (r as i64, o)
                }
                "uadd" => {
                    let (r, o) = ua.overflowing_add(ub);
                    (r as i8 as i64, o)
                }
                "ssub" => {
                    let (r, o) = a.overflowing_sub(b);
                    (r as i64, o)
                }
                "usub" => {
                    let (r, o) = ua.overflowing_sub(ub);
                    (r as i8 as i64, o)
                }
                "smul" => {
                    let (r, o) = a.overflowing_mul(b);
                    (r as i64, o)
                }
                _ => {
                    let (r, o) = ua.overflowing_mul(ub);
                    (r as i8 as i64, o)
                }
            };
            (r, o)
        } else {
            let (ua, ub) = (x as u64, y as u64);
            match kind {
                "sadd" => x.overflowing_add(y),
                "uadd" => {
                    let (r, o) = ua.overflowing_add(ub);
                    (r as i64, o)
                }
                "ssub" => x.overflowing_sub(y),
                "usub" => {
                    let (r, o) = ua.overflowing_sub(ub);
                    (r as i64, o)
                }
                "smul" => x.overflowing_mul(y),
                _ => {
                    let (r, o) = ua.overflowing_mul(ub);
                    (r as i64, o)
                }
            }
        }
    }
}

//! `dsp-lower-minmax`: the min/max/abs family of intrinsics, kept when the
//! `.isa` has the operation for the type (`min.i32` on `r`, lane-wise
//! `min.i32` on the vector file, `abs.f32`, …) and otherwise rewritten:
//!
//! - `smin/smax/umin/umax(a, b)` → `select(icmp slt/sgt/ult/ugt a, b; a, b)`;
//! - `abs(x)` → `select(x < 0, 0 - x, x)` (wraps for the minimum, like the intrinsic);
//! - `minnum/maxnum(a, b)` → `select(isnan(b), a, select(a </> b, a, b))`
//!   (IEEE minNum/maxNum: a quiet NaN operand yields the other operand);
//! - `fabs(x)` → clear the sign bit through an integer bitcast.
//!
//! On the shipped machines this lowers the 64-bit and narrow-vector forms
//! (there is no `min.i64`); a machine without scalar min/max gets them all.

use inkwell::llvm_sys::core::LLVMTypeOf;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::*;
use inkwell::llvm_sys::LLVMRealPredicate::*;
use isa_tablegen::SemOp;

use crate::caps::{Caps, Sign};
use crate::ir::{self, Builder};

const PREFIXES: &[&str] = &[
    "llvm.smin.",
    "llvm.smax.",
    "llvm.umin.",
    "llvm.umax.",
    "llvm.abs.",
    "llvm.minnum.",
    "llvm.maxnum.",
    "llvm.fabs.",
];

/// Runs the pass; returns whether anything changed.
pub fn run(m: LLVMModuleRef, caps: &Caps) -> bool {
    let mut changed = false;
    for (call, name) in ir::intrinsic_calls(m, PREFIXES) {
        let kind = name[5..].split('.').next().unwrap_or("");
        changed |= lower(call, kind, caps);
    }
    ir::drop_unused_declarations(m, PREFIXES);
    changed
}

fn lower(call: LLVMValueRef, kind: &str, caps: &Caps) -> bool {
    let a = ir::arg(call, 0);
    let ty = unsafe { LLVMTypeOf(a) };
    let Some(shape) = ir::shape(ty) else {
        return false;
    };
    let (op, sign) = match kind {
        "smin" => (SemOp::Min, Sign::Signed),
        "smax" => (SemOp::Max, Sign::Signed),
        "umin" => (SemOp::Min, Sign::Unsigned),
        "umax" => (SemOp::Max, Sign::Unsigned),
        "abs" => (SemOp::Abs, Sign::Signed),
        "minnum" => (SemOp::Min, Sign::Any),
        "maxnum" => (SemOp::Max, Sign::Any),
        "fabs" => (SemOp::Abs, Sign::Any),
        _ => return false,
    };
    if caps.has(op, shape, sign) {
        return false;
    }
    let bld = Builder::before(call);
    let new = match kind {
        "smin" | "smax" | "umin" | "umax" => {
            let b = ir::arg(call, 1);
            let pred = match kind {
                "smin" => LLVMIntSLT,
                "smax" => LLVMIntSGT,
                "umin" => LLVMIntULT,
                _ => LLVMIntUGT,
            };
            bld.select(bld.icmp(pred, a, b), a, b)
        }
        "abs" => {
            let zero = ir::zero(ty);
            bld.select(bld.icmp(LLVMIntSLT, a, zero), bld.sub(zero, a), a)
        }
        "minnum" | "maxnum" => {
            let b = ir::arg(call, 1);
            let pred = if kind == "minnum" {
                LLVMRealOLT
            } else {
                LLVMRealOGT
            };
            let pick = bld.select(bld.fcmp(pred, a, b), a, b);
            bld.select(bld.fcmp(LLVMRealUNO, b, b), a, pick)
        }
        _ => {
            let ity = ir::int_like(ty, shape.bits);
            let bits = bld.and(
                bld.bitcast(a, ity),
                ir::const_int(ity, ir::low_mask(shape.bits - 1)),
            );
            bld.bitcast(bits, ty)
        }
    };
    ir::replace(call, new);
    true
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    fn unary(name: &str, ty: &str, arg: &str, extra: &str) -> String {
        format!("declare {ty} @llvm.{name}({ty}{})\ndefine {ty} @f() {{\n  %r = call {ty} @llvm.{name}({ty} {arg}{extra})\n  ret {ty} %r\n}}\n", if extra.is_empty() { "" } else { ", i1" })
    }

    #[test]
    fn keeps_what_the_machine_has_and_lowers_the_rest() {
        let src = "declare i32 @llvm.smin.i32(i32, i32)\n\
                   declare i64 @llvm.smax.i64(i64, i64)\n\
                   declare <16 x i32> @llvm.umin.v16i32(<16 x i32>, <16 x i32>)\n\
                   declare <8 x i16> @llvm.umax.v8i16(<8 x i16>, <8 x i16>)\n\
                   declare i64 @llvm.abs.i64(i64, i1)\n\
                   define void @g(i32 %a, i32 %b, i64 %c, i64 %d, <16 x i32> %v, <16 x i32> %w, <8 x i16> %x, <8 x i16> %y, ptr %p) {\n\
                     %1 = call i32 @llvm.smin.i32(i32 %a, i32 %b)\n  store i32 %1, ptr %p\n\
                     %2 = call i64 @llvm.smax.i64(i64 %c, i64 %d)\n  store i64 %2, ptr %p\n\
                     %3 = call <16 x i32> @llvm.umin.v16i32(<16 x i32> %v, <16 x i32> %w)\n  store <16 x i32> %3, ptr %p\n\
                     %4 = call <8 x i16> @llvm.umax.v8i16(<8 x i16> %x, <8 x i16> %y)\n  store <8 x i16> %4, ptr %p\n\
                     %5 = call i64 @llvm.abs.i64(i64 %c, i1 false)\n  store i64 %5, ptr %p\n\
                     ret void\n}\n";
        let out = run_pass_on("dsp-lower-minmax", src, "ftm");
        check_in_order(
            &out,
            &[
                "call i32 @llvm.smin.i32(i32 %a, i32 %b)",
                "icmp sgt i64 %c, %d",
                "select i1",
                "call <16 x i32> @llvm.umin.v16i32",
                "icmp ugt <8 x i16> %x, %y",
                "select <8 x i1>",
                "icmp slt i64 %c, 0",
                "sub i64 0, %c",
            ],
        );
        assert!(!out.contains("call i64 @llvm.smax"), "{out}");
        assert!(!out.contains("call i64 @llvm.abs"), "{out}");
    }

    #[test]
    fn folds_to_the_intrinsics_results() {
        for (name, a, b, want) in [
            ("smin.i64", -5i64, 3i64, -5i64),
            ("smax.i64", -5, 3, 3),
            ("umin.i64", -5, 3, 3),
            ("umax.i64", -5, 3, -5),
            ("smin.i64", i64::MIN, i64::MAX, i64::MIN),
            ("umax.i64", 0, -1, -1),
        ] {
            let src = format!("declare i64 @llvm.{name}(i64, i64)\ndefine i64 @f() {{\n  %r = call i64 @llvm.{name}(i64 {a}, i64 {b})\n  ret i64 %r\n}}\n");
            assert_eq!(
                eval_ret("dsp-lower-minmax", &src, "ftm"),
                vec![want],
                "{name}({a}, {b})"
            );
        }
        for (v, want) in [(-7i64, 7i64), (7, 7), (0, 0), (i64::MIN, i64::MIN)] {
            assert_eq!(
                eval_ret(
                    "dsp-lower-minmax",
                    &unary("abs.i64", "i64", &v.to_string(), ", i1 false"),
                    "ftm"
                ),
                vec![want]
            );
        }
    }

    #[test]
    fn float_forms_lower_on_a_machine_without_them() {
        let isa = crate::testutil::machine_without(&["min.f64", "max.f64", "abs.f64"]);
        let src = "declare double @llvm.minnum.f64(double, double)\ndeclare double @llvm.fabs.f64(double)\n\
                   define double @g(double %a, double %b) {\n\
                     %m = call double @llvm.minnum.f64(double %a, double %b)\n\
                     %r = call double @llvm.fabs.f64(double %m)\n  ret double %r\n}\n";
        let out = run_pass_on("dsp-lower-minmax", src, isa.path());
        check_in_order(
            &out,
            &[
                "fcmp olt double %a, %b",
                "fcmp uno double %b, %b",
                "bitcast double",
                "and i64",
                "9223372036854775807",
            ],
        );
        // The shipped machine keeps both.
        let out = run_pass_on("dsp-lower-minmax", src, "ftm");
        check_in_order(
            &out,
            &["call double @llvm.minnum.f64", "call double @llvm.fabs.f64"],
        );
    }

    #[test]
    fn a_machine_without_scalar_min_gets_every_min_lowered() {
        let isa = crate::testutil::machine_without(&["min.i32", "min.u32"]);
        let src = "declare i32 @llvm.smin.i32(i32, i32)\ndeclare i8 @llvm.umin.i8(i8, i8)\n\
                   define i32 @g(i32 %a, i32 %b, i8 %c, i8 %d) {\n\
                     %m = call i32 @llvm.smin.i32(i32 %a, i32 %b)\n\
                     %n = call i8 @llvm.umin.i8(i8 %c, i8 %d)\n  %z = zext i8 %n to i32\n  %r = add i32 %m, %z\n  ret i32 %r\n}\n";
        let out = run_pass_on("dsp-lower-minmax", src, isa.path());
        check_in_order(&out, &["icmp slt i32 %a, %b", "icmp ult i8 %c, %d"]);
        assert!(!out.contains("call i"), "{out}");
    }
}

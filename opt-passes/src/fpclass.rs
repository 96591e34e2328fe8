//! `llvm.is.fpclass(x, mask)` for `dsp-expand-intrinsics` (clang emits it
//! for `isnan`, `isinf`, `isfinite`, `isnormal`, `fpclassify`, `signbit`
//! tests): integer tests on the bit pattern, which the vocabulary (with no
//! classification operation) can do. With `a` the pattern without its sign,
//! `E` the exponent mask and `Q` the quiet bit:
//!
//! | class | test |
//! |---|---|
//! | NaN | `a >u E` (quiet: `a >=u E \| Q`, signalling: NaN and not quiet) |
//! | infinity | `a == E` |
//! | normal | `a - MIN_NORMAL <u E - MIN_NORMAL` |
//! | subnormal | `a - 1 <u MIN_NORMAL - 1` |
//! | zero | `a == 0` |
//!
//! Each class the mask asks for with only one sign is also tested on the
//! sign bit; the answer is the `or` of the tests. Lane-wise for vectors.

use inkwell::llvm_sys::core::LLVMTypeOf;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::*;

use crate::ir::{self, Builder};

const PREFIXES: &[&str] = &["llvm.is.fpclass."];

/// The mask bits of `llvm.is.fpclass` (LLVM's FPClassTest), as (negative, positive) pairs.
const SNAN: u64 = 1 << 0;
const QNAN: u64 = 1 << 1;
const NEG_INF: u64 = 1 << 2;
const NEG_NORMAL: u64 = 1 << 3;
const NEG_SUBNORMAL: u64 = 1 << 4;
const NEG_ZERO: u64 = 1 << 5;
const POS_ZERO: u64 = 1 << 6;
const POS_SUBNORMAL: u64 = 1 << 7;
const POS_NORMAL: u64 = 1 << 8;
const POS_INF: u64 = 1 << 9;

/// Runs the expansion; returns whether anything changed.
pub fn run(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for (call, _) in ir::intrinsic_calls(m, PREFIXES) {
        changed |= lower(call);
    }
    ir::drop_unused_declarations(m, PREFIXES);
    changed
}

fn lower(call: LLVMValueRef) -> bool {
    let x = ir::arg(call, 0);
    let Some(mask) = ir::const_u64(ir::arg(call, 1)) else {
        return false;
    };
    let ty = unsafe { LLVMTypeOf(x) };
    let Some(shape) = ir::shape(ty) else {
        return false;
    };
    let (bits, mant_bits) = match (shape.float, shape.bits) {
        (true, 32) => (32u32, 23u32),
        (true, 64) => (64, 52),
        _ => return false,
    };
    let bld = Builder::before(call);
    let ity = ir::int_like(ty, bits);
    let k = |v: u64| ir::const_int(ity, v);
    let sign_bit = 1u64 << (bits - 1);
    let exp_mask = ir::low_mask(bits - 1) & !ir::low_mask(mant_bits);
    let quiet = 1u64 << (mant_bits - 1);
    let min_normal = 1u64 << mant_bits;

    let pattern = bld.bitcast(x, ity);
    let a = bld.and(pattern, k(!sign_bit & ir::low_mask(bits)));
    let negative = bld.icmp(LLVMIntSLT, pattern, ir::zero(ity));
    let positive = bld.icmp(LLVMIntSGE, pattern, ir::zero(ity));

    let mut tests: Vec<LLVMValueRef> = Vec::new();
    // NaNs carry no sign in the mask.
    match mask & (SNAN | QNAN) {
        0 => {}
        m if m == SNAN | QNAN => tests.push(bld.icmp(LLVMIntUGT, a, k(exp_mask))),
        QNAN => tests.push(bld.icmp(LLVMIntUGE, a, k(exp_mask | quiet))),
        _ => {
            let nan = bld.icmp(LLVMIntUGT, a, k(exp_mask));
            let not_quiet = bld.icmp(LLVMIntULT, a, k(exp_mask | quiet));
            tests.push(bld.and(nan, not_quiet));
        }
    }
    let classes: [(u64, u64, &dyn Fn() -> LLVMValueRef); 4] = [
        (NEG_INF, POS_INF, &|| bld.icmp(LLVMIntEQ, a, k(exp_mask))),
        (NEG_NORMAL, POS_NORMAL, &|| {
            bld.icmp(
                LLVMIntULT,
                bld.sub(a, k(min_normal)),
                k(exp_mask - min_normal),
            )
        }),
        (NEG_SUBNORMAL, POS_SUBNORMAL, &|| {
            bld.icmp(LLVMIntULT, bld.sub(a, k(1)), k(min_normal - 1))
        }),
        (NEG_ZERO, POS_ZERO, &|| {
            bld.icmp(LLVMIntEQ, a, ir::zero(ity))
        }),
    ];
    for (neg, pos, test) in classes {
        match (mask & neg != 0, mask & pos != 0) {
            (false, false) => {}
            (true, true) => tests.push(test()),
            (true, false) => tests.push(bld.and(test(), negative)),
            (false, true) => tests.push(bld.and(test(), positive)),
        }
    }
    let result = tests
        .into_iter()
        .reduce(|acc, t| bld.or(acc, t))
        .unwrap_or_else(|| ir::zero(ir::bool_like(ty)));
    ir::replace(call, result);
    true
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    fn classify(ty: &str, value: &str, mask: u32) -> bool {
        let src = format!(
            "declare i1 @llvm.is.fpclass.{t}({ty}, i32)\ndefine i1 @f() {{\n  %r = call i1 @llvm.is.fpclass.{t}({ty} {value}, i32 {mask})\n  ret i1 %r\n}}\n",
            t = if ty == "float" { "f32" } else { "f64" }
        );
        eval_ret("dsp-expand-intrinsics", &src, "ftm")[0] != 0
    }

    #[test]
    fn classifies_like_rust_for_every_mask_bit() {
        // (IR constant, Rust value) for doubles; quiet and signalling NaNs by bit pattern.
        let doubles: [(&str, f64); 12] = [
            ("0x7FF8000000000000", f64::NAN),
            ("0x7FF0000000000001", f64::from_bits(0x7FF0_0000_0000_0001)),
            ("0xFFF0000000000000", f64::NEG_INFINITY),
            ("0x7FF0000000000000", f64::INFINITY),
            ("-1.5", -1.5),
            ("1.5", 1.5),
            ("0x8000000000000001", -f64::from_bits(1)),
            ("0x0000000000000001", f64::from_bits(1)),
            ("-0.0", -0.0),
            ("0.0", 0.0),
            ("0x7FEFFFFFFFFFFFFF", f64::MAX),
            ("0x0010000000000000", f64::MIN_POSITIVE),
        ];
        for (text, v) in doubles {
            let is_snan = v.is_nan() && v.to_bits() & (1 << 51) == 0;
            let neg = v.is_sign_negative();
            let want = [
                is_snan,
                v.is_nan() && !is_snan,
                v.is_infinite() && neg,
                v.is_normal() && neg,
                v.is_subnormal() && neg,
                v == 0.0 && neg,
                v == 0.0 && !neg,
                v.is_subnormal() && !neg,
                v.is_normal() && !neg,
                v.is_infinite() && !neg,
            ];
            for (bit, &w) in want.iter().enumerate() {
                assert_eq!(classify("double", text, 1 << bit), w, "{text} bit {bit}");
            }
            // The combinations clang emits: isnan (3), isinf (516), isfinite (504), isnormal (264).
            assert_eq!(classify("double", text, 3), v.is_nan(), "{text} isnan");
            assert_eq!(
                classify("double", text, 516),
                v.is_infinite(),
                "{text} isinf"
            );
            assert_eq!(
                classify("double", text, 504),
                v.is_finite(),
                "{text} isfinite"
            );
            assert_eq!(
                classify("double", text, 264),
                v.is_normal(),
                "{text} isnormal"
            );
        }
        for (text, v) in [
            ("0x36A0000000000000", f32::from_bits(1)),
            ("0x7FF8000000000000", f32::NAN),
            ("0x3810000000000000", f32::MIN_POSITIVE),
            ("-2.5", -2.5f32),
        ] {
            assert_eq!(classify("float", text, 3), v.is_nan(), "{text}");
            assert_eq!(classify("float", text, 0x90), v.is_subnormal(), "{text}");
            assert_eq!(classify("float", text, 264), v.is_normal(), "{text}");
            assert_eq!(
                classify("float", text, 0x3c),
                v.is_sign_negative() && !v.is_nan(),
                "{text}"
            );
        }
    }
}

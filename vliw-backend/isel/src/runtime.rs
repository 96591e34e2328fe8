//! Names of the runtime support routines selection calls when the machine
//! lacks an operation (libgcc / compiler-rt names, and libm for the
//! rounding functions), so the runtime knows what to provide.

use isa_tablegen::{SemOp, Ty};

/// Every routine selection may call (documentation and tests).
pub const ROUTINES: &[&str] = &[
    "memcpy",
    "memmove",
    "memset",
    "abort",
    "__mulsi3",
    "__divsi3",
    "__udivsi3",
    "__modsi3",
    "__umodsi3",
    "__muldi3",
    "__divdi3",
    "__udivdi3",
    "__moddi3",
    "__umoddi3",
    "__ashldi3",
    "__lshrdi3",
    "__ashrdi3",
    "__addsf3",
    "__subsf3",
    "__mulsf3",
    "__divsf3",
    "__adddf3",
    "__subdf3",
    "__muldf3",
    "__divdf3",
    "__eqsf2",
    "__nesf2",
    "__ltsf2",
    "__lesf2",
    "__gtsf2",
    "__gesf2",
    "__unordsf2",
    "__eqdf2",
    "__nedf2",
    "__ltdf2",
    "__ledf2",
    "__gtdf2",
    "__gedf2",
    "__unorddf2",
    "__floatsisf",
    "__floatunsisf",
    "__floatdisf",
    "__floatundisf",
    "__floatsidf",
    "__floatunsidf",
    "__floatdidf",
    "__floatundidf",
    "__fixsfsi",
    "__fixunssfsi",
    "__fixsfdi",
    "__fixunssfdi",
    "__fixdfsi",
    "__fixunsdfsi",
    "__fixdfdi",
    "__fixunsdfdi",
    "__extendsfdf2",
    "__truncdfsf2",
    "__powisf2",
    "__powidf2",
    "__dsp_clmul32",
    "__popcountsi2",
    "__popcountdi2",
    "__clzsi2",
    "__clzdi2",
    "__ctzsi2",
    "__ctzdi2",
    "__bswapsi2",
    "__bswapdi2",
    "fmodf",
    "fmod",
    "sqrtf",
    "sqrt",
    "fmaf",
    "fma",
    "fminf",
    "fmin",
    "fmaxf",
    "fmax",
    "floorf",
    "floor",
    "ceilf",
    "ceil",
    "truncf",
    "trunc",
    "roundf",
    "round",
    "rintf",
    "rint",
    "nearbyintf",
    "nearbyint",
    "roundevenf",
    "roundeven",
];

/// Integer multiply/divide/remainder: `__mulsi3`, `__divdi3`, ….
pub fn int_routine(op: SemOp, ty: Ty) -> &'static str {
    let wide = ty.bits() == 64;
    let signed = ty.is_signed();
    match (op, wide, signed) {
        (SemOp::Mul, false, _) => "__mulsi3",
        (SemOp::Mul, true, _) => "__muldi3",
        (SemOp::Div, false, true) => "__divsi3",
        (SemOp::Div, false, false) => "__udivsi3",
        (SemOp::Div, true, true) => "__divdi3",
        (SemOp::Div, true, false) => "__udivdi3",
        (SemOp::Rem, false, true) => "__modsi3",
        (SemOp::Rem, false, false) => "__umodsi3",
        (SemOp::Rem, true, true) => "__moddi3",
        _ => "__umoddi3",
    }
}

/// 64-bit shifts.
pub fn shift_routine(op: SemOp, ty: Ty) -> Option<&'static str> {
    if ty.bits() != 64 {
        return None;
    }
    Some(match (op, ty.is_signed()) {
        (SemOp::Shl, _) => "__ashldi3",
        (SemOp::Shr, true) => "__ashrdi3",
        _ => "__lshrdi3",
    })
}

/// Float arithmetic: `__addsf3`, `__divdf3`, ….
pub fn float_routine(op: SemOp, ty: Ty) -> Option<&'static str> {
    let d = ty == Ty::F64;
    Some(match (op, d) {
        (SemOp::Add, false) => "__addsf3",
        (SemOp::Sub, false) => "__subsf3",
        (SemOp::Mul, false) => "__mulsf3",
        (SemOp::Div, false) => "__divsf3",
        (SemOp::Add, true) => "__adddf3",
        (SemOp::Sub, true) => "__subdf3",
        (SemOp::Mul, true) => "__muldf3",
        (SemOp::Div, true) => "__divdf3",
        _ => return None,
    })
}

/// Float compares: `__eqsf2`, `__unorddf2`, … (`kind`: eq ne lt le gt ge unord).
pub fn fcmp_routine(kind: &str, ty: Ty) -> &'static str {
    let d = ty == Ty::F64;
    match (kind, d) {
        ("eq", false) => "__eqsf2",
        ("ne", false) => "__nesf2",
        ("lt", false) => "__ltsf2",
        ("le", false) => "__lesf2",
        ("gt", false) => "__gtsf2",
        ("ge", false) => "__gesf2",
        ("unord", false) => "__unordsf2",
        ("eq", true) => "__eqdf2",
        ("ne", true) => "__nedf2",
        ("lt", true) => "__ltdf2",
        ("le", true) => "__ledf2",
        ("gt", true) => "__gtdf2",
        ("ge", true) => "__gedf2",
        _ => "__unorddf2",
    }
}

/// Conversions between integer and float types.
pub fn cvt_routine(from: Ty, to: Ty) -> &'static str {
    use Ty::*;
    match (from, to) {
        (I32, F32) => "__floatsisf",
        (U32, F32) => "__floatunsisf",
        (I64, F32) => "__floatdisf",
        (U64, F32) => "__floatundisf",
        (I32, F64) => "__floatsidf",
        (U32, F64) => "__floatunsidf",
        (I64, F64) => "__floatdidf",
        (U64, F64) => "__floatundidf",
        (F32, I32) => "__fixsfsi",
        (F32, U32) => "__fixunssfsi",
        (F32, I64) => "__fixsfdi",
        (F32, U64) => "__fixunssfdi",
        (F64, I32) => "__fixdfsi",
        (F64, U32) => "__fixunsdfsi",
        (F64, I64) => "__fixdfdi",
        (F64, U64) => "__fixunsdfdi",
        (F32, F64) => "__extendsfdf2",
        _ => "__truncdfsf2",
    }
}

/// Bit counting and byte swapping.
pub fn bit_routine(op: SemOp, wide: bool) -> &'static str {
    match (op, wide) {
        (SemOp::Popcnt, false) => "__popcountsi2",
        (SemOp::Popcnt, true) => "__popcountdi2",
        (SemOp::Clz, false) => "__clzsi2",
        (SemOp::Clz, true) => "__clzdi2",
        (SemOp::Ctz, false) => "__ctzsi2",
        (SemOp::Ctz, true) => "__ctzdi2",
        (_, false) => "__bswapsi2",
        (_, true) => "__bswapdi2",
    }
}

/// Carry-less 32x32->64 multiply (`llvm.hexagon.M4.pmpyw`).
pub const CLMUL32: &str = "__dsp_clmul32";

/// `llvm.powi`: `__powisf2`, `__powidf2`.
pub fn powi(ty: Ty) -> &'static str {
    if ty == Ty::F64 {
        "__powidf2"
    } else {
        "__powisf2"
    }
}

pub fn fmod(ty: Ty) -> &'static str {
    if ty == Ty::F64 {
        "fmod"
    } else {
        "fmodf"
    }
}

/// A libm function of float type `ty`: `sqrt` → `sqrtf` for f32.
pub fn libm(base: &str, ty: Ty) -> Option<&'static str> {
    let f32 = ty == Ty::F32;
    ROUTINES.iter().find(|n| if f32 { n.len() == base.len() + 1 && n.starts_with(base) && n.ends_with('f') } else { **n == base }).copied()
}

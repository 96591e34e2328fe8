//! Any-lane tests of wide lane masks: `icmp eq|ne (bitcast <N x i1> %m to
//! iN), 0` with N above 64 → `[not] llvm.vector.reduce.or(%m)`. LLVM's SLP
//! vectorizer folds many run-time overlap checks (the vectorized tiles of a
//! `dsp-pluto` nest: 128 of them in the differential suite's
//! `egg_loops.c`) into one vector compare whose "any lane" test InstCombine
//! writes as a bitcast to a wide integer; the backend keeps masks in mask
//! registers and has no integer wider than 64 bits to bitcast them to,
//! while it reduces masks of any length (`llvm.vector.reduce.or`). The two
//! forms are equal by definition (lane k is bit k, so the integer is zero
//! exactly when no lane is set). Run in `dsp-prepare`, before
//! `dsp-split-wide-ints`.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::*;
use inkwell::llvm_sys::LLVMOpcode;

use crate::ir::{self, Builder};

/// Rewrites every such test in the module's functions; whether anything changed.
pub fn run(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in ir::defined_functions(m) {
        for b in ir::blocks(f) {
            for i in ir::instructions(b) {
                changed |= rewrite(m, i);
            }
        }
        if changed {
            ir::delete_dead(f);
        }
    }
    changed
}

/// The mask `%m` when `v` is `bitcast <N x i1> %m to iN` with N > 64.
fn wide_mask(v: LLVMValueRef) -> Option<LLVMValueRef> {
    if ir::opcode_of(v)? != LLVMOpcode::LLVMBitCast {
        return None;
    }
    let m = unsafe { LLVMGetOperand(v, 0) };
    let s = ir::shape(unsafe { LLVMTypeOf(m) })?;
    (s.bits == 1 && !s.float && s.lanes.is_some_and(|n| n > 64)).then_some(m)
}

fn rewrite(module: LLVMModuleRef, i: LLVMValueRef) -> bool {
    if ir::opcode_of(i) != Some(LLVMOpcode::LLVMICmp) {
        return false;
    }
    let pred = unsafe { LLVMGetICmpPredicate(i) };
    if pred != LLVMIntEQ && pred != LLVMIntNE {
        return false;
    }
    let (a, b) = unsafe { (LLVMGetOperand(i, 0), LLVMGetOperand(i, 1)) };
    let (mask, other) = match (wide_mask(a), wide_mask(b)) {
        (Some(m), _) => (m, b),
        (_, Some(m)) => (m, a),
        _ => return false,
    };
    if ir::const_u64(other) != Some(0) {
        return false;
    }
    let bld = Builder::before(i);
    let mty = unsafe { LLVMTypeOf(mask) };
    let Some(any) = bld.call_intrinsic(module, "llvm.vector.reduce.or", &[mty], &[mask]) else {
        return false;
    };
    let r = if pred == LLVMIntEQ { bld.not(any) } else { any };
    ir::replace(i, r);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::TestModule;

    #[test]
    fn wide_any_lane_tests_become_mask_reductions() {
        let t = TestModule::parse(
            r#"
define i1 @none(<128 x i32> %a, <128 x i32> %b) {
  %m = icmp ult <128 x i32> %a, %b
  %w = bitcast <128 x i1> %m to i128
  %z = icmp eq i128 %w, 0
  ret i1 %z
}
define i1 @some(<128 x i1> %m) {
  %w = bitcast <128 x i1> %m to i128
  %z = icmp ne i128 0, %w
  ret i1 %z
}
define i1 @narrow(<16 x i1> %m) {
  %w = bitcast <16 x i1> %m to i16
  %z = icmp eq i16 %w, 0
  ret i1 %z
}
define i1 @not_zero(<128 x i1> %m) {
  %w = bitcast <128 x i1> %m to i128
  %z = icmp eq i128 %w, 1
  ret i1 %z
}
"#,
        );
        assert!(run(t.m));
        ir::verify(t.m).unwrap();
        let text = t.text();
        let body = |f: &str| text.split(&format!("@{f}(")).nth(1).unwrap().split("\n}").next().unwrap().to_string();
        assert!(body("none").contains("call i1 @llvm.vector.reduce.or.v128i1") && body("none").contains("xor i1") && !body("none").contains("i128"), "{text}");
        assert!(body("some").contains("call i1 @llvm.vector.reduce.or.v128i1") && !body("some").contains("i128"), "{text}");
        assert!(body("narrow").contains("bitcast <16 x i1>"), "{text}");
        assert!(body("not_zero").contains("icmp eq i128"), "{text}");
    }
}

//! A strip's loop (`dsp-interchange`'s strips, [`crate::strip`]: at most,
//! or with [`crate::strip::STRIP_FULL`] exactly, `lanes` iterations) lowered
//! to one vector step with no loop, so that the loop around it stays one
//! block for the pipeliner.

use std::collections::HashMap;

use dsp_egg_isel::lang::{Elem, VecLang};
use egg::RecExpr;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;

use super::{tail_ok, Emitter, Strided, Types, R};
use crate::eqsat::lift::{ArgSrc, Lifted, Output};
use crate::ir;
use crate::wfv::vloop::Shape;
use crate::wfv::widen::nm;

/// Whether a strip's loop (at most `lanes` iterations, marked by
/// `dsp-interchange`: [`crate::strip`]) can be one masked step: the masked
/// tail's conditions ([`tail_ok`]) and nothing carried out of it.
pub(crate) fn strip_ok(lifted: &Lifted, prog: &RecExpr<VecLang>) -> bool {
    tail_ok(lifted, prog) && lifted.outputs.iter().all(|o| matches!(o, Output::Store { .. })) && !lifted.args.iter().any(|a| matches!(a.1, ArgSrc::Carried(_)))
}

/// Whether a whole strip's loop (exactly `lanes` iterations, independent:
/// [`crate::strip::STRIP_FULL`]) can be one step with no mask: one vector
/// per step, nothing carried, no run-time overlap check.
pub(crate) fn full_strip_ok(lifted: &Lifted) -> bool {
    lifted.copies == lifted.lanes
        && lifted.disjoint.is_empty()
        && lifted.outputs.iter().all(|o| matches!(o, Output::Store { .. }))
        && !lifted.args.iter().any(|a| matches!(a.1, ArgSrc::Carried(_)))
}

/// Replaces a strip's loop (see [`strip_ok`]; with `full`,
/// [`full_strip_ok`]) by one step of `prog`: masked to the lanes below the
/// trip count, or (`full`) all of them, in one block from the preheader to
/// the exit, so the loop around it stays one block. The original loop is
/// left unreachable.
pub(crate) fn rewrite_strip(f: LLVMValueRef, sh: &Shape, body: LLVMBasicBlockRef, lifted: &Lifted, prog: &RecExpr<VecLang>, strided: Strided, full: bool) -> R<()> {
    if !(if full { full_strip_ok(lifted) } else { strip_ok(lifted, prog) }) {
        return Err("internal: a strip that cannot be one step".into());
    }
    let Strided { load: strided_load, store: strided_store } = strided;
    let lanes = lifted.lanes as i64;
    unsafe {
        let m = LLVMGetGlobalParent(f);
        let ctx = LLVMGetModuleContext(m);
        let b = LLVMCreateBuilderInContext(ctx);
        let ity = sh.ity;
        let Types { i32t, et, vt, pty } = Types::of(m, lifted);
        let step = LLVMAppendBasicBlockInContext(ctx, f, c"egg.strip".as_ptr());
        let loc = inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(body));
        LLVMSetCurrentDebugLocation2(b, loc);
        let pre = LLVMGetInstructionParent(sh.pre_term);
        LLVMPositionBuilderAtEnd(b, step);
        // Masked to the lanes below the trip count, unless the strip is whole.
        let mask = (!full).then(|| {
            let tc = sh.trip_count(b);
            let mut iota: Vec<LLVMValueRef> = (0..lanes).map(|l| LLVMConstInt(ity, l as u64, 1)).collect();
            let iota = LLVMConstVector(iota.as_mut_ptr(), lanes as u32);
            let ivt = LLVMVectorType(ity, lanes as u32);
            let ins = LLVMBuildInsertElement(b, LLVMGetPoison(ivt), tc, LLVMConstInt(i32t, 0, 0), nm());
            let tc_v = LLVMBuildShuffleVector(b, ins, LLVMGetPoison(ivt), LLVMConstNull(LLVMVectorType(i32t, lanes as u32)), nm());
            LLVMBuildICmp(b, P::LLVMIntULT, iota, tc_v, nm())
        });
        let em = Emitter { m, b, et, vt, i32t, pty, lanes, float: lifted.elem == Elem::F32, strided_load, strided_store, lifted, prog };
        let mut ind0: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for i in &lifted.inductions {
            let start = (0..LLVMCountIncoming(i.phi)).find(|&j| LLVMGetIncomingBlock(i.phi, j) == pre).map(|j| LLVMGetIncomingValue(i.phi, j));
            ind0.insert(i.phi, start.ok_or("internal: an induction without a start")?);
        }
        let ptrs = em.pointers(sh.start, sh.iv, &ind0);
        let (val, _) = em.program(&ptrs, &HashMap::new(), mask, None)?;
        em.outputs(&val, &ptrs, mask)?;
        LLVMBuildBr(b, sh.exit);
        LLVMSetSuccessor(sh.pre_term, 0, step);
        // The loop is unreachable now (its values are used only inside it:
        // [`check`]); its phis keep only their own latch's entries, and later
        // passes delete it. (Kept until then: remarks point at its latch.)
        for phi in ir::instructions(body).into_iter().filter(|&i| ir::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI) {
            let own: Vec<(LLVMValueRef, LLVMBasicBlockRef)> =
                (0..LLVMCountIncoming(phi)).filter(|&j| LLVMGetIncomingBlock(phi, j) == body).map(|j| (LLVMGetIncomingValue(phi, j), body)).collect();
            ir::rebuild_phi(phi, &own);
        }
        LLVMDisposeBuilder(b);
    }
    Ok(())
}

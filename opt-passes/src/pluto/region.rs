//! The SCoP's region in the CFG, for replacing it (Polly's region
//! versioning, `polly.split_new_and_old`): what must hold before new code
//! can take the region's place, and the switch itself.
//!
//! - No value defined in the region is used outside it (a live-out would
//!   need the new code to produce it), and the block after the region has
//!   no phi taking a value from the region.
//! - Entry: the region's first block keeps its predecessors' edges (its
//!   phis stay valid); the branch into it becomes `br i1 true, new, old`,
//!   or `br i1 COND, new, old` with a run-time condition (the alias
//!   checks of [`super::alias`]).
//!   When the first block has phis, its one outside predecessor ends in an
//!   unconditional branch, which is replaced; else a new block holding the
//!   branch, inserted just before it, takes the outside edges (and becomes
//!   the function's entry when the region starts there). The old region stays, unreachable in
//!   effect, for LLVM's `simplifycfg` to delete — and as the slot for a
//!   run-time condition (alias checks, parameter assumptions) later.
//! - [`Switch::undo`] restores the branches exactly (the caller deletes the
//!   new blocks): what verification refuses is left as it was.

use std::collections::HashSet;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use crate::ir;
use crate::scop::Scop;

/// Why the region cannot be replaced, if it cannot.
pub fn check(f: LLVMValueRef, scop: &Scop) -> Result<(), String> {
    let inside: HashSet<LLVMBasicBlockRef> = scop.blocks.iter().copied().collect();
    for &bb in &scop.blocks {
        for i in ir::instructions(bb) {
            for u in ir::users(i) {
                let ub = unsafe { LLVMGetInstructionParent(u) };
                if !inside.contains(&ub) {
                    return Err(format!("{} is used after the region (live-out values are not generated)", ir::value_name(i)));
                }
            }
        }
    }
    let exit = scop.exit_block.ok_or("the region ends in a return")?;
    for phi in ir::instructions(exit).into_iter().take_while(|&i| ir::opcode(i) == O::LLVMPHI) {
        for k in 0..unsafe { LLVMCountIncoming(phi) } {
            if inside.contains(&unsafe { LLVMGetIncomingBlock(phi, k) }) {
                return Err(format!("phi {} after the region takes a value from it", ir::value_name(phi)));
            }
        }
    }
    let entry = scop.entry_block;
    // No predecessor: the function's entry; the new block in front becomes the entry.
    let outside = outside_preds(f, scop);
    let has_phis = ir::instructions(entry).first().is_some_and(|&i| ir::opcode(i) == O::LLVMPHI);
    if has_phis && (outside.len() != 1 || unsafe { LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(outside[0])) } != 1) {
        return Err("the region's first block has phis and is not entered by one unconditional branch".into());
    }
    // Its address taken (blockaddress) or other non-branch users: not moved.
    for u in ir::users(unsafe { LLVMBasicBlockAsValue(entry) }) {
        if unsafe { LLVMIsATerminatorInst(u) }.is_null() {
            return Err("the region's first block has its address taken".into());
        }
    }
    Ok(())
}

/// Blocks outside the region that branch to its first block.
fn outside_preds(f: LLVMValueRef, scop: &Scop) -> Vec<LLVMBasicBlockRef> {
    let entry = scop.entry_block;
    let mut out = Vec::new();
    for bb in ir::blocks(f) {
        if scop.blocks.contains(&bb) {
            continue;
        }
        let term = unsafe { LLVMGetBasicBlockTerminator(bb) };
        if term.is_null() {
            continue;
        }
        let n = unsafe { LLVMGetNumSuccessors(term) };
        if (0..n).any(|k| unsafe { LLVMGetSuccessor(term, k) } == entry) {
            out.push(bb);
        }
    }
    out
}

/// How control was switched to the new code, to undo it.
pub enum Switch {
    /// The predecessor's unconditional branch was replaced by a
    /// conditional one (after the condition's instructions, which follow
    /// `prev`, the predecessor's last instruction before its branch).
    Replaced { pred: LLVMBasicBlockRef, prev: LLVMValueRef, loc: LLVMMetadataRef, entry: LLVMBasicBlockRef },
    /// A new block with the condition and the branch took these (predecessor, successor index) edges.
    Redirected { block: LLVMBasicBlockRef, edges: Vec<(LLVMBasicBlockRef, u32)>, entry: LLVMBasicBlockRef },
}

/// Branches from the region's entry to `start` (the new code) instead of
/// the old region when `cond` (built at the builder it is given; `None`:
/// always) holds ([`check`] must have passed). On an error of `cond`
/// nothing is changed.
pub fn switch_to(f: LLVMValueRef, scop: &Scop, start: LLVMBasicBlockRef, cond: Option<&dyn Fn(LLVMBuilderRef) -> Result<LLVMValueRef, String>>) -> Result<Switch, String> {
    let entry = scop.entry_block;
    let preds = outside_preds(f, scop);
    let has_phis = ir::instructions(entry).first().is_some_and(|&i| ir::opcode(i) == O::LLVMPHI);
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(entry)));
        let yes = LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0);
        if has_phis {
            let pred = preds[0];
            let old = LLVMGetBasicBlockTerminator(pred);
            let prev = LLVMGetPreviousInstruction(old);
            let loc = LLVMInstructionGetDebugLoc(old);
            let b = ir::Builder::before(old);
            let sw = Switch::Replaced { pred, prev, loc, entry };
            let c = match cond.map(|c| c(b.raw())) {
                None => yes,
                Some(Ok(c)) => c,
                Some(Err(e)) => {
                    erase_after(pred, prev, old);
                    return Err(e);
                }
            };
            LLVMBuildCondBr(b.raw(), c, start, entry);
            // A detached branch would still count as an edge: deleted, rebuilt on undo.
            LLVMInstructionEraseFromParent(old);
            return Ok(sw);
        }
        let block = LLVMInsertBasicBlockInContext(ctx, entry, c"pluto.enter".as_ptr());
        let b = ir::Builder::at_end(block);
        let first = LLVMGetFirstInstruction(entry);
        if !first.is_null() {
            LLVMSetCurrentDebugLocation2(b.raw(), LLVMInstructionGetDebugLoc(first));
        }
        let c = match cond.map(|c| c(b.raw())) {
            None => yes,
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                for i in ir::instructions(block).into_iter().rev() {
                    LLVMInstructionEraseFromParent(i);
                }
                LLVMDeleteBasicBlock(block);
                return Err(e);
            }
        };
        LLVMBuildCondBr(b.raw(), c, start, entry);
        let mut edges = Vec::new();
        for p in preds {
            let term = LLVMGetBasicBlockTerminator(p);
            for k in 0..LLVMGetNumSuccessors(term) {
                if LLVMGetSuccessor(term, k) == entry {
                    LLVMSetSuccessor(term, k, block);
                    edges.push((p, k));
                }
            }
        }
        Ok(Switch::Redirected { block, edges, entry })
    }
}

/// Erases the instructions of `bb` after `prev` (all when null) up to, not including, `stop` (null: to the end).
fn erase_after(bb: LLVMBasicBlockRef, prev: LLVMValueRef, stop: LLVMValueRef) {
    unsafe {
        let mut i = if prev.is_null() { LLVMGetFirstInstruction(bb) } else { LLVMGetNextInstruction(prev) };
        let mut doomed = Vec::new();
        while !i.is_null() && i != stop {
            doomed.push(i);
            i = LLVMGetNextInstruction(i);
        }
        for i in doomed.into_iter().rev() {
            LLVMInstructionEraseFromParent(i);
        }
    }
}

impl Switch {
    /// Restores the branches as they were (the condition's instructions gone).
    pub fn undo(self) {
        unsafe {
            match self {
                Switch::Replaced { pred, prev, loc, entry } => {
                    erase_after(pred, prev, std::ptr::null_mut());
                    let b = ir::Builder::at_end(pred);
                    LLVMSetCurrentDebugLocation2(b.raw(), loc);
                    LLVMBuildBr(b.raw(), entry);
                }
                Switch::Redirected { block, edges, entry } => {
                    for (p, k) in edges {
                        LLVMSetSuccessor(LLVMGetBasicBlockTerminator(p), k, entry);
                    }
                    for i in ir::instructions(block).into_iter().rev() {
                        LLVMInstructionEraseFromParent(i);
                    }
                    LLVMDeleteBasicBlock(block);
                }
            }
        }
    }
}

//! Calls from `vec-function` loops (seed 001 §3.1): a loop marked
//! `#pragma simd vec-function` (or `omp simd`) whose body calls a function
//! with vector variants runs `lanes` iterations at a time, its body
//! vectorized like a function's (iteration k of a group is lane k: the
//! induction variable is consecutive, loop invariants uniform), so each
//! call becomes one call of the unmasked variant with the uniform and
//! linear arguments passed as scalars. The remainder (fewer than `lanes`
//! iterations) runs in the original, scalar loop.
//!
//! Recognized: a rotated loop with one preheader and one latch, the latch
//! its only exit, `iv = phi [start, pre], [iv + 1, latch]` its only header
//! phi, continuing while `iv + 1` is `<` (signed or unsigned) or `!=` a loop
//! invariant, no value used after it, no phi in its exit block. The trip
//! count is computed before the loop.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};

use super::attrs::{self, Attr};
use super::directives::VecLoop;
use super::linearize::{self, Nest};
use super::mask::{Cx, Mask};
use super::widen::{nm, Callee, Emitter, Region, VVal, R};
use super::{Remark, RemarkKind};
use crate::cfg::Cfg;
use crate::ir;

/// Rewrites loop `l`; whether it did. Remarks either way.
pub fn run(cx: &Cx, l: &VecLoop, variants: &HashMap<LLVMValueRef, Vec<Callee>>, remarks: &mut Vec<Remark>) -> bool {
    let at = l.latches[0];
    let missed = |remarks: &mut Vec<Remark>, why: String| {
        remarks.push(Remark { kind: RemarkKind::Missed, at, name: "LoopNotVectorized", msg: format!("{} not vectorized: {why}", if l.auto { "loop (found without a directive)" } else { "vec-function loop" }) });
        false
    };
    if l.vectorized {
        return missed(remarks, "LLVM's loop vectorizer already vectorized it".into());
    }
    let nblocks = unsafe { LLVMCountBasicBlocks(l.function) };
    match rewrite(cx, l.function, l.latches[0], variants, Goal::Calls) {
        Ok((calls, variant, at)) => {
            remarks.push(Remark {
                kind: RemarkKind::Passed,
                at,
                name: "LoopVectorized",
                msg: format!(
                    "{} vectorized: {} iterations per step, {calls} call(s) of vector variants ('{variant}'), the rest as one step under a lane mask",
                    if l.auto { "loop (found without a directive)" } else { "vec-function loop" },
                    cx.lanes
                ),
            });
            true
        }
        Err(why) => {
            discard_blocks_after(l.function, nblocks);
            missed(remarks, why)
        }
    }
}

/// Deletes the blocks a failed rewrite appended.
pub(crate) fn discard_blocks_after(f: LLVMValueRef, n: u32) {
    let blocks = ir::blocks(f);
    let extra = &blocks[n as usize..];
    unsafe {
        for &b in extra {
            for i in ir::instructions(b) {
                if LLVMGetTypeKind(LLVMTypeOf(i)) != inkwell::llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
                    LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
                }
            }
        }
        for &b in extra {
            LLVMDeleteBasicBlock(b);
        }
    }
}

/// What a loop rewrite is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A `vec-function` loop: its calls use vector variants (there must be some).
    Calls,
    /// An outer loop vectorized whole (see [`super::outer`]): no calls
    /// needed; refused when the body diverges or needs gathers/scatters.
    Whole,
    /// [`Goal::Whole`] with the rest as one masked step (no scalar loop).
    WholeMasked,
}

impl Goal {
    fn whole(self) -> bool {
        matches!(self, Goal::Whole | Goal::WholeMasked)
    }
}

/// Rewrites the loop whose latch ends in `latch_term` to run `lanes`
/// iterations at a time (a `vec-function` loop, or an outer loop with
/// [`Goal::WholeMasked`]: the rest as one masked step; an outer loop with
/// [`Goal::Whole`]: the rest in the scalar loop); the number of vector
/// calls made and the variants' names.
pub fn rewrite(cx: &Cx, f: LLVMValueRef, latch_term: LLVMValueRef, variants: &HashMap<LLVMValueRef, Vec<Callee>>, goal: Goal) -> R<(usize, String, LLVMValueRef)> {
    if !cx.lanes.is_power_of_two() {
        return Err("the lane count is not a power of two".into());
    }
    let cfg = Cfg::new(f);
    let sh = shape(&cfg, latch_term)?;
    let calls_variant = sh.calls(&cfg, variants);
    if goal == Goal::Calls && !calls_variant {
        return Err("it calls no function with a vector variant (inlined, or not vectorized)".into());
    }
    let Shape { ref lp, latch, h, pre_term, exit, iv, start, next, ity, .. } = sh;
    let t = latch_term;
    // Vectorize the body.
    let region: Vec<bool> = lp.body.clone();
    let nest = Nest::new(&cfg, &region, Some(h))?;
    let mut args = HashMap::new();
    args.insert(iv, Attr::Linear(1));
    let at = attrs::analyse(cx.m, &cfg, &nest, &region, h, &args, &[latch], cx.level);
    if goal.whole() && at.divergent() {
        return Err("its body diverges (a branch or inner loop bound differs between iterations)".into());
    }
    let order = linearize::order(&cfg, &nest, &region, h, &[latch]);
    let r = Region { cfg: &cfg, nest: &nest, attrs: &at, blocks: region.clone(), entry: h, exits: vec![latch] };
    let mut e = Emitter::new(cx, f, &r, variants, true);
    unsafe { LLVMSetCurrentDebugLocation2(e.b, inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(t)) };
    let b = e.b;
    let c = |v: i64| unsafe { LLVMConstInt(ity, v as u64, 1) };
    let check = e.new_block("wfv.check");
    e.at_end(check);
    let tc = sh.trip_count(b);
    let vtc = unsafe { LLVMBuildAnd(b, tc, c(-(cx.lanes as i64)), nm()) };
    let head = e.new_block("wfv.vloop");
    let vexit = e.new_block("wfv.vloop.end");
    unsafe {
        let some = LLVMBuildICmp(b, P::LLVMIntNE, vtc, c(0), nm());
        LLVMBuildCondBr(b, some, head, vexit);
    }
    e.at_end(head);
    let k = unsafe { LLVMBuildPhi(b, ity, nm()) };
    let base = unsafe { LLVMBuildAdd(b, start, k, nm()) };
    e.map.insert(iv, VVal::Lin { base, stride: 1 });
    if at.divergent() {
        e.emit_linear(&order, Mask::All, head)?;
    } else {
        e.emit_cfg(&order, Mask::All, head)?;
    }
    let [end] = e.ends[..] else { return Err("internal: the body has no single end".into()) };
    e.at_end(end);
    let calls = e.vector_calls;
    if goal.whole() && e.gathers > 0 {
        return Err(format!("it would need {} gathers/scatters (accesses neither uniform nor consecutive)", e.gathers));
    }
    if goal == Goal::Calls && calls == 0 {
        return Err("no call in it could use a vector variant (arguments do not match the uniform/linear clauses)".into());
    }
    unsafe {
        let knext = LLVMBuildAdd(b, k, c(cx.lanes as i64), nm());
        let more = LLVMBuildICmp(b, P::LLVMIntNE, knext, vtc, nm());
        LLVMBuildCondBr(b, more, head, vexit);
        let mut vals = [c(0), knext];
        let mut bbs = [check, end];
        LLVMAddIncoming(k, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2);
    }
    // After the vector loop of a vec-function loop (or an outer loop's
    // narrowest group, `WholeMasked`): done, or the rest as one step under
    // the lane mask `k < tc - vtc` (seed 001 §3.1); the scalar loop goes.
    // Otherwise an outer loop keeps its scalar loop for what is left (it may
    // be vectorized again, narrower).
    if goal == Goal::Calls || goal == Goal::WholeMasked {
        let tail = e.new_block("wfv.tail");
        e.at_end(vexit);
        // (At the loop's source line: the remarks' anchor once the loop is gone.)
        let anchor = unsafe {
            let done = LLVMBuildICmp(b, P::LLVMIntEQ, vtc, tc, nm());
            LLVMBuildCondBr(b, done, exit, tail)
        };
        let mut t2 = Emitter::new(cx, f, &r, variants, true);
        t2.at_end(tail);
        let b2 = t2.b;
        let mask = unsafe {
            let base = LLVMBuildAdd(b2, start, vtc, nm());
            t2.map.insert(iv, VVal::Lin { base, stride: 1 });
            let left = LLVMBuildSub(b2, tc, vtc, nm());
            let vt = cx.vty(ity);
            let ins = LLVMBuildInsertElement(b2, LLVMGetPoison(vt), left, c(0), nm());
            let splat = LLVMBuildShuffleVector(b2, ins, LLVMGetPoison(vt), LLVMConstNull(cx.vty(cx.i32())), nm());
            let mut lanes: Vec<LLVMValueRef> = (0..cx.lanes).map(|k| c(k as i64)).collect();
            let iota = LLVMConstVector(lanes.as_mut_ptr(), cx.lanes);
            LLVMBuildICmp(b2, P::LLVMIntULT, iota, splat, nm())
        };
        if at.divergent() {
            t2.emit_linear(&order, Mask::V(mask), tail)?;
        } else {
            t2.emit_cfg(&order, Mask::V(mask), tail)?;
        }
        if goal.whole() && t2.gathers > 0 {
            return Err(format!("its masked step would need {} gathers/scatters", t2.gathers));
        }
        let [tend] = t2.ends[..] else { return Err("internal: the masked tail has no single end".into()) };
        t2.at_end(tend);
        t2.br(exit);
        let calls = calls + t2.vector_calls;
        // The scalar loop has no way in left: it goes.
        unsafe {
            LLVMSetSuccessor(pre_term, 0, check);
            let dead: Vec<LLVMBasicBlockRef> = (0..cfg.blocks.len()).filter(|&x| lp.contains(x)).map(|x| cfg.blocks[x]).collect();
            for &d in &dead {
                for i in ir::instructions(d) {
                    if LLVMGetTypeKind(LLVMTypeOf(i)) != inkwell::llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
                        LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
                    }
                }
            }
            for &d in &dead {
                LLVMDeleteBasicBlock(d);
            }
        }
        let names: Vec<String> = variants.values().flatten().map(|c| ir::value_name(c.func)).filter(|n| !n.contains("xM")).collect();
        return Ok((calls, names.join("', '"), anchor));
    }
    // After the vector loop: done, or the scalar loop from start + vtc.
    let rph = e.new_block("wfv.scalar.ph");
    e.at_end(vexit);
    let resume = unsafe { LLVMBuildAdd(b, start, vtc, nm()) };
    unsafe {
        let done = LLVMBuildICmp(b, P::LLVMIntEQ, vtc, tc, nm());
        LLVMBuildCondBr(b, done, exit, rph);
    }
    e.at_end(rph);
    e.br(cfg.blocks[h]);
    // Commit: the preheader enters the check; the counter starts at `resume` from rph.
    unsafe {
        LLVMSetSuccessor(pre_term, 0, check);
        LLVMPositionBuilderBefore(b, iv);
        let phi = LLVMBuildPhi(b, ity, nm());
        let mut vals = [resume, next];
        let mut bbs = [rph, cfg.blocks[latch]];
        LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2);
        LLVMReplaceAllUsesWith(iv, phi);
        LLVMInstructionEraseFromParent(iv);
    }
    let names: Vec<String> = variants.values().flatten().map(|c| ir::value_name(c.func)).filter(|n| !n.contains("xM")).collect();
    Ok((calls, names.join("', '"), latch_term))
}

/// A loop `vloop` can rewrite: rotated, one preheader and one latch (its
/// only exit), a counter stepping by 1 its only header phi, an exit test
/// `<` or `!=` against a loop invariant, no value used after it.
pub(crate) struct Shape {
    pub lp: crate::cfg::Loop,
    pub latch: usize,
    pub h: usize,
    /// The preheader's (unconditional) branch.
    pub pre_term: LLVMValueRef,
    pub exit: LLVMBasicBlockRef,
    /// The counter (the header phi), its start and its increment.
    pub iv: LLVMValueRef,
    pub start: LLVMValueRef,
    pub next: LLVMValueRef,
    pub ity: LLVMTypeRef,
    /// The bound, and the predicate the loop continues under.
    pub n: LLVMValueRef,
    pub pred: P,
    /// The bound is `n + 1` (`iv != n` tested on the counter itself).
    pub plus_one: bool,
}

impl Shape {
    /// Whether the loop calls a function with a vector variant.
    pub fn calls(&self, cfg: &Cfg, variants: &HashMap<LLVMValueRef, Vec<Callee>>) -> bool {
        (0..cfg.blocks.len()).filter(|&b| self.lp.contains(b)).flat_map(|b| ir::instructions(cfg.blocks[b])).any(|i| {
            ir::opcode(i) == O::LLVMCall && variants.contains_key(&unsafe { LLVMGetCalledValue(i) })
        })
    }

    /// Emits the trip count at `b`'s position.
    pub(crate) fn trip_count(&self, b: LLVMBuilderRef) -> LLVMValueRef {
        let c = |v: i64| unsafe { LLVMConstInt(self.ity, v as u64, 1) };
        unsafe {
            let n = if self.plus_one { LLVMBuildAdd(b, self.n, c(1), nm()) } else { self.n };
            let diff = LLVMBuildSub(b, n, self.start, nm());
            match self.pred {
                P::LLVMIntNE => diff,
                p => {
                    let gt = LLVMBuildICmp(b, if p == P::LLVMIntSLT { P::LLVMIntSGT } else { P::LLVMIntUGT }, n, self.start, nm());
                    LLVMBuildSelect(b, gt, diff, c(1), nm())
                }
            }
        }
    }
}

/// The shape of the loop whose latch ends in `latch_term`, or why it has none.
pub(super) fn shape(cfg: &Cfg, latch_term: LLVMValueRef) -> R<Shape> {
    shape_with(cfg, latch_term, false)
}

/// [`shape`]; with `carried`, the loop may also carry other values from one
/// iteration to the next and leave values to its exit block (its phis):
/// the counter is the phi that steps by 1 and the exit test compares.
pub(crate) fn shape_with(cfg: &Cfg, latch_term: LLVMValueRef, carried: bool) -> R<Shape> {
    let latch = cfg.index[&unsafe { LLVMGetInstructionParent(latch_term) }];
    let lp = cfg.loops().into_iter().find(|lp| lp.latches.contains(&latch)).ok_or("not a natural loop")?;
    let h = lp.header;
    if lp.latches.len() != 1 {
        return Err("it has several latches".into());
    }
    let outside: Vec<usize> = cfg.preds[h].iter().copied().filter(|&p| !lp.contains(p)).collect();
    let [pre] = outside[..] else { return Err("it has no single preheader".into()) };
    let pre_term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[pre]) };
    if ir::opcode(pre_term) != O::LLVMBr || unsafe { LLVMIsConditional(pre_term) } != 0 {
        return Err("its preheader does not branch to it unconditionally".into());
    }
    for b in (0..cfg.blocks.len()).filter(|&b| lp.contains(b) && b != latch) {
        if cfg.succs[b].iter().any(|&s| !lp.contains(s)) {
            return Err("it has an exit other than its latch".into());
        }
    }
    let t = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[latch]) };
    if ir::opcode(t) != O::LLVMBr || unsafe { LLVMIsConditional(t) } == 0 {
        return Err("its latch does not end in a conditional branch".into());
    }
    let (s0, s1) = unsafe { (LLVMGetSuccessor(t, 0), LLVMGetSuccessor(t, 1)) };
    let (continue_if, exit) = if s0 == cfg.blocks[h] { (true, s1) } else { (false, s0) };
    if !carried && ir::instructions(exit).first().is_some_and(|&i| ir::opcode(i) == O::LLVMPHI) {
        return Err("its exit block has phis".into());
    }
    // The induction variable.
    let phis: Vec<LLVMValueRef> = ir::instructions(cfg.blocks[h]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).collect();
    let iv = if carried {
        let cond = unsafe { LLVMGetCondition(t) };
        let ops: Vec<LLVMValueRef> = if ir::opcode(cond) == O::LLVMICmp { unsafe { vec![LLVMGetOperand(cond, 0), LLVMGetOperand(cond, 1)] } } else { Vec::new() };
        let latch_of = |p: LLVMValueRef| unsafe {
            (0..LLVMCountIncoming(p)).find(|&j| LLVMGetIncomingBlock(p, j) == cfg.blocks[latch]).map(|j| LLVMGetIncomingValue(p, j))
        };
        *phis.iter().find(|&&p| ops.contains(&p) || latch_of(p).is_some_and(|n| ops.contains(&n))).ok_or("its exit test compares no counter")?
    } else {
        let [iv] = phis[..] else { return Err("it carries values from one iteration to the next besides its counter".into()) };
        iv
    };
    let incoming = |blk: usize| unsafe {
        (0..LLVMCountIncoming(iv)).find(|&j| LLVMGetIncomingBlock(iv, j) == cfg.blocks[blk]).map(|j| LLVMGetIncomingValue(iv, j))
    };
    let (start, next) = (incoming(pre).ok_or("internal: iv")?, incoming(latch).ok_or("internal: iv")?);
    let ity = unsafe { LLVMTypeOf(iv) };
    let is_step = ir::opcode(next) == O::LLVMAdd && unsafe {
        let (a, b) = (LLVMGetOperand(next, 0), LLVMGetOperand(next, 1));
        (a == iv && ir::const_u64(b) == Some(1)) || (b == iv && ir::const_u64(a) == Some(1))
    };
    if !is_step || unsafe { LLVMGetTypeKind(ity) } != inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind {
        return Err("its counter does not step by 1".into());
    }
    let cond = unsafe { LLVMGetCondition(t) };
    if ir::opcode(cond) != O::LLVMICmp {
        return Err("its exit test is not a compare of its counter".into());
    }
    let (a, b) = unsafe { (LLVMGetOperand(cond, 0), LLVMGetOperand(cond, 1)) };
    let mut pred = unsafe { LLVMGetICmpPredicate(cond) };
    // The incremented counter against the bound, or (as InstCombine leaves
    // `i + 1 <= m` in a loop known to run) the counter itself against
    // `m`, tested for equality: the bound is then `m + 1`.
    let mut plus_one = false;
    let n = if a == next {
        b
    } else if b == next {
        pred = swap(pred);
        a
    } else if a == iv || b == iv {
        plus_one = true;
        if a == iv { b } else { a }
    } else {
        return Err("its exit test does not compare the incremented counter".into());
    };
    let defined_inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() } && cfg.index.get(&unsafe { LLVMGetInstructionParent(v) }).is_some_and(|&x| lp.contains(x));
    if defined_inside(n) {
        return Err("its bound changes in the loop".into());
    }
    if !continue_if {
        pred = invert(pred);
    }
    if !matches!(pred, P::LLVMIntSLT | P::LLVMIntULT | P::LLVMIntNE) || plus_one && pred != P::LLVMIntNE {
        return Err(format!("its exit test ({pred:?}) is not one of <, != on the counter"));
    }
    for b in (0..cfg.blocks.len()).filter(|&b| lp.contains(b) && !carried) {
        for i in ir::instructions(cfg.blocks[b]) {
            if ir::users(i).iter().any(|&u| !defined_inside(u)) {
                return Err("a value computed in it is used after it".into());
            }
        }
    }
    Ok(Shape { lp, latch, h, pre_term, exit, iv, start, next, ity, n, pred, plus_one })
}

fn swap(p: P) -> P {
    match p {
        P::LLVMIntSLT => P::LLVMIntSGT,
        P::LLVMIntSGT => P::LLVMIntSLT,
        P::LLVMIntSLE => P::LLVMIntSGE,
        P::LLVMIntSGE => P::LLVMIntSLE,
        P::LLVMIntULT => P::LLVMIntUGT,
        P::LLVMIntUGT => P::LLVMIntULT,
        P::LLVMIntULE => P::LLVMIntUGE,
        P::LLVMIntUGE => P::LLVMIntULE,
        p => p,
    }
}

fn invert(p: P) -> P {
    match p {
        P::LLVMIntEQ => P::LLVMIntNE,
        P::LLVMIntNE => P::LLVMIntEQ,
        P::LLVMIntSLT => P::LLVMIntSGE,
        P::LLVMIntSGE => P::LLVMIntSLT,
        P::LLVMIntSGT => P::LLVMIntSLE,
        P::LLVMIntSLE => P::LLVMIntSGT,
        P::LLVMIntULT => P::LLVMIntUGE,
        P::LLVMIntUGE => P::LLVMIntULT,
        P::LLVMIntUGT => P::LLVMIntULE,
        P::LLVMIntULE => P::LLVMIntUGT,
    }
}

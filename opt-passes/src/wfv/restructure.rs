//! Instance restructuring (seed 001 §2.2.3): when a `vec-function` loop's
//! callee branches at its entry on a varying condition, `GROUPS` vector
//! calls are taken together and their `GROUPS · lanes` instances regrouped
//! by the condition's truth value, so that at most one of the calls sees
//! both sides taken and the others run one side only (its other side is
//! skipped by the branches on superword conditions, §2.2.1).
//!
//! The regrouping is done on the scalar loop before [`super::vloop`] sees
//! it. For each block of `GROUPS · lanes` iterations, a classification loop
//! evaluates the callee's branch condition (its entry block's backward
//! slice, cloned with the call's arguments) per iteration and writes the
//! iteration's offset into a permutation: iterations taking the branch from
//! the front, the others from the back (the seed's `ra` block). The loop
//! itself then runs over the permutation (`i = start + perm[k]`) and
//! becomes the `vec-function` loop that `vloop` vectorizes: its accesses
//! at `i` become gathers and scatters, which is what puts the results back
//! in place (the seed's `re` block). The iterations after the last full
//! block stay in the original loop (vectorized as before).
//!
//! Reordering iterations is legal under the directive (the instances of a
//! `vec-function` loop run side by side, in any order) only when no
//! iteration's effects depend on the order: the callee writes no memory
//! and calls nothing but pure intrinsics, and the loop body's only call is
//! the callee's and its stores go to addresses indexed by the counter. A
//! cost model asks both sides of the branch to be worth skipping.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};

use super::directives::VecLoop;
use super::mask::Cx;
use super::vloop;
use super::widen::{nm, Callee};
use super::{Remark, RemarkKind};
use crate::cfg::Cfg;
use crate::ir;

/// Vector calls regrouped together (the seed's S).
pub const GROUPS: u32 = 4;

/// Weighted instructions each side of the callee's branch must have (an
/// instruction in a loop counts `LOOP_WEIGHT` times): below that, the
/// classification loop costs more than skipping a side saves.
const MIN_SIDE: usize = 24;
const LOOP_WEIGHT: usize = 8;

/// Restructures loop `l` when its callee qualifies: the new `vec-function`
/// loop over the permuted iterations, which the caller gives to `vloop`
/// before `l` itself (whose remaining iterations it then vectorizes).
/// `None` leaves `l` as it was, with a remark when its callee diverges.
pub fn run(cx: &Cx, l: &VecLoop, variants: &HashMap<LLVMValueRef, Vec<Callee>>, remarks: &mut Vec<Remark>) -> Option<VecLoop> {
    let plan = match plan(cx, l, variants) {
        Ok(Some(p)) => p,
        Ok(None) => return None,
        Err(why) => {
            remarks.push(Remark { kind: RemarkKind::Missed, at: l.latches[0], name: "NotRestructured", msg: format!("vec-function loop not restructured: {why}") });
            return None;
        }
    };
    let (term, anchor) = emit(cx, l, &plan);
    // The classification loop, vectorized whole (else it stays scalar: correct, slower).
    let nblocks = unsafe { LLVMCountBasicBlocks(l.function) };
    if let Err(why) = vloop::rewrite(cx, l.function, anchor, variants, vloop::Goal::Whole) {
        vloop::discard_blocks_after(l.function, nblocks);
        remarks.push(Remark { kind: RemarkKind::Missed, at: anchor, name: "NotRestructured", msg: format!("the classification loop of a restructured vec-function loop stays scalar: {why}") });
    }
    remarks.push(Remark {
        kind: RemarkKind::Passed,
        at: anchor,
        name: "Restructured",
        msg: format!(
            "vec-function loop restructured: instances regrouped by the branch at the entry of '{}' in blocks of {} iterations ({} calls of {} lanes); sides of {} and {} weighted instructions, condition of {}",
            ir::value_name(plan.callee),
            GROUPS * cx.lanes,
            GROUPS,
            cx.lanes,
            plan.sides.0,
            plan.sides.1,
            plan.slice.len()
        ),
    });
    Some(VecLoop { function: l.function, latches: vec![term], origin: l.origin, vectorized: false, auto: l.auto })
}

/// What the rewrite needs: the loop's shape, its call, the callee's
/// condition slice (in order) and the weights of the two sides.
struct Plan {
    call: LLVMValueRef,
    callee: LLVMValueRef,
    cond: LLVMValueRef,
    slice: Vec<LLVMValueRef>,
    sides: (usize, usize),
}

/// Intrinsics without effects on memory or control.
fn pure_intrinsic(name: &str) -> bool {
    const PURE: &[&str] = &[
        "llvm.dbg.", "llvm.sqrt.", "llvm.fabs.", "llvm.fma.", "llvm.fmuladd.", "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.round.",
        "llvm.roundeven.", "llvm.rint.", "llvm.nearbyint.", "llvm.copysign.", "llvm.minnum.", "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.",
        "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs.", "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.bswap.",
        "llvm.fshl.", "llvm.fshr.", "llvm.assume",
    ];
    PURE.iter().any(|p| name.starts_with(p))
}

fn is_pure_call(i: LLVMValueRef) -> bool {
    ir::called_intrinsic(i).is_some_and(|n| pure_intrinsic(&n))
}

fn plan(cx: &Cx, l: &VecLoop, variants: &HashMap<LLVMValueRef, Vec<Callee>>) -> Result<Option<Plan>, String> {
    let cfg = Cfg::new(l.function);
    // Loops `vloop` cannot take get its remark there.
    let Ok(sh) = vloop::shape(&cfg, l.latches[0]) else { return Ok(None) };
    if l.vectorized {
        return Ok(None);
    }
    if cx.lanes > 32 {
        return Err("more than 32 lanes (a group's lane mask must fit a 32-bit word)".into());
    }
    if !cx.gather || !cx.scatter {
        return Err("the machine has no gather and scatter to put regrouped instances in place".into());
    }
    let body = cfg.blocks[sh.h];
    // The one call with a vector variant, and its callee's divergent entry.
    let calls: Vec<LLVMValueRef> = ir::instructions(body).into_iter().filter(|&i| ir::opcode(i) == O::LLVMCall && !is_pure_call(i)).collect();
    let [call] = calls[..] else { return Ok(None) };
    let callee = unsafe { LLVMGetCalledValue(call) };
    let Some(callees) = variants.get(&callee) else { return Ok(None) };
    let Some(unmasked) = callees.iter().find(|c| !c.masked) else { return Ok(None) };
    if unsafe { LLVMCountBasicBlocks(callee) } == 0 {
        return Ok(None);
    }
    let fcfg = Cfg::new(callee);
    let entry_term = unsafe { LLVMGetBasicBlockTerminator(fcfg.blocks[0]) };
    if ir::opcode(entry_term) != O::LLVMBr || unsafe { LLVMIsConditional(entry_term) } == 0 {
        return Ok(None);
    }
    let cond = unsafe { LLVMGetCondition(entry_term) };
    let params: Vec<LLVMValueRef> = (0..unsafe { LLVMCountParams(callee) }).map(|k| unsafe { LLVMGetParam(callee, k) }).collect();
    // The condition's backward slice in the entry block.
    let mut slice = Vec::new();
    let mut varying = false;
    let mut stack = vec![cond];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if let Some(k) = params.iter().position(|&p| p == v) {
            varying |= !unmasked.decl.uniform.contains(&(k as u32));
            continue;
        }
        if unsafe { LLVMIsAInstruction(v).is_null() } {
            continue;
        }
        if unsafe { LLVMGetInstructionParent(v) } != fcfg.blocks[0] {
            return Err("internal: the condition uses a value of another block".into());
        }
        match ir::opcode(v) {
            O::LLVMLoad | O::LLVMPHI | O::LLVMAlloca => return Err(format!("the condition of the branch at the entry of '{}' reads memory", ir::value_name(callee))),
            O::LLVMCall if !is_pure_call(v) => return Err(format!("the condition of the branch at the entry of '{}' calls a function", ir::value_name(callee))),
            _ => {}
        }
        slice.push(v);
        for k in 0..unsafe { LLVMGetNumOperands(v) } {
            stack.push(unsafe { LLVMGetOperand(v, k as u32) });
        }
    }
    if !varying {
        return Ok(None);
    }
    // Program order.
    let order: HashMap<LLVMValueRef, usize> = ir::instructions(fcfg.blocks[0]).into_iter().enumerate().map(|(k, i)| (i, k)).collect();
    slice.sort_by_key(|i| order[i]);
    // Order-independent effects only.
    for b in &fcfg.blocks {
        for i in ir::instructions(*b) {
            match ir::opcode(i) {
                O::LLVMStore | O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence => {
                    return Err(format!("'{}' writes memory (instances regrouped out of order could write in another order)", ir::value_name(callee)))
                }
                O::LLVMCall if !is_pure_call(i) => return Err(format!("'{}' calls '{}' (its effects could happen in another order)", ir::value_name(callee), ir::value_name(unsafe { LLVMGetCalledValue(i) }))),
                _ => {}
            }
        }
    }
    let in_body = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && LLVMGetInstructionParent(v) == body };
    let counter = |v: LLVMValueRef| {
        v == sh.iv || (matches!(ir::opcode_of(v), Some(O::LLVMZExt | O::LLVMSExt)) && unsafe { LLVMGetOperand(v, 0) } == sh.iv)
    };
    for i in ir::instructions(body) {
        if ir::opcode(i) != O::LLVMStore {
            continue;
        }
        let ptr = unsafe { LLVMGetOperand(i, 1) };
        let private = ir::opcode_of(ptr) == Some(O::LLVMGetElementPtr) && unsafe {
            let n = LLVMGetNumOperands(ptr) as u32;
            counter(LLVMGetOperand(ptr, n - 1)) && (0..n - 1).all(|k| !in_body(LLVMGetOperand(ptr, k)))
        };
        if !private {
            return Err("a store in the loop does not write an element indexed by the loop counter (regrouped iterations could write in another order)".into());
        }
    }
    // The cost model: both sides worth skipping.
    let (t, f) = unsafe { (LLVMGetSuccessor(entry_term, 0), LLVMGetSuccessor(entry_term, 1)) };
    let reach = |from: LLVMBasicBlockRef| {
        let mut seen = vec![false; fcfg.blocks.len()];
        let mut stack = vec![fcfg.index[&from]];
        while let Some(b) = stack.pop() {
            if !std::mem::replace(&mut seen[b], true) {
                stack.extend(fcfg.succs[b].iter().copied());
            }
        }
        seen
    };
    let (rt, rf) = (reach(t), reach(f));
    let loops = fcfg.loops();
    let weight = |only: &[bool], other: &[bool]| -> usize {
        (0..fcfg.blocks.len())
            .filter(|&b| only[b] && !other[b])
            .map(|b| ir::instructions(fcfg.blocks[b]).len() * if loops.iter().any(|lp| lp.contains(b)) { LOOP_WEIGHT } else { 1 })
            .sum()
    };
    let sides = (weight(&rt, &rf), weight(&rf, &rt));
    if sides.0.min(sides.1) < MIN_SIDE {
        return Err(format!(
            "the sides of the branch at the entry of '{}' ({} and {} weighted instructions) are too small to pay for regrouping (at least {MIN_SIDE} each)",
            ir::value_name(callee),
            sides.0,
            sides.1
        ));
    }
    Ok(Some(Plan { call, callee, cond, slice, sides }))
}

/// Emits the blocks: the classification loop (a plain loop, which
/// `vloop` then vectorizes whole), the compaction of its results into the
/// permutation (vector code: each lane's rank among its group's lanes
/// that take the same side is a population count of the lower lanes'
/// bits, its slot a scatter) and the loop over the permutation. Returns the
/// latter's latch branch, and the classification loop's (at the call's
/// line: the remarks' anchor, since the scalar loops go when vectorized).
fn emit(cx: &Cx, l: &VecLoop, plan: &Plan) -> (LLVMValueRef, LLVMValueRef) {
    let f = l.function;
    let cfg = Cfg::new(f);
    let sh = vloop::shape(&cfg, l.latches[0]).expect("planned");
    let body = cfg.blocks[sh.h];
    let lanes = cx.lanes as i64;
    let bsize = GROUPS as i64 * lanes;
    unsafe {
        let ctx = cx.ctx;
        let b = LLVMCreateBuilderInContext(ctx);
        let ity = sh.ity;
        let i32t = cx.i32();
        let c = |v: i64| LLVMConstInt(ity, v as u64, 1);
        let c32 = |v: i64| LLVMConstInt(i32t, v as u64, 1);
        let arr = LLVMArrayType2(i32t, bsize as u64);
        // The classification results and the permutation, in the entry block.
        let entry = LLVMGetEntryBasicBlock(f);
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
        let perm = LLVMBuildAlloca(b, arr, c"wfv.perm".as_ptr());
        let cbuf = LLVMBuildAlloca(b, arr, c"wfv.side".as_ptr());
        for a in [perm, cbuf] {
            LLVMSetAlignment(a, 4 * cx.lanes);
        }
        let loc = inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(plan.call);
        LLVMSetCurrentDebugLocation2(b, loc);
        let block = |name: &str| {
            let n = std::ffi::CString::new(name).unwrap();
            LLVMAppendBasicBlockInContext(ctx, f, n.as_ptr())
        };
        let (check, blk_h, cls, compact, perm_ph, perm_l, next_b, rest, rest_ph) = (
            block("wfv.rs.check"),
            block("wfv.rs.block"),
            block("wfv.rs.classify"),
            block("wfv.rs.compact"),
            block("wfv.rs.perm.ph"),
            block("wfv.rs.perm"),
            block("wfv.rs.next"),
            block("wfv.rs.rest"),
            block("wfv.rs.rest.ph"),
        );
        LLVMSetSuccessor(sh.pre_term, 0, check);
        // check: any full block?
        LLVMPositionBuilderAtEnd(b, check);
        let tc = sh.trip_count(b);
        let nb = LLVMBuildAnd(b, tc, c(-bsize), nm());
        // Lane k's lower lanes' bits, 2^k - 1: a table loaded once (a
        // constant vector operand would be built again in each block).
        let vt = cx.vty(i32t);
        let below = {
            let mut v: Vec<LLVMValueRef> = (0..lanes).map(|k| c32((1i64 << k) - 1)).collect();
            let init = LLVMConstVector(v.as_mut_ptr(), cx.lanes);
            let g = LLVMAddGlobal(cx.m, vt, c"wfv.rs.below".as_ptr());
            LLVMSetInitializer(g, init);
            LLVMSetGlobalConstant(g, 1);
            LLVMSetLinkage(g, inkwell::llvm_sys::LLVMLinkage::LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(g, inkwell::llvm_sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr);
            LLVMSetAlignment(g, 4 * cx.lanes);
            let ld = LLVMBuildLoad2(b, vt, g, nm());
            LLVMSetAlignment(ld, 4 * cx.lanes);
            ld
        };
        let some = LLVMBuildICmp(b, P::LLVMIntNE, nb, c(0), nm());
        LLVMBuildCondBr(b, some, blk_h, rest);
        // block: the classification loop's preheader
        LLVMPositionBuilderAtEnd(b, blk_h);
        let blk = LLVMBuildPhi(b, ity, nm());
        LLVMBuildBr(b, cls);
        // classify: side[j] = the callee's condition at iteration blk + j
        LLVMPositionBuilderAtEnd(b, cls);
        let j = LLVMBuildPhi(b, ity, nm());
        let i = LLVMBuildAdd(b, sh.start, LLVMBuildAdd(b, blk, j, nm()), nm());
        let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        map.insert(sh.iv, i);
        let args: Vec<LLVMValueRef> = (0..LLVMGetNumArgOperands(plan.call)).map(|k| clone_slice(b, LLVMGetOperand(plan.call, k), body, &mut map)).collect();
        let mut fmap: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (k, &a) in args.iter().enumerate() {
            fmap.insert(LLVMGetParam(plan.callee, k as u32), a);
        }
        for &s in &plan.slice {
            let cl = LLVMInstructionClone(s);
            for k in 0..LLVMGetNumOperands(s) as u32 {
                if let Some(&m) = fmap.get(&LLVMGetOperand(s, k)) {
                    LLVMSetOperand(cl, k, m);
                }
            }
            inkwell::llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(cl, loc);
            LLVMInsertIntoBuilder(b, cl);
            fmap.insert(s, cl);
        }
        let side = LLVMBuildZExt(b, fmap[&plan.cond], i32t, nm());
        let mut idx = [c(0), j];
        LLVMBuildStore(b, side, LLVMBuildInBoundsGEP2(b, arr, cbuf, idx.as_mut_ptr(), 2, nm()));
        let j1 = LLVMBuildAdd(b, j, c(1), nm());
        let more = LLVMBuildICmp(b, P::LLVMIntNE, j1, c(bsize), nm());
        let anchor = LLVMBuildCondBr(b, more, cls, compact);
        ir::add_incoming(j, &[(c(0), blk_h), (j1, cls)]);
        // compact: per group of lanes, the slots of its iterations in the
        // permutation (taking the branch: from the front; the others: from
        // the back), then one scatter of their offsets
        LLVMPositionBuilderAtEnd(b, compact);
        let splat = |x: LLVMValueRef| {
            let ins = LLVMBuildInsertElement(b, LLVMGetPoison(vt), x, c32(0), nm());
            LLVMBuildShuffleVector(b, ins, LLVMGetPoison(vt), LLVMConstNull(vt), nm())
        };
        let consts = |g: &dyn Fn(i64) -> i64| {
            let mut v: Vec<LLVMValueRef> = (0..lanes).map(|k| c32(g(k))).collect();
            LLVMConstVector(v.as_mut_ptr(), cx.lanes)
        };
        let iota = consts(&|k| k);
        let bits_ty = LLVMIntTypeInContext(ctx, cx.lanes);
        let blk32 = LLVMBuildIntCast2(b, blk, i32t, 0, nm());
        let all = cx.splat_const(LLVMConstInt(cx.i1(), 1, 0));
        // Each group's slots (all loads before the first scatter: the
        // backend cannot tell the two buffers apart), then the scatters.
        let (mut nt, mut nf) = (c32(0), c32(0));
        let mut scatters = Vec::new();
        for g in 0..GROUPS as i64 {
            let mut idx = [c(0), c(g * lanes)];
            let at = LLVMBuildInBoundsGEP2(b, arr, cbuf, idx.as_mut_ptr(), 2, nm());
            let sv = LLVMBuildLoad2(b, vt, at, nm());
            LLVMSetAlignment(sv, 4 * cx.lanes);
            let taken = LLVMBuildICmp(b, P::LLVMIntNE, sv, LLVMConstNull(vt), nm());
            let bits = LLVMBuildZExt(b, LLVMBuildBitCast(b, taken, bits_ty, nm()), i32t, nm());
            let rank = popcount(cx, b, LLVMBuildAnd(b, splat(bits), below, nm()));
            let count = super::widen::intrinsic(cx, b, "llvm.ctpop", &[i32t], &[bits]);
            // Taking it: slot nt + rank; not: bsize-1-nf-(lane-rank).
            let back = LLVMBuildSub(b, splat(LLVMBuildSub(b, c32(bsize - 1), nf, nm())), iota, nm());
            let slot = LLVMBuildAdd(b, LLVMBuildSelect(b, taken, splat(nt), back, nm()), rank, nm());
            let mut z = [slot];
            let ptrs = LLVMBuildInBoundsGEP2(b, i32t, perm, z.as_mut_ptr(), 1, nm());
            let offs = LLVMBuildAdd(b, splat(LLVMBuildAdd(b, blk32, c32(g * lanes), nm())), iota, nm());
            scatters.push((offs, ptrs));
            nt = LLVMBuildAdd(b, nt, count, nm());
            nf = LLVMBuildSub(b, LLVMBuildAdd(b, nf, c32(lanes), nm()), count, nm());
        }
        for (offs, ptrs) in scatters {
            super::widen::intrinsic(cx, b, "llvm.masked.scatter", &[vt, LLVMTypeOf(ptrs)], &[offs, ptrs, c32(4), all]);
        }
        LLVMBuildBr(b, perm_ph);
        // the loop over the permutation: the original body at start + perm[k]
        LLVMPositionBuilderAtEnd(b, perm_ph);
        LLVMBuildBr(b, perm_l);
        LLVMPositionBuilderAtEnd(b, perm_l);
        let k = LLVMBuildPhi(b, ity, nm());
        let mut idx = [c(0), k];
        let p = LLVMBuildLoad2(b, i32t, LLVMBuildInBoundsGEP2(b, arr, perm, idx.as_mut_ptr(), 2, nm()), nm());
        let i2 = LLVMBuildAdd(b, sh.start, LLVMBuildIntCast2(b, p, ity, 0, nm()), nm());
        let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        map.insert(sh.iv, i2);
        let exit_test = LLVMGetCondition(LLVMGetBasicBlockTerminator(body));
        for inst in ir::instructions(body) {
            if ir::opcode(inst) == O::LLVMPHI || !LLVMIsATerminatorInst(inst).is_null() || inst == exit_test || inst == sh.next {
                continue;
            }
            let cl = LLVMInstructionClone(inst);
            for q in 0..LLVMGetNumOperands(inst) as u32 {
                if let Some(&m) = map.get(&LLVMGetOperand(inst, q)) {
                    LLVMSetOperand(cl, q, m);
                }
            }
            LLVMInsertIntoBuilder(b, cl);
            map.insert(inst, cl);
        }
        LLVMSetCurrentDebugLocation2(b, inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(l.latches[0]));
        let k1 = LLVMBuildAdd(b, k, c(1), nm());
        let more = LLVMBuildICmp(b, P::LLVMIntNE, k1, c(bsize), nm());
        let term = LLVMBuildCondBr(b, more, perm_l, next_b);
        ir::add_incoming(k, &[(c(0), perm_ph), (k1, perm_l)]);
        // the next block
        LLVMPositionBuilderAtEnd(b, next_b);
        let blk1 = LLVMBuildAdd(b, blk, c(bsize), nm());
        let more = LLVMBuildICmp(b, P::LLVMIntNE, blk1, nb, nm());
        LLVMBuildCondBr(b, more, blk_h, rest);
        ir::add_incoming(blk, &[(c(0), check), (blk1, next_b)]);
        // the rest in the original loop, from start + nb
        LLVMPositionBuilderAtEnd(b, rest);
        let start2 = LLVMBuildAdd(b, sh.start, nb, nm());
        let done = LLVMBuildICmp(b, P::LLVMIntEQ, nb, tc, nm());
        LLVMBuildCondBr(b, done, sh.exit, rest_ph);
        LLVMPositionBuilderAtEnd(b, rest_ph);
        LLVMBuildBr(b, body);
        LLVMPositionBuilderBefore(b, sh.iv);
        let iv = LLVMBuildPhi(b, ity, nm());
        ir::add_incoming(iv, &[(start2, rest_ph), (sh.next, body)]);
        LLVMReplaceAllUsesWith(sh.iv, iv);
        LLVMInstructionEraseFromParent(sh.iv);
        LLVMDisposeBuilder(b);
        (term, anchor)
    }
}

/// The population count of each lane of `x` (below 2^lanes), in vector
/// operations every machine has (a SWAR count: the machines have no vector
/// population count).
fn popcount(cx: &Cx, b: LLVMBuilderRef, x: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        let k = |v: u64| cx.splat_const(LLVMConstInt(cx.i32(), v, 0));
        let x = LLVMBuildSub(b, x, LLVMBuildAnd(b, LLVMBuildLShr(b, x, k(1), nm()), k(0x5555_5555), nm()), nm());
        let x = LLVMBuildAdd(b, LLVMBuildAnd(b, x, k(0x3333_3333), nm()), LLVMBuildAnd(b, LLVMBuildLShr(b, x, k(2), nm()), k(0x3333_3333), nm()), nm());
        let x = LLVMBuildAnd(b, LLVMBuildAdd(b, x, LLVMBuildLShr(b, x, k(4), nm()), nm()), k(0x0f0f_0f0f), nm());
        let x = LLVMBuildAdd(b, x, LLVMBuildLShr(b, x, k(8), nm()), nm());
        let x = if cx.lanes > 16 { LLVMBuildAdd(b, x, LLVMBuildLShr(b, x, k(16), nm()), nm()) } else { x };
        LLVMBuildAnd(b, x, k(0x3f), nm())
    }
}

/// Clones into `b` the instructions of `body` that `v` depends on (mapped
/// through `map`, which gets the clones); `v`'s value there.
fn clone_slice(b: LLVMBuilderRef, v: LLVMValueRef, body: LLVMBasicBlockRef, map: &mut HashMap<LLVMValueRef, LLVMValueRef>) -> LLVMValueRef {
    if let Some(&m) = map.get(&v) {
        return m;
    }
    unsafe {
        if LLVMIsAInstruction(v).is_null() || LLVMGetInstructionParent(v) != body {
            return v;
        }
        let ops: Vec<LLVMValueRef> = (0..LLVMGetNumOperands(v) as u32).map(|k| clone_slice(b, LLVMGetOperand(v, k), body, map)).collect();
        let cl = LLVMInstructionClone(v);
        for (k, o) in ops.into_iter().enumerate() {
            LLVMSetOperand(cl, k as u32, o);
        }
        LLVMInsertIntoBuilder(b, cl);
        map.insert(v, cl);
        cl
    }
}

//! `dsp-masked-tail`: the remainder of a vectorized loop as one masked
//! vector iteration instead of LLVM's scalar epilogue loop.
//!
//! LLVM's loop vectorizer leaves (for a loop it vectorized with a scalar
//! epilogue, one vector per iteration):
//!
//! ```text
//! B:  (the vector body, a single block marked llvm.loop.isvectorized)
//!     %index = phi [0, %ph], [%index.next, %B]   ; other header phis: vectors
//!     …vector loads, arithmetic, vector stores…
//!     %index.next = add %index, VF
//!     br (icmp eq %index.next, %n.vec), %M, %B
//! M:  (the middle block)  [reductions of B's vectors]
//!     br (icmp eq %N, %n.vec), %exit, %scalar.ph
//! ```
//!
//! This pass puts one more copy of B's body between B and M, executed once
//! with `%index = %n.vec` and the lane mask `n.vec + i < N`: its vector loads
//! become `llvm.masked.load` (inactive lanes read no memory), its stores
//! `llvm.masked.store`, and the vectors a reduction carries keep their old
//! value in inactive lanes (a select). M then always goes to the exit; the
//! scalar loop only runs when the vectorizer's minimum-iterations check
//! bypasses the vector loop (N < VF).
//!
//! Only loops whose every step can run on inactive lanes harmlessly are
//! rewritten: vector memory accesses of 32-bit elements (the machine's lane
//! width; isel lowers their masked forms to `vloadm`/`vstorem`) or of 8- and
//! 16-bit elements extended right after the load or truncated right before
//! the store (when the machine has such masked accesses), arithmetic
//! without integer division, compares, selects, casts, splats (no other
//! shuffles: lane i must stay iteration n.vec + i), GEPs and
//! side-effect-free intrinsics; vector header phis other than the index;
//! and a middle block with nothing but the reductions and the branch.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};

use isa_tablegen::{Machine, SemOp, Ty};

use crate::caps::Caps;
use crate::ir::{blocks, called_intrinsic, const_u64, defined_functions, instructions, opcode, users, Builder};

/// Intrinsics a masked tail may compute on inactive lanes.
const PURE_INTRINSICS: &[&str] = &[
    "llvm.fmuladd.", "llvm.fma.", "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs.", "llvm.fabs.",
    "llvm.minnum.", "llvm.maxnum.", "llvm.sqrt.",
];

/// A vectorized loop this pass rewrites.
struct Plan {
    body: LLVMBasicBlockRef,
    middle: LLVMBasicBlockRef,
    exit: LLVMBasicBlockRef,
    scalar_ph: LLVMBasicBlockRef,
    n_vec: LLVMValueRef,
    n: LLVMValueRef,
    cmp_n: LLVMValueRef,
    /// Lanes of each vector (the vectorization factor, also the index step).
    vf: u32,
}

/// Rewrites every vectorized loop it can; true when anything changed.
pub fn run(m: LLVMModuleRef, caps: &Caps) -> bool {
    if caps.m.vector_lanes(32).is_none() {
        return false;
    }
    // Canonical loops (dedicated exits): the same shape whether or not
    // dsp-outer-vec ran before.
    let mut changed = crate::loops::run(m);
    for f in defined_functions(m) {
        for b in blocks(f) {
            if let Some(plan) = plan(b, caps.m) {
                apply(m, &plan);
                changed = true;
            }
        }
    }
    changed
}

fn block_of(v: LLVMValueRef) -> Option<LLVMBasicBlockRef> {
    unsafe { (!LLVMIsAInstruction(v).is_null()).then(|| LLVMGetInstructionParent(v)) }
}

fn operands(i: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe { (0..LLVMGetNumOperands(i) as u32).map(|k| LLVMGetOperand(i, k)).collect() }
}

fn is_phi(i: LLVMValueRef) -> bool {
    opcode(i) == LLVMOpcode::LLVMPHI
}

/// Lanes of a vector type, or None.
fn vec_lanes(t: LLVMTypeRef) -> Option<(u32, LLVMTypeRef)> {
    unsafe {
        (LLVMGetTypeKind(t) == LLVMTypeKind::LLVMVectorTypeKind).then(|| (LLVMGetVectorSize(t), LLVMGetElementType(t)))
    }
}

fn elem_bits(e: LLVMTypeRef) -> u32 {
    unsafe {
        match LLVMGetTypeKind(e) {
            LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(e),
            LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMPointerTypeKind => 32,
            _ => 0,
        }
    }
}

/// Whether the branch carries `llvm.loop` metadata saying the loop was vectorized.
fn marked_vectorized(br: LLVMValueRef) -> bool {
    unsafe {
        let kind = LLVMGetMDKindID(c"llvm.loop".as_ptr(), 9);
        let md = LLVMGetMetadata(br, kind);
        if md.is_null() {
            return false;
        }
        let n = LLVMGetMDNodeNumOperands(md) as usize;
        let mut ops = vec![std::ptr::null_mut(); n];
        LLVMGetMDNodeOperands(md, ops.as_mut_ptr());
        ops.iter().any(|&o| {
            if o.is_null() || LLVMIsAMDNode(o).is_null() {
                return false;
            }
            let k = LLVMGetMDNodeNumOperands(o) as usize;
            let mut inner = vec![std::ptr::null_mut(); k];
            LLVMGetMDNodeOperands(o, inner.as_mut_ptr());
            inner.first().is_some_and(|&s| {
                if s.is_null() {
                    return false;
                }
                let mut len = 0;
                let p = LLVMGetMDString(s, &mut len);
                !p.is_null() && std::slice::from_raw_parts(p as *const u8, len as usize) == b"llvm.loop.isvectorized"
            })
        })
    }
}

/// An `icmp eq a, b` (or `ne` when `ne`), as its two operands.
fn icmp_pair(c: LLVMValueRef, ne: bool) -> Option<(LLVMValueRef, LLVMValueRef)> {
    unsafe {
        if LLVMIsAICmpInst(c).is_null() {
            return None;
        }
        let want = if ne { LLVMIntPredicate::LLVMIntNE } else { LLVMIntPredicate::LLVMIntEQ };
        (LLVMGetICmpPredicate(c) == want).then(|| (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1)))
    }
}

fn plan(body: LLVMBasicBlockRef, machine: &Machine) -> Option<Plan> {
    let machine_lanes = machine.vector_lanes(32)?;
    unsafe {
        let br = LLVMGetBasicBlockTerminator(body);
        if br.is_null() || LLVMIsConditional(br) == 0 || !marked_vectorized(br) {
            return None;
        }
        let (s0, s1) = (LLVMGetSuccessor(br, 0), LLVMGetSuccessor(br, 1));
        let (middle, ne) = match (s0 == body, s1 == body) {
            (false, true) => (s0, false),
            (true, false) => (s1, true),
            _ => return None,
        };
        let (a, b) = icmp_pair(LLVMGetCondition(br), ne)?;
        // index.next = add index, VF with index a header phi [_, pre], [index.next, B].
        let (index_next, n_vec) = if block_of(a) == Some(body) { (a, b) } else { (b, a) };
        if block_of(n_vec) == Some(body) || opcode(index_next) != LLVMOpcode::LLVMAdd {
            return None;
        }
        let index = LLVMGetOperand(index_next, 0);
        let step = const_u64(LLVMGetOperand(index_next, 1))? as u32;
        if !is_phi_in(index, body) || step < 2 {
            return None;
        }
        // The vectorization factor: the lanes of the first vector access; the
        // step is VF times the interleave count.
        let vf = instructions(body).into_iter().find_map(|i| match opcode(i) {
            LLVMOpcode::LLVMLoad => vec_lanes(LLVMTypeOf(i)).map(|l| l.0),
            LLVMOpcode::LLVMStore => vec_lanes(LLVMTypeOf(LLVMGetOperand(i, 0))).map(|l| l.0),
            _ => None,
        })?;
        // One vector per iteration: with an interleaved body, which lanes an
        // access covers cannot be told from its address alone (x[i + VF] of
        // the first part and x[i] of the second look alike), so the lane
        // mask of each access would be a guess.
        if vf < 2 || step != vf || vf % machine_lanes != 0 {
            return None;
        }
        // Header phis: the index, and vectors of VF lanes.
        for i in instructions(body).into_iter().take_while(|&i| is_phi(i)) {
            if i != index && vec_lanes(LLVMTypeOf(i)).is_none_or(|(l, _)| l != vf) {
                return None;
            }
        }
        if LLVMCountIncoming(index) != 2 || crate::ir::incoming_from(index, body) != Some(index_next) {
            return None;
        }
        // The body: only operations safe on inactive lanes.
        for i in instructions(body) {
            if is_phi(i) || i == br {
                continue;
            }
            if !safe_in_tail(i, vf, machine) || !in_lane_order(i, index, body) {
                return None;
            }

        }
        // The middle block: reductions, the trip-count compare and its branch.
        let mbr = LLVMGetBasicBlockTerminator(middle);
        if mbr.is_null() || LLVMIsConditional(mbr) == 0 || single_pred(middle) != Some(body) {
            return None;
        }
        let cmp_n = LLVMGetCondition(mbr);
        let (x, y) = icmp_pair(cmp_n, false)?;
        let n = if x == n_vec { y } else if y == n_vec { x } else { return None };
        // (The compare may have been hoisted out of an outer loop.)
        if LLVMTypeOf(n) != LLVMTypeOf(index) || elem_bits(LLVMTypeOf(n)) != 32 {
            return None;
        }
        let (exit, scalar_ph) = (LLVMGetSuccessor(mbr, 0), LLVMGetSuccessor(mbr, 1));
        for i in instructions(middle) {
            if i == mbr || i == cmp_n {
                continue;
            }
            let reduction = called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.vector.reduce."))
                && operands(i).iter().all(|&o| block_of(o) != Some(body) || carried(o, body));
            let lcssa = is_phi(i) && LLVMCountIncoming(i) == 1 && carried(LLVMGetIncomingValue(i, 0), body);
            if !(reduction || lcssa) {
                return None;
            }
        }
        // Values of the body are used in the body or by those middle instructions only.
        for i in instructions(body) {
            for u in users(i) {
                let ub = block_of(u);
                if ub != Some(body) && ub != Some(middle) {
                    return None;
                }
            }
        }
        if exit == body || scalar_ph == body {
            return None;
        }
        Some(Plan { body, middle, exit, scalar_ph, n_vec, n, cmp_n, vf })
    }
}

fn is_phi_in(v: LLVMValueRef, b: LLVMBasicBlockRef) -> bool {
    block_of(v) == Some(b) && is_phi(v)
}

fn single_pred(b: LLVMBasicBlockRef) -> Option<LLVMBasicBlockRef> {
    let mut preds: Vec<LLVMBasicBlockRef> = Vec::new();
    unsafe {
        for u in users(LLVMBasicBlockAsValue(b)) {
            if !LLVMIsATerminatorInst(u).is_null() {
                let p = LLVMGetInstructionParent(u);
                if !preds.contains(&p) {
                    preds.push(p);
                }
            }
        }
    }
    (preds.len() == 1).then(|| preds[0])
}

/// Whether `v` is the value a vector header phi of `body` carries around the loop.
fn carried(v: LLVMValueRef, body: LLVMBasicBlockRef) -> bool {
    header_phi_carrying(v, body).is_some()
}

fn header_phi_carrying(v: LLVMValueRef, body: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    instructions(body)
        .into_iter()
        .take_while(|&i| is_phi(i))
        .find(|&p| unsafe { vec_lanes(LLVMTypeOf(p)).is_some() } && crate::ir::incoming_from(p, body) == Some(v))
}

/// Whether a vector load or store `i` of the body (anything else: true)
/// reaches iteration `index + k`'s element with lane k: its address advances
/// with the index by exactly one element. A reversed access whose lane
/// shuffles InstCombine cancelled (`sub C, index`) has lanes in memory
/// order and iterations in the opposite one: its mask would be backwards.
fn in_lane_order(i: LLVMValueRef, index: LLVMValueRef, body: LLVMBasicBlockRef) -> bool {
    unsafe {
        let (ptr, t) = match opcode(i) {
            LLVMOpcode::LLVMLoad => (LLVMGetOperand(i, 0), LLVMTypeOf(i)),
            LLVMOpcode::LLVMStore => (LLVMGetOperand(i, 1), LLVMTypeOf(LLVMGetOperand(i, 0))),
            _ => return true,
        };
        let Some((_, e)) = vec_lanes(t) else { return true };
        let m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(body));
        let size = inkwell::llvm_sys::target::LLVMABISizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m), e) as i64;
        pointer_step(ptr, index, body, m, 0) == Some(size)
    }
}

/// The bytes pointer `p` advances per unit of `index` (0: fixed in the loop),
/// if its address is affine in it.
fn pointer_step(p: LLVMValueRef, index: LLVMValueRef, body: LLVMBasicBlockRef, m: LLVMModuleRef, depth: u32) -> Option<i64> {
    use crate::wfv::attrs::{gep_scales, GepIndex};
    unsafe {
        if block_of(p) != Some(body) {
            return Some(0);
        }
        if depth > 8 || opcode(p) != LLVMOpcode::LLVMGetElementPtr {
            return None;
        }
        let mut step = pointer_step(LLVMGetOperand(p, 0), index, body, m, depth + 1)?;
        for (k, g) in gep_scales(m, p).into_iter().enumerate() {
            let scale = match g {
                GepIndex::Scale(s) => s,
                GepIndex::Field(_) => continue,
                GepIndex::Unknown => return None,
            };
            step = step.checked_add(int_step(LLVMGetOperand(p, k as u32 + 1), index, body, depth + 1)?.checked_mul(scale)?)?;
        }
        Some(step)
    }
}

/// The coefficient of `index` in the integer `v`, if `v` is affine in it.
fn int_step(v: LLVMValueRef, index: LLVMValueRef, body: LLVMBasicBlockRef, depth: u32) -> Option<i64> {
    use LLVMOpcode::*;
    unsafe {
        if v == index {
            return Some(1);
        }
        if block_of(v) != Some(body) {
            return Some(0);
        }
        if depth > 8 {
            return None;
        }
        let a = |k: u32| int_step(LLVMGetOperand(v, k), index, body, depth + 1);
        let c = |k: u32| const_u64(LLVMGetOperand(v, k)).map(|x| x as i64);
        match opcode(v) {
            LLVMAdd => a(0)?.checked_add(a(1)?),
            LLVMSub => a(0)?.checked_sub(a(1)?),
            LLVMMul => match (c(0), c(1)) {
                (_, Some(k)) => a(0)?.checked_mul(k),
                (Some(k), _) => a(1)?.checked_mul(k),
                _ => None,
            },
            LLVMShl => c(1).filter(|&k| k < 31).and_then(|k| a(0)?.checked_mul(1 << k)),
            LLVMSExt | LLVMZExt => a(0),
            _ => None,
        }
    }
}

/// Whether instruction `i` of the body may run on inactive lanes (after its
/// loads and stores become masked).
fn safe_in_tail(i: LLVMValueRef, step: u32, m: &Machine) -> bool {
    use LLVMOpcode::*;
    unsafe {
        let vector_of = |t: LLVMTypeRef, bits: u32| vec_lanes(t).is_some_and(|(l, e)| l == step && elem_bits(e) == bits);
        let vector_of_32 = |t: LLVMTypeRef| vector_of(t, 32);
        // 8- and 16-bit elements: widened right after the load, or narrowed
        // right before the store, with the machine's narrow masked access
        // (what isel can select).
        let narrow = |t: LLVMTypeRef| {
            vec_lanes(t).filter(|&(l, _)| l == step).map(|(_, e)| elem_bits(e)).filter(|&b| b == 8 || b == 16)
        };
        let has = |op: SemOp, bits: u32, signed: bool| {
            let want = match (bits, signed) {
                (8, true) => Ty::I8,
                (8, false) => Ty::U8,
                (16, true) => Ty::I16,
                _ => Ty::U16,
            };
            m.instrs.iter().any(|ins| ins.sem.op == op && ins.sem.ty == Some(want))
        };
        match opcode(i) {
            LLVMLoad if LLVMGetVolatile(i) != 0 => false,
            LLVMStore if LLVMGetVolatile(i) != 0 => false,
            LLVMLoad => {
                let t = LLVMTypeOf(i);
                if vector_of_32(t) {
                    return true;
                }
                let us = users(i);
                let (Some(bits), [u]) = (narrow(t), us.as_slice()) else { return false };
                let u = *u;
                let signed = opcode(u) == LLVMSExt;
                (signed || opcode(u) == LLVMZExt) && vector_of_32(LLVMTypeOf(u)) && has(SemOp::VLoadM, bits, signed)
            }
            LLVMStore => {
                let v = LLVMGetOperand(i, 0);
                if vector_of_32(LLVMTypeOf(v)) {
                    return true;
                }
                let Some(bits) = narrow(LLVMTypeOf(v)) else { return false };
                opcode_of(v) == Some(LLVMTrunc)
                    && users(v).len() == 1
                    && vector_of_32(LLVMTypeOf(LLVMGetOperand(v, 0)))
                    && (has(SemOp::VStoreM, bits, true) || has(SemOp::VStoreM, bits, false))
            }
            LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem => false,
            LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMFAdd | LLVMFSub
            | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMICmp | LLVMFCmp | LLVMSelect | LLVMTrunc | LLVMZExt | LLVMSExt
            | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc | LLVMFPExt | LLVMPtrToInt | LLVMIntToPtr
            | LLVMBitCast | LLVMGetElementPtr | LLVMFreeze => true,
            // Lane i must stay iteration n.vec + i: no lane moves (a reversed
            // or strided access shuffles its lanes), only splats — a scalar
            // put in lane 0 of an undefined vector and broadcast.
            LLVMInsertElement => {
                LLVMIsUndef(LLVMGetOperand(i, 0)) != 0 && const_u64(LLVMGetOperand(i, 2)) == Some(0)
            }
            LLVMShuffleVector => (0..LLVMGetNumMaskElements(i)).all(|k| {
                let e = LLVMGetMaskValue(i, k);
                e == 0 || e == LLVMGetUndefMaskElem()
            }),
            LLVMCall => called_intrinsic(i).is_some_and(|n| PURE_INTRINSICS.iter().any(|p| n.starts_with(p))),
            _ => false,
        }
    }
}

/// The opcode of `v` if it is an instruction.
fn opcode_of(v: LLVMValueRef) -> Option<LLVMOpcode> {
    block_of(v).map(|_| opcode(v))
}

fn apply(m: LLVMModuleRef, p: &Plan) {
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let f = LLVMGetBasicBlockParent(p.body);
        let tail = LLVMAppendBasicBlockInContext(ctx, f, c"masked.tail".as_ptr());
        let br = LLVMGetBasicBlockTerminator(p.body);
        let mbr = LLVMGetBasicBlockTerminator(p.middle);
        // Without reductions, the tail replaces the scalar loop on the middle
        // block's "elements left" edge; with them, it runs after every
        // vector loop (with no lane active when nothing is left), so that
        // the middle block reduces what it carried.
        let reductions = instructions(p.middle).into_iter().any(|i| i != mbr && i != p.cmp_n);
        if reductions {
            LLVMMoveBasicBlockAfter(tail, p.body);
            for k in 0..LLVMGetNumSuccessors(br) {
                if LLVMGetSuccessor(br, k) == p.middle {
                    LLVMSetSuccessor(br, k, tail);
                }
            }
        } else {
            LLVMMoveBasicBlockAfter(tail, p.middle);
            LLVMSetSuccessor(mbr, 1, tail);
            for phi in instructions(p.exit).into_iter().take_while(|&i| is_phi(i)) {
                if let Some(v) = crate::ir::incoming_from(phi, p.middle) {
                    let (mut vs, mut bs) = ([v], [tail]);
                    LLVMAddIncoming(phi, vs.as_mut_ptr(), bs.as_mut_ptr(), 1);
                }
            }
        }
        let b = Builder::at_end(tail);
        let i32t = LLVMTypeOf(p.n);
        let vt = LLVMVectorType(i32t, p.vf);
        let splat = |x: LLVMValueRef| {
            let ins = LLVMBuildInsertElement(b.raw(), LLVMGetPoison(vt), x, LLVMConstInt(i32t, 0, 0), c"".as_ptr());
            LLVMBuildShuffleVector(b.raw(), ins, LLVMGetPoison(vt), LLVMConstNull(vt), c"".as_ptr())
        };
        // Lane i runs iteration n.vec + i, if that is below N.
        let mut lanes: Vec<LLVMValueRef> = (0..p.vf).map(|k| LLVMConstInt(i32t, k as u64, 0)).collect();
        let iota = LLVMConstVector(lanes.as_mut_ptr(), p.vf);
        let idx = LLVMBuildAdd(b.raw(), splat(p.n_vec), iota, c"".as_ptr());
        let mask = LLVMBuildICmp(b.raw(), LLVMIntPredicate::LLVMIntULT, idx, splat(p.n), c"tail.mask".as_ptr());
        // Header phis take the values the last full iteration carried; the
        // index's is n.vec itself (the loop left when index.next == n.vec),
        // so that nothing of the loop's own index lives past it (loop
        // strength reduction can then walk pointers alone).
        let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        let insts = instructions(p.body);
        let latch_cond = LLVMGetCondition(br);
        let compared = [LLVMGetOperand(latch_cond, 0), LLVMGetOperand(latch_cond, 1)];
        // Short trip counts (N < VF) reach the tail too, past the vector
        // loop: the header phis then take their initial values.
        let short = if reductions { None } else { short_trips(p) };
        let mut tail_in: Vec<LLVMValueRef> = Vec::new();
        for &i in insts.iter().take_while(|&&i| is_phi(i)) {
            let carried = crate::ir::incoming_from(i, p.body).expect("checked");
            let is_index_next = compared.contains(&carried) && compared.contains(&p.n_vec) && carried != p.n_vec;
            let v = match short {
                _ if is_index_next => p.n_vec,
                Some(s) => {
                    let init = crate::ir::incoming_from(i, s.vector_ph).expect("checked");
                    let mb = Builder::at_start(p.middle);
                    let phi = mb.phi(LLVMTypeOf(i), "tail.in");
                    let (mut vs, mut bs) = ([carried, init], [p.body, s.vector_ph]);
                    LLVMAddIncoming(phi, vs.as_mut_ptr(), bs.as_mut_ptr(), 2);
                    tail_in.push(phi);
                    phi
                }
                None => carried,
            };
            map.insert(i, v);
        }
        if let Some(s) = short {
            s.commit(p);
        }
        let i32 = LLVMInt32TypeInContext(ctx);
        let remap = |v: LLVMValueRef, map: &HashMap<LLVMValueRef, LLVMValueRef>| *map.get(&v).unwrap_or(&v);
        let exit_cond = LLVMGetCondition(br);
        for &i in &insts {
            if is_phi(i) || i == br || (i == exit_cond && users(i).len() == 1) {
                continue;
            }
            let new = match opcode(i) {
                LLVMOpcode::LLVMLoad => {
                    let t = LLVMTypeOf(i);
                    let ptr = remap(LLVMGetOperand(i, 0), &map);
                    let align = LLVMConstInt(i32, LLVMGetAlignment(i).max(1) as u64, 0);
                    b.call_intrinsic(m, "llvm.masked.load", &[t, LLVMTypeOf(ptr)], &[ptr, align, mask, LLVMGetPoison(t)])
                        .expect("llvm.masked.load exists")
                }
                LLVMOpcode::LLVMStore => {
                    let v = remap(LLVMGetOperand(i, 0), &map);
                    let ptr = remap(LLVMGetOperand(i, 1), &map);
                    let align = LLVMConstInt(i32, LLVMGetAlignment(i).max(1) as u64, 0);
                    b.call_intrinsic(m, "llvm.masked.store", &[LLVMTypeOf(v), LLVMTypeOf(ptr)], &[v, ptr, align, mask])
                        .expect("llvm.masked.store exists")
                }
                _ => {
                    let c = LLVMInstructionClone(i);
                    LLVMInsertIntoBuilder(b.raw(), c);
                    for k in 0..LLVMGetNumOperands(c) as u32 {
                        let o = LLVMGetOperand(c, k);
                        if let Some(&x) = map.get(&o) {
                            LLVMSetOperand(c, k, x);
                        }
                    }
                    c
                }
            };
            map.insert(i, new);
        }
        // What the middle block reads of the body: the carried vectors, kept
        // in the inactive lanes.
        let mut tail_of: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for i in instructions(p.middle).into_iter().filter(|i| !tail_in.contains(i)) {
            for (k, o) in operands(i).into_iter().enumerate() {
                if block_of(o) != Some(p.body) {
                    continue;
                }
                let t = *tail_of
                    .entry(o)
                    .or_insert_with(|| LLVMBuildSelect(b.raw(), mask, map[&o], o, c"tail.keep".as_ptr()));
                if is_phi(i) {
                    LLVMReplaceAllUsesWith(i, t);
                } else {
                    LLVMSetOperand(i, k as u32, t);
                }
            }
        }
        if !reductions {
            LLVMBuildBr(b.raw(), p.exit);
            drop_incoming(p.scalar_ph, p.middle);
            return;
        }
        LLVMBuildBr(b.raw(), p.middle);
        for i in instructions(p.middle) {
            if is_phi(i) {
                LLVMInstructionEraseFromParent(i);
            }
        }
        // The middle block always leaves for the exit now.
        let mb = Builder::before(mbr);
        LLVMBuildBr(mb.raw(), p.exit);
        LLVMInstructionEraseFromParent(mbr);
        if users(p.cmp_n).is_empty() {
            LLVMInstructionEraseFromParent(p.cmp_n);
        }
        drop_incoming(p.scalar_ph, p.middle);
    }
}

/// The blocks that let a trip count below the vectorization factor run as
/// the masked tail alone: the minimum-iterations check that sends such
/// loops to the scalar loop (`br (icmp ult N, VF), scalar.ph, …`) and the
/// vector loop's preheader.
#[derive(Clone, Copy)]
struct ShortTrips {
    check: LLVMValueRef,
    vector_ph: LLVMBasicBlockRef,
}

fn short_trips(p: &Plan) -> Option<ShortTrips> {
    unsafe {
        let index = instructions(p.body).into_iter().take_while(|&i| is_phi(i)).find(|&i| {
            let c = LLVMGetCondition(LLVMGetBasicBlockTerminator(p.body));
            operands(c).iter().any(|&o| opcode_of(o) == Some(LLVMOpcode::LLVMAdd) && LLVMGetOperand(o, 0) == i)
        })?;
        if LLVMCountIncoming(index) != 2 {
            return None;
        }
        let vector_ph = (0..2).map(|k| LLVMGetIncomingBlock(index, k)).find(|&b| b != p.body)?;
        let t = LLVMGetBasicBlockTerminator(vector_ph);
        if LLVMIsConditional(t) != 0 || LLVMGetSuccessor(t, 0) != p.body {
            return None;
        }
        // The check: a predecessor of scalar.ph branching there on N < VF.
        let check = users(LLVMBasicBlockAsValue(p.scalar_ph)).into_iter().find(|&u| {
            if LLVMIsABranchInst(u).is_null() || LLVMIsConditional(u) == 0 || LLVMGetSuccessor(u, 0) != p.scalar_ph {
                return false;
            }
            let c = LLVMGetCondition(u);
            !LLVMIsAICmpInst(c).is_null()
                && LLVMGetICmpPredicate(c) == LLVMIntPredicate::LLVMIntULT
                && LLVMGetOperand(c, 0) == p.n
                && const_u64(LLVMGetOperand(c, 1)) == Some(p.vf as u64)
        })?;
        Some(ShortTrips { check, vector_ph })
    }
}

impl ShortTrips {
    /// Rewires: the check sends only N = 0 (2^32 iterations) to the scalar
    /// loop; the preheader skips the vector loop when n.vec = 0 (the middle
    /// block then finds N != n.vec and runs the tail).
    fn commit(self, p: &Plan) {
        unsafe {
            let b = Builder::before(self.check);
            let zero = LLVMConstInt(LLVMTypeOf(p.n), 0, 0);
            let none = b.icmp(LLVMIntPredicate::LLVMIntEQ, p.n, zero);
            LLVMSetCondition(self.check, none);
            let t = LLVMGetBasicBlockTerminator(self.vector_ph);
            let b = Builder::before(t);
            let empty = b.icmp(LLVMIntPredicate::LLVMIntEQ, p.n_vec, zero);
            let br = LLVMBuildCondBr(b.raw(), empty, p.middle, p.body);
            let _ = br;
            LLVMInstructionEraseFromParent(t);
        }
    }
}

/// Removes the incoming values from `pred` of the phis of `b` (rebuilding each
/// phi; a phi left without incoming values, in a block now unreachable, is
/// replaced by poison).
fn drop_incoming(b: LLVMBasicBlockRef, pred: LLVMBasicBlockRef) {
    unsafe {
        for phi in instructions(b).into_iter().take_while(|&i| is_phi(i)) {
            let t = LLVMTypeOf(phi);
            let keep: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(phi))
                .filter(|&k| LLVMGetIncomingBlock(phi, k) != pred)
                .map(|k| (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k)))
                .collect();
            let new = if keep.is_empty() {
                LLVMGetPoison(t)
            } else {
                let bld = Builder::before(phi);
                let np = bld.phi(t, "");
                let (mut vs, mut bs): (Vec<_>, Vec<_>) = keep.into_iter().unzip();
                LLVMAddIncoming(np, vs.as_mut_ptr(), bs.as_mut_ptr(), vs.len() as u32);
                np
            };
            LLVMReplaceAllUsesWith(phi, new);
            LLVMInstructionEraseFromParent(phi);
        }
    }
}

#[cfg(test)]
#[path = "tail_tests.rs"]
mod tests;

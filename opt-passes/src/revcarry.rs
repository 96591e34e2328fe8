//! `dsp-reverse-carry`: the reverse-carry increment of a bit-reversal
//! permutation in closed form, the loop around it versioned.
//!
//! The radix-2 FFT's Gold–Rader bit reversal (Gold and Rader, "Digital
//! Processing of Signals", 1969; the form of most textbook C FFTs) counts
//! `j` in bit-reversed order:
//!
//! ```c
//! for (i = 1, j = 0; i < n; i++) {
//!     bit = n >> 1;
//!     for (; j & bit; bit >>= 1) j ^= bit;   /* carry from the top down */
//!     j ^= bit;
//!     if (i < j) swap(x[i], x[j]);
//! }
//! ```
//!
//! The inner loop runs a data-dependent number of times, so the loop around
//! it is never a single block: no if-conversion, no modulo schedule. When
//! `n >> 1` is a power of two or zero, the carry has a closed form (as LLVM's
//! LoopIdiomRecognize turns bit-counting loops into `ctlz`): with `M` the
//! bits the carry walks (`2·(n >> 1) − 1`, or 0),
//!
//! ```text
//! a = j ^ M                       (the walked bits flipped)
//! z = (a & M) | 1                 (the first clear bit from the top, or bit 0)
//! j' = a ^ (SMAX >> ctlz(z))      (bits below it flipped back)
//! ```
//!
//! The bits of `M` from the top down to the first clear one flip, the rest
//! stay; when every bit of `M` is set they all flip (the loop ends with
//! `bit == 0`); with `M == 0` nothing changes. The loop around the inner loop
//! is cloned with the closed form in its place, and its preheader picks the
//! clone when `n >> 1` has at most one bit set, the original otherwise
//! (values of that loop used after it meet in a phi in its one exit).
//!
//! Clang's -O2 IR at the vectorizer-start point (where this runs) has the
//! inner loop rotated, its last `j ^= bit` merged in: one block with two
//! phis, `b' = b >> 1`, `j' = j ^ b'`, leaving when `(j & b') == 0` with
//! `j'`. That shape is matched; only `j'` may be used after the loop.
//! The machine must have a count of leading zeros (the closed form would
//! otherwise cost more than the loop).

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};
use isa_tablegen::SemOp;

use crate::caps::{Caps, Sign};
use crate::cfg::{Cfg, Loop};
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// Runs the pass on every function of `m` (remarks of pass `reverse-carry`).
pub fn run(m: LLVMModuleRef, caps: &Caps) -> (bool, Vec<Remark>) {
    crate::wfv::per_function(m, |f| run_function(f, caps))
}

/// Runs the pass on one function.
pub fn run_function(f: LLVMValueRef, caps: &Caps) -> (bool, Vec<Remark>) {
    let (changed, tried) = crate::loops::rewrite_two_deep_nests(f, looks_like_carry, |cfg, l, j| {
        let carry = match_carry(cfg, l, j)?;
        let shape = ir::shape(unsafe { LLVMTypeOf(carry.j0) }).ok_or("the carried value is not an integer")?;
        if !caps.has(SemOp::Clz, shape, Sign::Any) {
            return Err(format!("the machine has no count of leading zeros for i{}", shape.bits));
        }
        version(f, cfg, l, j, &carry)
    });
    let remarks = tried
        .into_iter()
        .map(|(at, r)| match r {
            Ok(()) => Remark {
                kind: RemarkKind::Passed,
                at,
                name: "ReverseCarry",
                msg: "bit-reversed counter's carry loop replaced by its closed form (count of leading zeros), the loop around it versioned on a power-of-two bit".into(),
            },
            Err(why) => Remark { kind: RemarkKind::Missed, at, name: "NotReverseCarry", msg: format!("carry loop not put in closed form: {why}") },
        })
        .collect();
    (changed, remarks)
}

/// The filter of the nests tried (and so remarked on): the inner loop has
/// the carry's shape ([`carry_shape`]).
fn looks_like_carry(cfg: &Cfg, j: &Loop) -> bool {
    carry_shape(cfg, j).is_ok()
}

/// The matched carry loop.
struct Carry {
    /// The counter's value on entry.
    j0: LLVMValueRef,
    /// The bit's value on entry (`n`: the first bit tested is `n >> 1`).
    n: LLVMValueRef,
    /// The shift of the bit (`lshr` or `ashr` by one).
    shift: O,
    /// `j ^ (b >> 1)`: the value the loop leaves with.
    out: LLVMValueRef,
}

/// Matches the carry loop [`carry_shape`] finds in `jl` when nothing but
/// its result leaves it and its first bit is invariant in `l`.
fn match_carry(cfg: &Cfg, l: &Loop, jl: &Loop) -> Result<Carry, String> {
    let (carry, known) = carry_shape(cfg, jl)?;
    let blk = cfg.blocks[jl.header];
    let insts = ir::instructions(blk);
    // Nothing else in the loop, and only the result is used after it.
    if let Some(&other) = insts.iter().find(|i| !known.contains(i) && !ir::is_debug(**i)) {
        return Err(format!("the inner loop does more ('{}')", ir::value_name(other)));
    }
    for &v in known.iter().filter(|&&v| v != carry.out && unsafe { LLVMIsATerminatorInst(v).is_null() }) {
        if ir::users(v).iter().any(|&u| unsafe { LLVMGetInstructionParent(u) } != blk) {
            return Err("a value of the inner loop other than the counter's last is used after it".into());
        }
    }
    let defined_outside = |v: LLVMValueRef| unsafe { LLVMIsAInstruction(v).is_null() || !l.contains(cfg.index[&LLVMGetInstructionParent(v)]) };
    if !defined_outside(carry.n) {
        return Err("the first bit changes with the loop around the carry".into());
    }
    Ok(carry)
}

/// The carry's shape: `b = phi [n, b']; j = phi [j0, j']; b' = b >> 1;
/// j' = j ^ b'; br ((j & b') == 0), exit, loop` (operand orders either
/// way), with the instructions it is made of.
fn carry_shape(cfg: &Cfg, jl: &Loop) -> Result<(Carry, [LLVMValueRef; 7]), String> {
    let blk = cfg.blocks[jl.header];
    let insts = ir::instructions(blk);
    let phis: Vec<LLVMValueRef> = insts.iter().copied().filter(|&i| ir::opcode(i) == O::LLVMPHI).collect();
    let [p0, p1] = phis[..] else { return Err("the inner loop does not carry exactly two values".into()) };
    let entry_of = |phi: LLVMValueRef| -> Option<(LLVMValueRef, LLVMValueRef)> {
        unsafe {
            if LLVMCountIncoming(phi) != 2 {
                return None;
            }
            let (mut init, mut next) = (None, None);
            for q in 0..2 {
                let (v, from) = (LLVMGetIncomingValue(phi, q), LLVMGetIncomingBlock(phi, q));
                if from == blk {
                    next = Some(v);
                } else {
                    init = Some(v);
                }
            }
            Some((init?, next?))
        }
    };
    let (Some((i0, n0)), Some((i1, n1))) = (entry_of(p0), entry_of(p1)) else {
        return Err("a carried value has not one entry and one back edge".into());
    };
    let op = |v: LLVMValueRef, k: u32| unsafe { LLVMGetOperand(v, k) };
    let is_one = |v: LLVMValueRef| ir::const_u64(v) == Some(1);
    // Which phi is the bit: its next value is itself shifted right by one.
    let shifted = |phi: LLVMValueRef, next: LLVMValueRef| matches!(ir::opcode_of(next), Some(O::LLVMLShr | O::LLVMAShr)) && op(next, 0) == phi && is_one(op(next, 1));
    let ((b, n, bn), (j, j0, jn)) = if shifted(p0, n0) {
        ((p0, i0, n0), (p1, i1, n1))
    } else if shifted(p1, n1) {
        ((p1, i1, n1), (p0, i0, n0))
    } else {
        return Err("no carried value is shifted right by one each iteration".into());
    };
    let _ = b;
    let pair = |v: LLVMValueRef, x: LLVMValueRef, y: LLVMValueRef| (op(v, 0) == x && op(v, 1) == y) || (op(v, 0) == y && op(v, 1) == x);
    if ir::opcode_of(jn) != Some(O::LLVMXor) || !pair(jn, j, bn) {
        return Err("the counter's next value is not the counter xor the shifted bit".into());
    }
    // The exit test: (j & b') == 0 leaves (or != 0 stays).
    let term = unsafe { LLVMGetBasicBlockTerminator(blk) };
    if unsafe { LLVMIsABranchInst(term).is_null() || LLVMIsConditional(term) == 0 } {
        return Err("the inner loop's latch is not a conditional branch".into());
    }
    let cond = unsafe { LLVMGetCondition(term) };
    if ir::opcode_of(cond) != Some(O::LLVMICmp) {
        return Err("the inner loop's exit test is not an integer compare".into());
    }
    let (x, y) = (op(cond, 0), op(cond, 1));
    let masked = if ir::const_u64(y) == Some(0) { x } else if ir::const_u64(x) == Some(0) { y } else { return Err("the exit test does not compare with zero".into()) };
    if ir::opcode_of(masked) != Some(O::LLVMAnd) || !pair(masked, j, bn) {
        return Err("the exit test is not on the counter and the shifted bit".into());
    }
    let stay = unsafe { LLVMGetSuccessor(term, 0) } == blk;
    let leaves_when_zero = match unsafe { LLVMGetICmpPredicate(cond) } {
        P::LLVMIntEQ => !stay,
        P::LLVMIntNE => stay,
        _ => return Err("the exit test is neither == 0 nor != 0".into()),
    };
    if !leaves_when_zero {
        return Err("the loop leaves while the tested bit is set".into());
    }
    Ok((Carry { j0, n, shift: ir::opcode(bn), out: jn }, [p0, p1, bn, jn, masked, cond, term]))
}

/// The bits the carry walks, `walked = n >> 1 == 0 ? 0 : 2·(n >> 1) − 1`,
/// and whether `n >> 1` has at most one bit set (the guard), built at `b`.
unsafe fn walked_and_guard(b: &ir::Builder, c: &Carry) -> (LLVMValueRef, LLVMValueRef) {
    let ty = LLVMTypeOf(c.n);
    let k = |v: u64| ir::const_int(ty, v);
    let h = if c.shift == O::LLVMLShr { b.lshr(c.n, k(1)) } else { b.ashr(c.n, k(1)) };
    let single = b.icmp(P::LLVMIntEQ, b.and(h, b.add(h, ir::all_ones(ty))), k(0));
    let twice = b.add(b.shl(h, k(1)), ir::all_ones(ty));
    let none = b.icmp(P::LLVMIntEQ, h, k(0));
    (b.select(none, k(0), twice), single)
}

/// The closed form of the carry from `j0` over the bits `walked`, built at
/// `b` (see the module documentation).
pub(crate) unsafe fn closed_form(b: &ir::Builder, m: LLVMModuleRef, walked: LLVMValueRef, j0: LLVMValueRef) -> LLVMValueRef {
    let ty = LLVMTypeOf(j0);
    let bits = LLVMGetIntTypeWidth(ty);
    let k = |v: u64| ir::const_int(ty, v);
    let a = b.xor(j0, walked);
    let z = b.or(b.and(a, walked), k(1));
    let t = LLVMInt1TypeInContext(LLVMGetTypeContext(ty));
    let lz = ir::build_intrinsic(m, b.raw(), "llvm.ctlz", &[ty], &[z, LLVMConstInt(t, 1, 0)]).expect("llvm.ctlz exists");
    let below = b.lshr(k(ir::low_mask(bits - 1)), lz);
    b.xor(a, below)
}

/// Clones loop `l` but for the carry loop `jl`, the closed form in its
/// place, and sends `l`'s preheader to the clone when `n >> 1` has at most
/// one bit set.
fn version(f: LLVMValueRef, cfg: &Cfg, l: &Loop, jl: &Loop, c: &Carry) -> Result<Vec<LLVMBasicBlockRef>, String> {
    let jb = cfg.blocks[jl.header];
    let outside: Vec<usize> = cfg.preds[l.header].iter().copied().filter(|&p| !l.contains(p)).collect();
    let [pre] = outside[..] else { return Err("the outer loop has no preheader".into()) };
    let jpre: Vec<usize> = cfg.preds[jl.header].iter().copied().filter(|&p| !jl.contains(p)).collect();
    let [jpre] = jpre[..] else { return Err("the carry loop has no preheader".into()) };
    let jexit: Vec<usize> = cfg.succs[jl.header].iter().copied().filter(|&s| !jl.contains(s)).collect();
    let [jexit] = jexit[..] else { return Err("the carry loop has more than one exit".into()) };
    if cfg.succs[jpre] != [jl.header] || cfg.preds[jexit] != [jl.header] {
        return Err("the carry loop is not in canonical form".into());
    }
    let members: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b) && b != jl.header).collect();
    let mut exits: Vec<usize> = members.iter().flat_map(|&b| cfg.succs[b].iter().copied()).filter(|&s| !l.contains(s)).collect();
    exits.sort();
    exits.dedup();
    unsafe {
        // Values of the loop used after it by anything but the phis of its
        // exits: they get a phi of both versions in the loop's one exit.
        let mut escaping: Vec<(LLVMValueRef, Vec<LLVMValueRef>)> = Vec::new();
        for &b in members.iter().chain([&jl.header]) {
            for i in ir::instructions(cfg.blocks[b]) {
                let outside: Vec<LLVMValueRef> = ir::users(i)
                    .into_iter()
                    .filter(|&u| {
                        let ub = cfg.index[&LLVMGetInstructionParent(u)];
                        !l.contains(ub) && (ir::opcode(u) != O::LLVMPHI || !exits.contains(&ub))
                    })
                    .collect();
                if !outside.is_empty() {
                    escaping.push((i, outside));
                }
            }
        }
        if !escaping.is_empty() && (exits.len() != 1 || cfg.preds[exits[0]].iter().any(|&p| !l.contains(p))) {
            return Err("a value of the outer loop is used after it and the loop has not one dedicated exit".into());
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(f));
        let module = LLVMGetGlobalParent(f);
        // The guard and the walked bits, in the preheader.
        let pre_term = LLVMGetBasicBlockTerminator(cfg.blocks[pre]);
        let (walked, single) = walked_and_guard(&ir::Builder::before(pre_term), c);
        // The clone's blocks, after the original's.
        let mut bmap: HashMap<LLVMBasicBlockRef, LLVMBasicBlockRef> = HashMap::new();
        let last = cfg.blocks[*members.iter().max_by_key(|&&b| cfg.rpo_position(b)).unwrap_or(&l.header)];
        let mut after = last;
        for &b in &members {
            let name = std::ffi::CString::new(format!("{}.cf", crate::loops::block_name(cfg.blocks[b]))).unwrap_or_default();
            let next = LLVMGetNextBasicBlock(after);
            let nb = if next.is_null() { LLVMAppendBasicBlockInContext(ctx, f, name.as_ptr()) } else { LLVMInsertBasicBlockInContext(ctx, next, name.as_ptr()) };
            after = nb;
            bmap.insert(cfg.blocks[b], nb);
        }
        let mut vmap: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        let mut made = Vec::new();
        for &b in &members {
            let nb = bmap[&cfg.blocks[b]];
            let bld = ir::Builder::at_end(nb);
            for i in ir::instructions(cfg.blocks[b]) {
                let x = LLVMInstructionClone(i);
                LLVMInsertIntoBuilder(bld.raw(), x);
                vmap.insert(i, x);
                made.push(x);
            }
        }
        // The closed form at the end of the carry's preheader clone, which
        // then goes straight to the carry's exit clone.
        let jpre_c = bmap[&cfg.blocks[jpre]];
        let jexit_c = bmap[&cfg.blocks[jexit]];
        let old_term = LLVMGetBasicBlockTerminator(jpre_c);
        let bld = ir::Builder::before(old_term);
        let j0 = vmap.get(&c.j0).copied().unwrap_or(c.j0);
        let jn = closed_form(&bld, module, walked, j0);
        bld.br(jexit_c);
        LLVMInstructionEraseFromParent(old_term);
        made.retain(|&x| x != old_term);
        vmap.insert(c.out, jn);
        let bval = |b: LLVMBasicBlockRef| bmap.get(&b).copied().unwrap_or(if b == jb { jpre_c } else { b });
        for &x in &made {
            for q in 0..LLVMGetNumOperands(x) as u32 {
                let v = LLVMGetOperand(x, q);
                if let Some(&nv) = vmap.get(&v) {
                    LLVMSetOperand(x, q, nv);
                }
            }
            if !LLVMIsATerminatorInst(x).is_null() {
                for s in 0..LLVMGetNumSuccessors(x) {
                    LLVMSetSuccessor(x, s, bval(LLVMGetSuccessor(x, s)));
                }
            }
        }
        let mut rebuilt: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for &x in &made {
            if ir::opcode(x) == O::LLVMPHI {
                let entries: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(x))
                    .map(|q| {
                        let v = LLVMGetIncomingValue(x, q);
                        (vmap.get(&v).copied().unwrap_or(v), bval(LLVMGetIncomingBlock(x, q)))
                    })
                    .collect();
                rebuilt.insert(x, ir::rebuild_phi(x, &entries));
            }
        }
        // The rebuilt phis replace (and free) the clones' first ones.
        for nv in vmap.values_mut() {
            if let Some(&r) = rebuilt.get(nv) {
                *nv = r;
            }
        }
        // The exits' phis take the clone's values from its exiting blocks.
        for &e in &exits {
            for phi in ir::instructions(cfg.blocks[e]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI) {
                let extra: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(phi))
                    .filter_map(|q| {
                        let from = LLVMGetIncomingBlock(phi, q);
                        let nb = *bmap.get(&from)?;
                        let v = LLVMGetIncomingValue(phi, q);
                        Some((vmap.get(&v).copied().unwrap_or(v), nb))
                    })
                    .collect();
                ir::add_incoming(phi, &extra);
            }
        }
        if let Some(&e) = exits.first().filter(|_| !escaping.is_empty()) {
            let eb = cfg.blocks[e];
            for (v, users) in &escaping {
                let entries: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = cfg.preds[e]
                    .iter()
                    .flat_map(|&p| {
                        let pb = cfg.blocks[p];
                        [(*v, pb), (vmap.get(v).copied().unwrap_or(*v), bmap[&pb])]
                    })
                    .collect();
                let phi = ir::Builder::at_start(eb).phi(LLVMTypeOf(*v), "");
                ir::add_incoming(phi, &entries);
                for &u in users {
                    for q in 0..LLVMGetNumOperands(u) as u32 {
                        if LLVMGetOperand(u, q) == *v {
                            LLVMSetOperand(u, q, phi);
                        }
                    }
                }
            }
        }
        // The clone when n >> 1 has at most one bit set.
        let bld = ir::Builder::before(pre_term);
        let (hdr, hdr_c) = (cfg.blocks[l.header], bmap[&cfg.blocks[l.header]]);
        LLVMBuildCondBr(bld.raw(), single, hdr_c, hdr);
        LLVMInstructionEraseFromParent(pre_term);
        Ok(members.iter().map(|&b| bmap[&cfg.blocks[b]]).collect())
    }
}

#[cfg(test)]
#[path = "revcarry_tests.rs"]
pub(crate) mod tests;

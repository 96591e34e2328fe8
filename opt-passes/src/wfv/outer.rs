//! Outer-loop vectorization without directives (the pass `dsp-outer-vec`):
//! seed 001's future work, automatic candidates, applied to loop nests
//! LLVM's loop vectorizer leaves scalar. A loop that contains another loop
//! runs `lanes` of its iterations side by side, its whole body vectorized
//! as a `vec-function` loop's is ([`super::vloop`], §3.1): iteration k of
//! a group is lane k, the counter consecutive, loop invariants uniform.
//! The inner loops keep their order per lane, so a strict float reduction
//! (`s += x[i][k] * y[k][j]` over k, which LLVM may not reassociate) runs
//! 16 sums at once, each in source order: exact. What is left after the
//! last whole group runs as one masked step (with `-fmasked-tail`; the
//! pass's parameter `no-tail` keeps the scalar loop for it instead).
//!
//! A loop qualifies when its iterations provably touch disjoint memory
//! ([`independent`]): every object it writes is accessed only at
//! `I + c·iv` with `I` loop invariant and `|c|` at least the access size,
//! the same `c` for every access and the same `I`, or `I`s a whole number
//! of rows apart (a row: `c` times the trip count; the rows unroll-and-jam
//! gives its copies, [`crate::jam`]), and no other object it touches
//! may be the same one (distinct globals and allocas, `noalias`
//! arguments). Calls must not touch memory. Refused, with a remark: bodies
//! that already hold vectors (LLVM vectorized an inner loop), bodies whose
//! branches or inner loop bounds diverge, accesses that would need
//! gathers, loops marked `vectorize(disable)`.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{
    LLVMGetModuleDataLayout, LLVMStoreSizeOfType,
};
use inkwell::llvm_sys::{LLVMOpcode as O, LLVMTypeKind as T};

use super::mask::Cx;
use super::vloop::{self, Goal};
use super::{Remark, RemarkKind};
use crate::caps::Caps;
use crate::addr::{self, Poly};
use crate::cfg::{Cfg, Loop};
use crate::ir;

/// Runs the pass on `m`: whether it changed, and its remarks (pass `outer-vec`).
pub fn run(m: LLVMModuleRef, caps: &Caps, masked_tail: bool) -> (bool, Vec<Remark>) {
    let mut remarks = Vec::new();
    let Some(lanes) = caps.m.vector_lanes(32) else {
        return (false, remarks);
    };
    crate::loops::run(m);
    let mut changed = false;
    for f in ir::defined_functions(m) {
        let mut tried: Vec<LLVMBasicBlockRef> = Vec::new();
        // Innermost candidates first; the CFG is rebuilt after each rewrite.
        // Blocks of vector loops made here: loops around them are not remarked on.
        let mut ours: Vec<LLVMBasicBlockRef> = Vec::new();
        while let Some((header, latch_term, vectors)) = next_candidate(f, &tried, &ours) {
            tried.push(header);
            let missed = |why: String| Remark {
                kind: RemarkKind::Missed,
                at: latch_term,
                name: "OuterLoopNotVectorized",
                msg: format!("outer loop not vectorized: {why}"),
            };
            if vectors {
                remarks.push(missed("its body already holds vectors (an inner loop is vectorized)".into()));
                continue;
            }
            if let Err(why) = independent(m, f, header, false) {
                remarks.push(missed(why));
                continue;
            }
            // An inner loop's recurrence (a carried sum) bounds each group's
            // speed, not the units: INTERLEAVE groups side by side first,
            // then single groups for what is left, then one masked step (or
            // the scalar loop).
            let widths = if inner_recurrence(f, header) { vec![lanes * INTERLEAVE, lanes] } else { vec![lanes] };
            let mut made: Vec<u32> = Vec::new();
            let mut last_err = String::new();
            // The narrowest group ends in one masked step where it can (no
            // scalar loop left), else in the scalar loop.
            let mut masked = false;
            let mut at = latch_term;
            for width in widths {
                let cxw = Cx { lanes: width, ..Cx::for_machine(m, lanes, caps) };
                let goals: &[Goal] = if width == lanes && masked_tail { &[Goal::WholeMasked, Goal::Whole] } else { &[Goal::Whole] };
                for &goal in goals {
                    let nblocks = unsafe { LLVMCountBasicBlocks(f) };
                    match vloop::rewrite(&cxw, f, latch_term, &HashMap::new(), goal) {
                        Ok((_, _, anchor)) => {
                            made.push(width);
                            if goal == Goal::WholeMasked {
                                // The scalar loop, its latch with it, is gone: remark at the new branch.
                                masked = true;
                                at = anchor;
                            }
                            ours.extend(ir::blocks(f).into_iter().skip(nblocks as usize));
                            ir::delete_dead(f);
                            break;
                        }
                        Err(why) => {
                            vloop::discard_blocks_after(f, nblocks);
                            last_err = why;
                        }
                    }
                }
            }
            if made.is_empty() {
                remarks.push(missed(last_err));
                continue;
            }
            changed = true;
            let groups: Vec<String> = made.iter().map(|w| w.to_string()).collect();
            remarks.push(Remark {
                kind: RemarkKind::Passed,
                at,
                name: "OuterLoopVectorized",
                msg: format!(
                    "outer loop vectorized: {} iterations side by side, inner loops in source order per lane, remainder {}",
                    groups.join(", then "),
                    if masked { "in one masked step" } else { "in the scalar loop" }
                ),
            });
        }
    }
    (changed, remarks)
}

/// Vector groups run side by side when an inner loop carries a value.
const INTERLEAVE: u32 = 4;

/// Whether a loop nested in the loop headed by `header` carries a value
/// from one iteration to the next besides its counter (a phi more).
fn inner_recurrence(f: LLVMValueRef, header: LLVMBasicBlockRef) -> bool {
    let cfg = Cfg::new(f);
    let loops = cfg.loops();
    let Some(l) = loops.iter().find(|l| cfg.blocks[l.header] == header) else { return false };
    loops.iter().filter(|q| q.header != l.header && l.contains(q.header)).any(|q| {
        ir::instructions(cfg.blocks[q.header]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).count() >= 2
    })
}

/// The smallest loop of `f` that contains another loop and was not tried:
/// its header, its latch's terminator and whether its body already holds
/// vectors. Loops with several latches, loops marked `vectorize(disable)`
/// (the user asked) and loops around blocks in `ours` (vector loops made
/// here) are skipped without a remark.
fn next_candidate(f: LLVMValueRef, tried: &[LLVMBasicBlockRef], ours: &[LLVMBasicBlockRef]) -> Option<(LLVMBasicBlockRef, LLVMValueRef, bool)> {
    let cfg = Cfg::new(f);
    let loops = cfg.loops();
    let mut outer: Vec<&Loop> = loops
        .iter()
        .filter(|l| !tried.contains(&cfg.blocks[l.header]) && l.latches.len() == 1)
        .filter(|l| !ours.iter().any(|b| cfg.index.get(b).is_some_and(|&x| l.contains(x))))
        .filter(|l| loops.iter().any(|q| q.header != l.header && l.contains(q.header)))
        .collect();
    outer.sort_by_key(|l| l.size());
    outer.into_iter().find_map(|l| {
        let t = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[l.latches[0]]) };
        (!super::directives::vectorization_disabled(t)).then(|| (cfg.blocks[l.header], t, holds_vectors(&cfg, l)))
    })
}

fn holds_vectors(cfg: &Cfg, l: &Loop) -> bool {
    let is_vec =
        |v: LLVMValueRef| unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) == T::LLVMVectorTypeKind };
    (0..cfg.blocks.len())
        .filter(|&b| l.contains(b))
        .flat_map(|b| ir::instructions(cfg.blocks[b]))
        .any(|i| {
            is_vec(i)
                || (0..unsafe { LLVMGetNumOperands(i) })
                    .any(|k| is_vec(unsafe { LLVMGetOperand(i, k as u32) }))
        })
}

/// An affine integer expression: a constant plus coefficients of atoms
/// (the loop's counter, or values defined outside the loop), kept sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Aff {
    c: i64,
    terms: Vec<(usize, i64)>,
}

impl Aff {
    fn atom(v: LLVMValueRef) -> Aff {
        Aff {
            c: 0,
            terms: vec![(v as usize, 1)],
        }
    }
    fn add(mut self, o: &Aff, k: i64) -> Aff {
        self.c = self.c.wrapping_add(o.c.wrapping_mul(k));
        for &(v, x) in &o.terms {
            match self.terms.binary_search_by_key(&v, |t| t.0) {
                Ok(p) => self.terms[p].1 = self.terms[p].1.wrapping_add(x.wrapping_mul(k)),
                Err(p) => self.terms.insert(p, (v, x.wrapping_mul(k))),
            }
        }
        self.terms.retain(|t| t.1 != 0);
        self
    }
    fn scaled(self, k: i64) -> Aff {
        Aff::default().add(&self, k)
    }
    /// The coefficient of `v`, and the rest.
    fn split(mut self, v: LLVMValueRef) -> (i64, Aff) {
        match self.terms.binary_search_by_key(&(v as usize), |t| t.0) {
            Ok(p) => (self.terms.remove(p).1, self),
            Err(_) => (0, self),
        }
    }
}

/// The memory object an address points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Obj {
    Global(LLVMValueRef),
    Alloca(LLVMValueRef),
    /// An argument, and whether it is `noalias`.
    Arg(LLVMValueRef, bool),
    /// Any other pointer (a phi, a load, a call's result): the value itself.
    Unknown(LLVMValueRef),
}

impl Obj {
    /// Whether the two may be the same object (they are not the same `Obj`).
    fn may_overlap(self, o: Obj) -> bool {
        use Obj::*;
        match (self, o) {
            (Unknown(_), _) | (_, Unknown(_)) => true,
            (Arg(_, true), _) | (_, Arg(_, true)) => false,
            (Arg(..), Arg(..)) | (Arg(..), Global(_)) | (Global(_), Arg(..)) => true,
            _ => false,
        }
    }
}

struct Body<'a> {
    m: LLVMModuleRef,
    cfg: &'a Cfg,
    l: &'a Loop,
    iv: LLVMValueRef,
}

impl Body<'_> {
    fn inside(&self, v: LLVMValueRef) -> bool {
        let is_inst = unsafe { !LLVMIsAInstruction(v).is_null() };
        is_inst
            && self
                .cfg
                .index
                .get(&unsafe { LLVMGetInstructionParent(v) })
                .is_some_and(|&b| self.l.contains(b))
    }

    /// `v` as an affine expression in the counter and invariants.
    fn int(&self, v: LLVMValueRef, depth: u32) -> Option<Aff> {
        if let Some(c) = const_i64(v) {
            return Some(Aff { c, terms: vec![] });
        }
        if v == self.iv || !self.inside(v) {
            return Some(Aff::atom(v));
        }
        if depth == 0 {
            return None;
        }
        let op = |k: u32| unsafe { LLVMGetOperand(v, k) };
        let d = depth - 1;
        match ir::opcode(v) {
            O::LLVMAdd => Some(self.int(op(0), d)?.add(&self.int(op(1), d)?, 1)),
            O::LLVMSub => Some(self.int(op(0), d)?.add(&self.int(op(1), d)?, -1)),
            O::LLVMMul => match (const_i64(op(0)), const_i64(op(1))) {
                (_, Some(k)) => Some(self.int(op(0), d)?.scaled(k)),
                (Some(k), _) => Some(self.int(op(1), d)?.scaled(k)),
                _ => None,
            },
            O::LLVMShl => const_i64(op(1))
                .filter(|&k| (0..32).contains(&k))
                .and_then(|k| Some(self.int(op(0), d)?.scaled(1 << k))),
            _ => None,
        }
    }

    /// The object `p` points into, and its byte offset in it when affine.
    fn address(&self, p: LLVMValueRef, depth: u32) -> (Obj, Option<Aff>) {
        unsafe {
            if !LLVMIsAGlobalValue(p).is_null() {
                return (Obj::Global(p), Some(Aff::default()));
            }
            if !LLVMIsAArgument(p).is_null() {
                let f = LLVMGetParamParent(p);
                let idx = (0..LLVMCountParams(f))
                    .find(|&k| LLVMGetParam(f, k) == p)
                    .unwrap_or(0);
                let kind = LLVMGetEnumAttributeKindForName(c"noalias".as_ptr(), 7);
                let noalias = !LLVMGetEnumAttributeAtIndex(f, idx + 1, kind).is_null();
                return (Obj::Arg(p, noalias), Some(Aff::default()));
            }
            if !LLVMIsAAllocaInst(p).is_null() {
                return (Obj::Alloca(p), Some(Aff::default()));
            }
            let is_gep = !LLVMIsAGetElementPtrInst(p).is_null()
                || (!LLVMIsAConstantExpr(p).is_null()
                    && LLVMGetConstOpcode(p) == O::LLVMGetElementPtr);
            if depth > 0 && is_gep {
                let (obj, base) = self.address(LLVMGetOperand(p, 0), depth - 1);
                return (obj, base.and_then(|b| Some(b.add(&self.gep_offset(p)?, 1))));
            }
            let is_cast = (!LLVMIsAInstruction(p).is_null() || !LLVMIsAConstantExpr(p).is_null())
                && matches!(
                    if LLVMIsAConstantExpr(p).is_null() {
                        ir::opcode(p)
                    } else {
                        LLVMGetConstOpcode(p)
                    },
                    O::LLVMBitCast | O::LLVMAddrSpaceCast
                );
            if depth > 0 && is_cast {
                return self.address(LLVMGetOperand(p, 0), depth - 1);
            }
            // A pointer computed in the loop by anything else varies unknowably.
            (Obj::Unknown(p), (!self.inside(p)).then(Aff::default))
        }
    }

    /// A GEP's byte offset from its base pointer, when affine.
    fn gep_offset(&self, g: LLVMValueRef) -> Option<Aff> {
        use super::attrs::GepIndex;
        let mut off = Aff::default();
        for (k, step) in super::attrs::gep_scales(self.m, g).into_iter().enumerate() {
            let idx = unsafe { LLVMGetOperand(g, k as u32 + 1) };
            off = match step {
                GepIndex::Scale(size) => off.add(&self.int(idx, 16)?, size),
                GepIndex::Field(at) => off.add(&Aff { c: at, terms: vec![] }, 1),
                GepIndex::Unknown => return None,
            };
        }
        Some(off)
    }
}

/// One memory access of the loop.
struct Access {
    obj: Obj,
    /// Byte offset `I + c·iv`: `(c, I)`, when affine.
    at: Option<(i64, Aff)>,
    size: i64,
    store: bool,
}

/// Whether the iterations of the loop headed by `header` are independent
/// (see the module doc); why not otherwise.
///
/// With `readonly_calls`, calls of functions that only read memory are
/// allowed too, when every store of the loop goes to a `noalias` argument
/// or a stack object of `f` (which the callee cannot reach).
pub fn independent(
    m: LLVMModuleRef,
    f: LLVMValueRef,
    header: LLVMBasicBlockRef,
    readonly_calls: bool,
) -> Result<(), String> {
    let mut calls_read = false;
    let cfg = Cfg::new(f);
    let h = cfg.index[&header];
    let loops = cfg.loops();
    let l = loops
        .iter()
        .find(|l| l.header == h)
        .ok_or("not a natural loop")?;
    let phis: Vec<LLVMValueRef> = ir::instructions(header)
        .into_iter()
        .filter(|&i| ir::opcode(i) == O::LLVMPHI)
        .collect();
    let [iv] = phis[..] else {
        return Err("it carries values from one iteration to the next besides its counter".into());
    };
    let body = Body {
        m,
        cfg: &cfg,
        l,
        iv,
    };
    let dl = unsafe { LLVMGetModuleDataLayout(m) };
    let mut accesses = Vec::new();
    for b in (0..cfg.blocks.len()).filter(|&b| l.contains(b)) {
        for i in ir::instructions(cfg.blocks[b]) {
            let (p, ty, store) = match ir::opcode(i) {
                O::LLVMLoad => (
                    unsafe { LLVMGetOperand(i, 0) },
                    unsafe { LLVMTypeOf(i) },
                    false,
                ),
                O::LLVMStore => (
                    unsafe { LLVMGetOperand(i, 1) },
                    unsafe { LLVMTypeOf(LLVMGetOperand(i, 0)) },
                    true,
                ),
                O::LLVMCall => {
                    if super::attrs::is_pure_call(i)
                        || ir::called_intrinsic(i).is_some_and(|n| {
                            n.starts_with("llvm.lifetime.") || n.starts_with("llvm.assume")
                        })
                    {
                        continue;
                    }
                    let callee = unsafe { LLVMGetCalledValue(i) };
                    if readonly_calls && only_reads(i) {
                        calls_read = true;
                        continue;
                    }
                    return Err(format!(
                        "it calls '{}', which may touch memory",
                        ir::value_name(callee)
                    ));
                }
                O::LLVMAtomicRMW
                | O::LLVMAtomicCmpXchg
                | O::LLVMFence
                | O::LLVMInvoke
                | O::LLVMCallBr => {
                    return Err("it has atomic operations, fences or invokes".into());
                }
                _ => continue,
            };
            if unsafe { LLVMGetVolatile(i) } != 0
                || unsafe { LLVMGetOrdering(i) }
                    != inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
            {
                return Err("it has volatile or atomic accesses".into());
            }
            let (obj, off) = body.address(p, 24);
            let at = off.map(|a| a.split(iv));
            accesses.push(Access {
                obj,
                at,
                size: unsafe { LLVMStoreSizeOfType(dl, ty) } as i64,
                store,
            });
        }
    }
    for s in accesses.iter().filter(|a| a.store) {
        if calls_read && !matches!(s.obj, Obj::Arg(_, true) | Obj::Alloca(_)) {
            return Err("a function it calls may read what it stores (stores only through 'restrict' pointers allow calls)".into());
        }
        for a in &accesses {
            if a.obj != s.obj {
                if a.obj.may_overlap(s.obj) {
                    return Err("a store may overlap another access of a different pointer (no 'restrict', or unknown origin)".into());
                }
                continue;
            }
            let same_slot = match (&s.at, &a.at) {
                (Some((cs, is)), Some((ca, ia))) => {
                    cs == ca && s.size == a.size && cs.abs() >= s.size && (is == ia || rows_apart(&cfg, l, is, ia, cs.abs()))
                }
                _ => false,
            };
            if !same_slot {
                return Err("iterations may access the same memory (an object it writes is not accessed at one invariant base plus the counter times the element size)".into());
            }
        }
    }
    Ok(())
}

/// Whether two bases `I_a`, `I_b` of one object, each stepped by `c` bytes
/// per iteration, are a whole number of rows apart (not zero), a row being
/// `c` times the loop's trip count: the rows of a matrix that unroll-and-jam
/// gave to different copies (`z + 4·(i·n) + 4·j` and `z + 4·((i+1)·n) +
/// 4·j` with `j < n`). No iteration's access of one row then meets
/// another's of the other.
fn rows_apart(cfg: &Cfg, l: &Loop, ia: &Aff, ib: &Aff, c: i64) -> bool {
    let any = |_: LLVMValueRef| true;
    let poly_of = |a: &Aff| -> Option<Poly> {
        let mut p = Poly::constant(a.c);
        for &(v, k) in &a.terms {
            p = p.add(&addr::poly(v as LLVMValueRef, 12, &any)?, k);
        }
        Some(p)
    };
    let Some(counted) = addr::counted(cfg, l) else { return false };
    let (Some(pa), Some(pb), Some(bound), Some(start)) = (poly_of(ia), poly_of(ib), addr::poly(counted.bound, 0, &any), addr::poly(counted.start, 0, &any)) else {
        return false;
    };
    let row = bound.add(&start, -1).scaled(c);
    row != Poly::default() && pa.add(&pb, -1).multiple_of(&row).is_some_and(|k| k != 0)
}

/// Whether call `i` only reads memory: its callee (or the call) has a
/// `memory` attribute without write effects on any location.
pub fn only_reads(i: LLVMValueRef) -> bool {
    unsafe {
        let callee = LLVMGetCalledValue(i);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return false;
        }
        let kind = LLVMGetEnumAttributeKindForName(c"memory".as_ptr(), 6);
        // MemoryEffects: two bits per location, Ref = 1, Mod = 2.
        let reads = |a: LLVMAttributeRef| !a.is_null() && LLVMGetEnumAttributeValue(a) & 0xAAAA_AAAA == 0;
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        reads(LLVMGetCallSiteEnumAttribute(i, idx, kind)) || reads(LLVMGetEnumAttributeAtIndex(callee, idx, kind))
    }
}

fn const_i64(v: LLVMValueRef) -> Option<i64> {
    unsafe {
        (!LLVMIsAConstantInt(v).is_null() && LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64)
            .then(|| LLVMConstIntGetSExtValue(v))
    }
}

#[cfg(test)]
#[path = "outer_tests.rs"]
mod tests;

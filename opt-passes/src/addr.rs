//! Integer polynomials of degree at most two over SSA values, for reasoning
//! about addresses in loop nests: `z + 4·(i·n + j)` is `4·[i·n] + 4·[j]`
//! plus its base. [`dsp-unroll-jam`](crate::jam) proves with them that the
//! rows of a matrix that different outer iterations write do not overlap,
//! and the outer-loop vectorizer that the rows its jammed copies write are
//! a whole row apart. Also here: the trip count of a counted loop in the
//! form LLVM leaves it (a counter from a start, step one, tested against a
//! bound after the increment).
//!
//! Monomials are keyed by the values' addresses: the polynomials are only
//! compared, never emitted, so that order never reaches the output.

use std::collections::BTreeMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};

use crate::cfg::{Cfg, Loop};
use crate::ir;

/// `Σ coefficient × monomial`, a monomial a sorted list of at most two values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Poly(pub BTreeMap<Vec<usize>, i64>);

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.0.insert(Vec::new(), c);
        }
        p
    }
    pub fn atom(v: LLVMValueRef) -> Poly {
        Poly([(vec![v as usize], 1)].into_iter().collect())
    }
    pub fn add(&self, o: &Poly, k: i64) -> Poly {
        let mut out = self.0.clone();
        for (m, c) in &o.0 {
            *out.entry(m.clone()).or_default() += c.wrapping_mul(k);
        }
        out.retain(|_, c| *c != 0);
        Poly(out)
    }
    pub fn scaled(&self, k: i64) -> Poly {
        Poly::default().add(self, k)
    }
    /// The product, when its degree stays at most two.
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut out: BTreeMap<Vec<usize>, i64> = BTreeMap::new();
        for (ma, ca) in &self.0 {
            for (mb, cb) in &o.0 {
                let mut m: Vec<usize> = ma.iter().chain(mb).copied().collect();
                if m.len() > 2 {
                    return None;
                }
                m.sort_unstable();
                *out.entry(m).or_default() += ca.wrapping_mul(*cb);
            }
        }
        out.retain(|_, c| *c != 0);
        Some(Poly(out))
    }
    /// The constant, when that is all there is.
    pub fn as_const(&self) -> Option<i64> {
        match self.0.len() {
            0 => Some(0),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }
    /// `self = k × o` for an integer `k`: `k` (`o` not zero).
    pub fn multiple_of(&self, o: &Poly) -> Option<i64> {
        let (m0, c0) = o.0.iter().next()?;
        let c = *self.0.get(m0)?;
        if c % c0 != 0 {
            return None;
        }
        let k = c / c0;
        (*self == o.scaled(k)).then_some(k)
    }
    /// The part with `v` in every monomial, divided by `v`, and the rest.
    pub fn split(&self, v: LLVMValueRef) -> (Poly, Poly) {
        let (mut with, mut rest) = (BTreeMap::new(), BTreeMap::new());
        for (m, &c) in &self.0 {
            match m.iter().position(|&x| x == v as usize) {
                Some(p) => {
                    let mut m = m.clone();
                    m.remove(p);
                    with.insert(m, c);
                }
                None => {
                    rest.insert(m.clone(), c);
                }
            }
        }
        (Poly(with), Poly(rest))
    }
    /// Whether a monomial mentions a value for which `f` holds.
    pub fn mentions(&self, f: impl Fn(LLVMValueRef) -> bool) -> bool {
        self.0.keys().flatten().any(|&v| f(v as LLVMValueRef))
    }
}

/// `v` as a polynomial: sums, differences, products, shifts by constants
/// and sign extensions are looked through (`depth` levels), anything else
/// for which `atom` holds is an atom; `None` otherwise.
pub fn poly(v: LLVMValueRef, depth: u32, atom: &dyn Fn(LLVMValueRef) -> bool) -> Option<Poly> {
    if let Some(c) = ir::const_i64(v) {
        return Some(Poly::constant(c));
    }
    let op = |k: u32| unsafe { LLVMGetOperand(v, k) };
    let inst = unsafe { !LLVMIsAInstruction(v).is_null() };
    if inst && depth > 0 {
        let d = depth - 1;
        let got = match ir::opcode(v) {
            O::LLVMAdd => Some(poly(op(0), d, atom).and_then(|a| Some(a.add(&poly(op(1), d, atom)?, 1)))),
            O::LLVMSub => Some(poly(op(0), d, atom).and_then(|a| Some(a.add(&poly(op(1), d, atom)?, -1)))),
            O::LLVMMul => Some(poly(op(0), d, atom).and_then(|a| a.mul(&poly(op(1), d, atom)?))),
            O::LLVMShl => Some(ir::const_i64(op(1)).filter(|k| (0..31).contains(k)).and_then(|k| Some(poly(op(0), d, atom)?.scaled(1 << k)))),
            O::LLVMSExt => Some(poly(op(0), d, atom)),
            _ => None,
        };
        if let Some(p) = got {
            return p.or_else(|| atom(v).then(|| Poly::atom(v)));
        }
    }
    atom(v).then(|| Poly::atom(v))
}

/// A counted loop: counter `iv` from `start`, one up each iteration, and
/// `bound` (defined outside the loop) such that the loop runs while
/// `iv + 1` is below it (`ne`/`slt`/`ult` after the increment, or the exit
/// on `eq`): `bound - start` iterations once entered.
pub struct Counted {
    pub iv: LLVMValueRef,
    pub next: LLVMValueRef,
    pub start: LLVMValueRef,
    pub bound: LLVMValueRef,
    /// The compare and the latch's branch.
    pub cmp: LLVMValueRef,
    pub latch: usize,
    pub preheader: usize,
    pub exit: usize,
}

/// The value a two-entry header phi `iv` starts from (its entry from
/// `pre`), when its other entry is `next` from `latch`.
pub fn phi_start(iv: LLVMValueRef, pre: LLVMBasicBlockRef, latch: LLVMBasicBlockRef, next: LLVMValueRef) -> Option<LLVMValueRef> {
    let mut start = None;
    for k in 0..2 {
        let (v, from) = unsafe { (LLVMGetIncomingValue(iv, k), LLVMGetIncomingBlock(iv, k)) };
        if from == pre {
            start = Some(v);
        } else if from != latch || v != next {
            return None;
        }
    }
    start
}

/// `l` as a [`Counted`] loop with its single latch the only way out, when it is one.
pub fn counted(cfg: &Cfg, l: &Loop) -> Option<Counted> {
    counted_by(cfg, l).filter(|c| c.1 == 1).map(|c| c.0)
}

/// [`counted`] for a counter that steps by a positive constant (returned
/// too): the loop runs while `iv + step` is below the bound; it runs
/// `(bound - start) / step` iterations when the step divides that.
pub fn counted_by(cfg: &Cfg, l: &Loop) -> Option<(Counted, i64)> {
    let [latch] = l.latches[..] else { return None };
    let h = l.header;
    // One way out, from the latch.
    let exiting: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b) && cfg.succs[b].iter().any(|&s| !l.contains(s))).collect();
    if exiting != [latch] {
        return None;
    }
    let outside: Vec<usize> = cfg.preds[h].iter().copied().filter(|&p| !l.contains(p)).collect();
    let [pre] = outside[..] else { return None };
    if cfg.succs[pre] != [h] {
        return None;
    }
    unsafe {
        let term = LLVMGetBasicBlockTerminator(cfg.blocks[latch]);
        if ir::opcode(term) != O::LLVMBr || LLVMGetNumOperands(term) != 3 {
            return None;
        }
        let cmp = LLVMGetOperand(term, 0);
        if ir::opcode_of(cmp) != Some(O::LLVMICmp) {
            return None;
        }
        let on_true = LLVMGetSuccessor(term, 0);
        let exit_when_true = on_true != cfg.blocks[h];
        let exit_block = if exit_when_true { on_true } else { LLVMGetSuccessor(term, 1) };
        let exit = *cfg.index.get(&exit_block)?;
        let (a, b) = (LLVMGetOperand(cmp, 0), LLVMGetOperand(cmp, 1));
        let inside = |v: LLVMValueRef| !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&x| l.contains(x));
        let (next, bound) = if inside(a) && !inside(b) { (a, b) } else { return None };
        let ok = match (LLVMGetICmpPredicate(cmp), exit_when_true) {
            (P::LLVMIntEQ, true) | (P::LLVMIntNE, false) | (P::LLVMIntSLT, false) | (P::LLVMIntULT, false) => true,
            _ => false,
        };
        if !ok || ir::opcode_of(next) != Some(O::LLVMAdd) {
            return None;
        }
        let (x, y) = (LLVMGetOperand(next, 0), LLVMGetOperand(next, 1));
        let (iv, step) = match (ir::const_i64(x), ir::const_i64(y)) {
            (_, Some(k)) if k > 0 => (x, k),
            (Some(k), _) if k > 0 => (y, k),
            _ => return None,
        };
        if ir::opcode_of(iv) != Some(O::LLVMPHI) || LLVMGetInstructionParent(iv) != cfg.blocks[h] || LLVMCountIncoming(iv) != 2 {
            return None;
        }
        let start = phi_start(iv, cfg.blocks[pre], cfg.blocks[latch], next)?;
        Some((Counted { iv, next, start, bound, cmp, latch, preheader: pre, exit }, step))
    }
}

/// The object `p` points into and its byte offset as a polynomial.
pub fn address(m: LLVMModuleRef, mut p: LLVMValueRef, atom: &dyn Fn(LLVMValueRef) -> bool) -> (LLVMValueRef, Option<Poly>) {
    use crate::wfv::attrs::{gep_scales, GepIndex};
    let mut off = Some(Poly::default());
    for _ in 0..16 {
        let is_gep = unsafe { !LLVMIsAGetElementPtrInst(p).is_null() };
        if !is_gep {
            break;
        }
        let mut here = Some(Poly::default());
        for (k, step) in gep_scales(m, p).into_iter().enumerate() {
            let idx = unsafe { LLVMGetOperand(p, k as u32 + 1) };
            here = match (here, step) {
                (Some(h), GepIndex::Scale(s)) => poly(idx, 12, atom).map(|x| h.add(&x, s)),
                (Some(h), GepIndex::Field(at)) => Some(h.add(&Poly::constant(at), 1)),
                _ => None,
            };
        }
        off = off.and_then(|o| Some(o.add(&here?, 1)));
        p = unsafe { LLVMGetOperand(p, 0) };
    }
    (p, off)
}

/// Whether two distinct bases may point into the same object.
pub fn may_alias(a: LLVMValueRef, b: LLVMValueRef) -> bool {
    let noalias_arg = |p: LLVMValueRef| unsafe { !LLVMIsAArgument(p).is_null() && ir::has_noalias(p) };
    if noalias_arg(a) || noalias_arg(b) {
        return false;
    }
    !(ir::identified_object(a) && ir::identified_object(b))
}

/// A load or store of a loop nest: its pointer, its bytes, whether it stores.
pub struct MemOp {
    pub ptr: LLVMValueRef,
    pub size: i64,
    pub store: bool,
}

/// What instruction `i` does to memory, for the nest transformations
/// (unroll-and-jam, the reduction jam, the interchange): a plain load or
/// store, `None` for anything that touches no memory (calls to pure
/// functions, `llvm.fma`/`llvm.fmuladd`), an error naming why otherwise
/// (volatile or atomic accesses, calls that may touch memory, fences,
/// invokes).
pub fn mem_op(m: LLVMModuleRef, i: LLVMValueRef) -> Result<Option<MemOp>, String> {
    let op = ir::opcode(i);
    unsafe {
        match op {
            O::LLVMCall => {
                let ok = crate::wfv::attrs::is_pure_call(i) || ir::called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.fmuladd") || n.starts_with("llvm.fma"));
                if ok {
                    Ok(None)
                } else {
                    Err(format!("it calls '{}', which may touch memory", ir::value_name(LLVMGetCalledValue(i))))
                }
            }
            O::LLVMLoad | O::LLVMStore => {
                if LLVMGetVolatile(i) != 0 || LLVMGetOrdering(i) != inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                    return Err("volatile or atomic accesses".into());
                }
                let store = op == O::LLVMStore;
                let (ptr, ty) = if store { (LLVMGetOperand(i, 1), LLVMTypeOf(LLVMGetOperand(i, 0))) } else { (LLVMGetOperand(i, 0), LLVMTypeOf(i)) };
                let size = inkwell::llvm_sys::target::LLVMStoreSizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m), ty) as i64;
                Ok(Some(MemOp { ptr, size, store }))
            }
            O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence | O::LLVMInvoke | O::LLVMCallBr => Err("atomic operations, fences or invokes".into()),
            _ => Ok(None),
        }
    }
}

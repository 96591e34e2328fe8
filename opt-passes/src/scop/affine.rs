//! Affine integer expressions over LLVM values, as SCoP detection sees
//! them: constants, the region's induction variables and parameters
//! (integer values defined outside the region), combined by `add`, `sub`,
//! `mul` and `shl` by constants (`or disjoint` is an `add`), through
//! `sext`/`zext`/`trunc` between 32 and 64 bits (taken as not wrapping: the
//! subscripts and bounds of a SCoP are assumed to stay in range, as
//! `nsw`/`inbounds` say for C's signed arithmetic; casts to or from
//! narrower types are not affine).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use crate::ir;

/// `c + Σ coefficient × atom`; atoms are LLVM values (keys: their
/// addresses): induction variables of the region or parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Aff {
    pub terms: BTreeMap<usize, i64>,
    pub c: i64,
}

impl Aff {
    pub fn constant(c: i64) -> Aff {
        Aff { c, ..Aff::default() }
    }
    pub fn atom(v: LLVMValueRef) -> Aff {
        Aff { terms: [(v as usize, 1)].into_iter().collect(), c: 0 }
    }
    /// `self + sign × o`.
    pub fn add(&self, o: &Aff, sign: i64) -> Option<Aff> {
        let mut t = self.terms.clone();
        for (&k, &x) in &o.terms {
            let e = t.entry(k).or_default();
            *e = e.checked_add(sign.checked_mul(x)?)?;
        }
        t.retain(|_, x| *x != 0);
        Some(Aff { terms: t, c: self.c.checked_add(sign.checked_mul(o.c)?)? })
    }
    pub fn scale(&self, k: i64) -> Option<Aff> {
        let mut t = BTreeMap::new();
        for (&v, &x) in &self.terms {
            t.insert(v, x.checked_mul(k)?);
        }
        t.retain(|_, x| *x != 0);
        Some(Aff { terms: t, c: self.c.checked_mul(k)? })
    }
    pub fn plus(&self, k: i64) -> Option<Aff> {
        Some(Aff { terms: self.terms.clone(), c: self.c.checked_add(k)? })
    }
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.c)
    }
    /// Every coefficient and the constant divided by `d`, if all divide.
    pub fn div_exact(&self, d: i64) -> Option<Aff> {
        if d == 0 || self.c % d != 0 || self.terms.values().any(|x| x % d != 0) {
            return None;
        }
        Some(Aff { terms: self.terms.iter().map(|(&k, &x)| (k, x / d)).collect(), c: self.c / d })
    }
}

/// Why a value is not affine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAffine {
    /// It depends on this load (data-dependent).
    Load(LLVMValueRef),
    /// This instruction is not affine arithmetic (a product of variables, a
    /// division, a phi that is not an induction variable, …).
    Inst(LLVMValueRef),
}

/// The region an expression is evaluated in: which instructions are inside
/// and which phis are its induction variables.
pub struct Ctx<'a> {
    pub inside: &'a dyn Fn(LLVMValueRef) -> bool,
    pub ivs: &'a HashSet<usize>,
    /// Secondary induction variables: their value in terms of the primary ones.
    pub derived: &'a HashMap<usize, Aff>,
    /// Values already evaluated (expressions are DAGs: without it, shared
    /// operands would be walked once per path).
    pub memo: RefCell<HashMap<usize, Result<Aff, NotAffine>>>,
}

impl Ctx<'_> {
    /// `v` as an affine expression, or why not.
    pub fn eval(&self, v: LLVMValueRef) -> Result<Aff, NotAffine> {
        self.eval_depth(v, 0)
    }

    fn eval_depth(&self, v: LLVMValueRef, depth: u32) -> Result<Aff, NotAffine> {
        if let Some(r) = self.memo.borrow().get(&(v as usize)) {
            return r.clone();
        }
        let r = self.eval_uncached(v, depth);
        self.memo.borrow_mut().insert(v as usize, r.clone());
        r
    }

    fn eval_uncached(&self, v: LLVMValueRef, depth: u32) -> Result<Aff, NotAffine> {
        if let Some(c) = ir::const_i64(v) {
            return Ok(Aff::constant(c));
        }
        let is_int = unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) == inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind };
        let Some(op) = ir::opcode_of(v) else {
            // Arguments and globals' addresses cast to integers are parameters.
            return if is_int { Ok(Aff::atom(v)) } else { Err(NotAffine::Inst(v)) };
        };
        if !(self.inside)(v) {
            return if is_int { Ok(Aff::atom(v)) } else { Err(NotAffine::Inst(v)) };
        }
        if self.ivs.contains(&(v as usize)) {
            return Ok(Aff::atom(v));
        }
        if let Some(a) = self.derived.get(&(v as usize)) {
            return Ok(a.clone());
        }
        if depth > 64 {
            return Err(NotAffine::Inst(v));
        }
        let operand = |k: u32| unsafe { LLVMGetOperand(v, k) };
        let sub = |k: u32| self.eval_depth(operand(k), depth + 1);
        let overflow = NotAffine::Inst(v);
        match op {
            O::LLVMAdd => sub(0)?.add(&sub(1)?, 1).ok_or(overflow),
            // `or disjoint` (no common bits) is an addition.
            O::LLVMOr if unsafe { LLVMGetIsDisjoint(v) } != 0 => sub(0)?.add(&sub(1)?, 1).ok_or(overflow),
            O::LLVMSub => sub(0)?.add(&sub(1)?, -1).ok_or(overflow),
            O::LLVMMul => {
                let (a, b) = (sub(0)?, sub(1)?);
                match (a.as_const(), b.as_const()) {
                    (Some(k), _) => b.scale(k).ok_or(overflow),
                    (_, Some(k)) => a.scale(k).ok_or(overflow),
                    _ => Err(NotAffine::Inst(v)),
                }
            }
            O::LLVMShl => {
                let a = sub(0)?;
                match sub(1)?.as_const() {
                    Some(k) if (0..62).contains(&k) => a.scale(1 << k).ok_or(overflow),
                    _ => Err(NotAffine::Inst(v)),
                }
            }
            // Casts between 32 and 64 bits are looked through (no wrapping
            // assumed); narrower types wrap too soon to be taken as affine.
            O::LLVMSExt | O::LLVMZExt | O::LLVMTrunc => {
                let bits = |x: LLVMValueRef| unsafe { LLVMGetIntTypeWidth(LLVMTypeOf(x)) };
                if bits(v).min(bits(operand(0))) >= 32 {
                    sub(0)
                } else {
                    Err(NotAffine::Inst(v))
                }
            }
            O::LLVMLoad => Err(NotAffine::Load(v)),
            // A phi whose entries are all the same affine value (LCSSA copies) is that value.
            O::LLVMPHI => {
                let n = unsafe { LLVMCountIncoming(v) };
                let mut value: Option<Aff> = None;
                for k in 0..n {
                    let a = self.eval_depth(unsafe { LLVMGetIncomingValue(v, k) }, depth + 1).map_err(|_| NotAffine::Inst(v))?;
                    if value.as_ref().is_some_and(|x| *x != a) {
                        return Err(NotAffine::Inst(v));
                    }
                    value = Some(a);
                }
                value.ok_or(NotAffine::Inst(v))
            }
            _ => {
                // A value computed from a load is data-dependent: say which load.
                let n = unsafe { LLVMGetNumOperands(v) } as u32;
                for k in 0..n {
                    if let Some(l) = self.load_below(operand(k), depth + 1) {
                        return Err(NotAffine::Load(l));
                    }
                }
                Err(NotAffine::Inst(v))
            }
        }
    }

    /// A load inside the region that `v` is computed from, if any.
    fn load_below(&self, v: LLVMValueRef, depth: u32) -> Option<LLVMValueRef> {
        if depth > 16 || ir::opcode_of(v).is_none() || !(self.inside)(v) || self.ivs.contains(&(v as usize)) {
            return None;
        }
        if ir::opcode(v) == O::LLVMLoad {
            return Some(v);
        }
        if ir::opcode(v) == O::LLVMPHI {
            return None;
        }
        let n = unsafe { LLVMGetNumOperands(v) } as u32;
        (0..n).find_map(|k| self.load_below(unsafe { LLVMGetOperand(v, k) }, depth + 1))
    }
}

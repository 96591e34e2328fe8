//! Loop bounds and `if` conditions as affine constraints.
//!
//! A bound may be a minimum or maximum of affine expressions
//! (`llvm.smin`/`llvm.smax`, or a `select` of an `icmp` choosing the
//! smaller or the larger operand): `i <= min(a, b)` is `i <= a` and
//! `i <= b`; the other way round (`i <= max(a, b)`) is a disjunction and is
//! not affine.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;
use inkwell::llvm_sys::LLVMOpcode as O;

use super::affine::{Aff, Ctx, NotAffine};
use crate::ir;

/// A value as affine expressions: one, or the min or max of several.
#[derive(Clone, Debug)]
pub enum Bound {
    One(Aff),
    Min(Vec<Aff>),
    Max(Vec<Aff>),
}

impl Bound {
    pub fn parts(&self) -> &[Aff] {
        match self {
            Bound::One(a) => std::slice::from_ref(a),
            Bound::Min(v) | Bound::Max(v) => v,
        }
    }
    /// The parts when `self` is a minimum (or one), for an upper bound.
    pub fn as_min(&self) -> Option<&[Aff]> {
        (!matches!(self, Bound::Max(_))).then(|| self.parts())
    }
    /// The parts when `self` is a maximum (or one), for a lower bound.
    pub fn as_max(&self) -> Option<&[Aff]> {
        (!matches!(self, Bound::Min(_))).then(|| self.parts())
    }
}

/// `v` as a [`Bound`].
/// A minimum or maximum in the middle of an expression is not affine.
pub fn eval_bound(ctx: &Ctx, v: LLVMValueRef) -> Result<Bound, NotAffine> {
    if let Some((is_min, a, b)) = min_max(ctx, v) {
        let (a, b) = (ctx.eval(a)?, ctx.eval(b)?);
        return Ok(if is_min { Bound::Min(vec![a, b]) } else { Bound::Max(vec![a, b]) });
    }
    ctx.eval(v).map(Bound::One)
}

/// `v` as `(is_min, a, b)` when it is a signed minimum or maximum.
fn min_max(ctx: &Ctx, v: LLVMValueRef) -> Option<(bool, LLVMValueRef, LLVMValueRef)> {
    if let Some(name) = ir::called_intrinsic(v) {
        let op = |k| ir::arg(v, k);
        if name.starts_with("llvm.smin.") || name.starts_with("llvm.umin.") {
            return Some((true, op(0), op(1)));
        }
        if name.starts_with("llvm.smax.") || name.starts_with("llvm.umax.") {
            return Some((false, op(0), op(1)));
        }
        return None;
    }
    if ir::opcode_of(v) != Some(O::LLVMSelect) {
        return None;
    }
    let (c, t, f) = unsafe { (LLVMGetOperand(v, 0), LLVMGetOperand(v, 1), LLVMGetOperand(v, 2)) };
    if ir::opcode_of(c) != Some(O::LLVMICmp) {
        return None;
    }
    let (a, b) = unsafe { (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1)) };
    let less = match unsafe { LLVMGetICmpPredicate(c) } {
        P::LLVMIntSLT | P::LLVMIntSLE | P::LLVMIntULT | P::LLVMIntULE => true,
        P::LLVMIntSGT | P::LLVMIntSGE | P::LLVMIntUGT | P::LLVMIntUGE => false,
        _ => return None,
    };
    // select (a < b), a, b = min; select (a < b), b, a = max (operands
    // compared as affine expressions: `i + 8` computed twice is one).
    let same = |x: LLVMValueRef, y: LLVMValueRef| x == y || ctx.eval(x).ok().is_some_and(|e| ctx.eval(y).ok() == Some(e));
    if same(t, a) && same(f, b) {
        Some((less, a, b))
    } else if same(t, b) && same(f, a) {
        Some((!less, a, b))
    } else {
        None
    }
}

/// A constraint on affine expressions of LLVM values: `aff >= 0` or `== 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cons {
    pub aff: Aff,
    pub eq: bool,
}

/// Why a condition is not a conjunction of affine constraints.
pub enum CondError {
    NotAffine(NotAffine),
    /// A disjunction, an unsupported predicate or operand: this value.
    Shape(LLVMValueRef),
}

/// The constraints that hold when the `i1` value `c` is `taken`.
pub fn condition(ctx: &Ctx, c: LLVMValueRef, taken: bool) -> Result<Vec<Cons>, CondError> {
    if let Some(k) = ir::const_i64(c) {
        // `true` is -1 sign-extended.
        return if (k != 0) == taken { Ok(Vec::new()) } else { Ok(vec![Cons { aff: Aff::constant(-1), eq: false }]) };
    }
    match ir::opcode_of(c) {
        Some(O::LLVMAnd) | Some(O::LLVMOr) => {
            let is_and = ir::opcode(c) == O::LLVMAnd;
            if is_and != taken {
                return Err(CondError::Shape(c));
            }
            let (a, b) = unsafe { (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1)) };
            let mut v = condition(ctx, a, taken)?;
            v.extend(condition(ctx, b, taken)?);
            Ok(v)
        }
        Some(O::LLVMSelect) => {
            // `select a, b, false` is `a && b`; `select a, true, b` is `a || b`.
            let (a, t, f) = unsafe { (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1), LLVMGetOperand(c, 2)) };
            let (is_and, b) = match (ir::const_i64(t), ir::const_i64(f)) {
                (_, Some(0)) => (true, t),
                (Some(k), _) if k != 0 => (false, f),
                _ => return Err(CondError::Shape(c)),
            };
            if is_and != taken {
                return Err(CondError::Shape(c));
            }
            let mut v = condition(ctx, a, taken)?;
            v.extend(condition(ctx, b, taken)?);
            Ok(v)
        }
        Some(O::LLVMXor) => {
            // `not c` is `xor c, true`.
            let (a, b) = unsafe { (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1)) };
            match ir::const_i64(b) {
                Some(k) if k != 0 => condition(ctx, a, !taken),
                _ => Err(CondError::Shape(c)),
            }
        }
        Some(O::LLVMICmp) => {
            let (a, b) = unsafe { (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1)) };
            let mut p = unsafe { LLVMGetICmpPredicate(c) };
            if !taken {
                p = inverse(p);
            }
            compare(ctx, a, p, b).map_err(|e| match e {
                CondError::Shape(_) => CondError::Shape(c),
                e => e,
            })
        }
        _ => Err(CondError::Shape(c)),
    }
}

/// The constraints of `a p b`.
pub fn compare(ctx: &Ctx, a: LLVMValueRef, p: P, b: LLVMValueRef) -> Result<Vec<Cons>, CondError> {
    let ea = eval_bound(ctx, a).map_err(CondError::NotAffine)?;
    let eb = eval_bound(ctx, b).map_err(CondError::NotAffine)?;
    // Normalize to lo < hi (strict) or lo <= hi or lo == hi.
    let (lo, hi, strict) = match p {
        P::LLVMIntSLT | P::LLVMIntULT => (ea, eb, true),
        P::LLVMIntSLE | P::LLVMIntULE => (ea, eb, false),
        P::LLVMIntSGT | P::LLVMIntUGT => (eb, ea, true),
        P::LLVMIntSGE | P::LLVMIntUGE => (eb, ea, false),
        P::LLVMIntEQ => {
            let (Bound::One(x), Bound::One(y)) = (ea, eb) else { return Err(CondError::Shape(a)) };
            let aff = x.add(&y, -1).ok_or(CondError::Shape(a))?;
            return Ok(vec![Cons { aff, eq: true }]);
        }
        _ => return Err(CondError::Shape(a)),
    };
    let (Some(los), Some(his)) = (lo.as_max(), hi.as_min()) else { return Err(CondError::Shape(a)) };
    let mut out = Vec::new();
    for l in los {
        for h in his {
            let d = h.add(l, -1).and_then(|d| d.plus(if strict { -1 } else { 0 })).ok_or(CondError::Shape(a))?;
            out.push(Cons { aff: d, eq: false });
        }
    }
    Ok(out)
}

/// The predicate of the negated compare.
pub fn inverse(p: P) -> P {
    match p {
        P::LLVMIntEQ => P::LLVMIntNE,
        P::LLVMIntNE => P::LLVMIntEQ,
        P::LLVMIntSLT => P::LLVMIntSGE,
        P::LLVMIntSGE => P::LLVMIntSLT,
        P::LLVMIntSLE => P::LLVMIntSGT,
        P::LLVMIntSGT => P::LLVMIntSLE,
        P::LLVMIntULT => P::LLVMIntUGE,
        P::LLVMIntUGE => P::LLVMIntULT,
        P::LLVMIntULE => P::LLVMIntUGT,
        P::LLVMIntUGT => P::LLVMIntULE,
    }
}

/// The predicate with its operands swapped (`a < b` is `b > a`).
pub fn swapped(p: P) -> P {
    match p {
        P::LLVMIntSLT => P::LLVMIntSGT,
        P::LLVMIntSGT => P::LLVMIntSLT,
        P::LLVMIntSLE => P::LLVMIntSGE,
        P::LLVMIntSGE => P::LLVMIntSLE,
        P::LLVMIntULT => P::LLVMIntUGT,
        P::LLVMIntUGT => P::LLVMIntULT,
        P::LLVMIntULE => P::LLVMIntUGE,
        P::LLVMIntUGE => P::LLVMIntULE,
        x => x,
    }
}

/// Whether `need >= 0` follows from `known`: `need` is a non-negative
/// constant, or a non-negative constant plus one known constraint, or plus
/// the sum of two (a guard `i < n` folded away because the outer loop's
/// bound says it: cheap, not Fourier–Motzkin).
pub fn implied(need: &Aff, known: &[Cons]) -> bool {
    let covers = |x: &Aff| need.add(x, -1).and_then(|d| d.as_const()).is_some_and(|c| c >= 0);
    if covers(&Aff::default()) {
        return true;
    }
    // Every known fact as `aff >= 0` (an equality both ways).
    let mut facts: Vec<Aff> = Vec::new();
    for k in known {
        facts.push(k.aff.clone());
        if k.eq {
            facts.extend(k.aff.scale(-1));
        }
    }
    facts.iter().any(covers) || facts.iter().enumerate().any(|(i, a)| facts[i + 1..].iter().any(|b| a.add(b, 1).is_some_and(|s| covers(&s))))
}

//! Compares into predicates: integer compares (narrow integers extended by
//! the predicate's signedness), float compares (ordered and unordered forms
//! from the machine's ordered compares, `unord`, swaps and negations), and
//! float compares through the runtime on machines without them.

use dsp_mir::Reg;
use isa_tablegen::{SemOp, Ty};

use crate::emit::A;
use crate::function::Fx;
use crate::inst::{as_reg, pred_op, pred_to_int, sext_arg, zext_arg};
use crate::llvm::{IntPred, RealPred};
use crate::runtime;
use crate::types::Sc;

/// A compare of two registers/immediates into a predicate: tries the
/// operation, its swapped form, and the negation of the inverse.
pub fn compare(fx: &mut Fx, op: SemOp, ty: Ty, a: A, b: A) -> Result<Reg, String> {
    if matches!(op, SemOp::Eq | SemOp::Ne) && !ty.is_float() {
        // Equality does not depend on signedness: either type will do.
        let other = match ty {
            Ty::I32 => Ty::U32,
            Ty::U32 => Ty::I32,
            Ty::I64 => Ty::U64,
            _ => Ty::I64,
        };
        return compare_one(fx, op, ty, a.clone(), b.clone()).or_else(|e| compare_one(fx, op, other, a, b).map_err(|_| e));
    }
    compare_one(fx, op, ty, a, b)
}

fn compare_one(fx: &mut Fx, op: SemOp, ty: Ty, a: A, b: A) -> Result<Reg, String> {
    let p = fx.m.predicate_file().ok_or("the machine has no predicates")?;
    let swapped = match op {
        SemOp::Lt => Some(SemOp::Gt),
        SemOp::Gt => Some(SemOp::Lt),
        SemOp::Le => Some(SemOp::Ge),
        SemOp::Ge => Some(SemOp::Le),
        SemOp::Eq => Some(SemOp::Eq),
        SemOp::Ne => Some(SemOp::Ne),
        SemOp::Unord => Some(SemOp::Unord),
        _ => None,
    };
    let forms: Vec<(SemOp, A, A)> = std::iter::once((op, a.clone(), b.clone())).chain(swapped.map(|s| (s, b.clone(), a.clone()))).collect();
    let pat = |fx: &Fx, x: &A| match x {
        A::R(r) => isa_tablegen::ArgPat::Reg(fx.file(*r)),
        A::I(v) => isa_tablegen::ArgPat::Imm(*v),
        _ => isa_tablegen::ArgPat::SymImm,
    };
    for (o, x, y) in &forms {
        let pats = [pat(fx, x), pat(fx, y)];
        if fx.find(*o, Some(ty), None, Some(p), &pats).is_some() {
            return fx.op(*o, ty, p, &[x.clone(), y.clone()]);
        }
    }
    for (o, x, y) in &forms {
        if let Some(Some(r)) = fx.try_op(*o, Some(ty), None, Some(p), &[x.clone(), y.clone()]) {
            return Ok(r);
        }
    }
    // Negation of the inverse (not for floats: NaN makes inverses differ).
    if !ty.is_float() {
        let inverse = match op {
            SemOp::Eq => Some(SemOp::Ne),
            SemOp::Ne => Some(SemOp::Eq),
            SemOp::Lt => Some(SemOp::Ge),
            SemOp::Ge => Some(SemOp::Lt),
            SemOp::Le => Some(SemOp::Gt),
            SemOp::Gt => Some(SemOp::Le),
            _ => None,
        };
        if let Some(inv) = inverse {
            let mut forms = vec![(inv, a.clone(), b.clone())];
            let sw = match inv {
                SemOp::Lt => SemOp::Gt,
                SemOp::Gt => SemOp::Lt,
                SemOp::Le => SemOp::Ge,
                SemOp::Ge => SemOp::Le,
                o => o,
            };
            forms.push((sw, b.clone(), a.clone()));
            for (o, x, y) in forms {
                if let Some(Some(r)) = fx.try_op(o, Some(ty), None, Some(p), &[x, y]) {
                    return pred_op(fx, SemOp::Not, &[r]);
                }
            }
        }
    } else if op == SemOp::Ne {
        if let Ok(r) = compare(fx, SemOp::Eq, ty, a.clone(), b.clone()) {
            return pred_op(fx, SemOp::Not, &[r]);
        }
    }
    Err(fx.missing(op, Some(ty), None, Some(p), &[a, b]))
}

pub fn icmp(fx: &mut Fx, pred: IntPred, sc: Sc, a: A, b: A) -> Result<Reg, String> {
    use IntPred::*;
    let (op, signed) = match pred {
        LLVMIntEQ => (SemOp::Eq, None),
        LLVMIntNE => (SemOp::Ne, None),
        LLVMIntSLT => (SemOp::Lt, Some(true)),
        LLVMIntSLE => (SemOp::Le, Some(true)),
        LLVMIntSGT => (SemOp::Gt, Some(true)),
        LLVMIntSGE => (SemOp::Ge, Some(true)),
        LLVMIntULT => (SemOp::Lt, Some(false)),
        LLVMIntULE => (SemOp::Le, Some(false)),
        LLVMIntUGT => (SemOp::Gt, Some(false)),
        LLVMIntUGE => (SemOp::Ge, Some(false)),
    };
    if sc == Sc::I1 {
        let file = fx.sc_file(sc)?;
        let (ra, rb) = (as_reg(fx, a, file)?, as_reg(fx, b, file)?);
        if op == SemOp::Ne {
            return pred_op(fx, SemOp::Xor, &[ra, rb]);
        }
        if op == SemOp::Eq {
            let x = pred_op(fx, SemOp::Xor, &[ra, rb])?;
            return pred_op(fx, SemOp::Not, &[x]);
        }
        let mut ia = pred_to_int(fx, ra)?;
        let mut ib = pred_to_int(fx, rb)?;
        let int = fx.addr_file()?;
        if signed == Some(true) {
            ia = fx.op(SemOp::Sub, Ty::I32, int, &[A::I(0), A::R(ia)])?;
            ib = fx.op(SemOp::Sub, Ty::I32, int, &[A::I(0), A::R(ib)])?;
        }
        let ty = if signed == Some(true) { Ty::I32 } else { Ty::U32 };
        return compare(fx, op, ty, A::R(ia), A::R(ib));
    }
    let bits = sc.bits();
    let signed_ext = signed.unwrap_or(true);
    let (a, b) =
        if signed_ext { (sext_arg(fx, a, bits)?, sext_arg(fx, b, bits)?) } else { (zext_arg(fx, a, bits)?, zext_arg(fx, b, bits)?) };
    let ty = sc.arith_ty(signed.unwrap_or(true));
    let (a, b) = if matches!(a, A::R(_)) || matches!(b, A::R(_)) {
        (a, b)
    } else {
        let f = fx.sc_file(sc)?;
        (A::R(as_reg(fx, a, f)?), b)
    };
    // Eq/Ne have one type per width on some machines; try the other signedness too.
    match compare(fx, op, ty, a.clone(), b.clone()) {
        Ok(r) => Ok(r),
        Err(e) if signed.is_none() => compare(fx, op, sc.arith_ty(false), a, b).map_err(|_| e),
        Err(e) => Err(e),
    }
}

pub fn fcmp(fx: &mut Fx, pred: RealPred, sc: Sc, a: Reg, b: Reg) -> Result<Reg, String> {
    use RealPred::*;
    let ty = sc.reg_ty();
    let (ra, rb) = (A::R(a), A::R(b));
    let p = fx.m.predicate_file().ok_or("the machine has no predicates")?;
    if !fx.has(SemOp::Lt, ty, Some(p), &[fx.file(a), fx.file(b)]) && !fx.has(SemOp::Eq, ty, Some(p), &[fx.file(a), fx.file(b)]) {
        return fcmp_libcall(fx, pred, ty, a, b);
    }
    let c = |fx: &mut Fx, op, x: &A, y: &A| compare(fx, op, ty, x.clone(), y.clone());
    match pred {
        LLVMRealOEQ => c(fx, SemOp::Eq, &ra, &rb),
        LLVMRealOGT => c(fx, SemOp::Gt, &ra, &rb),
        LLVMRealOGE => c(fx, SemOp::Ge, &ra, &rb),
        LLVMRealOLT => c(fx, SemOp::Lt, &ra, &rb),
        LLVMRealOLE => c(fx, SemOp::Le, &ra, &rb),
        LLVMRealONE => {
            let x = c(fx, SemOp::Lt, &ra, &rb)?;
            let y = c(fx, SemOp::Lt, &rb, &ra)?;
            pred_op(fx, SemOp::Or, &[x, y])
        }
        LLVMRealORD => {
            let u = c(fx, SemOp::Unord, &ra, &rb)?;
            pred_op(fx, SemOp::Not, &[u])
        }
        LLVMRealUNO => c(fx, SemOp::Unord, &ra, &rb),
        LLVMRealUEQ => {
            let x = c(fx, SemOp::Eq, &ra, &rb)?;
            let u = c(fx, SemOp::Unord, &ra, &rb)?;
            pred_op(fx, SemOp::Or, &[x, u])
        }
        LLVMRealUNE => c(fx, SemOp::Ne, &ra, &rb),
        LLVMRealUGT => {
            let x = c(fx, SemOp::Le, &ra, &rb)?;
            pred_op(fx, SemOp::Not, &[x])
        }
        LLVMRealUGE => {
            let x = c(fx, SemOp::Lt, &ra, &rb)?;
            pred_op(fx, SemOp::Not, &[x])
        }
        LLVMRealULT => {
            let x = c(fx, SemOp::Ge, &ra, &rb)?;
            pred_op(fx, SemOp::Not, &[x])
        }
        LLVMRealULE => {
            let x = c(fx, SemOp::Gt, &ra, &rb)?;
            pred_op(fx, SemOp::Not, &[x])
        }
        LLVMRealPredicateTrue => fx.imm(1, p),
        LLVMRealPredicateFalse => fx.imm(0, p),
    }
}

/// Float compares through the runtime (`__eqsf2` family): each returns an
/// integer compared with zero.
fn fcmp_libcall(fx: &mut Fx, pred: RealPred, ty: Ty, a: Reg, b: Reg) -> Result<Reg, String> {
    use RealPred::*;
    let int = fx.addr_file()?;
    let p = fx.m.predicate_file().ok_or("the machine has no predicates")?;
    let call = |fx: &mut Fx, name: &str, test: SemOp| -> Result<Reg, String> {
        let r = crate::call::libcall(fx, name, &[a, b], Some(int))?;
        compare(fx, test, Ty::I32, A::R(r), A::I(0))
    };
    let unord = |fx: &mut Fx| call(fx, runtime::fcmp_routine("unord", ty), SemOp::Ne);
    let ordered = |fx: &mut Fx, name: &str, test: SemOp| call(fx, runtime::fcmp_routine(name, ty), test);
    match pred {
        LLVMRealOEQ => ordered(fx, "eq", SemOp::Eq),
        LLVMRealUNE => ordered(fx, "ne", SemOp::Ne),
        LLVMRealOLT => ordered(fx, "lt", SemOp::Lt),
        LLVMRealOLE => ordered(fx, "le", SemOp::Le),
        LLVMRealOGT => ordered(fx, "gt", SemOp::Gt),
        LLVMRealOGE => ordered(fx, "ge", SemOp::Ge),
        LLVMRealUNO => unord(fx),
        LLVMRealORD => {
            let u = unord(fx)?;
            pred_op(fx, SemOp::Not, &[u])
        }
        LLVMRealPredicateTrue => fx.imm(1, p),
        LLVMRealPredicateFalse => fx.imm(0, p),
        other => {
            // u-forms: the negation of the ordered inverse; one/ueq from two calls.
            let (inner, negate) = match other {
                LLVMRealUGT => (LLVMRealOLE, true),
                LLVMRealUGE => (LLVMRealOLT, true),
                LLVMRealULT => (LLVMRealOGE, true),
                LLVMRealULE => (LLVMRealOGT, true),
                LLVMRealUEQ => (LLVMRealONE, true),
                _ => (LLVMRealOEQ, false),
            };
            if other == LLVMRealONE {
                let e = ordered(fx, "eq", SemOp::Eq)?;
                let u = unord(fx)?;
                let x = pred_op(fx, SemOp::Or, &[e, u])?;
                return pred_op(fx, SemOp::Not, &[x]);
            }
            let x = fcmp_libcall(fx, inner, ty, a, b)?;
            if negate {
                pred_op(fx, SemOp::Not, &[x])
            } else {
                Ok(x)
            }
        }
    }
}

/// How `zext (icmp …)` can be one 0/1 compare into the 32-bit integer file:
/// the operation, type, whether the operands are swapped, and the
/// (extended) operands — when the machine has that compare for exactly these
/// operands (no immediate to materialize).
pub struct IntCompare {
    op: SemOp,
    ty: Ty,
    swap: bool,
    signed_ext: bool,
}

fn int_compare_plan(fx: &mut Fx, cmp: crate::llvm::V) -> Result<Option<(IntCompare, u32)>, String> {
    use IntPred::*;
    let sc = match fx.shape(cmp.operand(0).ty())? {
        crate::types::Shape::Scalar(sc @ (Sc::Int(_) | Sc::Ptr)) if sc.bits() <= 32 => sc,
        _ => return Ok(None),
    };
    let (op, signed) = match cmp.icmp_pred() {
        LLVMIntEQ => (SemOp::Eq, None),
        LLVMIntNE => (SemOp::Ne, None),
        LLVMIntSLT => (SemOp::Lt, Some(true)),
        LLVMIntSLE => (SemOp::Le, Some(true)),
        LLVMIntSGT => (SemOp::Gt, Some(true)),
        LLVMIntSGE => (SemOp::Ge, Some(true)),
        LLVMIntULT => (SemOp::Lt, Some(false)),
        LLVMIntULE => (SemOp::Le, Some(false)),
        LLVMIntUGT => (SemOp::Gt, Some(false)),
        LLVMIntUGE => (SemOp::Ge, Some(false)),
    };
    let int = fx.addr_file()?;
    let swapped = match op {
        SemOp::Lt => SemOp::Gt,
        SemOp::Gt => SemOp::Lt,
        SemOp::Le => SemOp::Ge,
        SemOp::Ge => SemOp::Le,
        o => o,
    };
    let tys: &[Ty] = match signed {
        Some(true) => &[Ty::I32],
        Some(false) => &[Ty::U32],
        None => &[Ty::I32, Ty::U32],
    };
    let signed_ext = signed.unwrap_or(true);
    let bits = sc.bits();
    // Operand patterns after extension (constants extended here, registers stay in their file).
    let pat = |fx: &mut Fx, v: crate::llvm::V| -> Result<Option<isa_tablegen::ArgPat>, String> {
        if let Some((x, b)) = v.const_int() {
            let x = crate::function::sext(x, b);
            let e = if signed_ext {
                crate::function::sext(x as u64, bits)
            } else if bits < 64 {
                x & ((1i64 << bits) - 1)
            } else {
                x
            };
            return Ok(Some(isa_tablegen::ArgPat::Imm(e)));
        }
        if !v.is_instruction() && !v.is_argument() {
            return Ok(None);
        }
        let r = fx.reg(v)?;
        Ok(Some(isa_tablegen::ArgPat::Reg(fx.file(r))))
    };
    let (Some(pa), Some(pb)) = (pat(fx, cmp.operand(0))?, pat(fx, cmp.operand(1))?) else { return Ok(None) };
    for &t in tys {
        for (o, swap, pats) in [(op, false, [pa, pb]), (swapped, true, [pb, pa])] {
            if fx.find(o, Some(t), None, Some(int), &pats).is_some() {
                return Ok(Some((IntCompare { op: o, ty: t, swap, signed_ext }, bits)));
            }
        }
    }
    Ok(None)
}

/// Whether every use of an icmp is a `zext` to at most 32 bits that can
/// be one integer compare (then the predicate itself is not needed).
pub fn icmp_only_feeds_int_compares(fx: &mut Fx, cmp: crate::llvm::V) -> Result<bool, String> {
    let users = cmp.users();
    if users.is_empty() {
        return Ok(false);
    }
    for u in users {
        let ok = u.opcode() == Some(crate::llvm::Op::LLVMZExt) && crate::function::Fx::int_bits(u.ty()).is_some_and(|b| b <= 32);
        if !ok {
            return Ok(false);
        }
    }
    Ok(int_compare_plan(fx, cmp)?.is_some())
}

/// An integer compare written as 0/1 straight into the 32-bit integer file
/// (for `zext (icmp …)`), when the machine has such a compare.
pub fn icmp_to_int(fx: &mut Fx, cmp: crate::llvm::V) -> Result<Option<Reg>, String> {
    let Some((plan, bits)) = int_compare_plan(fx, cmp)? else { return Ok(None) };
    let int = fx.addr_file()?;
    let a = fx.arg(cmp.operand(0))?;
    let b = fx.arg(cmp.operand(1))?;
    let (a, b) =
        if plan.signed_ext { (sext_arg(fx, a, bits)?, sext_arg(fx, b, bits)?) } else { (zext_arg(fx, a, bits)?, zext_arg(fx, b, bits)?) };
    let (x, y) = if plan.swap { (b, a) } else { (a, b) };
    Ok(Some(fx.op(plan.op, plan.ty, int, &[x, y])?))
}

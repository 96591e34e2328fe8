//! Scalar instructions: integer and floating-point arithmetic, compares,
//! casts, select, aggregates (extractvalue/insertvalue) — each found by
//! semantics, with fallbacks (operand swaps, negations, extensions of narrow
//! integers, runtime routines) when the machine lacks the direct form.
//! Vector-typed instructions are handed to `vector`, memory to `memory`.

use dsp_mir::Reg;
use isa_tablegen::{RegFileId, SemOp, Ty};

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::llvm::{IntPred, Op, V};
use crate::runtime;
use crate::types::{Sc, Shape};

pub use crate::cmp::{compare, fcmp, icmp};
pub use crate::memory::{gep_const_offset, lower_alloca, DYN_PLACEHOLDER};

/// Instructions that are not control flow, calls, phis or vector shuffles.
pub fn lower_inst(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    use Op::*;
    match op {
        LLVMLoad => return crate::memory::lower_load(fx, i),
        LLVMStore => return crate::memory::lower_store(fx, i),
        LLVMGetElementPtr => return crate::memory::lower_gep(fx, i),
        _ => {}
    }
    let t = i.ty();
    if op == LLVMBitCast {
        let v = bitcast(fx, i.operand(0), t)?;
        fx.set(i, v);
        return Ok(());
    }
    let shape = fx.shape(t)?;
    let wide_src = match op {
        LLVMSelect => fx.shape(i.operand(1).ty())?,
        _ => fx.shape(i.operand(0).ty())?,
    };
    if matches!(shape, Shape::Wide { .. }) || matches!(wide_src, Shape::Wide { .. }) {
        return crate::wide::lower(fx, i, op);
    }
    // Operand shape decides for compares and casts from vectors.
    let src_shape = fx.shape(i.operand(0).ty())?;
    let vector =
        matches!(shape, Shape::Native { .. } | Shape::Lanes { .. }) || matches!(src_shape, Shape::Native { .. } | Shape::Lanes { .. });
    if vector {
        return crate::vector::lower_lanewise(fx, i, op);
    }
    if let (Shape::Agg(_), LLVMSelect) = (&shape, op) {
        let c = fx.reg(i.operand(0))?;
        let a = fx.val(i.operand(1))?;
        let b = fx.val(i.operand(2))?;
        let mut out = Vec::new();
        for (x, y) in a.regs().into_iter().zip(b.regs()) {
            out.push(select_reg(fx, c, x, y)?);
        }
        let v = fx.unflatten(t, &mut out.into_iter())?;
        fx.set(i, v);
        return Ok(());
    }
    let r = match op {
        LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
        | LLVMXor | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem => {
            let sc = scalar_of(fx, i)?;
            let a = fx.arg(i.operand(0))?;
            let b = fx.arg(i.operand(1))?;
            let by_pow2 = match op {
                LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem => div_by_pow2_reg(fx, op, sc, &a, &b, i.operand(1))?,
                _ => None,
            };
            match by_pow2 {
                Some(r) => r,
                None => binop(fx, op, sc, a, b)?,
            }
        }
        LLVMFNeg => {
            let sc = scalar_of(fx, i)?;
            let a = fx.reg(i.operand(0))?;
            fneg(fx, sc, a)?
        }
        LLVMICmp => {
            // Used only as 0/1 integers: each zext compares into the integer file.
            if crate::cmp::icmp_only_feeds_int_compares(fx, i)? {
                return Ok(());
            }
            let sc = scalar_of_v(fx, i.operand(0))?;
            let a = fx.arg(i.operand(0))?;
            let b = fx.arg(i.operand(1))?;
            icmp(fx, i.icmp_pred(), sc, a, b)?
        }
        LLVMFCmp => {
            let sc = scalar_of_v(fx, i.operand(0))?;
            let a = fx.reg(i.operand(0))?;
            let b = fx.reg(i.operand(1))?;
            fcmp(fx, i.fcmp_pred(), sc, a, b)?
        }
        LLVMSelect => {
            let c = fx.reg(i.operand(0))?;
            let sc = scalar_of(fx, i)?;
            let a = fx.reg(i.operand(1))?;
            let b = fx.reg(i.operand(2))?;
            if sc == Sc::I1 {
                select_pred(fx, c, a, b)?
            } else {
                select_reg(fx, c, a, b)?
            }
        }
        LLVMTrunc | LLVMZExt | LLVMSExt | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc | LLVMFPExt | LLVMPtrToInt
        | LLVMIntToPtr | LLVMAddrSpaceCast => {
            let from = scalar_of_v(fx, i.operand(0))?;
            let to = scalar_of(fx, i)?;
            // zext (icmp …) to a 32-bit integer: the machine's 0/1 compare, if it has one.
            let direct = if op == LLVMZExt && from == Sc::I1 && to.bits() <= 32 && i.operand(0).opcode() == Some(LLVMICmp) {
                crate::cmp::icmp_to_int(fx, i.operand(0))?
            } else {
                None
            };
            match direct {
                Some(r) => r,
                None => {
                    let a = fx.reg(i.operand(0))?;
                    cast(fx, op, from, to, a)?
                }
            }
        }
        LLVMBitCast => {
            let v = bitcast(fx, i.operand(0), t)?;
            fx.set(i, v);
            return Ok(());
        }
        _ => return Err(format!("instruction '{op:?}' is not supported")),
    };
    fx.set(i, Val::S(r));
    Ok(())
}

fn scalar_of(fx: &Fx, i: V) -> Result<Sc, String> {
    scalar_of_v(fx, i)
}

fn scalar_of_v(fx: &Fx, v: V) -> Result<Sc, String> {
    match fx.shape(v.ty())? {
        Shape::Scalar(sc) => Ok(sc),
        _ => Err(format!("type '{}' is not a scalar", v.ty().print())),
    }
}

/// The first of several types the machine has `op` for (into `dst`, from these arguments).
pub(crate) fn op_tys(fx: &mut Fx, op: SemOp, tys: &[Ty], dst: RegFileId, args: &[A]) -> Result<Reg, String> {
    // Exact matches first (no materialized immediates), then any.
    for &t in tys {
        let pats: Vec<isa_tablegen::ArgPat> = args
            .iter()
            .map(|a| match a {
                A::R(r) => isa_tablegen::ArgPat::Reg(fx.file(*r)),
                A::I(v) => isa_tablegen::ArgPat::Imm(*v),
                _ => isa_tablegen::ArgPat::SymImm,
            })
            .collect();
        if fx.find(op, Some(t), None, Some(dst), &pats).is_some() {
            return fx.op(op, t, dst, args);
        }
    }
    for &t in tys {
        if let Some(Some(r)) = fx.try_op(op, Some(t), None, Some(dst), args) {
            return Ok(r);
        }
    }
    Err(fx.missing(op, tys.first().copied(), None, Some(dst), args))
}

/// Logic on predicates: `op` in {And, Or, Xor, Not}.
pub fn pred_op(fx: &mut Fx, op: SemOp, args: &[Reg]) -> Result<Reg, String> {
    let p = fx.m.predicate_file().ok_or("the machine has no predicates")?;
    let a: Vec<A> = args.iter().map(|r| A::R(*r)).collect();
    op_tys(fx, op, &[Ty::U32, Ty::I32], p, &a)
}

/// A predicate as an integer 0/1.
pub fn pred_to_int(fx: &mut Fx, p: Reg) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    if let Some(Some(r)) = fx.try_op(SemOp::Mov, Some(Ty::U32), None, Some(int), &[A::R(p)]) {
        return Ok(r);
    }
    let one = fx.imm(1, int)?;
    let zero = fx.imm(0, int)?;
    op_tys(fx, SemOp::Select, &[Ty::I32, Ty::U32], int, &[A::R(p), A::R(one), A::R(zero)])
}

/// `bits`-bit integer `a` sign-extended to its register width.
pub fn sext_arg(fx: &mut Fx, a: A, bits: u32) -> Result<A, String> {
    Ok(match a {
        A::I(v) => A::I(crate::function::sext(v as u64, bits)),
        A::R(r) => A::R(sext_reg(fx, r, bits)?),
        other => other,
    })
}

/// `bits`-bit integer `a` zero-extended to its register width.
pub fn zext_arg(fx: &mut Fx, a: A, bits: u32) -> Result<A, String> {
    Ok(match a {
        A::I(v) if bits < 64 => A::I(v & ((1i64 << bits) - 1)),
        A::R(r) => A::R(zext_reg(fx, r, bits)?),
        other => other,
    })
}

pub fn sext_reg(fx: &mut Fx, r: Reg, bits: u32) -> Result<Reg, String> {
    let file = fx.file(r);
    let width = if bits > 32 { 64 } else { 32 };
    if bits == width {
        return Ok(r);
    }
    let (big, narrow) =
        if width == 64 { (Ty::I64, None) } else { (Ty::I32, [(8, Ty::I8), (16, Ty::I16)].iter().find(|x| x.0 == bits).map(|x| x.1)) };
    if let Some(n) = narrow {
        if let Some(Some(x)) = fx.try_op(SemOp::Cvt, Some(n), Some(big), Some(file), &[A::R(r)]) {
            return Ok(x);
        }
    }
    let sh = (width - bits) as i64;
    let l = fx.op(SemOp::Shl, big, file, &[A::R(r), A::I(sh)])?;
    shift(fx, SemOp::Shr, big, l, A::I(sh))
}

pub fn zext_reg(fx: &mut Fx, r: Reg, bits: u32) -> Result<Reg, String> {
    let file = fx.file(r);
    let width = if bits > 32 { 64 } else { 32 };
    if bits == width {
        return Ok(r);
    }
    if width == 32 {
        let narrow = [(8, Ty::U8), (16, Ty::U16)].iter().find(|x| x.0 == bits).map(|x| x.1);
        if let Some(n) = narrow {
            if let Some(Some(x)) = fx.try_op(SemOp::Cvt, Some(n), Some(Ty::U32), Some(file), &[A::R(r)]) {
                return Ok(x);
            }
        }
        return op_tys(fx, SemOp::And, &[Ty::I32, Ty::U32], file, &[A::R(r), A::I((1i64 << bits) - 1)]);
    }
    let sh = (64 - bits) as i64;
    let l = fx.op(SemOp::Shl, Ty::I64, file, &[A::R(r), A::I(sh)])?;
    shift(fx, SemOp::Shr, Ty::U64, l, A::I(sh))
}

/// A shift, with the amount moved into whatever file the machine's shift reads.
pub fn shift(fx: &mut Fx, op: SemOp, ty: Ty, a: Reg, amt: A) -> Result<Reg, String> {
    let file = fx.file(a);
    let alt = if op == SemOp::Shl { [ty, if ty.bits() == 64 { Ty::U64 } else { Ty::U32 }] } else { [ty, ty] };
    for t in alt {
        if let Some(Some(r)) = fx.try_op(op, Some(t), None, Some(file), &[A::R(a), amt.clone()]) {
            return Ok(r);
        }
    }
    // An amount in another file: its low 32 bits.
    if let A::R(x) = amt {
        let int = fx.addr_file()?;
        if fx.file(x) != int {
            let lo = fx.cvt(Ty::I64, Ty::I32, int, x)?;
            if let Some(Some(r)) = fx.try_op(op, Some(ty), None, Some(file), &[A::R(a), A::R(lo)]) {
                return Ok(r);
            }
        }
    }
    let name = runtime::shift_routine(op, ty).ok_or_else(|| fx.missing(op, Some(ty), None, Some(file), &[A::R(a), amt.clone()]))?;
    let amt = match amt {
        A::R(x) if fx.file(x) != fx.addr_file()? => fx.cvt(Ty::I64, Ty::I32, fx.addr_file()?, x)?,
        A::R(x) => x,
        other => fx.materialize(&other, fx.addr_file()?)?,
    };
    crate::call::libcall(fx, name, &[a, amt], Some(file))
}

/// A binary operation on scalars.
pub fn binop(fx: &mut Fx, op: Op, sc: Sc, a: A, b: A) -> Result<Reg, String> {
    use Op::*;
    let file = fx.sc_file(sc)?;
    let bits = sc.bits();
    if sc == Sc::I1 {
        let (ra, rb) = (as_reg(fx, a, file)?, as_reg(fx, b, file)?);
        return match op {
            LLVMAnd | LLVMMul => pred_op(fx, SemOp::And, &[ra, rb]),
            LLVMOr => pred_op(fx, SemOp::Or, &[ra, rb]),
            LLVMXor | LLVMAdd | LLVMSub => pred_op(fx, SemOp::Xor, &[ra, rb]),
            LLVMUDiv | LLVMSDiv | LLVMShl | LLVMLShr | LLVMAShr => Ok(ra),
            _ => Err("this i1 operation is not supported".into()),
        };
    }
    if sc.is_float() {
        let ty = sc.reg_ty();
        let (ra, rb) = (as_reg(fx, a, file)?, as_reg(fx, b, file)?);
        let sop = match op {
            LLVMFAdd => SemOp::Add,
            LLVMFSub => SemOp::Sub,
            LLVMFMul => SemOp::Mul,
            LLVMFDiv => SemOp::Div,
            LLVMFRem => return crate::call::libcall(fx, runtime::fmod(ty), &[ra, rb], Some(file)),
            _ => return Err("integer operation on a floating-point type".into()),
        };
        if let Some(Some(r)) = fx.try_op(sop, Some(ty), None, Some(file), &[A::R(ra), A::R(rb)]) {
            return Ok(r);
        }
        let name = runtime::float_routine(sop, ty).ok_or_else(|| fx.missing(sop, Some(ty), None, Some(file), &[]))?;
        return crate::call::libcall(fx, name, &[ra, rb], Some(file));
    }
    let (s, u) = (sc.arith_ty(true), sc.arith_ty(false));
    let simple = |o| match o {
        LLVMAdd => Some(SemOp::Add),
        LLVMSub => Some(SemOp::Sub),
        LLVMMul => Some(SemOp::Mul),
        LLVMAnd => Some(SemOp::And),
        LLVMOr => Some(SemOp::Or),
        LLVMXor => Some(SemOp::Xor),
        _ => None,
    };
    if let Some(sop) = simple(op) {
        // x - c as x + (-c) when only the add takes an immediate.
        if let (SemOp::Sub, A::I(c)) = (sop, &b) {
            let na = A::I(c.wrapping_neg());
            let ra = as_reg(fx, a.clone(), file)?;
            let pats = [isa_tablegen::ArgPat::Reg(file), isa_tablegen::ArgPat::Imm(c.wrapping_neg())];
            if fx.find(SemOp::Add, Some(s), None, Some(file), &pats).is_some() {
                return fx.op(SemOp::Add, s, file, &[A::R(ra), na]);
            }
        }
        if let Ok(r) = op_tys(fx, sop, &[s, u], file, &[a.clone(), b.clone()]) {
            return Ok(r);
        }
        if sop == SemOp::Mul {
            let ra = as_reg(fx, a, file)?;
            let rb = as_reg(fx, b, file)?;
            return crate::call::libcall(fx, runtime::int_routine(SemOp::Mul, s), &[ra, rb], Some(file));
        }
        return Err(fx.missing(sop, Some(s), None, Some(file), &[a, b]));
    }
    match op {
        LLVMShl => {
            let ra = as_reg(fx, a, file)?;
            shift(fx, SemOp::Shl, s, ra, b)
        }
        LLVMLShr => {
            let ra = zext_arg(fx, a, bits)?;
            let ra = as_reg(fx, ra, file)?;
            shift(fx, SemOp::Shr, u, ra, b)
        }
        LLVMAShr => {
            let ra = sext_arg(fx, a, bits)?;
            let ra = as_reg(fx, ra, file)?;
            shift(fx, SemOp::Shr, s, ra, b)
        }
        LLVMUDiv | LLVMURem | LLVMSDiv | LLVMSRem => {
            let signed = matches!(op, LLVMSDiv | LLVMSRem);
            let sop = if matches!(op, LLVMUDiv | LLVMSDiv) { SemOp::Div } else { SemOp::Rem };
            let (a, b) =
                if signed { (sext_arg(fx, a, bits)?, sext_arg(fx, b, bits)?) } else { (zext_arg(fx, a, bits)?, zext_arg(fx, b, bits)?) };
            let ty = if signed { s } else { u };
            // Unsigned 32-bit division by a constant: a multiply by its
            // reciprocal (no divider, which is slow and rarely pipelined).
            if let (false, 32, A::I(d)) = (signed, bits, &b) {
                let d = *d as u64 as u32;
                if d > 1 {
                    if let Some(r) = udiv_by_constant(fx, a.clone(), d, sop == SemOp::Rem, file)? {
                        return Ok(r);
                    }
                }
            }
            // Division by a positive power of two (any width, signed or
            // not): shifts, never the divider.
            if let A::I(d) = &b {
                if *d > 1 && (*d as u64).is_power_of_two() {
                    return div_by_power_of_two(fx, a, (*d as u64).trailing_zeros(), signed, sop == SemOp::Rem, ty, file);
                }
            }
            if let Some(Some(r)) = fx.try_op(sop, Some(ty), None, Some(file), &[a.clone(), b.clone()]) {
                return Ok(r);
            }
            let ra = as_reg(fx, a, file)?;
            let rb = as_reg(fx, b, file)?;
            crate::call::libcall(fx, runtime::int_routine(sop, ty), &[ra, rb], Some(file))
        }
        _ => Err(format!("operation '{op:?}' is not supported")),
    }
}

/// The reciprocal of a divisor `d` > 1 for [`udiv_by_constant`]: `(m, l)`
/// with `l = ceil(log2 d)` and `m = floor(2^32 (2^l - d) / d) + 1`, so that
/// `n / d = (t + ((n - t) >> 1)) >> (l - 1)` with `t = mulhi(n, m)` for
/// every 32-bit `n` (Granlund and Montgomery, "Division by invariant
/// integers using multiplication", 1994, §4).
pub fn udiv_magic(d: u32) -> (u32, u32) {
    let l = 32 - (d - 1).leading_zeros();
    let m = ((((1u64 << l) - d as u64) << 32) / d as u64 + 1) as u32;
    (m, l)
}

/// `n / d` (or `n % d` when `rem`) for unsigned 32-bit `n` and constant
/// `d` > 1 with the machine's high multiply; `None` when it has none.
fn udiv_by_constant(fx: &mut Fx, n: A, d: u32, rem: bool, file: RegFileId) -> Result<Option<Reg>, String> {
    let n = as_reg(fx, n, file)?;
    let q = if d.is_power_of_two() {
        shift(fx, SemOp::Shr, Ty::U32, n, A::I(d.trailing_zeros() as i64))?
    } else {
        let (m, l) = udiv_magic(d);
        let mr = fx.imm(m as i32 as i64, file)?;
        let Some(Some(t)) = fx.try_op(SemOp::MulHi, Some(Ty::U32), None, Some(file), &[A::R(n), A::R(mr)]) else { return Ok(None) };
        let diff = fx.op(SemOp::Sub, Ty::I32, file, &[A::R(n), A::R(t)])?;
        let half = shift(fx, SemOp::Shr, Ty::U32, diff, A::I(1))?;
        let sum = fx.op(SemOp::Add, Ty::I32, file, &[A::R(t), A::R(half)])?;
        if l > 1 { shift(fx, SemOp::Shr, Ty::U32, sum, A::I(l as i64 - 1))? } else { sum }
    };
    if !rem {
        return Ok(Some(q));
    }
    let qd = fx.op(SemOp::Mul, Ty::I32, file, &[A::R(q), A::I(d as i32 as i64)])?;
    Ok(Some(fx.op(SemOp::Sub, Ty::I32, file, &[A::R(n), A::R(qd)])?))
}

/// `n / 2^k` (or `n % 2^k` when `rem`) for `n` of type `ty` (sign- or
/// zero-extended to its width `w`), `0 < k < w`: a logical shift when
/// unsigned; when signed, rounded towards zero as C and LLVM require by
/// adding `2^k - 1` to a negative `n` first, `(n + ((n >> (w-1)) >>> (w-k))) >> k`
/// (Warren, "Hacker's Delight", §10-1). The remainder is `n - (q << k)`.
fn div_by_power_of_two(fx: &mut Fx, n: A, k: u32, signed: bool, rem: bool, ty: Ty, file: RegFileId) -> Result<Reg, String> {
    let w = ty.bits();
    let n = as_reg(fx, n, file)?;
    let (uty, sty) = if w == 64 { (Ty::U64, Ty::I64) } else { (Ty::U32, Ty::I32) };
    if k >= w {
        // Not reached: a w-bit constant is sign-extended, so a positive
        // power of two is below 2^(w-1).
        return Err(format!("internal: division by 2^{k} of a {w}-bit value"));
    }
    let bias = if signed {
        let sign = shift(fx, SemOp::Shr, sty, n, A::I(w as i64 - 1))?;
        Some(shift(fx, SemOp::Shr, uty, sign, A::I((w - k) as i64))?)
    } else {
        None
    };
    shifted_quotient(fx, n, bias, A::I(k as i64), rem, ty, file)
}

/// The quotient `(n + bias) >> k` (arithmetic with a bias, the signed
/// case; logical without), or with `rem` the remainder `n - (q << k)`.
fn shifted_quotient(fx: &mut Fx, n: Reg, bias: Option<Reg>, k: A, rem: bool, ty: Ty, file: RegFileId) -> Result<Reg, String> {
    let (uty, sty) = if ty.bits() == 64 { (Ty::U64, Ty::I64) } else { (Ty::U32, Ty::I32) };
    let q = match bias {
        Some(bias) => {
            let t = fx.op(SemOp::Add, sty, file, &[A::R(n), A::R(bias)])?;
            shift(fx, SemOp::Shr, sty, t, k.clone())?
        }
        None => shift(fx, SemOp::Shr, uty, n, k.clone())?,
    };
    if !rem {
        return Ok(q);
    }
    let back = shift(fx, SemOp::Shl, sty, q, k)?;
    fx.op(SemOp::Sub, sty, file, &[A::R(n), A::R(back)])
}

/// `n / d` (or `n % d`) for a divisor `d`, the LLVM value `dv`, that is
/// not constant but known to be a power of two, below the sign bit when
/// signed ([`crate::pow2`]): `k` = its trailing zeros, then as
/// [`div_by_power_of_two`] with a shift by `k` and the bias `d - 1` of a
/// negative dividend; the remainder of an unsigned one is `n & (d - 1)`.
/// `None` when `dv` is not known so, or the machine cannot count trailing
/// zeros (the divider then).
fn div_by_pow2_reg(fx: &mut Fx, op: Op, sc: Sc, n: &A, d: &A, dv: V) -> Result<Option<Reg>, String> {
    use crate::pow2::{power_of_two_or_zero, Sign};
    use Op::*;
    let signed = matches!(op, LLVMSDiv | LLVMSRem);
    let w = sc.bits();
    if dv.is_constant() || (w != 32 && w != 64) || !power_of_two_or_zero(dv, if signed { Sign::Clear } else { Sign::Any }) {
        return Ok(None);
    }
    let rem = matches!(op, LLVMURem | LLVMSRem);
    let file = fx.sc_file(sc)?;
    let (uty, sty) = if w == 64 { (Ty::U64, Ty::I64) } else { (Ty::U32, Ty::I32) };
    let d = as_reg(fx, d.clone(), file)?;
    let int = fx.addr_file()?;
    let Some(Some(k)) = fx.try_op(SemOp::Ctz, Some(sty), None, Some(int), &[A::R(d)]) else { return Ok(None) };
    let n = as_reg(fx, n.clone(), file)?;
    let mask = fx.op(SemOp::Add, sty, file, &[A::R(d), A::I(-1)])?;
    if !signed && rem {
        return Ok(Some(op_tys(fx, SemOp::And, &[sty, uty], file, &[A::R(n), A::R(mask)])?));
    }
    let bias = if signed {
        let sign = shift(fx, SemOp::Shr, sty, n, A::I(w as i64 - 1))?;
        Some(op_tys(fx, SemOp::And, &[sty, uty], file, &[A::R(sign), A::R(mask)])?)
    } else {
        None
    };
    Ok(Some(shifted_quotient(fx, n, bias, A::R(k), rem, sty, file)?))
}

/// An argument in a register of `file`.
pub fn as_reg(fx: &mut Fx, a: A, file: RegFileId) -> Result<Reg, String> {
    fx.materialize(&a, file)
}

pub fn fneg(fx: &mut Fx, sc: Sc, a: Reg) -> Result<Reg, String> {
    let file = fx.sc_file(sc)?;
    let ty = sc.reg_ty();
    if let Some(Some(r)) = fx.try_op(SemOp::Neg, Some(ty), None, Some(file), &[A::R(a)]) {
        return Ok(r);
    }
    // Flip the sign bit.
    let (ity, bit) = if ty == Ty::F32 { (Ty::I32, i32::MIN as i64) } else { (Ty::I64, i64::MIN) };
    op_tys(fx, SemOp::Xor, &[ity, if ity.bits() == 64 { Ty::U64 } else { Ty::U32 }], file, &[A::R(a), A::I(bit)])
}

/// `c ? a : b` for registers of one file.
pub fn select_reg(fx: &mut Fx, c: Reg, a: Reg, b: Reg) -> Result<Reg, String> {
    let file = fx.file(a);
    if Some(file) == fx.m.predicate_file() {
        return select_pred(fx, c, a, b);
    }
    let wide = fx.m.regfile(file).width > 32;
    let tys: &[Ty] = if wide { &[Ty::I64, Ty::U64, Ty::F64] } else { &[Ty::I32, Ty::U32, Ty::F32] };
    if let Ok(r) = op_tys(fx, SemOp::Select, tys, file, &[A::R(c), A::R(a), A::R(b)]) {
        return Ok(r);
    }
    // Arithmetic select: mask = -(c as int); (a & mask) | (b & ~mask).
    let one = pred_to_int(fx, c)?;
    let mut m = fx.op(SemOp::Sub, Ty::I32, fx.addr_file()?, &[A::I(0), A::R(one)])?;
    let (and_ty, xor_ty) = if wide { (Ty::I64, Ty::I64) } else { (Ty::I32, Ty::I32) };
    if wide {
        m = fx.cvt(Ty::I32, Ty::I64, file, m)?;
    }
    let x = fx.op(SemOp::Xor, xor_ty, file, &[A::R(a), A::R(b)])?;
    let y = fx.op(SemOp::And, and_ty, file, &[A::R(x), A::R(m)])?;
    fx.op(SemOp::Xor, xor_ty, file, &[A::R(y), A::R(b)])
}

/// `c ? a : b` on predicates: (c & a) | (!c & b).
pub fn select_pred(fx: &mut Fx, c: Reg, a: Reg, b: Reg) -> Result<Reg, String> {
    let x = pred_op(fx, SemOp::And, &[c, a])?;
    let nc = pred_op(fx, SemOp::Not, &[c])?;
    let y = pred_op(fx, SemOp::And, &[nc, b])?;
    pred_op(fx, SemOp::Or, &[x, y])
}

/// Scalar casts.
pub fn cast(fx: &mut Fx, op: Op, from: Sc, to: Sc, a: Reg) -> Result<Reg, String> {
    use Op::*;
    let tfile = fx.sc_file(to)?;
    let (fb, tb) = (from.bits(), to.bits());
    match op {
        LLVMTrunc => {
            if to == Sc::I1 {
                let f = fx.file(a);
                let x = if fb > 32 { fx.cvt(Ty::I64, Ty::I32, fx.addr_file()?, a)? } else { a };
                let _ = f;
                let int = fx.addr_file()?;
                let m = op_tys(fx, SemOp::And, &[Ty::I32, Ty::U32], int, &[A::R(x), A::I(1)])?;
                return compare(fx, SemOp::Ne, Ty::I32, A::R(m), A::I(0));
            }
            if fx.file(a) == tfile {
                Ok(a)
            } else {
                fx.cvt(Ty::I64, Ty::I32, tfile, a)
            }
        }
        LLVMZExt | LLVMSExt => {
            let signed = op == LLVMSExt;
            let x = if from == Sc::I1 {
                let one = pred_to_int(fx, a)?;
                if signed {
                    fx.op(SemOp::Sub, Ty::I32, fx.addr_file()?, &[A::I(0), A::R(one)])?
                } else {
                    one
                }
            } else if signed {
                sext_reg(fx, a, fb)?
            } else {
                zext_reg(fx, a, fb)?
            };
            if fx.file(x) == tfile {
                return Ok(x);
            }
            let _ = tb;
            fx.cvt(if signed { Ty::I32 } else { Ty::U32 }, if signed { Ty::I64 } else { Ty::U64 }, tfile, x)
        }
        LLVMPtrToInt | LLVMIntToPtr | LLVMAddrSpaceCast => {
            if fx.file(a) == tfile {
                Ok(a)
            } else if tb > fb {
                fx.cvt(Ty::U32, Ty::U64, tfile, a)
            } else {
                fx.cvt(Ty::I64, Ty::I32, tfile, a)
            }
        }
        LLVMFPTrunc | LLVMFPExt => {
            let (f, t) = (from.reg_ty(), to.reg_ty());
            match fx.try_op(SemOp::Cvt, Some(f), Some(t), Some(tfile), &[A::R(a)]) {
                Some(Some(r)) => Ok(r),
                _ => crate::call::libcall(fx, runtime::cvt_routine(f, t), &[a], Some(tfile)),
            }
        }
        LLVMFPToSI | LLVMFPToUI => {
            let signed = op == LLVMFPToSI;
            let f = from.reg_ty();
            let target = if to == Sc::I1 { Sc::Int(32) } else { to };
            let t = target.arith_ty(signed);
            let file = fx.sc_file(target)?;
            let r = match fx.try_op(SemOp::Cvt, Some(f), Some(t), Some(file), &[A::R(a)]) {
                Some(Some(r)) => r,
                _ => crate::call::libcall(fx, runtime::cvt_routine(f, t), &[a], Some(file))?,
            };
            if to == Sc::I1 {
                return compare(fx, SemOp::Ne, Ty::I32, A::R(r), A::I(0));
            }
            Ok(r)
        }
        LLVMSIToFP | LLVMUIToFP => {
            let signed = op == LLVMSIToFP;
            let t = to.reg_ty();
            let x = if from == Sc::I1 {
                let one = pred_to_int(fx, a)?;
                if signed {
                    fx.op(SemOp::Sub, Ty::I32, fx.addr_file()?, &[A::I(0), A::R(one)])?
                } else {
                    one
                }
            } else if signed {
                sext_reg(fx, a, fb)?
            } else {
                zext_reg(fx, a, fb)?
            };
            let src = if from == Sc::I1 { Sc::Int(32) } else { from };
            let f = src.arith_ty(signed);
            match fx.try_op(SemOp::Cvt, Some(f), Some(t), Some(tfile), &[A::R(x)]) {
                Some(Some(r)) => Ok(r),
                _ => crate::call::libcall(fx, runtime::cvt_routine(f, t), &[x], Some(tfile)),
            }
        }
        _ => Err(format!("cast '{op:?}' is not supported")),
    }
}

/// A bitcast: the same registers when the shapes agree, else through memory.
pub fn bitcast(fx: &mut Fx, v: V, to: crate::llvm::T) -> Result<Val, String> {
    let x = fx.val(v)?;
    let from_shape = fx.shape(v.ty())?;
    let to_shape = fx.shape(to)?;
    let same = match (&from_shape, &to_shape) {
        (Shape::Scalar(a), Shape::Scalar(b)) => fx.sc_file(*a)? == fx.sc_file(*b)? && a.bits() == b.bits(),
        (Shape::Native { chunks: a, file: fa, .. }, Shape::Native { chunks: b, file: fb, .. }) => a == b && fa == fb,
        _ => false,
    };
    if same {
        return Ok(x);
    }
    if from_shape == to_shape {
        return Ok(x);
    }
    // i1 vectors and integers: lane k is bit k.
    let bool_vec = |s: &Shape| matches!(s, Shape::Native { elem: Sc::I1, .. } | Shape::Lanes { elem: Sc::I1, .. });
    if bool_vec(&from_shape) {
        if let Shape::Scalar(Sc::Int(bits)) = to_shape {
            return Ok(Val::S(crate::vector::mask_to_int(fx, &x, v.ty(), bits)?));
        }
    }
    if bool_vec(&to_shape) {
        if let Shape::Scalar(Sc::Int(_)) = from_shape {
            return crate::vector::int_to_mask(fx, x.scalar()?, to);
        }
    }
    // Through a stack slot.
    let size = fx.dl.store_size(v.ty()).max(fx.dl.store_size(to)) as u32;
    let align = fx.dl.align(v.ty()).max(fx.dl.align(to)).max(4);
    let slot = fx.scratch_slot(size, align);
    let sp = Reg::Phys(fx.sp()?);
    let addr = crate::memory::Addr { base: sp, off: A::F(slot, 0) };
    crate::memory::store_val(fx, &addr, &x, v.ty(), align, false)?;
    crate::memory::load_val(fx, &addr, to, align, false)
}

/// extractvalue / insertvalue.
pub fn lower_aggregate(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    let agg = fx.val(i.operand(0))?;
    let idx = i.indices();
    match op {
        Op::LLVMExtractValue => {
            let mut cur = &agg;
            for k in &idx {
                match cur {
                    Val::A(vs) => cur = vs.get(*k as usize).ok_or("extractvalue index out of range")?,
                    _ => return Err("extractvalue from a non-aggregate".into()),
                }
            }
            let v = cur.clone();
            fx.set(i, v);
        }
        _ => {
            let elem = fx.val(i.operand(1))?;
            let mut out = agg;
            {
                let mut cur = &mut out;
                for k in &idx {
                    match cur {
                        Val::A(vs) => cur = vs.get_mut(*k as usize).ok_or("insertvalue index out of range")?,
                        _ => return Err("insertvalue into a non-aggregate".into()),
                    }
                }
                *cur = elem;
            }
            fx.set(i, out);
        }
    }
    Ok(())
}

/// Atomic read-modify-write and compare-exchange: the machine runs one
/// thread without interrupts, so a load, the operation and a store suffice.
pub fn lower_atomic(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    let ptr = i.operand(0);
    let (t, align) = match op {
        Op::LLVMAtomicRMW => (i.ty(), i.alignment()),
        _ => (i.operand(1).ty(), i.alignment()),
    };
    let sc = scalar_of_v(fx, i.operand(1))?;
    let addr = crate::memory::address(fx, ptr)?;
    let old = crate::memory::load_val(fx, &addr, t, align.max(1), true)?;
    let old_r = old.scalar()?;
    if op == Op::LLVMAtomicCmpXchg {
        let cmp = fx.arg(i.operand(1))?;
        let new = fx.reg(i.operand(2))?;
        let eq = icmp(fx, IntPred::LLVMIntEQ, sc, A::R(old_r), cmp)?;
        let val = select_reg(fx, eq, new, old_r)?;
        crate::memory::store_val(fx, &addr, &Val::S(val), t, align.max(1), true)?;
        fx.set(i, Val::A(vec![Val::S(old_r), Val::S(eq)]));
        return Ok(());
    }
    use inkwell::llvm_sys::LLVMAtomicRMWBinOp::*;
    let x = fx.arg(i.operand(1))?;
    let xr = fx.reg(i.operand(1))?;
    let new = match i.atomic_rmw_op() {
        LLVMAtomicRMWBinOpXchg => xr,
        LLVMAtomicRMWBinOpAdd => binop(fx, Op::LLVMAdd, sc, A::R(old_r), x)?,
        LLVMAtomicRMWBinOpSub => binop(fx, Op::LLVMSub, sc, A::R(old_r), x)?,
        LLVMAtomicRMWBinOpAnd => binop(fx, Op::LLVMAnd, sc, A::R(old_r), x)?,
        LLVMAtomicRMWBinOpOr => binop(fx, Op::LLVMOr, sc, A::R(old_r), x)?,
        LLVMAtomicRMWBinOpXor => binop(fx, Op::LLVMXor, sc, A::R(old_r), x)?,
        LLVMAtomicRMWBinOpNand => {
            let a = binop(fx, Op::LLVMAnd, sc, A::R(old_r), x)?;
            binop(fx, Op::LLVMXor, sc, A::R(a), A::I(-1))?
        }
        LLVMAtomicRMWBinOpMax => crate::intrinsics::scalar_intrinsic(fx, "smax", "atomicrmw max", sc, &[old_r, xr], i)?,
        LLVMAtomicRMWBinOpMin => crate::intrinsics::scalar_intrinsic(fx, "smin", "atomicrmw min", sc, &[old_r, xr], i)?,
        LLVMAtomicRMWBinOpUMax => crate::intrinsics::scalar_intrinsic(fx, "umax", "atomicrmw umax", sc, &[old_r, xr], i)?,
        LLVMAtomicRMWBinOpUMin => crate::intrinsics::scalar_intrinsic(fx, "umin", "atomicrmw umin", sc, &[old_r, xr], i)?,
        LLVMAtomicRMWBinOpFAdd => binop(fx, Op::LLVMFAdd, sc, A::R(old_r), A::R(xr))?,
        LLVMAtomicRMWBinOpFSub => binop(fx, Op::LLVMFSub, sc, A::R(old_r), A::R(xr))?,
        other => return Err(format!("atomicrmw {other:?} is not supported")),
    };
    crate::memory::store_val(fx, &addr, &Val::S(new), t, align.max(1), true)?;
    fx.set(i, Val::S(old_r));
    Ok(())
}

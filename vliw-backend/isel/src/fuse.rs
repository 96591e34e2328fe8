//! Patterns over several LLVM instructions, for fixed-point vector code:
//!
//! - a widening load: `load <N x i8|i16>` whose only use is a `sext`/`zext`
//!   to a native `<N x i32>` is one load per vector register of the
//!   machine's `vloadu` of the narrow type (elements extended to the lanes
//!   by the type's signedness), and gives the extension its value;
//! - a narrowing store: `trunc <N x i32> to <N x i8|i16>` whose only use is
//!   the value of a `store` in the same block is not computed; the store is
//!   the machine's `vstoreu` of the narrow type (lanes truncated);
//! - the same with lane masks: `llvm.masked.load` of such a vector whose only
//!   use is an extension, and a `trunc` whose only use is the value of an
//!   `llvm.masked.store`, are the machine's `vloadm`/`vstorem` of the narrow
//!   type;
//! - multiply-accumulate: a `mul` whose only use is an `add` in the same
//!   block waits for the add, which becomes the machine's `mac` (a·b + c,
//!   exact in wrapping integer arithmetic, so always equal to the pair).
//!
//! Instructions waiting this way are "deferred" ([`Fx::deferred`]): if
//! anything else asks for their value, they are lowered there and then
//! (their operands dominate the use), so a pattern that falls through is
//! still correct.

use isa_tablegen::{ArgPat, SemOp, Ty};

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::llvm::{Op, TyKind, V};
use crate::memory::{address, align_at};
use crate::types::{Sc, Shape};
use crate::vector::{chunk_lanes, has_vmem, vmem_typed};

/// Tries the patterns at instruction `i`; true when `i` is done with.
pub fn lower(fx: &mut Fx, i: V, op: Op) -> Result<bool, String> {
    match op {
        Op::LLVMLoad => crate::memory::with_object(fx, i, i.operand(0), |fx| widening_load(fx, i)),
        Op::LLVMStore => crate::memory::with_object(fx, i, i.operand(1), |fx| narrowing_store(fx, i)),
        Op::LLVMTrunc => Ok(defer_trunc(fx, i)?),
        Op::LLVMMul => Ok(defer_mul(fx, i)?),
        Op::LLVMAdd => mac(fx, i),
        _ => Ok(false),
    }
}

/// The vocabulary type of a narrow integer vector element (8 or 16 bits).
fn narrow_ty(t: crate::llvm::T, signed: bool) -> Option<Ty> {
    let TyKind::Vector(e, _) = t.kind() else { return None };
    Some(match (Fx::int_bits(e)?, signed) {
        (8, true) => Ty::I8,
        (8, false) => Ty::U8,
        (16, true) => Ty::I16,
        (16, false) => Ty::U16,
        _ => return None,
    })
}

/// The native 32-bit integer vector shape of `t`: (file, chunks).
fn native_i32(fx: &Fx, t: crate::llvm::T) -> Result<Option<(isa_tablegen::RegFileId, u32)>, String> {
    Ok(match fx.shape(t)? {
        Shape::Native { elem: Sc::Int(32), file, chunks, .. } => Some((file, chunks)),
        _ => None,
    })
}

/// The only user of `v`, if it has exactly one use.
fn only_user(v: V) -> Option<V> {
    let users = v.users();
    (users.len() == 1).then(|| users[0])
}

fn widening_load(fx: &mut Fx, i: V) -> Result<bool, String> {
    let Some(ext) = only_user(i) else { return Ok(false) };
    let signed = match ext.opcode() {
        Some(Op::LLVMSExt) => true,
        Some(Op::LLVMZExt) => false,
        _ => return Ok(false),
    };
    let Some(ty) = narrow_ty(i.ty(), signed) else { return Ok(false) };
    let Some((file, chunks)) = native_i32(fx, ext.ty())? else { return Ok(false) };
    if fx.vals.contains_key(&ext) || !has_vmem(fx, true, file, &[ty]) {
        return Ok(false);
    }
    let addr = address(fx, i.operand(0))?;
    let align = i.alignment().max(1);
    let bytes = chunk_lanes(fx, file) * ty.bits() / 8;
    let mut out = Vec::new();
    for c in 0..chunks {
        let off = (c * bytes) as u64;
        let a = addr.plus(off as i64);
        match vmem_typed(fx, true, &a, file, bytes, align_at(align, off), None, &[ty])? {
            Some(Some(r)) => out.push(r),
            _ => return Err(format!("internal: no {ty} vector load for this address")),
        }
    }
    // The extension is done: the main loop skips instructions with a value.
    fx.set(ext, Val::N(out));
    Ok(true)
}

/// Whether `v` is a call of the intrinsic whose name starts with `prefix`.
fn calls(v: V, prefix: &str) -> bool {
    v.opcode() == Some(Op::LLVMCall) && v.called_value().is_function() && v.called_value().name().starts_with(prefix)
}

/// The machine's masked access `op` of elements of one of `tys` in `file`, if any.
fn masked_instr(fx: &Fx, op: SemOp, file: isa_tablegen::RegFileId, tys: &[Ty]) -> Option<Ty> {
    let int = fx.addr_file().ok()?;
    let mask = ArgPat::Reg(fx.m.mask_file(file)?);
    let pats = if op == SemOp::VLoadM {
        vec![ArgPat::Reg(int), ArgPat::Imm(0), mask]
    } else {
        vec![ArgPat::Reg(int), ArgPat::Imm(0), ArgPat::Reg(file), mask]
    };
    let dst = (op == SemOp::VLoadM).then_some(file);
    tys.iter().copied().find(|&t| fx.find(op, Some(t), None, dst, &pats).is_some())
}

fn defer_trunc(fx: &mut Fx, i: V) -> Result<bool, String> {
    let Some(st) = only_user(i) else { return Ok(false) };
    let masked = calls(st, "llvm.masked.store.");
    if !(st.opcode() == Some(Op::LLVMStore) || masked) || st.operand(0) != i || st.parent() != i.parent() {
        return Ok(false);
    }
    let (Some(ty), Some((file, _))) = (narrow_ty(i.ty(), true), native_i32(fx, i.operand(0).ty())?) else { return Ok(false) };
    let unsigned = narrow_ty(i.ty(), false).expect("same element");
    let has = if masked { masked_instr(fx, SemOp::VStoreM, file, &[ty, unsigned]).is_some() } else { has_vmem(fx, false, file, &[ty, unsigned]) };
    if !has {
        return Ok(false);
    }
    fx.deferred.insert(i);
    Ok(true)
}

/// At an `llvm.masked.load` of 8- or 16-bit elements whose only use is an
/// extension to a native `<N x i32>` (passthru undefined or zero): the
/// machine's narrow masked loads, giving the extension its value.
pub fn widening_masked_load(fx: &mut Fx, i: V) -> Result<bool, String> {
    let Some(ext) = only_user(i) else { return Ok(false) };
    let signed = match ext.opcode() {
        Some(Op::LLVMSExt) => true,
        Some(Op::LLVMZExt) => false,
        _ => return Ok(false),
    };
    let pass = i.operand(3);
    let Some(ty) = narrow_ty(i.ty(), signed) else { return Ok(false) };
    let Some((file, chunks)) = native_i32(fx, ext.ty())? else { return Ok(false) };
    if !(pass.is_undef() || pass.is_null_or_zero()) || fx.vals.contains_key(&ext) || masked_instr(fx, SemOp::VLoadM, file, &[ty]).is_none() {
        return Ok(false);
    }
    let masks = crate::masked::mask_chunks(fx, i.operand(2), chunks)?;
    let addr = address(fx, i.operand(0))?;
    let bytes = chunk_lanes(fx, file) * ty.bits() / 8;
    let mut out = Vec::new();
    for c in 0..chunks as usize {
        let base = crate::intrinsics::addr_reg(fx, &addr.plus(c as i64 * bytes as i64))?;
        out.push(fx.op(SemOp::VLoadM, ty, file, &[A::R(base), A::I(0), A::R(masks[c])])?);
    }
    fx.set(ext, Val::N(out));
    Ok(true)
}

/// The deferred `trunc` `tr`, taken out of the deferred set: its narrow
/// signed and unsigned types and the file and chunks of its 32-bit source;
/// `None` when `tr` was not deferred.
fn take_deferred_trunc(fx: &mut Fx, tr: V) -> Result<Option<(Ty, Ty, isa_tablegen::RegFileId, u32)>, String> {
    if !fx.deferred.remove(&tr) {
        return Ok(None);
    }
    match (narrow_ty(tr.ty(), true), narrow_ty(tr.ty(), false), native_i32(fx, tr.operand(0).ty())?) {
        (Some(ty), Some(uty), Some((file, chunks))) => Ok(Some((ty, uty, file, chunks))),
        _ => Err("internal: deferred trunc of another shape".into()),
    }
}

/// At an `llvm.masked.store` of a deferred `trunc`: the machine's narrow masked stores.
pub fn narrowing_masked_store(fx: &mut Fx, i: V) -> Result<bool, String> {
    let tr = i.operand(0);
    let Some((ty, uty, file, chunks)) = take_deferred_trunc(fx, tr)? else { return Ok(false) };
    let sty = masked_instr(fx, SemOp::VStoreM, file, &[ty, uty]).ok_or("internal: no narrow masked store")?;
    let Val::N(src) = fx.val(tr.operand(0))? else { return Err("internal: native value expected".into()) };
    let masks = crate::masked::mask_chunks(fx, i.operand(3), chunks)?;
    let addr = address(fx, i.operand(1))?;
    let bytes = chunk_lanes(fx, file) * ty.bits() / 8;
    for c in 0..chunks as usize {
        let base = crate::intrinsics::addr_reg(fx, &addr.plus(c as i64 * bytes as i64))?;
        fx.op_void(SemOp::VStoreM, sty, &[A::R(base), A::I(0), A::R(src[c]), A::R(masks[c])])?;
    }
    Ok(true)
}

fn narrowing_store(fx: &mut Fx, i: V) -> Result<bool, String> {
    let tr = i.operand(0);
    let Some((ty, uty, file, chunks)) = take_deferred_trunc(fx, tr)? else { return Ok(false) };
    let Val::N(src) = fx.val(tr.operand(0))? else { return Err("internal: native value expected".into()) };
    let addr = address(fx, i.operand(1))?;
    let align = i.alignment().max(1);
    let bytes = chunk_lanes(fx, file) * ty.bits() / 8;
    for c in 0..chunks {
        let off = (c * bytes) as u64;
        let a = addr.plus(off as i64);
        if vmem_typed(fx, false, &a, file, bytes, align_at(align, off), Some(src[c as usize]), &[ty, uty])?.is_none() {
            return Err(format!("internal: no {ty} vector store for this address"));
        }
    }
    Ok(true)
}

/// The file and type a `mac` of instruction `i`'s type would use, if the machine has one.
fn mac_file(fx: &Fx, t: crate::llvm::T) -> Result<Option<isa_tablegen::RegFileId>, String> {
    let file = match fx.shape(t)? {
        Shape::Native { elem: Sc::Int(32), file, .. } => file,
        Shape::Scalar(Sc::Int(32)) => fx.sc_file(Sc::Int(32))?,
        _ => return Ok(None),
    };
    let r = ArgPat::Reg(file);
    Ok(fx.find(SemOp::Mac, Some(Ty::I32), None, Some(file), &[r, r, r]).map(|_| file))
}

fn defer_mul(fx: &mut Fx, i: V) -> Result<bool, String> {
    let Some(add) = only_user(i) else { return Ok(false) };
    if add.opcode() != Some(Op::LLVMAdd) || add.parent() != i.parent() || add.ty() != i.ty() {
        return Ok(false);
    }
    if mac_file(fx, i.ty())?.is_none() {
        return Ok(false);
    }
    fx.deferred.insert(i);
    Ok(true)
}

fn mac(fx: &mut Fx, i: V) -> Result<bool, String> {
    let Some(k) = (0..2).find(|&k| fx.deferred.contains(&i.operand(k))) else { return Ok(false) };
    let mul = i.operand(k);
    let Some(file) = mac_file(fx, i.ty())? else { return Ok(false) };
    fx.deferred.remove(&mul);
    let (a, b, c) = (fx.val(mul.operand(0))?, fx.val(mul.operand(1))?, fx.val(i.operand(1 - k))?);
    let out = match (a, b, c) {
        (Val::N(a), Val::N(b), Val::N(c)) => {
            let mut out = Vec::new();
            for j in 0..c.len() {
                out.push(fx.op(SemOp::Mac, Ty::I32, file, &[A::R(a[j]), A::R(b[j]), A::R(c[j])])?);
            }
            Val::N(out)
        }
        (Val::S(a), Val::S(b), Val::S(c)) => Val::S(fx.op(SemOp::Mac, Ty::I32, file, &[A::R(a), A::R(b), A::R(c)])?),
        _ => return Err("internal: multiply-accumulate operands of another shape".into()),
    };
    fx.set(i, out);
    Ok(true)
}

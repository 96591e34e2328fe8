//! Masked vector memory and lane masks, as LLVM's loop vectorizer writes a
//! loop whose tail is folded into one masked iteration:
//!
//! - `llvm.masked.load(ptr, align, mask, passthru)`: the machine's masked
//!   load (`vloadm`: inactive lanes read no memory and are 0), then a select
//!   by the mask when the passthru is not undefined or zero;
//! - `llvm.masked.store(value, ptr, align, mask)`: the machine's `vstorem`;
//! - `llvm.get.active.lane.mask(base, n)`: lane i is active when base + i < n
//!   (unsigned, without wrapping): `iota` plus the broadcast base, compared
//!   with the broadcast n, and with the base (a lane whose index wrapped is
//!   inactive).
//!
//! 8- and 16-bit elements widened on load or narrowed on store are in
//! `fuse`. Only vectors in native registers; others are reported as unsupported
//! (a masked access cannot be split into plain loads without touching the
//! memory of inactive lanes).

use dsp_mir::Reg;
use isa_tablegen::{RegFileId, SemOp, Ty};

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::llvm::V;
use crate::memory::address;
use crate::types::{Sc, Shape};
use crate::vector::{broadcast, chunk_lanes};

/// `llvm.masked.load`, `llvm.masked.store`, `llvm.get.active.lane.mask`.
pub fn lower(fx: &mut Fx, i: V, base: &str) -> Result<(), String> {
    match base {
        "masked.load" => load(fx, i),
        "masked.store" => store(fx, i),
        _ => active_lane_mask(fx, i),
    }
}

/// The native shape of a vector type: (file, chunks), or an error naming the operation.
fn native(fx: &Fx, t: crate::llvm::T, what: &str) -> Result<(RegFileId, u32), String> {
    match fx.shape(t)? {
        Shape::Native { elem, file, chunks, .. } if elem != Sc::I1 => Ok((file, chunks)),
        _ => Err(format!("{what} of type '{}' is not supported (only vectors of the machine's lanes)", t.print())),
    }
}

pub(crate) fn mask_chunks(fx: &mut Fx, m: V, chunks: u32) -> Result<Vec<Reg>, String> {
    match fx.val(m)? {
        Val::N(ms) if ms.len() == chunks as usize => Ok(ms),
        _ => Err("the mask of a masked access must be a lane mask of the same lanes".into()),
    }
}

const TYS: [Ty; 3] = [Ty::I32, Ty::U32, Ty::F32];

fn load(fx: &mut Fx, i: V) -> Result<(), String> {
    crate::memory::with_object(fx, i.operand(0), |fx| masked_load(fx, i))
}

fn masked_load(fx: &mut Fx, i: V) -> Result<(), String> {
    if crate::fuse::widening_masked_load(fx, i)? {
        return Ok(());
    }
    let t = i.ty();
    let (file, chunks) = native(fx, t, "a masked load")?;
    let addr = address(fx, i.operand(0))?;
    let masks = mask_chunks(fx, i.operand(2), chunks)?;
    let pass = i.operand(3);
    let keep_pass = !(pass.is_undef() || pass.is_null_or_zero());
    let pass_val = if keep_pass { Some(fx.val(pass)?) } else { None };
    let bytes = chunk_lanes(fx, file) * 4;
    let mut out = Vec::new();
    for c in 0..chunks as usize {
        let a = addr.plus(c as i64 * bytes as i64);
        let base = crate::intrinsics::addr_reg(fx, &a)?;
        let mut got = None;
        for ty in TYS {
            if let Some(Some(r)) = fx.try_op(SemOp::VLoadM, Some(ty), None, Some(file), &[A::R(base), A::I(0), A::R(masks[c])]) {
                got = Some(r);
                break;
            }
        }
        let mut r = got.ok_or("the machine has no masked vector load")?;
        if let Some(Val::N(p)) = &pass_val {
            let sel = TYS.iter().find_map(|&ty| fx.try_op(SemOp::Select, Some(ty), None, Some(file), &[A::R(masks[c]), A::R(r), A::R(p[c])]));
            r = sel.flatten().ok_or("the machine has no vector select by lane mask")?;
        }
        out.push(r);
    }
    fx.set(i, Val::N(out));
    Ok(())
}

fn store(fx: &mut Fx, i: V) -> Result<(), String> {
    crate::memory::with_object(fx, i.operand(1), |fx| masked_store(fx, i))
}

fn masked_store(fx: &mut Fx, i: V) -> Result<(), String> {
    if crate::fuse::narrowing_masked_store(fx, i)? {
        return Ok(());
    }
    let v = i.operand(0);
    let (file, chunks) = native(fx, v.ty(), "a masked store")?;
    let Val::N(vals) = fx.val(v)? else { return Err("internal: native value expected".into()) };
    let addr = address(fx, i.operand(1))?;
    let masks = mask_chunks(fx, i.operand(3), chunks)?;
    let bytes = chunk_lanes(fx, file) * 4;
    for c in 0..chunks as usize {
        let a = addr.plus(c as i64 * bytes as i64);
        let base = crate::intrinsics::addr_reg(fx, &a)?;
        let args = [A::R(base), A::I(0), A::R(vals[c]), A::R(masks[c])];
        if !TYS.iter().any(|&ty| fx.try_op(SemOp::VStoreM, Some(ty), None, None, &args).is_some()) {
            return Err("the machine has no masked vector store".into());
        }
    }
    Ok(())
}

fn active_lane_mask(fx: &mut Fx, i: V) -> Result<(), String> {
    let t = i.ty();
    let Shape::Native { chunks, file: mfile, .. } = fx.shape(t)? else {
        return Err(format!("llvm.get.active.lane.mask of type '{}' is not supported", t.print()));
    };
    if crate::function::Fx::int_bits(i.operand(0).ty()) != Some(32) {
        return Err("llvm.get.active.lane.mask on indices other than 32-bit ones is not supported".into());
    }
    let vfile = fx.m.regfile(mfile).mask_of.ok_or("internal: not a mask file")?;
    let per = chunk_lanes(fx, vfile);
    let (b, n) = (fx.reg(i.operand(0))?, fx.reg(i.operand(1))?);
    let vb = broadcast(fx, b, vfile).ok_or("the machine has no broadcast")?;
    let vn = broadcast(fx, n, vfile).ok_or("the machine has no broadcast")?;
    let iota = fx.try_op(SemOp::Iota, Some(Ty::I32), None, Some(vfile), &[]).flatten().ok_or("the machine has no iota")?;
    let v = |fx: &mut Fx, op: SemOp, ty: Ty, file: RegFileId, a: Reg, b: Reg| {
        fx.try_op(op, Some(ty), None, Some(file), &[A::R(a), A::R(b)]).flatten().ok_or_else(|| format!("the machine has no vector {}.{ty}", op.name()))
    };
    let mut out = Vec::new();
    for c in 0..chunks {
        let mut idx = v(fx, SemOp::Add, Ty::I32, vfile, vb, iota)?;
        if c > 0 {
            let int = fx.addr_file()?;
            let k = fx.imm((c * per) as i64, int)?;
            let vk = broadcast(fx, k, vfile).ok_or("the machine has no broadcast")?;
            idx = v(fx, SemOp::Add, Ty::I32, vfile, idx, vk)?;
        }
        let below = v(fx, SemOp::Lt, Ty::U32, mfile, idx, vn)?;
        let no_wrap = v(fx, SemOp::Le, Ty::U32, mfile, vb, idx)?;
        out.push(v(fx, SemOp::And, Ty::U32, mfile, below, no_wrap)?);
    }
    fx.set(i, Val::N(out));
    Ok(())
}

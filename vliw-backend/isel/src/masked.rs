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
//! - `llvm.masked.gather(ptrs, align, mask, passthru)` and
//!   `llvm.masked.scatter(value, ptrs, align, mask)` of 32-bit elements: the
//!   machine's `gather`/`scatter` (`vgath`/`vscat` on ftm: base plus element
//!   index per lane), from the base and indices of `gep T, %base, <idx>`
//!   with a 4-byte `T`, else with base 0 and each pointer divided by 4; an
//!   inactive lane reads the stack pointer's word, or writes a stack slot of
//!   its own.
//!
//! - `llvm.experimental.vp.strided.load(ptr, stride, mask, evl)` of 32-bit
//!   elements with every lane on (an all-ones mask, `evl` the lane count):
//!   the machine's strided load (`vloads`: `vlds` on ftm), one per register
//!   of the vector, each `stride × lanes` bytes on. What dsp-egg-isel makes
//!   of `x[j * step]`.
//!
//! - `llvm.experimental.vp.strided.store(value, ptr, stride, mask, evl)`,
//!   the same for a store: the machine's strided store (`vstores`: `vsts`
//!   on ftm), one per register of the vector. What dsp-egg-isel makes of
//!   stores to `x[j * 3]` (a matrix column, a constant stride).
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
        "masked.gather" => gather(fx, i),
        "masked.scatter" => scatter(fx, i),
        "experimental.vp.strided.load" => crate::memory::with_object(fx, i, i.operand(0), |fx| strided_load(fx, i)),
        "experimental.vp.strided.store" => crate::memory::with_object(fx, i, i.operand(1), |fx| strided_store(fx, i)),
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
    crate::memory::with_object(fx, i, i.operand(0), |fx| masked_load(fx, i))
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
        let vldm = |fx: &mut Fx, base: Reg, off: i64| {
            TYS.iter().find_map(|&ty| fx.try_op(SemOp::VLoadM, Some(ty), None, Some(file), &[A::R(base), A::I(off), A::R(masks[c])]).flatten())
        };
        // The offset in the instruction where it fits, else added first.
        let mut got = match a.off {
            A::I(o) => vldm(fx, a.base, o),
            _ => None,
        };
        if got.is_none() {
            let base = crate::intrinsics::addr_reg(fx, &a)?;
            got = vldm(fx, base, 0);
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
    crate::memory::with_object(fx, i, i.operand(1), |fx| masked_store(fx, i))
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
        let vstm = |fx: &mut Fx, base: Reg, off: i64| {
            let args = [A::R(base), A::I(off), A::R(vals[c]), A::R(masks[c])];
            TYS.iter().any(|&ty| fx.try_op(SemOp::VStoreM, Some(ty), None, None, &args).is_some())
        };
        // The offset in the instruction where it fits, else added first.
        if matches!(a.off, A::I(o) if vstm(fx, a.base, o)) {
            continue;
        }
        let base = crate::intrinsics::addr_reg(fx, &a)?;
        if !vstm(fx, base, 0) {
            return Err("the machine has no masked vector store".into());
        }
    }
    Ok(())
}

/// The element indices (pointers / 4) of the pointer vector `ptrs` for the
/// machine's gather and scatter; a lane inactive under `masks` gets `spare`'s.
fn word_indices(fx: &mut Fx, ptrs: V, masks: Option<&[Reg]>, spare: Reg, file: RegFileId, chunks: u32) -> Result<Vec<Reg>, String> {
    let Val::N(ps) = fx.val(ptrs)? else { return Err("internal: native pointer vector expected".into()) };
    if ps.len() != chunks as usize {
        return Err("a gather's pointers and values differ in shape".into());
    }
    let int = fx.addr_file()?;
    let spare_idx = fx.op(SemOp::Shr, Ty::U32, int, &[A::R(spare), A::I(2)])?;
    let spare_v = broadcast(fx, spare_idx, file).ok_or("the machine has no broadcast")?;
    let mut out = Vec::new();
    for (c, &p) in ps.iter().enumerate() {
        let idx = fx.try_op(SemOp::Shr, Some(Ty::U32), None, Some(file), &[A::R(p), A::I(2)]).flatten();
        let idx = match idx {
            Some(r) => r,
            None => {
                let two = fx.imm(2, int)?;
                fx.try_op(SemOp::Shr, Some(Ty::U32), None, Some(file), &[A::R(p), A::R(two)]).flatten().ok_or("the machine has no vector shift")?
            }
        };
        out.push(match masks {
            None => idx,
            Some(ms) => TYS
                .iter()
                .find_map(|&ty| fx.try_op(SemOp::Select, Some(ty), None, Some(file), &[A::R(ms[c]), A::R(idx), A::R(spare_v)]).flatten())
                .ok_or("the machine has no vector select by lane mask")?,
        });
    }
    Ok(out)
}

/// The base register and index vectors of a gather's or scatter's
/// pointers `gep T, ptr %base, <n x i32> %idx` with a 4-byte `T` (the
/// machine's form: no pointer vector to build and divide by 4). Under
/// `masks` the base is `base & ~3` (what it is when a lane is active: the
/// access is 4-aligned) and an inactive lane's index points at `spare`
/// (4-aligned): one select per vector, the rest loop-invariant.
fn base_index(fx: &mut Fx, ptrs: V, masks: Option<&[Reg]>, spare: Reg, file: RegFileId, chunks: u32) -> Result<Option<(Reg, Vec<Reg>)>, String> {
    use crate::llvm::{Op, TyKind};
    if ptrs.opcode() != Some(Op::LLVMGetElementPtr) || ptrs.num_operands() != 2 {
        return Ok(None);
    }
    let (base, idx) = (ptrs.operand(0), ptrs.operand(1));
    if matches!(base.ty().kind(), TyKind::Vector(..)) || fx.dl.alloc_size(ptrs.gep_source_type()) != 4 {
        return Ok(None);
    }
    let TyKind::Vector(e, _) = idx.ty().kind() else { return Ok(None) };
    if Fx::int_bits(e) != Some(32) {
        return Ok(None);
    }
    let Val::N(ix) = fx.val(idx)? else { return Ok(None) };
    if ix.len() != chunks as usize {
        return Ok(None);
    }
    let b = fx.reg(base)?;
    let Some(ms) = masks else { return Ok(Some((b, ix))) };
    let int = fx.addr_file()?;
    let b4 = fx.op(SemOp::And, Ty::I32, int, &[A::R(b), A::I(-4)])?;
    let d = fx.op(SemOp::Sub, Ty::I32, int, &[A::R(spare), A::R(b4)])?;
    let d = fx.op(SemOp::Shr, Ty::I32, int, &[A::R(d), A::I(2)])?;
    let dv = broadcast(fx, d, file).ok_or("the machine has no broadcast")?;
    let mut out = Vec::new();
    for (c, &x) in ix.iter().enumerate() {
        let sel = TYS.iter().find_map(|&ty| fx.try_op(SemOp::Select, Some(ty), None, Some(file), &[A::R(ms[c]), A::R(x), A::R(dv)]));
        out.push(sel.flatten().ok_or("the machine has no vector select by lane mask")?);
    }
    Ok(Some((b4, out)))
}

/// The mask chunks of a masked operation, or `None` when it is all ones.
fn mask_or_all(fx: &mut Fx, m: V, chunks: u32) -> Result<Option<Vec<Reg>>, String> {
    let all = m.is_constant() && !m.is_undef() && (0..crate::vector::vec_info(m.ty())?.1).all(|k| m.aggregate_element(k).and_then(|e| e.const_int()).is_some_and(|(v, _)| v & 1 == 1));
    if all {
        return Ok(None);
    }
    mask_chunks(fx, m, chunks).map(Some)
}

fn gather(fx: &mut Fx, i: V) -> Result<(), String> {
    let t = i.ty();
    let (file, chunks) = native(fx, t, "a gather")?;
    if elem_bits(fx, t)? != 32 || i.operand(1).const_int().is_none_or(|(a, _)| a < 4) {
        return Err("a gather of other than aligned 32-bit elements is not supported".into());
    }
    let masks = mask_or_all(fx, i.operand(2), chunks)?;
    let sp = Reg::Phys(fx.sp()?);
    let (zero, idx) = match base_index(fx, i.operand(0), masks.as_deref(), sp, file, chunks)? {
        Some(bi) => bi,
        None => {
            let idx = word_indices(fx, i.operand(0), masks.as_deref(), sp, file, chunks)?;
            let int = fx.addr_file()?;
            (fx.imm(0, int)?, idx)
        }
    };
    let pass = i.operand(3);
    let keep_pass = masks.is_some() && !pass.is_undef();
    let pass_val = if keep_pass { Some(fx.val(pass)?) } else { None };
    let mut out = Vec::new();
    for c in 0..chunks as usize {
        let mut r = fx
            .try_op(SemOp::Gather, Some(Ty::I32), None, Some(file), &[A::R(zero), A::R(idx[c])])
            .flatten()
            .ok_or("the machine has no gather")?;
        if let (Some(Val::N(p)), Some(ms)) = (&pass_val, &masks) {
            let sel = TYS.iter().find_map(|&ty| fx.try_op(SemOp::Select, Some(ty), None, Some(file), &[A::R(ms[c]), A::R(r), A::R(p[c])]));
            r = sel.flatten().ok_or("the machine has no vector select by lane mask")?;
        }
        out.push(r);
    }
    fx.set(i, Val::N(out));
    Ok(())
}

fn strided_load(fx: &mut Fx, i: V) -> Result<(), String> {
    let t = i.ty();
    let (file, chunks) = native(fx, t, "a strided load")?;
    let total = crate::vector::vec_info(t)?.1;
    let every = i.operand(3).const_int().is_some_and(|(n, _)| n == total as u64);
    if elem_bits(fx, t)? != 32 || !every || mask_or_all(fx, i.operand(2), chunks)?.is_some() {
        return Err("a strided load of other than 32-bit elements with every lane on is not supported".into());
    }
    let base = fx.reg(i.operand(0))?;
    let stride = fx.reg(i.operand(1))?;
    let int = fx.addr_file()?;
    let per = total / chunks;
    let mut out = Vec::new();
    let mut at = base;
    for c in 0..chunks {
        if c > 0 {
            // The next register's lanes: `per` strides on.
            let step = fx.op(SemOp::Mul, Ty::I32, int, &[A::R(stride), A::I(per as i64)])?;
            at = fx.op(SemOp::Add, Ty::I32, int, &[A::R(at), A::R(step)])?;
        }
        let r = TYS
            .iter()
            .find_map(|&ty| fx.try_op(SemOp::VLoadS, Some(ty), None, Some(file), &[A::R(at), A::R(stride)]))
            .flatten()
            .ok_or("the machine has no strided vector load")?;
        out.push(r);
    }
    fx.set(i, Val::N(out));
    Ok(())
}

fn strided_store(fx: &mut Fx, i: V) -> Result<(), String> {
    let v = i.operand(0);
    let t = v.ty();
    let (_, chunks) = native(fx, t, "a strided store")?;
    let total = crate::vector::vec_info(t)?.1;
    let every = i.operand(4).const_int().is_some_and(|(n, _)| n == total as u64);
    if elem_bits(fx, t)? != 32 || !every || mask_or_all(fx, i.operand(3), chunks)?.is_some() {
        return Err("a strided store of other than 32-bit elements with every lane on is not supported".into());
    }
    let Val::N(vals) = fx.val(v)? else { return Err("internal: native value expected".into()) };
    let base = fx.reg(i.operand(1))?;
    let stride = fx.reg(i.operand(2))?;
    let int = fx.addr_file()?;
    let per = total / chunks;
    let mut at = base;
    for (c, &x) in vals.iter().enumerate() {
        if c > 0 {
            // The next register's lanes: `per` strides on.
            let step = fx.op(SemOp::Mul, Ty::I32, int, &[A::R(stride), A::I(per as i64)])?;
            at = fx.op(SemOp::Add, Ty::I32, int, &[A::R(at), A::R(step)])?;
        }
        let args = [A::R(at), A::R(stride), A::R(x)];
        if !TYS.iter().any(|&ty| fx.try_op(SemOp::VStoreS, Some(ty), None, None, &args).is_some()) {
            return Err("the machine has no strided vector store".into());
        }
    }
    Ok(())
}

fn scatter(fx: &mut Fx, i: V) -> Result<(), String> {
    let v = i.operand(0);
    let (file, chunks) = native(fx, v.ty(), "a scatter")?;
    if elem_bits(fx, v.ty())? != 32 || i.operand(2).const_int().is_none_or(|(a, _)| a < 4) {
        return Err("a scatter of other than aligned 32-bit elements is not supported".into());
    }
    let Val::N(vals) = fx.val(v)? else { return Err("internal: native value expected".into()) };
    let masks = mask_or_all(fx, i.operand(3), chunks)?;
    // Inactive lanes write a word of their own on the stack.
    let spare = match masks {
        Some(_) => {
            let slot = fx.f.new_frame_object(4, 4, dsp_mir::FrameKind::Local);
            let sp = Reg::Phys(fx.sp()?);
            crate::intrinsics::addr_reg(fx, &crate::memory::Addr { base: sp, off: A::F(slot, 0) })?
        }
        None => Reg::Phys(fx.sp()?),
    };
    let (zero, idx) = match base_index(fx, i.operand(1), masks.as_deref(), spare, file, chunks)? {
        Some(bi) => bi,
        None => {
            let idx = word_indices(fx, i.operand(1), masks.as_deref(), spare, file, chunks)?;
            let int = fx.addr_file()?;
            (fx.imm(0, int)?, idx)
        }
    };
    for c in 0..chunks as usize {
        let args = [A::R(zero), A::R(idx[c]), A::R(vals[c])];
        if !TYS.iter().any(|&ty| fx.try_op(SemOp::Scatter, Some(ty), None, None, &args).is_some()) {
            return Err("the machine has no scatter".into());
        }
    }
    Ok(())
}

/// Bits of the elements of vector type `t`.
fn elem_bits(fx: &Fx, t: crate::llvm::T) -> Result<u32, String> {
    Ok(match crate::vector::elem_sc(fx, t)? {
        Sc::Int(b) => b,
        Sc::F32 | Sc::Ptr => 32,
        _ => 0,
    })
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

//! LLVM vector types. A vector whose shape matches the machine's 32-bit
//! vector file (lanes × 32 bits, or a multiple: split into chunks) uses the
//! machine's lane-wise instructions, found by semantics (add, compares into
//! lane masks, select by mask, broadcast for splats, extract/insert,
//! aligned/unaligned vector loads and stores, reductions); anything the
//! machine lacks, and every other vector type (i8/i16/i64/f64 elements, odd
//! lane counts), is scalarized lane by lane — correctness first.
//! Lanes go to and from vector registers by extract and through a stack
//! slot (lane stores, one vector load). Shuffles, vector GEPs, vector
//! intrinsics and reductions are in `vector_ops`.

use dsp_mir::Reg;
use isa_tablegen::{ArgPat, RegFileId, SemOp, Ty};

use crate::emit::A;
use crate::function::{const_bits, Fx, Val};
use crate::inst;
use crate::llvm::{Op, TyKind, T, V};
use crate::memory::Addr;
use crate::types::{Sc, Shape};

/// Element type and lane count of a vector type.
pub(crate) fn vec_info(t: T) -> Result<(T, u32), String> {
    match t.kind() {
        TyKind::Vector(e, n) => Ok((e, n)),
        _ => Err(format!("type '{}' is not a vector", t.print())),
    }
}

pub(crate) fn elem_sc(fx: &Fx, t: T) -> Result<Sc, String> {
    let (e, _) = vec_info(t)?;
    match fx.shape(e)? {
        Shape::Scalar(sc) => Ok(sc),
        _ => Err("vector of non-scalars".into()),
    }
}

/// Lanes per chunk of a native shape.
pub(crate) fn chunk_lanes(fx: &Fx, file: RegFileId) -> u32 {
    match fx.m.regfile(file).lanes {
        Some(l) => l.count,
        None => fx.m.regfile(fx.m.regfile(file).mask_of.unwrap_or(file)).lanes.map(|l| l.count).unwrap_or(1),
    }
}

/// The scalar registers of every lane of a vector value.
pub fn lanes_of(fx: &mut Fx, v: &Val, t: T) -> Result<Vec<Reg>, String> {
    match (v, fx.shape(t)?) {
        (Val::L(rs), _) => Ok(rs.clone()),
        (Val::N(chunks), Shape::Native { elem, file, .. }) => {
            let per = chunk_lanes(fx, file);
            let mut out = Vec::new();
            for c in chunks {
                for k in 0..per {
                    out.push(extract_lane(fx, *c, k, elem)?);
                }
            }
            Ok(out)
        }
        _ => Err("internal: not a vector value".into()),
    }
}

/// Lane `k` of a native register.
pub(crate) fn extract_lane(fx: &mut Fx, chunk: Reg, k: u32, elem: Sc) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    let file = fx.file(chunk);
    if fx.m.regfile(file).mask_of.is_some() {
        // Mask bit k → predicate.
        let bits = fx.op(SemOp::Mov, Ty::U32, int, &[A::R(chunk)])?;
        let s = inst::shift(fx, SemOp::Shr, Ty::U32, bits, A::I(k as i64))?;
        let b = fx.op(SemOp::And, Ty::I32, int, &[A::R(s), A::I(1)])?;
        return inst::compare(fx, SemOp::Ne, Ty::I32, A::R(b), A::I(0));
    }
    let dst = fx.sc_file(elem)?;
    let idx = fx.imm(k as i64, int)?;
    for ty in [Ty::I32, Ty::U32, Ty::F32] {
        if let Some(Some(r)) = fx.try_op(SemOp::Extract, Some(ty), None, Some(dst), &[A::R(chunk), A::R(idx)]) {
            return Ok(r);
        }
    }
    // Through memory.
    let bytes = fx.m.regfile(file).width / 8;
    let slot = fx.scratch_slot(bytes, bytes);
    let sp = Reg::Phys(fx.sp()?);
    let a = Addr { base: sp, off: A::F(slot, 0) };
    vstore(fx, &a, chunk, bytes, bytes, elem)?;
    crate::memory::load_scalar(fx, &a.plus(4 * k as i64), elem, 4, 4)
}

/// A vector value of type `t` from per-lane scalar registers.
pub fn from_lanes(fx: &mut Fx, lanes: Vec<Reg>, t: T) -> Result<Val, String> {
    match fx.shape(t)? {
        Shape::Lanes { .. } => Ok(Val::L(lanes)),
        Shape::Native { elem, file, chunks, .. } => {
            let per = chunk_lanes(fx, file) as usize;
            let mut out = Vec::new();
            for c in 0..chunks as usize {
                let part = &lanes[c * per..(c + 1) * per];
                out.push(build_chunk(fx, part, file, elem)?);
            }
            Ok(Val::N(out))
        }
        _ => Err("internal: not a vector type".into()),
    }
}

fn build_chunk(fx: &mut Fx, lanes: &[Reg], file: RegFileId, elem: Sc) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    if fx.m.regfile(file).mask_of.is_some() {
        if lanes.len() > 32 {
            return Err("lane masks wider than 32 lanes are not supported".into());
        }
        let mut acc: Option<Reg> = None;
        for (k, p) in lanes.iter().enumerate() {
            let b = inst::pred_to_int(fx, *p)?;
            let s = if k == 0 { b } else { inst::shift(fx, SemOp::Shl, Ty::I32, b, A::I(k as i64))? };
            acc = Some(match acc {
                None => s,
                Some(a) => fx.op(SemOp::Or, Ty::I32, int, &[A::R(a), A::R(s)])?,
            });
        }
        let bits = acc.ok_or("empty mask")?;
        return fx.op(SemOp::Mov, Ty::U32, file, &[A::R(bits)]);
    }
    if lanes.iter().all(|r| *r == lanes[0]) {
        if let Some(r) = broadcast(fx, lanes[0], file) {
            return Ok(r);
        }
    }
    let bytes = fx.m.regfile(file).width / 8;
    let slot = fx.scratch_slot(bytes, bytes);
    let sp = Reg::Phys(fx.sp()?);
    let a = Addr { base: sp, off: A::F(slot, 0) };
    for (k, r) in lanes.iter().enumerate() {
        crate::memory::store_scalar(fx, &a.plus(4 * k as i64), elem, 4, 4, *r)?;
    }
    vload(fx, &a, file, bytes, bytes, elem)
}

/// A splat of scalar `x` into vector file `file`.
pub(crate) fn broadcast(fx: &mut Fx, x: Reg, file: RegFileId) -> Option<Reg> {
    for ty in [Ty::I32, Ty::U32, Ty::F32] {
        if let Some(Some(r)) = fx.try_op(SemOp::Broadcast, Some(ty), None, Some(file), &[A::R(x)]) {
            return Some(r);
        }
    }
    None
}

fn vmem(fx: &mut Fx, load: bool, addr: &Addr, file: RegFileId, bytes: u32, align: u32, val: Option<Reg>) -> Result<Option<Reg>, String> {
    match vmem_typed(fx, load, addr, file, bytes, align, val, &[Ty::I32, Ty::U32, Ty::F32])? {
        Some(r) => Ok(r),
        None => Err(format!("the machine has no {} of a {}-byte vector", if load { "load" } else { "store" }, bytes)),
    }
}

/// Whether the machine has a vector load (or store) of elements of one of
/// `tys` into (from) `file`, with the address in a register.
pub(crate) fn has_vmem(fx: &Fx, load: bool, file: RegFileId, tys: &[Ty]) -> bool {
    let Ok(int) = fx.addr_file() else { return false };
    let ops: &[SemOp] = if load { &[SemOp::VLoad, SemOp::VLoadU] } else { &[SemOp::VStore, SemOp::VStoreU] };
    let mut pats = vec![ArgPat::Reg(int), ArgPat::Imm(0)];
    if !load {
        pats.push(ArgPat::Reg(file));
    }
    ops.iter().any(|&op| tys.iter().any(|&t| fx.find(op, Some(t), None, load.then_some(file), &pats).is_some()))
}

/// A vector load (store) of `bytes` bytes whose elements have one of the
/// types `tys` (narrower than the lanes: a widening load or a narrowing
/// store), aligned form when the alignment allows; `None` when the machine
/// has no such access. The result: the loaded register (loads).
#[allow(clippy::too_many_arguments)]
pub(crate) fn vmem_typed(
    fx: &mut Fx,
    load: bool,
    addr: &Addr,
    file: RegFileId,
    bytes: u32,
    align: u32,
    val: Option<Reg>,
    tys: &[Ty],
) -> Result<Option<Option<Reg>>, String> {
    let ops: &[SemOp] = match (load, align >= bytes) {
        (true, true) => &[SemOp::VLoad, SemOp::VLoadU],
        (true, false) => &[SemOp::VLoadU],
        (false, true) => &[SemOp::VStore, SemOp::VStoreU],
        (false, false) => &[SemOp::VStoreU],
    };
    let int = fx.addr_file()?;
    for &op in ops {
        for &ty in tys {
            let dst = load.then_some(file);
            let mut pats = vec![
                ArgPat::Reg(fx.file(addr.base)),
                match &addr.off {
                    A::I(v) => ArgPat::Imm(*v),
                    A::F(..) => ArgPat::Imm(0xffff),
                    _ => ArgPat::SymImm,
                },
            ];
            if let Some(v) = val {
                pats.push(ArgPat::Reg(fx.file(v)));
            }
            let (base, off) = if fx.find(op, Some(ty), None, dst, &pats).is_some() {
                (addr.base, addr.off.clone())
            } else {
                pats[0] = ArgPat::Reg(int);
                pats[1] = ArgPat::Imm(0);
                if fx.find(op, Some(ty), None, dst, &pats).is_none() {
                    continue;
                }
                (crate::intrinsics::addr_reg(fx, addr)?, A::I(0))
            };
            let mut args = vec![A::R(base), off];
            if let Some(v) = val {
                args.push(A::R(v));
            }
            return match fx.try_op(op, Some(ty), None, dst, &args) {
                Some(r) => Ok(Some(r)),
                None => continue,
            };
        }
    }
    Ok(None)
}

/// A vector register load (aligned form when the alignment allows).
pub fn vload(fx: &mut Fx, addr: &Addr, file: RegFileId, bytes: u32, align: u32, _elem: Sc) -> Result<Reg, String> {
    vmem(fx, true, addr, file, bytes, align, None)?.ok_or_else(|| "internal: vector load without result".into())
}

pub fn vstore(fx: &mut Fx, addr: &Addr, r: Reg, bytes: u32, align: u32, _elem: Sc) -> Result<(), String> {
    let file = fx.file(r);
    vmem(fx, false, addr, file, bytes, align, Some(r)).map(|_| ())
}

/// A constant vector.
pub fn constant_vector(fx: &mut Fx, v: V, t: T) -> Result<Val, String> {
    let (et, n) = vec_info(t)?;
    let sc = elem_sc(fx, t)?;
    let mut bits = Vec::new();
    for k in 0..n {
        let b = if v.is_undef() || v.is_null_or_zero() {
            0
        } else {
            let e = v.aggregate_element(k).ok_or_else(|| format!("constant '{}' is not supported", v.print()))?;
            match const_bits(e) {
                Some(b) => b,
                None if e.is_undef() => 0,
                None => {
                    let lane = fx.constant(e)?;
                    bits.push(Err(lane.scalar()?));
                    continue;
                }
            }
        };
        bits.push(Ok(b));
    }
    let _ = et;
    if let Shape::Native { file, chunks, .. } = fx.shape(t)? {
        let all_const: Vec<i64> = bits.iter().filter_map(|b| b.as_ref().ok().copied()).collect();
        if all_const.len() == bits.len() && all_const.iter().all(|b| *b == all_const[0]) {
            if sc == Sc::I1 {
                let per = chunk_lanes(fx, file);
                let m = if all_const[0] & 1 == 1 {
                    if per >= 64 {
                        -1
                    } else {
                        (1i64 << per) - 1
                    }
                } else {
                    0
                };
                let r = fx.imm(m, file)?;
                return Ok(Val::N(vec![r; chunks as usize]));
            }
            let r = fx.imm(all_const[0], file)?;
            return Ok(Val::N(vec![r; chunks as usize]));
        }
    }
    // Integer lanes c + s·k: the machine's iota, scaled and offset.
    if let (Shape::Native { file, chunks, .. }, Sc::Int(32)) = (fx.shape(t)?, sc) {
        let consts: Vec<i64> = bits.iter().filter_map(|b| b.as_ref().ok().copied()).collect();
        if consts.len() == bits.len() && consts.len() >= 2 {
            let (c, step) = (consts[0], consts[1].wrapping_sub(consts[0]));
            let affine = consts.iter().enumerate().all(|(k, &x)| (x as i32) == (c.wrapping_add(step.wrapping_mul(k as i64))) as i32);
            if affine {
                if let Some(v) = affine_vector(fx, file, chunks, c, step)? {
                    return Ok(v);
                }
            }
        }
    }
    let lf = fx.sc_file(sc)?;
    let mut lanes = Vec::new();
    for b in bits {
        lanes.push(match b {
            Ok(b) => fx.imm(b, lf)?,
            Err(r) => r,
        });
    }
    from_lanes(fx, lanes, t)
}

/// The vector `c + step·k` (lane k, over `chunks` registers) from the
/// machine's iota; `None` when an operation is missing.
fn affine_vector(fx: &mut Fx, file: RegFileId, chunks: u32, c: i64, step: i64) -> Result<Option<Val>, String> {
    let int = fx.addr_file()?;
    let per = chunk_lanes(fx, file) as i64;
    let vop = |fx: &mut Fx, op: SemOp, args: &[A]| fx.try_op(op, Some(Ty::I32), None, Some(file), args).flatten();
    let Some(iota) = vop(fx, SemOp::Iota, &[]) else { return Ok(None) };
    let scaled = match step {
        1 => iota,
        s if s > 0 && (s as u64).is_power_of_two() => {
            let sh = fx.imm(s.trailing_zeros() as i64, int)?;
            let Some(r) = vop(fx, SemOp::Shl, &[A::R(iota), A::I(s.trailing_zeros() as i64)]).or_else(|| vop(fx, SemOp::Shl, &[A::R(iota), A::R(sh)])) else {
                return Ok(None);
            };
            r
        }
        s => {
            let k = fx.imm(s, int)?;
            let Some(b) = broadcast(fx, k, file) else { return Ok(None) };
            let Some(r) = vop(fx, SemOp::Mul, &[A::R(iota), A::R(b)]) else { return Ok(None) };
            r
        }
    };
    let mut out = Vec::new();
    for ch in 0..chunks as i64 {
        let off = c.wrapping_add(step.wrapping_mul(ch * per));
        if off == 0 {
            out.push(scaled);
            continue;
        }
        let o = fx.imm(off as i32 as i64, int)?;
        let Some(b) = broadcast(fx, o, file) else { return Ok(None) };
        let Some(r) = vop(fx, SemOp::Add, &[A::R(scaled), A::R(b)]) else { return Ok(None) };
        out.push(r);
    }
    Ok(Some(Val::N(out)))
}

/// The value of lane-wise LLVM instructions on vectors (arithmetic, compares, casts, select).
pub fn lower_lanewise(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    let t = i.ty();
    if let Some(v) = native_op(fx, i, op)? {
        fx.set(i, v);
        return Ok(());
    }
    // Scalarize.
    let n = vec_info(t)?.1;
    let mut operand_lanes = Vec::new();
    let nops = i.num_operands();
    for k in 0..nops {
        let o = i.operand(k);
        let val = fx.val(o)?;
        if matches!(o.ty().kind(), TyKind::Vector(..)) {
            operand_lanes.push(lanes_of(fx, &val, o.ty())?);
        } else {
            operand_lanes.push(vec![val.scalar()?; n as usize]);
        }
    }
    let dst_sc = elem_sc(fx, t)?;
    let src_t = i.operand(if op == Op::LLVMSelect { 1 } else { 0 }).ty();
    let src_sc = match src_t.kind() {
        TyKind::Vector(..) => elem_sc(fx, src_t)?,
        _ => match fx.shape(src_t)? {
            Shape::Scalar(sc) => sc,
            _ => return Err("vector operand shape".into()),
        },
    };
    let mut out = Vec::new();
    for k in 0..n as usize {
        let args: Vec<Reg> = operand_lanes.iter().map(|l| l[k]).collect();
        out.push(scalar_lane(fx, i, op, src_sc, dst_sc, &args)?);
    }
    let v = from_lanes(fx, out, t)?;
    fx.set(i, v);
    Ok(())
}

/// One lane of a lane-wise instruction.
fn scalar_lane(fx: &mut Fx, i: V, op: Op, src: Sc, dst: Sc, a: &[Reg]) -> Result<Reg, String> {
    use Op::*;
    match op {
        LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
        | LLVMXor | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem => inst::binop(fx, op, dst, A::R(a[0]), A::R(a[1])),
        LLVMFNeg => inst::fneg(fx, dst, a[0]),
        LLVMICmp => inst::icmp(fx, i.icmp_pred(), src, A::R(a[0]), A::R(a[1])),
        LLVMFCmp => inst::fcmp(fx, i.fcmp_pred(), src, a[0], a[1]),
        LLVMSelect => {
            if dst == Sc::I1 {
                inst::select_pred(fx, a[0], a[1], a[2])
            } else {
                inst::select_reg(fx, a[0], a[1], a[2])
            }
        }
        LLVMTrunc | LLVMZExt | LLVMSExt | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc | LLVMFPExt | LLVMPtrToInt
        | LLVMIntToPtr | LLVMAddrSpaceCast => inst::cast(fx, op, src, dst, a[0]),
        _ => Err(format!("vector operation '{op:?}' is not supported")),
    }
}

/// A predicate `p` as a lane mask of mask file `file` with every lane `p`:
/// `0 - p` (all bits set when true) moved into a mask register.
pub fn mask_splat(fx: &mut Fx, p: Reg, file: isa_tablegen::RegFileId) -> Result<Option<Reg>, String> {
    if fx.m.regfile(file).mask_of.is_none() {
        return Ok(None);
    }
    let int = fx.addr_file()?;
    let one = inst::pred_to_int(fx, p)?;
    let mut all = fx.op(SemOp::Sub, Ty::I32, int, &[A::I(0), A::R(one)])?;
    // Only the lanes' bits, as constant masks have them.
    let per = chunk_lanes(fx, file);
    if per < 32 {
        all = fx.op(SemOp::And, Ty::I32, int, &[A::R(all), A::I((1i64 << per) - 1)])?;
    }
    Ok(fx.try_op(SemOp::Mov, Some(Ty::U32), None, Some(file), &[A::R(all)]).flatten())
}

/// A splat constant operand as an immediate.
fn splat_imm(v: V) -> Option<i64> {
    if v.is_null_or_zero() {
        return Some(0);
    }
    let n = match v.ty().kind() {
        TyKind::Vector(_, n) => n,
        _ => return None,
    };
    let first = const_bits(v.aggregate_element(0)?)?;
    (1..n).all(|k| v.aggregate_element(k).and_then(const_bits) == Some(first)).then_some(first)
}

/// The native form of a lane-wise instruction, if the machine has it.
fn native_op(fx: &mut Fx, i: V, op: Op) -> Result<Option<Val>, String> {
    use Op::*;
    let t = i.ty();
    let Shape::Native { elem, file, chunks, .. } = fx.shape(t)? else { return Ok(None) };
    let chunks = chunks as usize;
    let operand_native = |fx: &mut Fx, k: u32| -> Result<Option<Vec<Reg>>, String> {
        let o = i.operand(k);
        match fx.shape(o.ty())? {
            Shape::Native { chunks: c, .. } if c as usize == chunks => match fx.val(o)? {
                Val::N(rs) => Ok(Some(rs)),
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    };
    let float = elem == Sc::F32;
    let ity = if float { Ty::F32 } else { Ty::I32 };
    let bin = match op {
        LLVMAdd | LLVMFAdd => Some((SemOp::Add, false)),
        LLVMSub | LLVMFSub => Some((SemOp::Sub, false)),
        LLVMMul | LLVMFMul => Some((SemOp::Mul, false)),
        LLVMFDiv => Some((SemOp::Div, false)),
        LLVMAnd => Some((SemOp::And, false)),
        LLVMOr => Some((SemOp::Or, false)),
        LLVMXor => Some((SemOp::Xor, false)),
        LLVMShl => Some((SemOp::Shl, true)),
        LLVMLShr => Some((SemOp::Shr, true)),
        LLVMAShr => Some((SemOp::Shr, true)),
        _ => None,
    };
    if let Some((sop, is_shift)) = bin {
        // Lane masks: and/or/xor of whole mask registers (mand, mor, mxor).
        let mask_logic = matches!(op, LLVMAnd | LLVMOr | LLVMXor) && fx.m.regfile(file).mask_of.is_some();
        if elem == Sc::I1 && !mask_logic {
            return Ok(None);
        }
        let ty = match op {
            LLVMLShr => Ty::U32,
            LLVMAnd | LLVMOr | LLVMXor if fx.m.regfile(file).mask_of.is_some() => Ty::U32,
            _ => ity,
        };
        let Some(a) = operand_native(fx, 0)? else { return Ok(None) };
        // The second operand: a splat scalar (shifts take a scalar amount), or a vector.
        let b_op = i.operand(1);
        // (A mask's lanes are bits: an i1 splat is no immediate.)
        let splat = if elem == Sc::I1 { None } else { splat_imm(b_op) };
        let mut out = Vec::new();
        for c in 0..chunks {
            let mut done = None;
            if let Some(s) = splat {
                if is_shift || fx.find(sop, Some(ty), None, Some(file), &[ArgPat::Reg(file), ArgPat::Imm(s)]).is_some() {
                    let int = fx.addr_file()?;
                    for arg in [A::I(s), A::R(fx.imm(s, int)?)] {
                        if let Some(Some(r)) = fx.try_op(sop, Some(ty), None, Some(file), &[A::R(a[c]), arg]) {
                            done = Some(r);
                            break;
                        }
                    }
                }
            }
            if done.is_none() && !is_shift {
                if let Some(b) = operand_native(fx, 1)? {
                    if let Some(Some(r)) = fx.try_op(sop, Some(ty), None, Some(file), &[A::R(a[c]), A::R(b[c])]) {
                        done = Some(r);
                    }
                }
            }
            match done {
                Some(r) => out.push(r),
                None => return Ok(None),
            }
        }
        return Ok(Some(Val::N(out)));
    }
    match op {
        LLVMFNeg => {
            let Some(a) = operand_native(fx, 0)? else { return Ok(None) };
            let mut out = Vec::new();
            for c in a {
                match fx.try_op(SemOp::Neg, Some(Ty::F32), None, Some(file), &[A::R(c)]) {
                    Some(Some(r)) => out.push(r),
                    _ => return Ok(None),
                }
            }
            Ok(Some(Val::N(out)))
        }
        LLVMICmp | LLVMFCmp => {
            let Some(a) = operand_native(fx, 0)? else { return Ok(None) };
            let Some(b) = operand_native(fx, 1)? else { return Ok(None) };
            let (sop, ty, swap, negate) = if op == LLVMICmp {
                use crate::llvm::IntPred::*;
                match i.icmp_pred() {
                    LLVMIntEQ => (SemOp::Eq, Ty::I32, false, false),
                    LLVMIntNE => (SemOp::Ne, Ty::I32, false, false),
                    LLVMIntSLT => (SemOp::Lt, Ty::I32, false, false),
                    LLVMIntSLE => (SemOp::Le, Ty::I32, false, false),
                    LLVMIntSGT => (SemOp::Lt, Ty::I32, true, false),
                    LLVMIntSGE => (SemOp::Le, Ty::I32, true, false),
                    LLVMIntULT => (SemOp::Lt, Ty::U32, false, false),
                    LLVMIntULE => (SemOp::Le, Ty::U32, false, false),
                    LLVMIntUGT => (SemOp::Lt, Ty::U32, true, false),
                    LLVMIntUGE => (SemOp::Le, Ty::U32, true, false),
                }
            } else {
                use crate::llvm::RealPred::*;
                match i.fcmp_pred() {
                    LLVMRealOEQ => (SemOp::Eq, Ty::F32, false, false),
                    LLVMRealOLT => (SemOp::Lt, Ty::F32, false, false),
                    LLVMRealOLE => (SemOp::Le, Ty::F32, false, false),
                    LLVMRealOGT => (SemOp::Lt, Ty::F32, true, false),
                    LLVMRealOGE => (SemOp::Le, Ty::F32, true, false),
                    LLVMRealUNE => (SemOp::Eq, Ty::F32, false, true),
                    LLVMRealUGE => (SemOp::Lt, Ty::F32, false, true),
                    LLVMRealUGT => (SemOp::Le, Ty::F32, false, true),
                    LLVMRealULE => (SemOp::Lt, Ty::F32, true, true),
                    LLVMRealULT => (SemOp::Le, Ty::F32, true, true),
                    _ => return Ok(None),
                }
            };
            let mut out = Vec::new();
            for c in 0..chunks {
                let (x, y) = if swap { (b[c], a[c]) } else { (a[c], b[c]) };
                let mut r = match fx.try_op(sop, Some(ty), None, Some(file), &[A::R(x), A::R(y)]) {
                    Some(Some(r)) => r,
                    _ => return Ok(None),
                };
                if negate {
                    r = match fx.try_op(SemOp::Not, Some(Ty::U32), None, Some(file), &[A::R(r)]) {
                        Some(Some(n)) => n,
                        _ => return Ok(None),
                    };
                }
                out.push(r);
            }
            Ok(Some(Val::N(out)))
        }
        LLVMSelect if elem == Sc::I1 => {
            // Of lane masks: (c & a) | (~c & b) on mask registers.
            let Some(a) = operand_native(fx, 1)? else { return Ok(None) };
            let Some(b) = operand_native(fx, 2)? else { return Ok(None) };
            let masks: Vec<Reg> = match fx.val(i.operand(0))? {
                Val::N(ms) if ms.len() == chunks => ms,
                Val::S(p) => match mask_splat(fx, p, file)? {
                    Some(m) => vec![m; chunks],
                    None => return Ok(None),
                },
                _ => return Ok(None),
            };
            let logic = |fx: &mut Fx, op: SemOp, args: &[A]| fx.try_op(op, Some(Ty::U32), None, Some(file), args).flatten();
            let mut out = Vec::new();
            for c in 0..chunks {
                let (Some(ca), Some(nc)) = (logic(fx, SemOp::And, &[A::R(masks[c]), A::R(a[c])]), logic(fx, SemOp::Not, &[A::R(masks[c])])) else {
                    return Ok(None);
                };
                let Some(ncb) = logic(fx, SemOp::And, &[A::R(nc), A::R(b[c])]) else { return Ok(None) };
                let Some(r) = logic(fx, SemOp::Or, &[A::R(ca), A::R(ncb)]) else { return Ok(None) };
                out.push(r);
            }
            Ok(Some(Val::N(out)))
        }
        LLVMSelect => {
            let Some(a) = operand_native(fx, 1)? else { return Ok(None) };
            let Some(b) = operand_native(fx, 2)? else { return Ok(None) };
            let cond = i.operand(0);
            let masks: Vec<Reg> = match fx.val(cond)? {
                Val::N(ms) if ms.len() == chunks => ms,
                Val::S(p) => {
                    // A scalar condition as an all-lanes or no-lanes mask.
                    let Some(mf) = fx.m.mask_file(file) else { return Ok(None) };
                    let int = fx.addr_file()?;
                    let one = inst::pred_to_int(fx, p)?;
                    let all = fx.op(SemOp::Sub, Ty::I32, int, &[A::I(0), A::R(one)])?;
                    let m = match fx.try_op(SemOp::Mov, Some(Ty::U32), None, Some(mf), &[A::R(all)]) {
                        Some(Some(m)) => m,
                        _ => return Ok(None),
                    };
                    vec![m; chunks]
                }
                _ => return Ok(None),
            };
            let mut out = Vec::new();
            for c in 0..chunks {
                let mut got = None;
                for ty in [Ty::I32, Ty::U32, Ty::F32] {
                    if let Some(Some(r)) = fx.try_op(SemOp::Select, Some(ty), None, Some(file), &[A::R(masks[c]), A::R(a[c]), A::R(b[c])]) {
                        got = Some(r);
                        break;
                    }
                }
                match got {
                    Some(r) => out.push(r),
                    None => return Ok(None),
                }
            }
            Ok(Some(Val::N(out)))
        }
        LLVMSIToFP | LLVMFPToSI | LLVMUIToFP | LLVMFPToUI => {
            let Some(a) = operand_native(fx, 0)? else { return Ok(None) };
            let src = elem_sc(fx, i.operand(0).ty())?;
            if src == Sc::I1 {
                return Ok(None);
            }
            let (f, to) = match op {
                LLVMSIToFP => (Ty::I32, Ty::F32),
                LLVMUIToFP => (Ty::U32, Ty::F32),
                LLVMFPToSI => (Ty::F32, Ty::I32),
                _ => (Ty::F32, Ty::U32),
            };
            let mut out = Vec::new();
            for c in a {
                match fx.try_op(SemOp::Cvt, Some(f), Some(to), Some(file), &[A::R(c)]) {
                    Some(Some(r)) => out.push(r),
                    _ => return Ok(None),
                }
            }
            Ok(Some(Val::N(out)))
        }
        LLVMZExt | LLVMSExt => {
            // Lane masks to 0/1 or 0/-1 integers.
            let Some(m) = operand_native(fx, 0)? else { return Ok(None) };
            if elem_sc(fx, i.operand(0).ty())? != Sc::I1 {
                return Ok(None);
            }
            let int = fx.addr_file()?;
            let one = fx.imm(if op == LLVMZExt { 1 } else { -1 }, int)?;
            let zero = fx.imm(0, int)?;
            let Some(vone) = broadcast(fx, one, file) else { return Ok(None) };
            let Some(vzero) = broadcast(fx, zero, file) else { return Ok(None) };
            let mut out = Vec::new();
            for c in m {
                match fx.try_op(SemOp::Select, Some(Ty::I32), None, Some(file), &[A::R(c), A::R(vone), A::R(vzero)]) {
                    Some(Some(r)) => out.push(r),
                    _ => return Ok(None),
                }
            }
            Ok(Some(Val::N(out)))
        }
        LLVMPtrToInt | LLVMIntToPtr | LLVMAddrSpaceCast => match operand_native(fx, 0)? {
            Some(a) => Ok(Some(Val::N(a))),
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

pub use crate::vector_ops::{int_to_mask, lower_vector_gep, lower_vector_intrinsic, lower_vector_op, mask_to_int};

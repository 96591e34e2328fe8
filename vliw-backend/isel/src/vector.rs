//! LLVM vector types. A vector whose shape matches the machine's 32-bit
//! vector file (lanes × 32 bits, or a multiple: split into chunks) uses the
//! machine's lane-wise instructions, found by semantics (add, compares into
//! lane masks, select by mask, broadcast for splats, extract/insert,
//! aligned/unaligned vector loads and stores, reductions); anything the
//! machine lacks, and every other vector type (i8/i16/i64/f64 elements, odd
//! lane counts), is scalarized lane by lane — correctness first.
//! Lanes go to and from vector registers by extract and through a stack
//! slot (lane stores, one vector load).

use isa_tablegen::{ArgPat, RegFileId, SemOp, Ty};
use dsp_mir::{InstKind, Reg};

use crate::emit::A;
use crate::function::{const_bits, Fx, Val};
use crate::inst;
use crate::llvm::{Op, TyKind, V, T};
use crate::memory::{align_at, Addr};
use crate::types::{Sc, Shape};

/// Element type and lane count of a vector type.
fn vec_info(t: T) -> Result<(T, u32), String> {
    match t.kind() {
        TyKind::Vector(e, n) => Ok((e, n)),
        _ => Err(format!("type '{}' is not a vector", t.print())),
    }
}

fn elem_sc(fx: &Fx, t: T) -> Result<Sc, String> {
    let (e, _) = vec_info(t)?;
    match fx.shape(e)? {
        Shape::Scalar(sc) => Ok(sc),
        _ => Err("vector of non-scalars".into()),
    }
}

/// Lanes per chunk of a native shape.
fn chunk_lanes(fx: &Fx, file: RegFileId) -> u32 {
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
fn extract_lane(fx: &mut Fx, chunk: Reg, k: u32, elem: Sc) -> Result<Reg, String> {
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
fn broadcast(fx: &mut Fx, x: Reg, file: RegFileId) -> Option<Reg> {
    for ty in [Ty::I32, Ty::U32, Ty::F32] {
        if let Some(Some(r)) = fx.try_op(SemOp::Broadcast, Some(ty), None, Some(file), &[A::R(x)]) {
            return Some(r);
        }
    }
    None
}

fn vmem(fx: &mut Fx, load: bool, addr: &Addr, file: RegFileId, bytes: u32, align: u32, val: Option<Reg>) -> Result<Option<Reg>, String> {
    let ops: &[SemOp] = match (load, align >= bytes) {
        (true, true) => &[SemOp::VLoad, SemOp::VLoadU],
        (true, false) => &[SemOp::VLoadU],
        (false, true) => &[SemOp::VStore, SemOp::VStoreU],
        (false, false) => &[SemOp::VStoreU],
    };
    let int = fx.addr_file()?;
    for &op in ops {
        for ty in [Ty::I32, Ty::U32, Ty::F32] {
            let dst = load.then_some(file);
            let mut pats = vec![ArgPat::Reg(fx.file(addr.base)), match &addr.off {
                A::I(v) => ArgPat::Imm(*v),
                A::F(..) => ArgPat::Imm(0xffff),
                _ => ArgPat::SymImm,
            }];
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
                Some(r) => Ok(r),
                None => continue,
            };
        }
    }
    Err(format!("the machine has no {} of a {}-byte vector", if load { "load" } else { "store" }, bytes))
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
                let m = if all_const[0] & 1 == 1 { if per >= 64 { -1 } else { (1i64 << per) - 1 } } else { 0 };
                let r = fx.imm(m, file)?;
                return Ok(Val::N(vec![r; chunks as usize]));
            }
            let r = fx.imm(all_const[0], file)?;
            return Ok(Val::N(vec![r; chunks as usize]));
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
        LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd
        | LLVMOr | LLVMXor | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem => inst::binop(fx, op, dst, A::R(a[0]), A::R(a[1])),
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
        if elem == Sc::I1 {
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
        let splat = splat_imm(b_op);
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

/// extractelement, insertelement, shufflevector.
pub fn lower_vector_op(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    match op {
        Op::LLVMExtractElement => {
            let vt = i.operand(0).ty();
            let v = fx.val(i.operand(0))?;
            let idx = i.operand(1);
            if let Some((k, _)) = idx.const_int() {
                let r = match (&v, fx.shape(vt)?) {
                    (Val::N(chunks), Shape::Native { elem, file, .. }) => {
                        let per = chunk_lanes(fx, file) as u64;
                        let c = chunks.get((k / per) as usize).copied().ok_or("extractelement index out of range")?;
                        extract_lane(fx, c, (k % per) as u32, elem)?
                    }
                    (Val::L(rs), _) => *rs.get(k as usize).ok_or("extractelement index out of range")?,
                    _ => return Err("internal: vector value".into()),
                };
                fx.set(i, Val::S(r));
                return Ok(());
            }
            // Variable index: select over the lanes.
            let lanes = lanes_of(fx, &v, vt)?;
            let sc = elem_sc(fx, vt)?;
            let x = fx.reg(idx)?;
            let ibits = Fx::int_bits(idx.ty()).unwrap_or(32);
            let mut acc = lanes[0];
            for (k, l) in lanes.iter().enumerate().skip(1) {
                let p = inst::icmp(fx, crate::llvm::IntPred::LLVMIntEQ, Sc::Int(ibits), A::R(x), A::I(k as i64))?;
                acc = if sc == Sc::I1 { inst::select_pred(fx, p, *l, acc)? } else { inst::select_reg(fx, p, *l, acc)? };
            }
            fx.set(i, Val::S(acc));
            Ok(())
        }
        Op::LLVMInsertElement => {
            let vt = i.ty();
            let v = fx.val(i.operand(0))?;
            let x = fx.reg(i.operand(1))?;
            let idx = i.operand(2);
            let sc = elem_sc(fx, vt)?;
            if let (Some((k, _)), Val::N(chunks), Shape::Native { file, elem, .. }) = (idx.const_int(), &v, fx.shape(vt)?) {
                if elem != Sc::I1 {
                    let per = chunk_lanes(fx, file) as u64;
                    let c = (k / per) as usize;
                    if c < chunks.len() {
                        let int = fx.addr_file()?;
                        let lane = fx.imm((k % per) as i64, int)?;
                        let mut done = None;
                        for ty in [Ty::I32, Ty::U32, Ty::F32] {
                            if let Some(id) = fx.find(SemOp::Insert, Some(ty), None, Some(file), &[ArgPat::Reg(file), ArgPat::Reg(fx.file(x)), ArgPat::Reg(int)]) {
                                // The insert reads and writes its destination: copy first.
                                let d = fx.vreg(file);
                                fx.push(InstKind::Copy { dst: d, src: chunks[c] });
                                fx.emit_id(id, Some(d), &[A::R(d), A::R(x), A::R(lane)], None);
                                done = Some(d);
                                break;
                            }
                        }
                        if let Some(d) = done {
                            let mut out = chunks.clone();
                            out[c] = d;
                            fx.set(i, Val::N(out));
                            return Ok(());
                        }
                    }
                }
            }
            let mut lanes = match &v {
                Val::N(_) if i.operand(0).is_undef() => vec![x; vec_info(vt)?.1 as usize],
                _ => lanes_of(fx, &v, vt)?,
            };
            if let Some((k, _)) = idx.const_int() {
                *lanes.get_mut(k as usize).ok_or("insertelement index out of range")? = x;
            } else {
                let xi = fx.reg(idx)?;
                let ibits = Fx::int_bits(idx.ty()).unwrap_or(32);
                for (k, l) in lanes.iter_mut().enumerate() {
                    let p = inst::icmp(fx, crate::llvm::IntPred::LLVMIntEQ, Sc::Int(ibits), A::R(xi), A::I(k as i64))?;
                    *l = if sc == Sc::I1 { inst::select_pred(fx, p, x, *l)? } else { inst::select_reg(fx, p, x, *l)? };
                }
            }
            let out = from_lanes(fx, lanes, vt)?;
            fx.set(i, out);
            Ok(())
        }
        _ => shuffle(fx, i),
    }
}

fn shuffle(fx: &mut Fx, i: V) -> Result<(), String> {
    let t = i.ty();
    let mask = i.shuffle_mask();
    let a = i.operand(0);
    let b = i.operand(1);
    let n = vec_info(a.ty())?.1 as usize;
    // Splat of lane 0 of an insertelement: a broadcast.
    if mask.iter().all(|m| *m == Some(0)) && a.opcode() == Some(Op::LLVMInsertElement) {
        if let Some((0, _)) = a.operand(2).const_int() {
            if let Shape::Native { file, chunks, elem, .. } = fx.shape(t)? {
                if elem != Sc::I1 {
                    let x = fx.reg(a.operand(1))?;
                    if let Some(r) = broadcast(fx, x, file) {
                        fx.set(i, Val::N(vec![r; chunks as usize]));
                        return Ok(());
                    }
                }
            }
        }
    }
    let av = fx.val(a)?;
    let la = lanes_of(fx, &av, a.ty())?;
    let needs_b = mask.iter().any(|m| m.is_some_and(|x| x as usize >= n));
    let lb = if needs_b {
        let bv = fx.val(b)?;
        lanes_of(fx, &bv, b.ty())?
    } else {
        Vec::new()
    };
    let sc = elem_sc(fx, t)?;
    let f = fx.sc_file(sc)?;
    let mut out = Vec::new();
    for m in mask {
        out.push(match m {
            Some(x) if (x as usize) < n => la[x as usize],
            Some(x) => lb[x as usize - n],
            None => fx.imm(0, f)?,
        });
    }
    let v = from_lanes(fx, out, t)?;
    fx.set(i, v);
    Ok(())
}

/// A GEP producing a vector of pointers: lane by lane.
pub fn lower_vector_gep(fx: &mut Fx, i: V) -> Result<(), String> {
    let t = i.ty();
    let n = vec_info(t)?.1 as usize;
    let dl = fx.dl;
    let int = fx.addr_file()?;
    let lanes_for = |fx: &mut Fx, v: V| -> Result<Vec<Reg>, String> {
        let x = fx.val(v)?;
        if matches!(v.ty().kind(), TyKind::Vector(..)) {
            lanes_of(fx, &x, v.ty())
        } else {
            Ok(vec![x.scalar()?; n])
        }
    };
    let mut acc = lanes_for(fx, i.operand(0))?;
    let mut ty = i.gep_source_type();
    for k in 1..i.num_operands() {
        let idx = i.operand(k);
        let stride = if k == 1 {
            dl.alloc_size(ty)
        } else {
            match ty.kind() {
                TyKind::Struct(fields) => {
                    let (x, _) = idx.const_int().or_else(|| idx.aggregate_element(0).and_then(|e| e.const_int())).ok_or("variable struct index")?;
                    let off = dl.field_offset(ty, x as u32) as i64;
                    ty = fields[x as usize];
                    for a in acc.iter_mut() {
                        *a = fx.op(SemOp::Add, Ty::I32, int, &[A::R(*a), A::I(off)])?;
                    }
                    continue;
                }
                TyKind::Array(e, _) | TyKind::Vector(e, _) => {
                    ty = e;
                    dl.alloc_size(e)
                }
                _ => return Err("GEP into a non-aggregate".into()),
            }
        };
        let ibits = match idx.ty().kind() {
            TyKind::Vector(e, _) => Fx::int_bits(e).unwrap_or(32),
            other => match other {
                TyKind::Int(b) => b,
                _ => 32,
            },
        };
        let il = lanes_for(fx, idx)?;
        for (a, x) in acc.iter_mut().zip(il) {
            let mut x = x;
            if ibits > 32 {
                x = fx.cvt(Ty::I64, Ty::I32, int, x)?;
            } else if ibits < 32 {
                x = inst::sext_reg(fx, x, ibits)?;
            }
            let s = crate::memory::scale(fx, x, stride as i64)?;
            *a = fx.op(SemOp::Add, Ty::I32, int, &[A::R(*a), A::R(s)])?;
        }
    }
    let v = from_lanes(fx, acc, t)?;
    fx.set(i, v);
    Ok(())
}

/// Vector intrinsics: reductions, lane-wise math, masked memory.
pub fn lower_vector_intrinsic(fx: &mut Fx, i: V, base: &str) -> Result<(), String> {
    if let Some(kind) = base.strip_prefix("vector.reduce.") {
        let r = reduce(fx, i, kind)?;
        fx.set(i, Val::S(r));
        return Ok(());
    }
    let t = i.ty();
    let nargs = i.num_arg_operands();
    // Native lane-wise forms.
    if let Shape::Native { elem, file, chunks, .. } = fx.shape(t)? {
        let sop = match base {
            "fmuladd" | "fma" if base == "fma" || fx.opts.contract => Some((SemOp::Mac, Ty::F32)),
            "fabs" => Some((SemOp::Abs, Ty::F32)),
            "minnum" => Some((SemOp::Min, Ty::F32)),
            "maxnum" => Some((SemOp::Max, Ty::F32)),
            "smin" => Some((SemOp::Min, Ty::I32)),
            "smax" => Some((SemOp::Max, Ty::I32)),
            "umin" => Some((SemOp::Min, Ty::U32)),
            "umax" => Some((SemOp::Max, Ty::U32)),
            "abs" => Some((SemOp::Abs, Ty::I32)),
            _ => None,
        };
        if let (Some((sop, ty)), false) = (sop, elem == Sc::I1) {
            let nsrc = if sop == SemOp::Abs && base == "abs" { 1 } else { nargs as usize };
            let mut srcs = Vec::new();
            for k in 0..nsrc {
                match fx.val(i.operand(k as u32))? {
                    Val::N(rs) => srcs.push(rs),
                    _ => srcs.clear(),
                }
            }
            if srcs.len() == nsrc {
                let mut out = Vec::new();
                for c in 0..chunks as usize {
                    let args: Vec<A> = srcs.iter().map(|s| A::R(s[c])).collect();
                    match fx.try_op(sop, Some(ty), None, Some(file), &args) {
                        Some(Some(r)) => out.push(r),
                        _ => break,
                    }
                }
                if out.len() == chunks as usize {
                    fx.set(i, Val::N(out));
                    return Ok(());
                }
            }
        }
    }
    if base.starts_with("masked.") {
        return Err(format!("intrinsic 'llvm.{base}' is not supported"));
    }
    // Lane by lane.
    let n = vec_info(t)?.1 as usize;
    let sc = elem_sc(fx, t)?;
    let mut per_arg = Vec::new();
    for k in 0..nargs {
        let o = i.operand(k);
        let v = fx.val(o)?;
        if matches!(o.ty().kind(), TyKind::Vector(..)) {
            per_arg.push(lanes_of(fx, &v, o.ty())?);
        } else {
            per_arg.push(vec![v.scalar()?; n]);
        }
    }
    let mut out = Vec::new();
    for lane in 0..n {
        let args: Vec<Reg> = per_arg.iter().map(|a| a[lane]).collect();
        out.push(crate::intrinsics::scalar_intrinsic(fx, base, base, sc, &args, i)?);
    }
    let v = from_lanes(fx, out, t)?;
    fx.set(i, v);
    Ok(())
}

/// `llvm.vector.reduce.*`.
fn reduce(fx: &mut Fx, i: V, kind: &str) -> Result<Reg, String> {
    let ordered_float = matches!(kind, "fadd" | "fmul");
    let (start, vec_v) = if ordered_float { (Some(i.operand(0)), i.operand(1)) } else { (None, i.operand(0)) };
    let vt = vec_v.ty();
    let sc = elem_sc(fx, vt)?;
    let val = fx.val(vec_v)?;
    let rfile = fx.sc_file(sc)?;
    let reassoc = i.reassoc();
    // Machine reductions on native vectors.
    if let (Val::N(chunks), Shape::Native { file, elem, .. }) = (&val, fx.shape(vt)?) {
        let red = match kind {
            "add" => Some((SemOp::ReduceAdd, SemOp::Add, Ty::I32)),
            "smin" => Some((SemOp::ReduceMin, SemOp::Min, Ty::I32)),
            "smax" => Some((SemOp::ReduceMax, SemOp::Max, Ty::I32)),
            "umin" => Some((SemOp::ReduceMin, SemOp::Min, Ty::U32)),
            "umax" => Some((SemOp::ReduceMax, SemOp::Max, Ty::U32)),
            "fmin" => Some((SemOp::ReduceMin, SemOp::Min, Ty::F32)),
            "fmax" => Some((SemOp::ReduceMax, SemOp::Max, Ty::F32)),
            "fadd" if reassoc => Some((SemOp::ReduceAdd, SemOp::Add, Ty::F32)),
            _ => None,
        };
        if let (Some((rop, cop, ty)), false) = (red, elem == Sc::I1) {
            let mut acc = Some(chunks[0]);
            for c in &chunks[1..] {
                acc = acc.and_then(|a| fx.try_op(cop, Some(ty), None, Some(file), &[A::R(a), A::R(*c)]).flatten());
            }
            if let Some(a) = acc {
                if let Some(Some(r)) = fx.try_op(rop, Some(ty), None, Some(rfile), &[A::R(a)]) {
                    if let Some(s) = start {
                        let sr = fx.reg(s)?;
                        return inst::binop(fx, Op::LLVMFAdd, sc, A::R(sr), A::R(r));
                    }
                    return Ok(r);
                }
            }
        }
    }
    // Lane by lane, in lane order.
    let lanes = lanes_of(fx, &val, vt)?;
    let (mut acc, rest) = match start {
        Some(s) => (fx.reg(s)?, &lanes[..]),
        None => (lanes[0], &lanes[1..]),
    };
    for l in rest {
        acc = match kind {
            "add" => inst::binop(fx, Op::LLVMAdd, sc, A::R(acc), A::R(*l))?,
            "mul" => inst::binop(fx, Op::LLVMMul, sc, A::R(acc), A::R(*l))?,
            "and" => inst::binop(fx, Op::LLVMAnd, sc, A::R(acc), A::R(*l))?,
            "or" => inst::binop(fx, Op::LLVMOr, sc, A::R(acc), A::R(*l))?,
            "xor" => inst::binop(fx, Op::LLVMXor, sc, A::R(acc), A::R(*l))?,
            "fadd" => inst::binop(fx, Op::LLVMFAdd, sc, A::R(acc), A::R(*l))?,
            "fmul" => inst::binop(fx, Op::LLVMFMul, sc, A::R(acc), A::R(*l))?,
            "smin" | "smax" | "umin" | "umax" => crate::intrinsics::scalar_intrinsic(fx, kind, kind, sc, &[acc, *l], i)?,
            "fmin" => crate::intrinsics::scalar_intrinsic(fx, "minnum", kind, sc, &[acc, *l], i)?,
            "fmax" => crate::intrinsics::scalar_intrinsic(fx, "maxnum", kind, sc, &[acc, *l], i)?,
            _ => return Err(format!("reduction '{kind}' is not supported")),
        };
    }
    let _ = align_at;
    Ok(acc)
}

/// An i1 vector as an integer whose bit k is lane k.
pub fn mask_to_int(fx: &mut Fx, v: &Val, t: T, bits: u32) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    if let (Val::N(chunks), true) = (v, bits <= 32) {
        if chunks.len() == 1 {
            if let Some(Some(r)) = fx.try_op(SemOp::Mov, Some(Ty::U32), None, Some(int), &[A::R(chunks[0])]) {
                return Ok(r);
            }
        }
    }
    let lanes = lanes_of(fx, v, t)?;
    let file = fx.sc_file(Sc::Int(bits))?;
    let wide = bits > 32;
    let mut acc: Option<Reg> = None;
    for (k, p) in lanes.iter().enumerate() {
        let mut b = inst::pred_to_int(fx, *p)?;
        if wide {
            b = fx.cvt(Ty::U32, Ty::U64, file, b)?;
        }
        let ty = if wide { Ty::I64 } else { Ty::I32 };
        let s = if k == 0 { b } else { inst::shift(fx, SemOp::Shl, ty, b, A::I(k as i64))? };
        acc = Some(match acc {
            None => s,
            Some(a) => fx.op(SemOp::Or, ty, file, &[A::R(a), A::R(s)])?,
        });
    }
    acc.ok_or_else(|| "empty vector".into())
}

/// An integer's bits as an i1 vector (lane k = bit k).
pub fn int_to_mask(fx: &mut Fx, x: Reg, t: T) -> Result<Val, String> {
    let (_, n) = vec_info(t)?;
    if let Shape::Native { file, chunks: 1, .. } = fx.shape(t)? {
        if fx.file(x) == fx.addr_file()? {
            if let Some(Some(m)) = fx.try_op(SemOp::Mov, Some(Ty::U32), None, Some(file), &[A::R(x)]) {
                return Ok(Val::N(vec![m]));
            }
        }
    }
    let wide = fx.m.regfile(fx.file(x)).width > 32;
    let ty = if wide { Ty::U64 } else { Ty::U32 };
    let mut lanes = Vec::new();
    for k in 0..n {
        let s = if k == 0 { x } else { inst::shift(fx, SemOp::Shr, ty, x, A::I(k as i64))? };
        let s = if wide { fx.cvt(Ty::I64, Ty::I32, fx.addr_file()?, s)? } else { s };
        let int = fx.addr_file()?;
        let b = fx.op(SemOp::And, Ty::I32, int, &[A::R(s), A::I(1)])?;
        lanes.push(inst::compare(fx, SemOp::Ne, Ty::I32, A::R(b), A::I(0))?);
    }
    from_lanes(fx, lanes, t)
}

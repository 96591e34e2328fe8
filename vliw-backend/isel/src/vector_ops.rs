//! Vector operations beyond lane-wise arithmetic: extractelement,
//! insertelement (the machine's insert, which reads and writes its
//! destination, after a copy), shufflevector (a broadcast for splats, else
//! lane by lane), GEPs on vectors of pointers, vector intrinsics (native
//! lane-wise forms such as fused multiply-add and min/max, else lane by
//! lane), reductions (the machine's reduce after combining chunks; ordered
//! float reductions in lane order), and i1 vectors as integer bit masks.

use dsp_mir::{InstKind, Reg};
use isa_tablegen::{ArgPat, SemOp, Ty};

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::inst;
use crate::llvm::{Op, TyKind, T, V};
use crate::types::{Sc, Shape};
use crate::vector::{broadcast, chunk_lanes, elem_sc, extract_lane, from_lanes, lanes_of, vec_info};

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
            // Into poison or undef: every other lane may hold anything, so x in
            // all of them (the usual first half of a splat) is one broadcast.
            if let (true, Shape::Native { file, elem, chunks, .. }) = (i.operand(0).is_undef(), fx.shape(vt)?) {
                if elem == Sc::I1 {
                    if let Some(m) = crate::vector::mask_splat(fx, x, file)? {
                        fx.set(i, Val::N(vec![m; chunks as usize]));
                        return Ok(());
                    }
                }
                if elem != Sc::I1 {
                    if let Some(r) = broadcast(fx, x, file) {
                        fx.set(i, Val::N(vec![r; chunks as usize]));
                        return Ok(());
                    }
                }
            }
            if let (Some((k, _)), Val::N(chunks), Shape::Native { file, elem, .. }) = (idx.const_int(), &v, fx.shape(vt)?) {
                if elem != Sc::I1 {
                    let per = chunk_lanes(fx, file) as u64;
                    let c = (k / per) as usize;
                    if c < chunks.len() {
                        let int = fx.addr_file()?;
                        let lane = fx.imm((k % per) as i64, int)?;
                        let mut done = None;
                        for ty in [Ty::I32, Ty::U32, Ty::F32] {
                            if let Some(id) = fx.find(
                                SemOp::Insert,
                                Some(ty),
                                None,
                                Some(file),
                                &[ArgPat::Reg(file), ArgPat::Reg(fx.file(x)), ArgPat::Reg(int)],
                            ) {
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
                if elem == Sc::I1 {
                    let x = fx.reg(a.operand(1))?;
                    if let Some(m) = crate::vector::mask_splat(fx, x, file)? {
                        fx.set(i, Val::N(vec![m; chunks as usize]));
                        return Ok(());
                    }
                }
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
    if let Some(v) = native_shuffle(fx, i, &mask)? {
        fx.set(i, v);
        return Ok(());
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

/// Shuffles into one vector register the machine does directly. Source
/// lanes are numbered over both operands' registers (chunks of `n` lanes):
/// a result taking lane k from one chunk's lane k is that chunk (undefined
/// lanes are free) or a blend of chunks (selects by constant masks); a splat
/// is an extract and a broadcast; lanes at affine positions `o + s·k` (a
/// reversal, a slide, a stride) are the machine's shuffle of each chunk
/// involved over one index vector built from `iota`, then blended.
fn native_shuffle(fx: &mut Fx, i: V, mask: &[Option<u32>]) -> Result<Option<Val>, String> {
    let (a, b) = (i.operand(0), i.operand(1));
    let Shape::Native { file, chunks: 1, elem, .. } = fx.shape(i.ty())? else { return Ok(None) };
    if elem == Sc::I1 {
        return Ok(None);
    }
    let n = chunk_lanes(fx, file);
    // The source registers, a's chunks then b's.
    let mut srcs: Vec<Reg> = Vec::new();
    let mut a_lanes = 0;
    for (k, v) in [a, b].into_iter().enumerate() {
        match fx.shape(v.ty())? {
            Shape::Native { file: f, chunks, lanes, .. } if f == file => {
                if k == 0 {
                    a_lanes = lanes;
                }
                if v.is_undef() {
                    srcs.extend(std::iter::repeat_n(Reg::Phys(isa_tablegen::Reg { file, index: 0 }), chunks as usize));
                    continue;
                }
                match fx.val(v)? {
                    Val::N(rs) => srcs.extend(rs),
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        }
    }
    // Defined lanes: (result lane, source chunk, lane in chunk).
    let mut defined = Vec::new();
    for (k, m) in mask.iter().enumerate() {
        if let Some(x) = m {
            // b's lanes follow a's (a has a_lanes lanes).
            let g = if *x < a_lanes { *x } else { a_lanes.div_ceil(n) * n + (*x - a_lanes) };
            let (c, l) = ((g / n) as usize, g % n);
            if c >= srcs.len() || matches!(srcs[c], Reg::Phys(_)) {
                return Ok(None);
            }
            defined.push((k as u32, c, l, g));
        }
    }
    if defined.is_empty() {
        return Ok(Some(fx.zero_of(i.ty())?));
    }
    let mut used: Vec<usize> = defined.iter().map(|d| d.1).collect();
    used.sort_unstable();
    used.dedup();
    // Splat of one lane.
    if defined.iter().all(|d| d.3 == defined[0].3) {
        let s = extract_lane(fx, srcs[defined[0].1], defined[0].2, elem)?;
        return Ok(broadcast(fx, s, file).map(|v| Val::N(vec![v])));
    }
    let in_place = defined.iter().all(|d| d.2 == d.0);
    // Per used chunk, the register holding its lanes at their result positions.
    let mut moved: Vec<(usize, Reg)> = Vec::new();
    if in_place {
        moved = used.iter().map(|&c| (c, srcs[c])).collect();
    } else {
        let (k0, g0) = (defined[0].0 as i64, defined[0].3 as i64);
        let Some(&(k1, _, _, g1)) = defined.get(1) else { return Ok(None) };
        let (dk, dg) = (k1 as i64 - k0, g1 as i64 - g0);
        if dk == 0 || dg % dk != 0 {
            return Ok(None);
        }
        let step = dg / dk;
        let off = g0 - step * k0;
        if step == 0 || !defined.iter().all(|d| d.3 as i64 == off + step * d.0 as i64) {
            return Ok(None);
        }
        let Some(index) = affine_index(fx, file, off.rem_euclid(n as i64), step)? else { return Ok(None) };
        for &c in &used {
            let mut got = None;
            for ty in [Ty::I32, Ty::U32, Ty::F32] {
                if let Some(Some(r)) = fx.try_op(SemOp::Shuffle, Some(ty), None, Some(file), &[A::R(srcs[c]), A::R(index)]) {
                    got = Some(r);
                    break;
                }
            }
            match got {
                Some(r) => moved.push((c, r)),
                None => return Ok(None),
            }
        }
    }
    // Blend the chunks by lane masks.
    let mut acc = moved[0].1;
    if moved.len() > 1 {
        let Some(mf) = fx.m.mask_file(file) else { return Ok(None) };
        if n > 32 {
            return Ok(None);
        }
        for &(c, r) in &moved[1..] {
            let bits: i64 = defined.iter().filter(|d| d.1 == c).map(|d| 1i64 << d.0).sum();
            let m = fx.imm(bits, mf)?;
            let mut got = None;
            for ty in [Ty::I32, Ty::U32, Ty::F32] {
                if let Some(Some(x)) = fx.try_op(SemOp::Select, Some(ty), None, Some(file), &[A::R(m), A::R(r), A::R(acc)]) {
                    got = Some(x);
                    break;
                }
            }
            match got {
                Some(x) => acc = x,
                None => return Ok(None),
            }
        }
    }
    Ok(Some(Val::N(vec![acc])))
}

/// The index vector `o + s·k` (lane k), from the machine's `iota`.
fn affine_index(fx: &mut Fx, file: isa_tablegen::RegFileId, off: i64, step: i64) -> Result<Option<Reg>, String> {
    if !fx.has(SemOp::Shuffle, Ty::I32, Some(file), &[file, file]) {
        return Ok(None);
    }
    let Some(Some(iota)) = fx.try_op(SemOp::Iota, Some(Ty::I32), None, Some(file), &[]) else { return Ok(None) };
    let int = fx.addr_file()?;
    let scaled = match step {
        1 => iota,
        -1 => {
            let z = fx.imm(0, file)?;
            match fx.try_op(SemOp::Sub, Some(Ty::I32), None, Some(file), &[A::R(z), A::R(iota)]) {
                Some(Some(r)) => r,
                _ => return Ok(None),
            }
        }
        s if s > 0 && s & (s - 1) == 0 => {
            let sh = fx.imm(s.trailing_zeros() as i64, int)?;
            match fx.try_op(SemOp::Shl, Some(Ty::I32), None, Some(file), &[A::R(iota), A::R(sh)]) {
                Some(Some(r)) => r,
                _ => return Ok(None),
            }
        }
        s => {
            let vs = fx.imm(s, file)?;
            match fx.try_op(SemOp::Mul, Some(Ty::I32), None, Some(file), &[A::R(iota), A::R(vs)]) {
                Some(Some(r)) => r,
                _ => return Ok(None),
            }
        }
    };
    if off == 0 {
        return Ok(Some(scaled));
    }
    let o = fx.imm(off, int)?;
    let Some(vo) = broadcast(fx, o, file) else { return Ok(None) };
    Ok(fx.try_op(SemOp::Add, Some(Ty::I32), None, Some(file), &[A::R(scaled), A::R(vo)]).flatten())
}

/// A GEP producing a vector of pointers: lane by lane.
/// A GEP of pointer vectors in vector registers: the base (broadcast when
/// scalar) plus each index times its stride, with vector shifts, multiplies
/// and adds (32-bit indices; constant struct fields as broadcast offsets).
/// `None` when the machine lacks an operation or the shapes do not fit.
fn native_vector_gep(fx: &mut Fx, i: V) -> Result<Option<Val>, String> {
    let Shape::Native { file, chunks, .. } = fx.shape(i.ty())? else { return Ok(None) };
    let chunks = chunks as usize;
    let dl = fx.dl;
    let int = fx.addr_file()?;
    let vec_op = |fx: &mut Fx, op: SemOp, args: &[A]| fx.try_op(op, Some(Ty::I32), None, Some(file), args).flatten();
    // A value as `chunks` vector registers (broadcast when scalar).
    let as_vector = |fx: &mut Fx, v: V| -> Result<Option<Vec<Reg>>, String> {
        if matches!(v.ty().kind(), TyKind::Vector(..)) {
            return Ok(match (fx.shape(v.ty())?, fx.val(v)?) {
                (Shape::Native { chunks: c, .. }, Val::N(rs)) if c as usize == chunks => Some(rs),
                _ => None,
            });
        }
        let x = fx.reg(v)?;
        Ok(broadcast(fx, x, file).map(|b| vec![b; chunks]))
    };
    let Some(mut acc) = as_vector(fx, i.operand(0))? else { return Ok(None) };
    let mut ty = i.gep_source_type();
    for k in 1..i.num_operands() {
        let idx = i.operand(k);
        let stride = if k == 1 {
            dl.alloc_size(ty) as i64
        } else {
            match ty.kind() {
                TyKind::Struct(fields) => {
                    let Some((x, _)) = idx.const_int().or_else(|| idx.aggregate_element(0).and_then(|e| e.const_int())) else { return Ok(None) };
                    let off = dl.field_offset(ty, x as u32) as i64;
                    ty = fields[x as usize];
                    if off != 0 {
                        let o = fx.imm(off, int)?;
                        let Some(b) = broadcast(fx, o, file) else { return Ok(None) };
                        for a in acc.iter_mut() {
                            let Some(r) = vec_op(fx, SemOp::Add, &[A::R(*a), A::R(b)]) else { return Ok(None) };
                            *a = r;
                        }
                    }
                    continue;
                }
                TyKind::Array(e, _) | TyKind::Vector(e, _) => {
                    ty = e;
                    dl.alloc_size(e) as i64
                }
                _ => return Ok(None),
            }
        };
        let ibits = match idx.ty().kind() {
            TyKind::Vector(e, _) => Fx::int_bits(e).unwrap_or(0),
            TyKind::Int(b) => b,
            _ => 0,
        };
        if ibits != 32 {
            return Ok(None);
        }
        if idx.is_null_or_zero() || idx.const_int().is_some_and(|(v, _)| v == 0) {
            continue;
        }
        let Some(x) = as_vector(fx, idx)? else { return Ok(None) };
        for (a, x) in acc.iter_mut().zip(x) {
            let scaled = match stride {
                1 => Some(x),
                s if s > 0 && (s as u64).is_power_of_two() => {
                    let sh = s.trailing_zeros() as i64;
                    vec_op(fx, SemOp::Shl, &[A::R(x), A::I(sh)]).or_else(|| {
                        let r = fx.imm(sh, int).ok()?;
                        vec_op(fx, SemOp::Shl, &[A::R(x), A::R(r)])
                    })
                }
                s => {
                    let c = fx.imm(s, int)?;
                    let b = broadcast(fx, c, file);
                    b.and_then(|b| vec_op(fx, SemOp::Mul, &[A::R(x), A::R(b)]))
                }
            };
            let Some(scaled) = scaled else { return Ok(None) };
            let Some(r) = vec_op(fx, SemOp::Add, &[A::R(*a), A::R(scaled)]) else { return Ok(None) };
            *a = r;
        }
    }
    Ok(Some(Val::N(acc)))
}

pub fn lower_vector_gep(fx: &mut Fx, i: V) -> Result<(), String> {
    if let Some(v) = native_vector_gep(fx, i)? {
        fx.set(i, v);
        return Ok(());
    }
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
                    let (x, _) =
                        idx.const_int().or_else(|| idx.aggregate_element(0).and_then(|e| e.const_int())).ok_or("variable struct index")?;
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
            // In order from -0.0 (which adds nothing: -0.0 + x is x): the
            // machine's reduction, which sums the lanes in lane order.
            "fadd" if chunks.len() == 1 && start.is_some_and(|s| s.const_fp().is_some_and(|x| x == 0.0 && x.is_sign_negative())) => {
                let r = fx.try_op(SemOp::ReduceAdd, Some(Ty::F32), None, Some(rfile), &[A::R(chunks[0])]).flatten();
                if let Some(r) = r {
                    return Ok(r);
                }
                None
            }
            _ => None,
        };
        // Lane masks: any / all lanes set, from the mask register's bits.
        if elem == Sc::I1 && matches!(kind, "or" | "and") && fx.m.regfile(file).mask_of.is_some() {
            let int = fx.addr_file()?;
            let per = crate::vector::chunk_lanes(fx, file);
            let low = if per >= 32 { -1i64 } else { (1i64 << per) - 1 };
            let mut acc: Option<Reg> = None;
            for &c in chunks.iter() {
                let Some(Some(bits)) = fx.try_op(SemOp::Mov, Some(Ty::U32), None, Some(int), &[A::R(c)]) else { break };
                let bits = if per < 32 { fx.op(SemOp::And, Ty::I32, int, &[A::R(bits), A::I(low)])? } else { bits };
                let p = if kind == "or" {
                    inst::icmp(fx, crate::llvm::IntPred::LLVMIntNE, Sc::Int(32), A::R(bits), A::I(0))?
                } else {
                    inst::icmp(fx, crate::llvm::IntPred::LLVMIntEQ, Sc::Int(32), A::R(bits), A::I(low))?
                };
                acc = Some(match acc {
                    None => p,
                    Some(a) => inst::binop(fx, if kind == "or" { Op::LLVMOr } else { Op::LLVMAnd }, Sc::I1, A::R(a), A::R(p))?,
                });
            }
            if let Some(a) = acc {
                return Ok(a);
            }
        }
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

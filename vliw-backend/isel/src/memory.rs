//! Memory: addresses (stack objects, globals and constant GEP offsets folded
//! into the load/store immediate), loads and stores of every shape
//! (under-aligned or odd-sized scalars as byte accesses, vectors with the
//! aligned or unaligned vector load/store, aggregates element by element),
//! GEP as address arithmetic, and allocas (constant size: a frame object;
//! otherwise a stack-pointer adjustment).

use dsp_mir::{FrameKind, Reg};
use isa_tablegen::{ArgPat, RegFileId, SemOp, Ty};

use crate::emit::A;
use crate::function::{sext, Fx, Val};
use crate::inst::{pred_to_int, shift};
use crate::llvm::{Dl, Op, TyKind, T, V};
use crate::types::{Sc, Shape};

/// Placeholder immediate of a dynamic alloca's result: replaced by the size
/// of the outgoing argument area once the function is selected.
pub const DYN_PLACEHOLDER: i64 = 0x7ff0;

/// An address: a base register plus an immediate, symbol or frame offset.
#[derive(Clone, Debug)]
pub struct Addr {
    pub base: Reg,
    pub off: A,
}

impl Addr {
    pub fn plus(&self, k: i64) -> Addr {
        let off = match &self.off {
            A::I(o) => A::I(o + k),
            A::S(n, o) => A::S(n.clone(), o + k),
            A::F(i, o) => A::F(*i, o + k),
            A::R(_) => unreachable!("register offsets are not addresses"),
        };
        Addr { base: self.base, off }
    }
}

/// Alignment known at `offset` bytes past a base aligned to `align`.
pub fn align_at(align: u32, offset: u64) -> u32 {
    if offset == 0 {
        align
    } else {
        align.min(1 << offset.trailing_zeros().min(31))
    }
}

/// The constant byte offset of a GEP (instruction or constant expression), if all indices are constant.
pub fn gep_const_offset(dl: Dl, g: V) -> Result<Option<i64>, String> {
    let mut t = g.gep_source_type();
    let n = g.num_operands();
    let mut off: i64 = 0;
    for k in 1..n {
        let idx = g.operand(k);
        let Some((x, bits)) = idx.const_int() else { return Ok(None) };
        let x = sext(x, bits);
        if k == 1 {
            off = off.wrapping_add(x.wrapping_mul(dl.alloc_size(t) as i64));
            continue;
        }
        match t.kind() {
            TyKind::Struct(fields) => {
                off = off.wrapping_add(dl.field_offset(t, x as u32) as i64);
                t = *fields.get(x as usize).ok_or("GEP field index out of range")?;
            }
            TyKind::Array(e, _) | TyKind::Vector(e, _) => {
                off = off.wrapping_add(x.wrapping_mul(dl.alloc_size(e) as i64));
                t = e;
            }
            _ => return Err(format!("GEP into type '{}'", t.print())),
        }
    }
    Ok(Some(off))
}

/// The address a pointer value designates, folding what is constant.
pub fn address(fx: &mut Fx, p: V) -> Result<Addr, String> {
    if let Some(&idx) = fx.frames.get(&p) {
        return Ok(Addr { base: Reg::Phys(fx.sp()?), off: A::F(idx, 0) });
    }
    if p.is_global() {
        let int = fx.addr_file()?;
        if let Some(z) = fx.zero_reg(int) {
            return Ok(Addr { base: z, off: A::S(p.name(), 0) });
        }
        let r = fx.sym_addr(&p.name(), 0)?;
        return Ok(Addr { base: r, off: A::I(0) });
    }
    let gep = p.opcode() == Some(Op::LLVMGetElementPtr) || p.const_opcode() == Some(Op::LLVMGetElementPtr);
    if gep && p.ty().kind() == TyKind::Ptr {
        if let Some(off) = gep_const_offset(fx.dl, p)? {
            if off == off as i32 as i64 {
                let base = address(fx, p.operand(0))?;
                return Ok(base.plus(off));
            }
        }
    }
    if matches!(p.const_opcode(), Some(Op::LLVMBitCast | Op::LLVMAddrSpaceCast)) {
        return address(fx, p.operand(0));
    }
    if p.is_constant() && !p.is_global() {
        if let Some((None, off)) = fx.const_address(p)? {
            let int = fx.addr_file()?;
            if let Some(z) = fx.zero_reg(int) {
                return Ok(Addr { base: z, off: A::I(off) });
            }
        }
    }
    let r = fx.reg(p)?;
    Ok(Addr { base: r, off: A::I(0) })
}

fn mem_pat(a: &A) -> ArgPat {
    match a {
        A::I(v) => ArgPat::Imm(*v),
        A::S(..) => ArgPat::SymImm,
        A::F(..) => ArgPat::Imm(0xffff),
        A::R(_) => ArgPat::SymImm,
    }
}

/// The address in a form `op` can take: a base register and an offset the
/// instruction accepts (else the offset is added to the base first).
fn legal_addr(
    fx: &mut Fx,
    op: SemOp,
    tys: &[Ty],
    dst: Option<RegFileId>,
    val_file: Option<RegFileId>,
    addr: &Addr,
) -> Result<Option<(Ty, Addr)>, String> {
    let int = fx.addr_file()?;
    let bf = fx.file(addr.base);
    for &t in tys {
        let mut pats = vec![ArgPat::Reg(bf), mem_pat(&addr.off)];
        if let Some(v) = val_file {
            pats.push(ArgPat::Reg(v));
        }
        if fx.find(op, Some(t), None, dst, &pats).is_some() {
            return Ok(Some((t, addr.clone())));
        }
    }
    for &t in tys {
        let mut pats = vec![ArgPat::Reg(int), ArgPat::Imm(0)];
        if let Some(v) = val_file {
            pats.push(ArgPat::Reg(v));
        }
        if fx.find(op, Some(t), None, dst, &pats).is_some() {
            let r = match &addr.off {
                A::I(0) if bf == int => addr.base,
                A::I(o) => fx.op(SemOp::Add, Ty::I32, int, &[A::R(addr.base), A::I(*o)])?,
                A::S(n, o) => {
                    let s = fx.sym_addr(n, *o)?;
                    if fx.zero_reg(int) == Some(addr.base) {
                        s
                    } else {
                        fx.op(SemOp::Add, Ty::I32, int, &[A::R(addr.base), A::R(s)])?
                    }
                }
                A::F(i, o) => fx.frame_addr(*i, *o)?,
                A::R(_) => return Err("internal: register offset".into()),
            };
            return Ok(Some((t, Addr { base: r, off: A::I(0) })));
        }
    }
    Ok(None)
}

/// Candidate vocabulary types of a `size`-byte scalar access.
fn mem_tys(size: u64, float: Option<Ty>) -> Vec<Ty> {
    let mut v = match size {
        1 => vec![Ty::U8, Ty::I8],
        2 => vec![Ty::U16, Ty::I16],
        4 => vec![Ty::I32, Ty::U32, Ty::F32],
        8 => vec![Ty::I64, Ty::U64, Ty::F64],
        _ => vec![],
    };
    if let Some(f) = float {
        v.retain(|t| *t != f);
        v.insert(0, f);
    }
    v
}

/// A scalar load of `size` bytes into `file`, if the machine has one for this address.
fn load_scalar_direct(fx: &mut Fx, addr: &Addr, size: u64, file: RegFileId, float: Option<Ty>) -> Result<Option<Reg>, String> {
    let tys = mem_tys(size, float);
    if let Some((t, a)) = legal_addr(fx, SemOp::Load, &tys, Some(file), None, addr)? {
        return Ok(Some(fx.op(SemOp::Load, t, file, &[A::R(a.base), a.off])?));
    }
    Ok(None)
}

fn store_scalar_direct(fx: &mut Fx, addr: &Addr, size: u64, val: Reg, float: Option<Ty>) -> Result<bool, String> {
    let tys = mem_tys(size, float);
    let vf = fx.file(val);
    if let Some((t, a)) = legal_addr(fx, SemOp::Store, &tys, None, Some(vf), addr)? {
        fx.op_void(SemOp::Store, t, &[A::R(a.base), a.off, A::R(val)])?;
        return Ok(true);
    }
    Ok(false)
}

/// Loads a scalar of type `sc` (store size `size`, known alignment `align`).
pub fn load_scalar(fx: &mut Fx, addr: &Addr, sc: Sc, size: u64, align: u32) -> Result<Reg, String> {
    if sc == Sc::I1 {
        let int = fx.addr_file()?;
        let b = load_scalar(fx, addr, Sc::Int(8), 1, align)?;
        let m = fx.op(SemOp::And, Ty::I32, int, &[A::R(b), A::I(1)])?;
        return crate::inst::compare(fx, SemOp::Ne, Ty::I32, A::R(m), A::I(0));
    }
    let file = fx.sc_file(sc)?;
    let float = sc.is_float().then(|| sc.reg_ty());
    let natural = matches!(size, 1 | 2 | 4 | 8) && align as u64 >= size;
    if natural {
        if let Some(r) = load_scalar_direct(fx, addr, size, file, float)? {
            return Ok(r);
        }
    }
    let int = fx.addr_file()?;
    if size > 4 {
        // Two halves, combined.
        let lo = load_scalar(fx, addr, Sc::Int(32), 4, align)?;
        let hi = load_scalar(fx, &addr.plus(4), Sc::Int(((size - 4) * 8) as u32), size - 4, align_at(align, 4))?;
        return fx.pack(lo, hi, file);
    }
    // Byte by byte, little-endian.
    let mut acc: Option<Reg> = None;
    for k in 0..size {
        let b = load_scalar_direct(fx, &addr.plus(k as i64), 1, int, None)?.ok_or("the machine has no byte load")?;
        let b = crate::inst::zext_reg(fx, b, 8)?;
        let part = if k == 0 { b } else { fx.op(SemOp::Shl, Ty::I32, int, &[A::R(b), A::I(8 * k as i64)])? };
        acc = Some(match acc {
            None => part,
            Some(a) => fx.op(SemOp::Or, Ty::I32, int, &[A::R(a), A::R(part)])?,
        });
    }
    let r = acc.ok_or("zero-sized load")?;
    if file != int {
        return Err("a float in a non-integer file cannot be assembled from bytes".into());
    }
    Ok(r)
}

/// Stores scalar register `val` of type `sc`.
pub fn store_scalar(fx: &mut Fx, addr: &Addr, sc: Sc, size: u64, align: u32, val: Reg) -> Result<(), String> {
    if sc == Sc::I1 {
        let b = pred_to_int(fx, val)?;
        return store_scalar(fx, addr, Sc::Int(8), 1, align, b);
    }
    let float = sc.is_float().then(|| sc.reg_ty());
    let natural = matches!(size, 1 | 2 | 4 | 8) && align as u64 >= size;
    if natural && store_scalar_direct(fx, addr, size, val, float)? {
        return Ok(());
    }
    let int = fx.addr_file()?;
    if size > 4 {
        let (lo, hi) = fx.halves(val)?;
        store_scalar(fx, addr, Sc::Int(32), 4, align, lo)?;
        return store_scalar(fx, &addr.plus(4), Sc::Int(((size - 4) * 8) as u32), size - 4, align_at(align, 4), hi);
    }
    if fx.file(val) != int {
        return Err("a float in a non-integer file cannot be stored byte by byte".into());
    }
    for k in 0..size {
        let b = if k == 0 { val } else { shift(fx, SemOp::Shr, Ty::U32, val, A::I(8 * k as i64))? };
        if !store_scalar_direct(fx, &addr.plus(k as i64), 1, b, None)? {
            return Err("the machine has no byte store".into());
        }
    }
    Ok(())
}

/// Loads a value of any shape.
pub fn load_val(fx: &mut Fx, addr: &Addr, t: T, align: u32, volatile: bool) -> Result<Val, String> {
    let dl = fx.dl;
    Ok(match fx.shape(t)? {
        Shape::Void => Val::A(Vec::new()),
        Shape::Scalar(sc) => Val::S(load_scalar(fx, addr, sc, dl.store_size(t), align)?),
        Shape::Native { elem, lanes, chunks, file } => {
            if elem == Sc::I1 {
                return Err("loads of i1 vectors are not supported".into());
            }
            let bytes = (lanes / chunks * 4) as i64;
            let mut out = Vec::new();
            for c in 0..chunks as i64 {
                let a = addr.plus(c * bytes);
                let al = align_at(align, (c * bytes) as u64);
                out.push(crate::vector::vload(fx, &a, file, bytes as u32, al, elem)?);
            }
            let _ = volatile;
            Val::N(out)
        }
        Shape::Lanes { elem, lanes } => {
            if elem == Sc::I1 {
                return Err("loads of i1 vectors are not supported".into());
            }
            let TyKind::Vector(et, _) = t.kind() else { return Err("internal: lanes of a non-vector".into()) };
            let es = dl.alloc_size(et);
            let mut out = Vec::new();
            for k in 0..lanes as u64 {
                out.push(load_scalar(fx, &addr.plus((k * es) as i64), elem, dl.store_size(et), align_at(align, k * es))?);
            }
            Val::L(out)
        }
        Shape::Wide { bits, parts } => {
            let size = dl.store_size(t);
            let mut out = Vec::new();
            for k in 0..parts as u64 {
                let n = (size - 4 * k).min(4);
                let _ = bits;
                out.push(load_scalar(fx, &addr.plus(4 * k as i64), Sc::Int(8 * n as u32), n, align_at(align, 4 * k))?);
            }
            Val::L(out)
        }
        Shape::Agg(ts) => {
            let mut out = Vec::new();
            for (k, et) in ts.iter().enumerate() {
                let off = elem_offset(dl, t, k as u32);
                out.push(load_val(fx, &addr.plus(off as i64), *et, align_at(align, off), volatile)?);
            }
            Val::A(out)
        }
    })
}

fn elem_offset(dl: Dl, t: T, k: u32) -> u64 {
    match t.kind() {
        TyKind::Struct(_) => dl.field_offset(t, k),
        TyKind::Array(e, _) => k as u64 * dl.alloc_size(e),
        _ => 0,
    }
}

/// Stores a value of any shape.
/// (Volatile accesses need nothing more here: every access is emitted once, in
/// program order, and the scheduler keeps memory operations ordered.)
pub fn store_val(fx: &mut Fx, addr: &Addr, x: &Val, t: T, align: u32, volatile: bool) -> Result<(), String> {
    let dl = fx.dl;
    let _ = volatile;
    match (fx.shape(t)?, x) {
        (Shape::Void, _) => Ok(()),
        (Shape::Scalar(sc), Val::S(r)) => store_scalar(fx, addr, sc, dl.store_size(t), align, *r),
        (Shape::Native { elem, lanes, chunks, .. }, Val::N(rs)) => {
            if elem == Sc::I1 {
                return Err("stores of i1 vectors are not supported".into());
            }
            let bytes = (lanes / chunks * 4) as i64;
            for (c, r) in rs.iter().enumerate() {
                let c = c as i64;
                crate::vector::vstore(fx, &addr.plus(c * bytes), *r, bytes as u32, align_at(align, (c * bytes) as u64), elem)?;
            }
            Ok(())
        }
        (Shape::Lanes { elem, .. }, Val::L(rs)) => {
            if elem == Sc::I1 {
                return Err("stores of i1 vectors are not supported".into());
            }
            let TyKind::Vector(et, _) = t.kind() else { return Err("internal: lanes of a non-vector".into()) };
            let es = dl.alloc_size(et);
            for (k, r) in rs.iter().enumerate() {
                let k = k as u64;
                store_scalar(fx, &addr.plus((k * es) as i64), elem, dl.store_size(et), align_at(align, k * es), *r)?;
            }
            Ok(())
        }
        (Shape::Wide { .. }, Val::L(rs)) => {
            let size = dl.store_size(t);
            for (k, r) in rs.iter().enumerate() {
                let k = k as u64;
                let n = (size - 4 * k).min(4);
                store_scalar(fx, &addr.plus(4 * k as i64), Sc::Int(8 * n as u32), n, align_at(align, 4 * k), *r)?;
            }
            Ok(())
        }
        (Shape::Agg(ts), Val::A(vs)) => {
            for (k, (et, v)) in ts.iter().zip(vs).enumerate() {
                let off = elem_offset(dl, t, k as u32);
                store_val(fx, &addr.plus(off as i64), v, *et, align_at(align, off), volatile)?;
            }
            Ok(())
        }
        _ => Err("internal: value does not match its type".into()),
    }
}

pub fn lower_load(fx: &mut Fx, i: V) -> Result<(), String> {
    let addr = address(fx, i.operand(0))?;
    let t = i.ty();
    let align = i.alignment().max(1);
    let v = with_object(fx, i, i.operand(0), |fx| load_val(fx, &addr, t, align, i.is_volatile()))?;
    fx.set(i, v);
    Ok(())
}

pub fn lower_store(fx: &mut Fx, i: V) -> Result<(), String> {
    let val = i.operand(0);
    let t = val.ty();
    let x = fx.val(val)?;
    let addr = address(fx, i.operand(1))?;
    let align = i.alignment().max(1);
    with_object(fx, i, i.operand(1), |fx| store_val(fx, &addr, &x, t, align, i.is_volatile()))
}

/// Runs `f` with the accesses it emits for `access` marked as reaching the
/// object its pointer `p` is based on (see [`object_of`]); a volatile load
/// or store gets none, keeping its order against every other access.
pub fn with_object<T>(fx: &mut Fx, access: V, p: V, f: impl FnOnce(&mut Fx) -> Result<T, String>) -> Result<T, String> {
    let volatile = matches!(access.opcode(), Some(Op::LLVMLoad | Op::LLVMStore)) && access.is_volatile();
    fx.object = if volatile { None } else { object_of(fx, p) };
    let r = f(fx);
    fx.object = None;
    r
}

/// The identified object pointer `p` is based on (through GEPs, casts, and
/// phis and selects whose inputs all agree), numbered per function: a
/// `noalias` argument, a global variable, an alloca. `None` when it may be
/// anything.
pub fn object_of(fx: &mut Fx, p: V) -> Option<dsp_mir::MemObject> {
    let base = underlying(fx, p, &mut Vec::new())?;
    let next = dsp_mir::MemObject(fx.objects.len() as u32);
    Some(*fx.objects.entry(base).or_insert(next))
}

fn underlying(fx: &Fx, p: V, visiting: &mut Vec<V>) -> Option<V> {
    if visiting.len() > 32 {
        return None;
    }
    let op = p.opcode().or_else(|| p.const_opcode());
    match op {
        Some(Op::LLVMGetElementPtr | Op::LLVMBitCast | Op::LLVMAddrSpaceCast) => {
            return underlying(fx, p.operand(0), visiting);
        }
        Some(Op::LLVMPHI) => {
            if visiting.contains(&p) {
                return Some(p); // a cycle: agrees with whatever the others say
            }
            visiting.push(p);
            let mut found: Option<V> = None;
            for (v, _) in p.incoming() {
                let u = underlying(fx, v, visiting)?;
                if u == p {
                    continue;
                }
                match found {
                    Some(x) if x != u => return None,
                    _ => found = Some(u),
                }
            }
            visiting.pop();
            return found;
        }
        Some(Op::LLVMSelect) => {
            let a = underlying(fx, p.operand(1), visiting)?;
            let b = underlying(fx, p.operand(2), visiting)?;
            return (a == b).then_some(a);
        }
        Some(Op::LLVMAlloca) => return Some(p),
        _ => {}
    }
    if p.is_global() && !p.is_function() {
        return Some(p);
    }
    if p.is_argument() {
        let k = fx.func.params().iter().position(|&a| a == p)?;
        let noalias = crate::llvm::attr_kind("noalias");
        return fx.func.fn_has_attr(k as u32 + 1, noalias).then_some(p);
    }
    None
}

/// A GEP as address arithmetic.
pub fn lower_gep(fx: &mut Fx, i: V) -> Result<(), String> {
    if i.ty().kind() != TyKind::Ptr {
        return crate::vector::lower_vector_gep(fx, i);
    }
    let int = fx.addr_file()?;
    let dl = fx.dl;
    if let Some(off) = gep_const_offset(dl, i)? {
        let base = i.operand(0);
        let r = if let Some(&idx) = fx.frames.get(&base) {
            fx.frame_addr(idx, off)?
        } else if base.is_global() {
            fx.sym_addr(&base.name(), off)?
        } else {
            let b = fx.reg(base)?;
            if off == 0 {
                b
            } else {
                fx.op(SemOp::Add, Ty::I32, int, &[A::R(b), A::I(off as i32 as i64)])?
            }
        };
        fx.set(i, Val::S(r));
        return Ok(());
    }
    let mut acc = fx.reg(i.operand(0))?;
    let mut konst: i64 = 0;
    let mut t = i.gep_source_type();
    for k in 1..i.num_operands() {
        let idx = i.operand(k);
        let stride = if k == 1 {
            dl.alloc_size(t)
        } else {
            match t.kind() {
                TyKind::Struct(fields) => {
                    let (x, bits) = idx.const_int().ok_or("variable struct index in GEP")?;
                    let f = sext(x, bits) as u32;
                    konst = konst.wrapping_add(dl.field_offset(t, f) as i64);
                    t = *fields.get(f as usize).ok_or("GEP field index out of range")?;
                    continue;
                }
                TyKind::Array(e, _) | TyKind::Vector(e, _) => {
                    t = e;
                    dl.alloc_size(e)
                }
                _ => return Err(format!("GEP into type '{}'", t.print())),
            }
        };
        if let Some((x, bits)) = idx.const_int() {
            konst = konst.wrapping_add(sext(x, bits).wrapping_mul(stride as i64));
            continue;
        }
        if stride == 0 {
            continue;
        }
        let bits = crate::function::Fx::int_bits(idx.ty()).ok_or("GEP index is not an integer")?;
        let mut x = fx.reg(idx)?;
        if bits > 32 {
            x = fx.cvt(Ty::I64, Ty::I32, int, x)?;
        } else if bits < 32 {
            x = crate::inst::sext_reg(fx, x, bits)?;
        }
        let scaled = scale(fx, x, stride as i64)?;
        acc = fx.op(SemOp::Add, Ty::I32, int, &[A::R(acc), A::R(scaled)])?;
    }
    if konst != 0 {
        acc = fx.op(SemOp::Add, Ty::I32, int, &[A::R(acc), A::I(konst as i32 as i64)])?;
    }
    fx.set(i, Val::S(acc));
    Ok(())
}

/// `x * k` for a constant `k` (a shift for powers of two).
pub fn scale(fx: &mut Fx, x: Reg, k: i64) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    if k == 1 {
        return Ok(x);
    }
    if k > 0 && (k & (k - 1)) == 0 {
        return shift(fx, SemOp::Shl, Ty::I32, x, A::I(k.trailing_zeros() as i64));
    }
    crate::inst::binop(fx, Op::LLVMMul, Sc::Int(32), A::R(x), A::I(k)).or_else(|_| fx.op(SemOp::Mul, Ty::I32, int, &[A::R(x), A::I(k)]))
}

/// An alloca: a frame object when its size is constant and it is in the
/// entry block; otherwise memory below the stack pointer.
pub fn lower_alloca(fx: &mut Fx, i: V, in_entry: bool) -> Result<(), String> {
    let t = i.allocated_type();
    let dl = fx.dl;
    let elem = dl.alloc_size(t);
    let align = i.alignment().max(1);
    let count = i.operand(0);
    if in_entry {
        if let Some((n, _)) = count.const_int() {
            let size = (elem.saturating_mul(n)).max(1);
            if size > u32::MAX as u64 / 2 {
                return Err("stack object too large".into());
            }
            let idx = fx.f.new_frame_object(size as u32, align, FrameKind::Local);
            fx.frames.insert(i, idx);
            return Ok(());
        }
    }
    // Dynamic: sp -= round_up(count * size, stack_align).
    let int = fx.addr_file()?;
    let salign = fx.m.abi.stack_align.max(align).max(4) as i64;
    let n = match count.const_int() {
        Some((n, _)) => fx.imm((n * elem) as i64, int)?,
        None => {
            let bits = Fx::int_bits(count.ty()).unwrap_or(32);
            let mut c = fx.reg(count)?;
            if bits > 32 {
                c = fx.cvt(Ty::I64, Ty::I32, int, c)?;
            } else if bits < 32 {
                c = crate::inst::zext_reg(fx, c, bits)?;
            }
            scale(fx, c, elem as i64)?
        }
    };
    // sp -= size + outgoing area (both rounded to the stack alignment); the
    // block starts above the outgoing area, so calls made while it lives do
    // not overwrite it, and it ends at or below the old stack pointer.
    let sp = Reg::Phys(fx.sp()?);
    let up = fx.op(SemOp::Add, Ty::I32, int, &[A::R(n), A::I(salign - 1)])?;
    let size = fx.op(SemOp::And, Ty::I32, int, &[A::R(up), A::I(-salign)])?;
    let total = fx.op(SemOp::Add, Ty::I32, int, &[A::R(size), A::I(DYN_PLACEHOLDER)])?;
    let cur = fx.cur;
    fx.dyn_patches.push((cur, fx.f.block(cur).insts.len() - 1));
    let new_sp = fx.op(SemOp::Sub, Ty::I32, int, &[A::R(sp), A::R(total)])?;
    fx.copy(sp, new_sp);
    let r = fx.op(SemOp::Add, Ty::I32, int, &[A::R(new_sp), A::I(DYN_PLACEHOLDER)])?;
    fx.dyn_patches.push((cur, fx.f.block(cur).insts.len() - 1));
    fx.f.dynamic_stack = true;
    fx.set(i, Val::S(r));
    Ok(())
}

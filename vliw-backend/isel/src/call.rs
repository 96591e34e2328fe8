//! The calling convention of `vliw-backend/ABI.md`: argument and result
//! registers per register file in the order of the `.isa`'s `abi args` /
//! `abi rets`, stack arguments (size rounded up to 4, natural alignment at
//! least 4, from offset 0) in the `OutgoingArgs` frame object, `byval`
//! copies on the stack, variadic arguments always on the stack after the
//! fixed ones. Also function entry (parameters from registers and
//! `IncomingArg` frame objects), returns, and calls of runtime routines.

use std::collections::HashMap;

use dsp_mir::{Callee, FrameKind, InstKind, PReg, Reg, Terminator};
use isa_tablegen::RegFileId;

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::llvm::{attr_kind, TyKind, T, V};
use crate::memory::{store_scalar, Addr};
use crate::types::{Sc, Shape};

/// One register-sized piece of an argument or result.
#[derive(Clone, Debug)]
struct Piece {
    reg: Reg,
    file: RegFileId,
    /// Bytes on the stack (before rounding up to 4) and alignment.
    size: u32,
    align: u32,
}

/// Where a piece of an argument goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    Reg(PReg),
    Stack(u32),
}

/// A parameter piece: file, is it an i1, location, stack size, alignment.
type ParamPiece = (RegFileId, bool, Loc, u32, u32);

/// Register assignment state per file.
struct Assigner<'m> {
    regs: HashMap<RegFileId, Vec<PReg>>,
    next: HashMap<RegFileId, usize>,
    stack: u32,
    _m: &'m isa_tablegen::Machine,
}

impl<'m> Assigner<'m> {
    fn new(m: &'m isa_tablegen::Machine, list: &[PReg]) -> Self {
        let mut regs: HashMap<RegFileId, Vec<PReg>> = HashMap::new();
        for r in list {
            regs.entry(r.file).or_default().push(*r);
        }
        Assigner { regs, next: HashMap::new(), stack: 0, _m: m }
    }
    fn reg(&mut self, file: RegFileId) -> Option<PReg> {
        let n = self.next.entry(file).or_insert(0);
        let r = self.regs.get(&file).and_then(|v| v.get(*n)).copied();
        if r.is_some() {
            *n += 1;
        }
        r
    }
    fn stack_slot(&mut self, size: u32, align: u32) -> u32 {
        let a = align.max(4);
        let off = self.stack.div_ceil(a) * a;
        self.stack = off + size.div_ceil(4) * 4;
        off
    }
    fn place(&mut self, p: &Piece, variadic: bool) -> Loc {
        if !variadic {
            if let Some(r) = self.reg(p.file) {
                return Loc::Reg(r);
            }
        }
        Loc::Stack(self.stack_slot(p.size, p.align))
    }
}

/// Pieces of a value: one per register, with stack size and alignment.
fn pieces(fx: &mut Fx, v: &Val, t: T) -> Result<Vec<Piece>, String> {
    let dl = fx.dl;
    let mut out = Vec::new();
    match (fx.shape(t)?, v) {
        (Shape::Void, _) => {}
        (Shape::Scalar(sc), Val::S(r)) => {
            let (reg, size) = if sc == Sc::I1 { (crate::inst::pred_to_int(fx, *r)?, 4) } else { (*r, dl.store_size(t).max(4) as u32) };
            let file = fx.file(reg);
            out.push(Piece { reg, file, size, align: dl.align(t).max(4) });
        }
        (Shape::Native { lanes, chunks, file, elem }, Val::N(rs)) => {
            if elem == Sc::I1 {
                return Err("i1 vectors as arguments are not supported".into());
            }
            let bytes = lanes / chunks * 4;
            for r in rs {
                out.push(Piece { reg: *r, file, size: bytes, align: bytes });
            }
        }
        (Shape::Lanes { elem, .. }, Val::L(rs)) => {
            let TyKind::Vector(et, _) = t.kind() else { return Err("internal: lanes".into()) };
            for r in rs {
                let reg = if elem == Sc::I1 { crate::inst::pred_to_int(fx, *r)? } else { *r };
                let file = fx.file(reg);
                out.push(Piece { reg, file, size: dl.store_size(et).max(4) as u32, align: dl.align(et).max(4) });
            }
        }
        (Shape::Agg(ts), Val::A(vs)) => {
            for (et, x) in ts.iter().zip(vs) {
                out.extend(pieces(fx, x, *et)?);
            }
        }
        (Shape::Wide { .. }, Val::L(rs)) => {
            for r in rs {
                let file = fx.file(*r);
                out.push(Piece { reg: *r, file, size: 4, align: 4 });
            }
        }
        _ => return Err("internal: value does not match its type".into()),
    }
    Ok(out)
}

/// Fresh registers for the result pieces of type `t`, and how to rebuild the value.
fn result_files(fx: &Fx, t: T) -> Result<Vec<(RegFileId, bool)>, String> {
    // (file of the piece, is it an i1 to convert back)
    let mut out = Vec::new();
    match fx.shape(t)? {
        Shape::Void => {}
        Shape::Scalar(Sc::I1) => out.push((fx.addr_file()?, true)),
        Shape::Scalar(sc) => out.push((fx.sc_file(sc)?, false)),
        Shape::Native { chunks, file, elem, .. } => {
            if elem == Sc::I1 {
                return Err("i1 vector results are not supported".into());
            }
            out.extend((0..chunks).map(|_| (file, false)));
        }
        Shape::Lanes { elem, lanes } => {
            let (f, b) = if elem == Sc::I1 { (fx.addr_file()?, true) } else { (fx.sc_file(elem)?, false) };
            out.extend((0..lanes).map(|_| (f, b)));
        }
        Shape::Agg(ts) => {
            for et in ts {
                out.extend(result_files(fx, et)?);
            }
        }
        Shape::Wide { parts, .. } => {
            let f = fx.addr_file()?;
            out.extend((0..parts).map(|_| (f, false)));
        }
    }
    Ok(out)
}

/// Result registers for pieces of these files (each the next `abi rets` register of its file).
fn result_regs(fx: &Fx, files: &[(RegFileId, bool)]) -> Result<Vec<PReg>, String> {
    let mut a = Assigner::new(fx.m, &fx.m.abi.rets);
    files
        .iter()
        .map(|(f, _)| a.reg(*f).ok_or_else(|| format!("the result does not fit the ABI's '{}' result registers", fx.m.regfile(*f).name)))
        .collect()
}

/// Extends a narrow integer argument or result per its signext/zeroext attribute.
fn extend_for_abi(fx: &mut Fx, r: Reg, t: T, signext: bool, zeroext: bool) -> Result<Reg, String> {
    if let TyKind::Int(b) = t.kind() {
        if b > 1 && b < 32 {
            if signext {
                return crate::inst::sext_reg(fx, r, b);
            }
            if zeroext {
                return crate::inst::zext_reg(fx, r, b);
            }
        }
    }
    Ok(r)
}

/// Function entry: parameters from their registers or the incoming stack area.
pub fn lower_params(fx: &mut Fx) -> Result<(), String> {
    let func = fx.func;
    let params = func.params();
    let mut a = Assigner::new(fx.m, &fx.m.abi.args);
    let byval = attr_kind("byval");
    let mut copies: Vec<(Reg, PReg)> = Vec::new();
    let mut loads: Vec<(V, Vec<ParamPiece>)> = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let t = p.ty();
        if let Some(bt) = func.fn_type_attr(k as u32 + 1, byval) {
            let size = fx.dl.alloc_size(bt) as u32;
            let align = fx.dl.align(bt).max(4);
            let off = a.stack_slot(size, align);
            let idx = fx.f.new_frame_object(size.max(1), align, FrameKind::IncomingArg { offset: off });
            fx.frames.insert(*p, idx);
            continue;
        }
        let files = result_files(fx, t)?;
        let dl = fx.dl;
        let mut locs = Vec::new();
        let sizes = piece_sizes(fx, t)?;
        for ((file, is_bool), (size, align)) in files.into_iter().zip(sizes) {
            let piece = Piece { reg: Reg::Phys(PReg { file, index: 0 }), file, size, align };
            let loc = a.place(&piece, false);
            locs.push((file, is_bool, loc, size, align));
        }
        let _ = dl;
        loads.push((*p, locs));
    }
    fx.va_offset = a.stack;
    // Copies from argument registers come first, then stack loads.
    let mut vals = Vec::new();
    for (p, locs) in &loads {
        let mut regs = Vec::new();
        for (file, _, loc, _, _) in locs {
            if let Loc::Reg(pr) = loc {
                let v = fx.vreg(*file);
                copies.push((v, *pr));
                regs.push(Some(v));
            } else {
                regs.push(None);
            }
        }
        vals.push((*p, regs));
    }
    for (v, pr) in &copies {
        fx.copy(*v, Reg::Phys(*pr));
    }
    for ((p, locs), (_, regs)) in loads.iter().zip(vals) {
        let mut leaves = Vec::new();
        for ((file, is_bool, loc, size, align), r) in locs.iter().zip(regs) {
            let r = match (r, loc) {
                (Some(r), _) => r,
                (None, Loc::Stack(off)) => {
                    let idx = fx.f.new_frame_object(size.div_ceil(4) * 4, *align, FrameKind::IncomingArg { offset: *off });
                    let addr = Addr { base: Reg::Phys(fx.sp()?), off: A::F(idx, 0) };
                    let bits = fx.m.regfile(*file).width.min(64);
                    let sc = match (bits, fx.m.regfile(*file).lanes) {
                        (_, Some(_)) => None,
                        (64, _) => Some(Sc::Int(64)),
                        _ => Some(Sc::Int(32)),
                    };
                    match sc {
                        Some(sc) => {
                            let x = crate::memory::load_scalar(fx, &addr, sc, (*size).max(4).div_ceil(4) as u64 * 4, *align)?;
                            if fx.file(x) != *file {
                                return Err("stack parameter in an unexpected register file".into());
                            }
                            x
                        }
                        None => {
                            let elem = Sc::Int(32);
                            crate::vector::vload(fx, &addr, *file, *size, *align, elem)?
                        }
                    }
                }
                _ => return Err("internal: parameter location".into()),
            };
            leaves.push(if *is_bool { fx.int_to_flag(r, fx.m.predicate_file().ok_or("no predicates")?)? } else { r });
        }
        let v = fx.unflatten(p.ty(), &mut leaves.into_iter())?;
        fx.set(*p, v);
    }
    Ok(())
}

/// Stack size and alignment of each piece of a value of type `t`.
fn piece_sizes(fx: &Fx, t: T) -> Result<Vec<(u32, u32)>, String> {
    let dl = fx.dl;
    let mut out = Vec::new();
    match fx.shape(t)? {
        Shape::Void => {}
        Shape::Scalar(Sc::I1) => out.push((4, 4)),
        Shape::Scalar(_) => out.push((dl.store_size(t).max(4) as u32, dl.align(t).max(4))),
        Shape::Native { lanes, chunks, .. } => {
            let b = lanes / chunks * 4;
            out.extend((0..chunks).map(|_| (b, b)));
        }
        Shape::Lanes { lanes, .. } => {
            let TyKind::Vector(et, _) = t.kind() else { return Err("internal: lanes".into()) };
            out.extend((0..lanes).map(|_| (dl.store_size(et).max(4) as u32, dl.align(et).max(4))));
        }
        Shape::Agg(ts) => {
            for et in ts {
                out.extend(piece_sizes(fx, et)?);
            }
        }
        Shape::Wide { parts, .. } => out.extend((0..parts).map(|_| (4, 4))),
    }
    Ok(out)
}

/// `ret`: results into the ABI's result registers.
pub fn lower_ret(fx: &mut Fx, i: V) -> Result<(), String> {
    let mut rets = Vec::new();
    if i.num_operands() > 0 {
        let v = i.operand(0);
        let t = v.ty();
        let x = fx.val(v)?;
        let func = fx.func;
        let (se, ze) = (func.fn_has_attr(0, attr_kind("signext")), func.fn_has_attr(0, attr_kind("zeroext")));
        let x = match x {
            Val::S(r) if se || ze => Val::S(extend_for_abi(fx, r, t, se, ze)?),
            other => other,
        };
        let ps = pieces(fx, &x, t)?;
        let files: Vec<(RegFileId, bool)> = ps.iter().map(|p| (p.file, false)).collect();
        let regs = result_regs(fx, &files)?;
        for (p, r) in ps.iter().zip(&regs) {
            fx.copy(Reg::Phys(*r), p.reg);
        }
        rets = regs;
    }
    fx.terminate(Terminator::Return { rets });
    Ok(())
}

/// A call instruction: intrinsics, inline assembly, direct and indirect calls.
pub fn lower_call(fx: &mut Fx, i: V) -> Result<(), String> {
    let callee = i.called_value();
    if callee.is_inline_asm() {
        return Err("inline assembly is not supported".into());
    }
    if callee.is_function() && callee.intrinsic_id() != 0 {
        return crate::intrinsics::lower_intrinsic(fx, i, &callee.name());
    }
    let fty = i.called_fn_type();
    let (params, _, _) = fty.fn_sig();
    let nfixed = params.len();
    let nargs = i.num_arg_operands() as usize;
    let byval = attr_kind("byval");
    let (sext_k, zext_k) = (attr_kind("signext"), attr_kind("zeroext"));
    // 1. Argument values (all computed before any argument register is written).
    struct ArgIn {
        pieces: Vec<Piece>,
        byval: Option<(Reg, u32, u32, u32)>,
        variadic: bool,
    }
    let mut ins = Vec::new();
    for k in 0..nargs {
        let v = i.operand(k as u32);
        let t = v.ty();
        if let Some(bt) = i.call_type_attr(k as u32 + 1, byval) {
            let size = fx.dl.alloc_size(bt) as u32;
            let align = fx.dl.align(bt).max(4);
            let p = fx.reg(v)?;
            let src_align = crate::intrinsics::param_align(i, k as u32);
            ins.push(ArgIn { pieces: Vec::new(), byval: Some((p, size, align, src_align)), variadic: k >= nfixed });
            continue;
        }
        let mut x = fx.val(v)?;
        let (se, ze) = (i.call_has_attr(k as u32 + 1, sext_k), i.call_has_attr(k as u32 + 1, zext_k));
        if let Val::S(r) = x {
            x = Val::S(extend_for_abi(fx, r, t, se, ze)?);
        }
        let ps = pieces(fx, &x, t)?;
        ins.push(ArgIn { pieces: ps, byval: None, variadic: k >= nfixed });
    }
    let target = if callee.is_function() || (callee.is_global() && callee.is_constant()) {
        Callee::Sym(callee.name())
    } else {
        Callee::Reg(fx.reg(callee)?)
    };
    // 2. Locations.
    let mut a = Assigner::new(fx.m, &fx.m.abi.args);
    let mut placed: Vec<(Loc, Piece)> = Vec::new();
    let mut byvals: Vec<(u32, Reg, u32, u32, u32)> = Vec::new();
    for arg in &ins {
        if let Some((p, size, align, src_align)) = arg.byval {
            let off = a.stack_slot(size, align);
            byvals.push((off, p, size, align, src_align));
            continue;
        }
        for p in &arg.pieces {
            let loc = a.place(p, arg.variadic);
            placed.push((loc, p.clone()));
        }
    }
    let stack_size = a.stack;
    let sp = Reg::Phys(fx.sp()?);
    if stack_size > 0 {
        let max_align = placed.iter().map(|(_, p)| p.align).chain(byvals.iter().map(|b| b.3)).max().unwrap_or(4);
        let area = fx.outgoing_area(stack_size, max_align);
        // 3. byval copies, then stack arguments.
        for (off, src, size, align, src_align) in byvals {
            let dst = Addr { base: sp, off: A::F(area, off as i64) };
            crate::intrinsics::copy_bytes(fx, dst, src, size, (align, src_align))?;
        }
        for (loc, p) in &placed {
            if let Loc::Stack(off) = loc {
                let addr = Addr { base: sp, off: A::F(area, *off as i64) };
                store_piece(fx, &addr, p)?;
            }
        }
    }
    // 4. Argument registers, the call, results.
    let mut arg_regs = Vec::new();
    for (loc, p) in &placed {
        if let Loc::Reg(r) = loc {
            fx.copy(Reg::Phys(*r), p.reg);
            arg_regs.push(*r);
        }
    }
    let rt = i.ty();
    let files = result_files(fx, rt)?;
    let rets = result_regs(fx, &files)?;
    fx.push(InstKind::Call { callee: target, args: arg_regs, rets: rets.clone() });
    let mut leaves = Vec::new();
    for ((file, is_bool), r) in files.iter().zip(&rets) {
        let v = fx.vreg(*file);
        fx.copy(v, Reg::Phys(*r));
        leaves.push(if *is_bool { fx.int_to_flag(v, fx.m.predicate_file().ok_or("no predicates")?)? } else { v });
    }
    let v = fx.unflatten(rt, &mut leaves.into_iter())?;
    fx.set(i, v);
    Ok(())
}

fn store_piece(fx: &mut Fx, addr: &Addr, p: &Piece) -> Result<(), String> {
    let rf = fx.m.regfile(p.file).clone();
    if rf.lanes.is_some() {
        return crate::vector::vstore(fx, addr, p.reg, p.size, p.align, Sc::Int(32));
    }
    let sc = if rf.width > 32 { Sc::Int(64) } else { Sc::Int(32) };
    let size = if rf.width > 32 { 8 } else { 4 };
    store_scalar(fx, addr, sc, size, p.align, p.reg)
}

/// A call of a runtime routine with register arguments (by their files) and
/// one result in `ret` (if any).
pub fn libcall(fx: &mut Fx, name: &str, args: &[Reg], ret: Option<RegFileId>) -> Result<Reg, String> {
    let mut a = Assigner::new(fx.m, &fx.m.abi.args);
    let mut arg_regs = Vec::new();
    let mut moves = Vec::new();
    for r in args {
        let file = fx.file(*r);
        let pr = a.reg(file).ok_or_else(|| format!("runtime routine '{name}': arguments do not fit the argument registers"))?;
        moves.push((pr, *r));
        arg_regs.push(pr);
    }
    for (pr, r) in moves {
        fx.copy(Reg::Phys(pr), r);
    }
    let rets = match ret {
        Some(f) => result_regs(fx, &[(f, false)])?,
        None => Vec::new(),
    };
    fx.push(InstKind::Call { callee: Callee::Sym(name.to_string()), args: arg_regs, rets: rets.clone() });
    match (ret, rets.first()) {
        (Some(f), Some(r)) => {
            let v = fx.vreg(f);
            fx.copy(v, Reg::Phys(*r));
            Ok(v)
        }
        _ => {
            // No result: hand back a dummy zero of the integer file.
            let int = fx.addr_file()?;
            fx.imm(0, int)
        }
    }
}

/// `va_start`: the va_list gets the address of the first variadic argument.
pub fn va_start(fx: &mut Fx, list: V) -> Result<(), String> {
    let off = fx.va_offset;
    let idx = fx.f.new_frame_object(4, 4, FrameKind::IncomingArg { offset: off });
    let a = fx.frame_addr(idx, 0)?;
    let addr = crate::memory::address(fx, list)?;
    store_scalar(fx, &addr, Sc::Ptr, 4, 4, a)
}

//! LLVM intrinsics clang and the middle end produce for C: memory
//! (memcpy/memmove/memset inline when small and constant, else the runtime),
//! markers that lower to nothing (lifetime, dbg, assume), varargs, stack
//! save/restore, floating point (fabs, fma/fmuladd, sqrt, min/max, copysign,
//! rounding through libm), integer (min/max, abs, ctpop/ctlz/cttz, bswap,
//! funnel shifts, saturating and overflow-checking arithmetic), the
//! counter of loops in hardware-loop form (`start.loop.iterations`,
//! `loop.decrement.reg`), vector reductions (handed to `vector`), and the
//! one Hexagon intrinsic the Hexagon IR passes emit on their own
//! (`llvm.hexagon.M4.pmpyw`, a runtime call).

use dsp_mir::Reg;
use isa_tablegen::{SemOp, Ty};

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::inst::{as_reg, compare, icmp, pred_op, select_reg, sext_reg, shift, zext_reg};
use crate::llvm::{IntPred, Op, TyKind, V};
use crate::memory::{address, align_at, load_scalar, store_scalar, Addr};
use crate::runtime;
use crate::types::{Sc, Shape};

/// Base name of an intrinsic: `llvm.memcpy.p0.p0.i32` → `memcpy`.
fn base_name(name: &str) -> String {
    let rest = name.strip_prefix("llvm.").unwrap_or(name);
    let parts: Vec<&str> = rest.split('.').collect();
    // Keep parts until the first type suffix (i32, f64, p0, v16i32, …).
    let is_ty = |p: &str| {
        let b = p.as_bytes();
        !p.is_empty()
            && ((b[0] == b'i' || b[0] == b'f' || b[0] == b'p') && p[1..].bytes().all(|c| c.is_ascii_digit()) && p.len() > 1
                || (b[0] == b'v' && p.len() > 1 && b[1].is_ascii_digit()))
    };
    let mut out = Vec::new();
    for p in parts {
        if is_ty(p) {
            break;
        }
        out.push(p);
    }
    out.join(".")
}

pub fn lower_intrinsic(fx: &mut Fx, i: V, name: &str) -> Result<(), String> {
    let base = base_name(name);
    let arg = |k: u32| i.operand(k);
    match base.as_str() {
        "lifetime.start"
        | "lifetime.end"
        | "dbg.declare"
        | "dbg.value"
        | "dbg.label"
        | "dbg.assign"
        | "assume"
        | "experimental.noalias.scope.decl"
        | "invariant.start"
        | "invariant.end"
        | "sideeffect"
        | "donothing"
        | "prefetch"
        | "va_end"
        | "pseudoprobe"
        | "var.annotation"
        | "codeview.annotation" => {
            if i.ty().kind() != TyKind::Void {
                let z = fx.zero_of(i.ty())?;
                fx.set(i, z);
            }
            Ok(())
        }
        "expect"
        | "expect.with.probability"
        | "ssa.copy"
        | "launder.invariant.group"
        | "strip.invariant.group"
        | "annotation"
        | "ptr.annotation" => {
            let v = fx.val(arg(0))?;
            fx.set(i, v);
            Ok(())
        }
        // Counted loops from LLVM's hardware-loops pass (dsp-llc at -O2):
        // the trip count enters the counter phi unchanged, and the latch
        // subtracts the step (an add of the negated immediate).
        "start.loop.iterations" => {
            let v = fx.val(arg(0))?;
            fx.set(i, v);
            Ok(())
        }
        "loop.decrement.reg" => {
            let sc = match fx.shape(i.ty())? {
                Shape::Scalar(sc @ Sc::Int(_)) => sc,
                _ => return Err(format!("intrinsic '{name}' on a non-integer counter")),
            };
            let (c, step) = (fx.arg(arg(0))?, fx.arg(arg(1))?);
            let r = crate::inst::binop(fx, Op::LLVMSub, sc, c, step)?;
            fx.set(i, Val::S(r));
            Ok(())
        }
        "objectsize" => {
            let min = arg(1).const_int().map(|(x, _)| x != 0).unwrap_or(false);
            let f = fx.sc_file(Sc::Int(32))?;
            let r = fx.imm(if min { 0 } else { -1 }, f)?;
            fx.set(i, Val::S(r));
            Ok(())
        }
        "is.constant" => {
            let p = fx.m.predicate_file().ok_or("no predicates")?;
            let r = fx.imm(0, p)?;
            fx.set(i, Val::S(r));
            Ok(())
        }
        "memcpy" | "memcpy.inline" | "memmove" => {
            let dst = address(fx, arg(0))?;
            let src = fx.reg(arg(1))?;
            let overlap = base == "memmove";
            if let Some((n, _)) = arg(2).const_int() {
                let limit = fx.opts.inline_mem_limit as u64;
                if n <= limit || base == "memcpy.inline" {
                    let (da, sa) = (param_align(i, 0), param_align(i, 1));
                    return copy_inline(fx, dst, Addr { base: src, off: A::I(0) }, n as u32, (da, sa), overlap);
                }
            }
            let d = addr_reg(fx, &dst)?;
            let n = len_reg(fx, arg(2))?;
            crate::call::libcall(fx, if overlap { "memmove" } else { "memcpy" }, &[d, src, n], None)?;
            Ok(())
        }
        "memset" | "memset.inline" => {
            let dst = address(fx, arg(0))?;
            if let (Some((n, _)), true) = (
                arg(2).const_int(),
                arg(2).const_int().map(|(n, _)| n <= fx.opts.inline_mem_limit as u64).unwrap_or(false) || base == "memset.inline",
            ) {
                return set_inline(fx, dst, arg(1), n as u32, param_align(i, 0));
            }
            let d = addr_reg(fx, &dst)?;
            let v = fx.reg(arg(1))?;
            let n = len_reg(fx, arg(2))?;
            crate::call::libcall(fx, "memset", &[d, v, n], None)?;
            Ok(())
        }
        "va_start" => crate::call::va_start(fx, arg(0)),
        "va_copy" => {
            let src = address(fx, arg(1))?;
            let p = load_scalar(fx, &src, Sc::Ptr, 4, 4)?;
            let dst = address(fx, arg(0))?;
            store_scalar(fx, &dst, Sc::Ptr, 4, 4, p)
        }
        "stacksave" => {
            let int = fx.addr_file()?;
            let sp = Reg::Phys(fx.sp()?);
            let v = fx.vreg(int);
            fx.copy(v, sp);
            fx.set(i, Val::S(v));
            Ok(())
        }
        "stackrestore" => {
            let v = fx.reg(arg(0))?;
            let sp = Reg::Phys(fx.sp()?);
            fx.copy(sp, v);
            Ok(())
        }
        "is.fpclass" => {
            let sc = match fx.shape(arg(0).ty())? {
                Shape::Scalar(sc) if sc.is_float() => sc,
                _ => return Err(format!("intrinsic '{name}' on vectors is not supported")),
            };
            let x = fx.reg(arg(0))?;
            let mask = arg(1).const_int().ok_or("llvm.is.fpclass with a variable class mask")?.0 as u32;
            let r = fpclass(fx, sc, x, mask)?;
            fx.set(i, Val::S(r));
            Ok(())
        }
        "masked.load" | "masked.store" | "masked.gather" | "masked.scatter" | "get.active.lane.mask" | "experimental.vp.strided.load" | "experimental.vp.strided.store" => crate::masked::lower(fx, i, &base),
        "trap" | "debugtrap" | "ubsantrap" => {
            crate::call::libcall(fx, "abort", &[], None)?;
            Ok(())
        }
        _ => {
            if matches!(fx.shape(i.ty())?, Shape::Native { .. } | Shape::Lanes { .. }) || base.starts_with("vector.reduce") {
                return crate::vector::lower_vector_intrinsic(fx, i, &base);
            }
            let sc = match fx.shape(i.ty())? {
                Shape::Scalar(sc) => sc,
                Shape::Agg(_) => match fx.shape(arg(0).ty())? {
                    Shape::Scalar(sc) => sc,
                    _ => return Err(format!("intrinsic '{name}' is not supported")),
                },
                _ => return Err(format!("intrinsic '{name}' is not supported")),
            };
            let args: Vec<Reg> = (0..i.num_arg_operands()).map(|k| fx.reg(arg(k))).collect::<Result<_, _>>().unwrap_or_default();
            if base.ends_with("with.overflow") {
                let (r, o) = overflow_op(fx, &base, sc, arg(0), arg(1))?;
                fx.set(i, Val::A(vec![Val::S(r), Val::S(o)]));
                return Ok(());
            }
            let r = scalar_intrinsic(fx, &base, name, sc, &args, i)?;
            fx.set(i, Val::S(r));
            Ok(())
        }
    }
}

/// A scalar intrinsic on registers.
pub fn scalar_intrinsic(fx: &mut Fx, base: &str, name: &str, sc: Sc, a: &[Reg], i: V) -> Result<Reg, String> {
    let file = fx.sc_file(sc)?;
    let ty = sc.reg_ty();
    let bits = sc.bits();
    let need = |n: usize| if a.len() >= n { Ok(()) } else { Err(format!("intrinsic '{name}': missing operands")) };
    match base {
        "fabs" => {
            need(1)?;
            if let Some(Some(r)) = fx.try_op(SemOp::Abs, Some(ty), None, Some(file), &[A::R(a[0])]) {
                return Ok(r);
            }
            let (ity, mask) = if ty == Ty::F32 { (Ty::I32, 0x7fff_ffffi64) } else { (Ty::I64, i64::MAX) };
            fx.op(SemOp::And, ity, file, &[A::R(a[0]), A::I(mask)])
        }
        "copysign" => {
            need(2)?;
            let (ity, mask) = if ty == Ty::F32 { (Ty::I32, 0x7fff_ffffi64) } else { (Ty::I64, i64::MAX) };
            let x = fx.op(SemOp::And, ity, file, &[A::R(a[0]), A::I(mask)])?;
            let s = fx.op(SemOp::And, ity, file, &[A::R(a[1]), A::I(!mask)])?;
            fx.op(SemOp::Or, ity, file, &[A::R(x), A::R(s)])
        }
        "fma" | "fmuladd" => {
            need(3)?;
            let fuse = base == "fma" || fx.opts.contract;
            if fuse {
                if let Some(Some(r)) = fx.try_op(SemOp::Mac, Some(ty), None, Some(file), &[A::R(a[0]), A::R(a[1]), A::R(a[2])]) {
                    return Ok(r);
                }
                if base == "fma" {
                    return crate::call::libcall(fx, runtime::libm("fma", ty).unwrap_or("fma"), a, Some(file));
                }
            }
            let m = crate::inst::binop(fx, Op::LLVMFMul, sc, A::R(a[0]), A::R(a[1]))?;
            crate::inst::binop(fx, Op::LLVMFAdd, sc, A::R(m), A::R(a[2]))
        }
        "sqrt" => {
            need(1)?;
            if let Some(Some(r)) = fx.try_op(SemOp::Sqrt, Some(ty), None, Some(file), &[A::R(a[0])]) {
                return Ok(r);
            }
            crate::call::libcall(fx, runtime::libm("sqrt", ty).unwrap_or("sqrt"), a, Some(file))
        }
        "minnum" | "maxnum" => {
            need(2)?;
            let op = if base == "minnum" { SemOp::Min } else { SemOp::Max };
            if let Some(Some(r)) = fx.try_op(op, Some(ty), None, Some(file), &[A::R(a[0]), A::R(a[1])]) {
                return Ok(r);
            }
            let f = if base == "minnum" { "fmin" } else { "fmax" };
            crate::call::libcall(fx, runtime::libm(f, ty).unwrap_or(f), a, Some(file))
        }
        // Hexagon's loop idiom pass (clang runs the Hexagon target's IR
        // pipeline, README "How it works") turns CRC and polynomial-multiply
        // bit loops into this carry-less 32x32->64 multiply.
        "hexagon.M4.pmpyw" => {
            need(2)?;
            crate::call::libcall(fx, runtime::CLMUL32, a, Some(file))
        }
        "powi" => {
            need(2)?;
            crate::call::libcall(fx, runtime::powi(ty), a, Some(file))
        }
        "floor" | "ceil" | "trunc" | "round" | "rint" | "nearbyint" | "roundeven" => {
            need(1)?;
            let f = runtime::libm(base, ty).ok_or_else(|| format!("no runtime routine for '{name}'"))?;
            crate::call::libcall(fx, f, a, Some(file))
        }
        "sin" | "cos" | "exp" | "exp2" | "log" | "log2" | "log10" | "pow" | "tan" | "asin" | "acos" | "atan" | "atan2" | "sinh"
        | "cosh" | "tanh" | "exp10" | "ldexp" => {
            let f = if ty == Ty::F32 { format!("{base}f") } else { base.to_string() };
            crate::call::libcall(fx, &f, a, Some(file))
        }
        "smin" | "smax" | "umin" | "umax" => {
            need(2)?;
            let signed = base.starts_with('s');
            let op = if base.ends_with("min") { SemOp::Min } else { SemOp::Max };
            let ext = |fx: &mut Fx, r| if signed { sext_reg(fx, r, bits) } else { zext_reg(fx, r, bits) };
            let (x, y) = (ext(fx, a[0])?, ext(fx, a[1])?);
            let t = sc.arith_ty(signed);
            if let Some(Some(r)) = fx.try_op(op, Some(t), None, Some(file), &[A::R(x), A::R(y)]) {
                return Ok(r);
            }
            let p = compare(fx, SemOp::Lt, t, A::R(x), A::R(y))?;
            if op == SemOp::Min {
                select_reg(fx, p, x, y)
            } else {
                select_reg(fx, p, y, x)
            }
        }
        "abs" => {
            need(1)?;
            let x = sext_reg(fx, a[0], bits)?;
            let t = sc.arith_ty(true);
            if let Some(Some(r)) = fx.try_op(SemOp::Abs, Some(t), None, Some(file), &[A::R(x)]) {
                return Ok(r);
            }
            let n = fx.op(SemOp::Sub, t, file, &[A::I(0), A::R(x)])?;
            let p = compare(fx, SemOp::Lt, t, A::R(x), A::I(0))?;
            select_reg(fx, p, n, x)
        }
        "ctpop" | "ctlz" | "cttz" => {
            need(1)?;
            let op = match base {
                "ctpop" => SemOp::Popcnt,
                "ctlz" => SemOp::Clz,
                _ => SemOp::Ctz,
            };
            let wide = bits > 32;
            let width = if wide { 64 } else { 32 };
            let t = if wide { Ty::I64 } else { Ty::I32 };
            let mut x = a[0];
            if bits < width {
                x = zext_reg(fx, x, bits)?;
                if op == SemOp::Ctz {
                    x = fx.op(SemOp::Or, t, file, &[A::R(x), A::I(1i64 << bits)])?;
                }
            }
            // The count may land in another file (a 64-bit count in the 32-bit file).
            let int = fx.addr_file()?;
            let mut r = None;
            for dst in [file, int] {
                if let Some(Some(c)) = fx.try_op(op, Some(t), None, Some(dst), &[A::R(x)]) {
                    r = Some(c);
                    break;
                }
            }
            let mut r = match r {
                Some(r) => r,
                None => crate::call::libcall(fx, runtime::bit_routine(op, wide), &[x], Some(int))?,
            };
            if op == SemOp::Clz && bits < width {
                r = fx.op(SemOp::Sub, Ty::I32, fx.file(r), &[A::R(r), A::I((width - bits) as i64)])?;
            }
            if fx.file(r) != file {
                r = fx.cvt(Ty::U32, Ty::U64, file, r)?;
            }
            Ok(r)
        }
        "bswap" => {
            need(1)?;
            let wide = bits > 32;
            let t = if wide { Ty::I64 } else { Ty::I32 };
            let r = match fx.try_op(SemOp::Bswap, Some(t), None, Some(file), &[A::R(a[0])]) {
                Some(Some(r)) => r,
                _ => crate::call::libcall(fx, runtime::bit_routine(SemOp::Bswap, wide), &[a[0]], Some(file))?,
            };
            let width = if wide { 64 } else { 32 };
            if bits < width {
                return shift(fx, SemOp::Shr, if wide { Ty::U64 } else { Ty::U32 }, r, A::I((width - bits) as i64));
            }
            Ok(r)
        }
        "bitreverse" => {
            need(1)?;
            bitreverse(fx, sc, a[0])
        }
        "fshl" | "fshr" => {
            need(3)?;
            funnel(fx, base == "fshl", sc, a[0], a[1], a[2])
        }
        "uadd.sat" | "usub.sat" | "sadd.sat" | "ssub.sat" => {
            need(2)?;
            saturating(fx, base, sc, a[0], a[1])
        }
        _ => {
            let _ = i;
            Err(format!("intrinsic '{name}' is not supported"))
        }
    }
}

/// Funnel shifts: fshl(a, b, c) = (a << s) | (b >> (w - s)), s = c mod w.
fn funnel(fx: &mut Fx, left: bool, sc: Sc, a: Reg, b: Reg, c: Reg) -> Result<Reg, String> {
    let bits = sc.bits();
    let file = fx.sc_file(sc)?;
    let wide = bits > 32;
    let (st, ut) = if wide { (Ty::I64, Ty::U64) } else { (Ty::I32, Ty::U32) };
    let int = fx.addr_file()?;
    // Amount s in the 32-bit file.
    let mut s = if fx.file(c) != int { fx.cvt(Ty::I64, Ty::I32, int, c)? } else { c };
    s = if bits.is_power_of_two() {
        fx.op(SemOp::And, Ty::I32, int, &[A::R(s), A::I(bits as i64 - 1)])?
    } else {
        let z = zext_reg(fx, s, bits.min(32))?;
        fx.op(SemOp::Rem, Ty::U32, int, &[A::R(z), A::I(bits as i64)])?
    };
    let inv = fx.op(SemOp::Sub, Ty::I32, int, &[A::I(bits as i64 - 1), A::R(s)])?;
    let width = if wide { 64 } else { 32 };
    let bz = zext_reg(fx, b, bits)?;
    if left {
        // (a << s) | ((b >> 1) >> (w-1-s)), with b zero-extended.
        let x = shift(fx, SemOp::Shl, st, a, A::R(s))?;
        let y = shift(fx, SemOp::Shr, ut, bz, A::I(1))?;
        let y = shift(fx, SemOp::Shr, ut, y, A::R(inv))?;
        fx.op(SemOp::Or, st, file, &[A::R(x), A::R(y)])
    } else {
        // ((a << 1) << (w-1-s)) | (b >> s)
        let x = shift(fx, SemOp::Shl, st, a, A::I(1))?;
        let x = shift(fx, SemOp::Shl, st, x, A::R(inv))?;
        let y = shift(fx, SemOp::Shr, ut, bz, A::R(s))?;
        let _ = width;
        fx.op(SemOp::Or, st, file, &[A::R(x), A::R(y)])
    }
}

fn saturating(fx: &mut Fx, base: &str, sc: Sc, a: Reg, b: Reg) -> Result<Reg, String> {
    let bits = sc.bits();
    let file = fx.sc_file(sc)?;
    let signed = base.starts_with('s');
    let add = base.contains("add");
    let t = sc.arith_ty(signed);
    let ut = sc.arith_ty(false);
    let _ = t;
    let t = sc.arith_ty(true);
    if !signed {
        let (x, y) = (zext_reg(fx, a, bits)?, zext_reg(fx, b, bits)?);
        if add {
            let r = crate::inst::binop(fx, Op::LLVMAdd, sc, A::R(x), A::R(y))?;
            let max = if bits == 64 { -1 } else { ((1u64 << bits) - 1) as i64 };
            let maxr = fx.imm(max, file)?;
            if bits == 32 || bits == 64 {
                let ov = compare(fx, SemOp::Lt, ut, A::R(r), A::R(x))?;
                return select_reg(fx, ov, maxr, r);
            }
            let ov = compare(fx, SemOp::Gt, ut, A::R(r), A::R(maxr))?;
            return select_reg(fx, ov, maxr, r);
        }
        let r = crate::inst::binop(fx, Op::LLVMSub, sc, A::R(x), A::R(y))?;
        let z = fx.imm(0, file)?;
        let ov = compare(fx, SemOp::Lt, ut, A::R(x), A::R(y))?;
        return select_reg(fx, ov, z, r);
    }
    let (r, ov) = overflow_regs(fx, if add { "sadd" } else { "ssub" }, sc, a, b)?;
    // Saturate toward the sign of a: a < 0 → MIN, else MAX.
    let min = if bits == 64 { i64::MIN } else { -(1i64 << (bits - 1)) };
    let minr = fx.imm(min, file)?;
    let maxr = fx.imm(!min, file)?;
    let x = sext_reg(fx, a, bits)?;
    let neg = compare(fx, SemOp::Lt, t, A::R(x), A::I(0))?;
    let sat = select_reg(fx, neg, minr, maxr)?;
    select_reg(fx, ov, sat, r)
}

/// `llvm.{s,u}{add,sub,mul}.with.overflow`: (result, overflow predicate).
fn overflow_op(fx: &mut Fx, base: &str, sc: Sc, a: V, b: V) -> Result<(Reg, Reg), String> {
    let ra = fx.reg(a)?;
    let rb = fx.reg(b)?;
    let kind = &base[..4];
    overflow_regs(fx, kind, sc, ra, rb)
}

fn overflow_regs(fx: &mut Fx, kind: &str, sc: Sc, a: Reg, b: Reg) -> Result<(Reg, Reg), String> {
    let bits = sc.bits();
    let file = fx.sc_file(sc)?;
    let signed = kind.starts_with('s');
    let op = match &kind[1..] {
        "add" => SemOp::Add,
        "sub" => SemOp::Sub,
        _ => SemOp::Mul,
    };
    let (t, ut) = (sc.arith_ty(true), sc.arith_ty(false));
    if bits <= 16 {
        // Exact in 32 bits: compute extended, check that the result fits.
        let (x, y) =
            if signed { (sext_reg(fx, a, bits)?, sext_reg(fx, b, bits)?) } else { (zext_reg(fx, a, bits)?, zext_reg(fx, b, bits)?) };
        let r = fx.op(op, Ty::I32, file, &[A::R(x), A::R(y)])?;
        let back = if signed { sext_reg(fx, r, bits)? } else { zext_reg(fx, r, bits)? };
        let ov = compare(fx, SemOp::Ne, Ty::I32, A::R(back), A::R(r))?;
        return Ok((r, ov));
    }
    if bits != 32 && bits != 64 {
        return Err(format!("{bits}-bit overflow arithmetic is not supported"));
    }
    let r = crate::inst::binop(
        fx,
        match op {
            SemOp::Add => Op::LLVMAdd,
            SemOp::Sub => Op::LLVMSub,
            _ => Op::LLVMMul,
        },
        sc,
        A::R(a),
        A::R(b),
    )?;
    let ov = match (op, signed) {
        (SemOp::Add, false) => compare(fx, SemOp::Lt, ut, A::R(r), A::R(a))?,
        (SemOp::Sub, false) => compare(fx, SemOp::Lt, ut, A::R(a), A::R(b))?,
        (SemOp::Add, true) | (SemOp::Sub, true) => {
            // add: (r ^ a) & (r ^ b) < 0; sub: (a ^ b) & (a ^ r) < 0.
            let (x, y) = if op == SemOp::Add {
                (fx.op(SemOp::Xor, t, file, &[A::R(r), A::R(a)])?, fx.op(SemOp::Xor, t, file, &[A::R(r), A::R(b)])?)
            } else {
                (fx.op(SemOp::Xor, t, file, &[A::R(a), A::R(b)])?, fx.op(SemOp::Xor, t, file, &[A::R(a), A::R(r)])?)
            };
            let z = fx.op(SemOp::And, t, file, &[A::R(x), A::R(y)])?;
            compare(fx, SemOp::Lt, t, A::R(z), A::I(0))?
        }
        (_, _) => {
            let hi_ty = if signed { t } else { ut };
            let hi = if bits == 32 { fx.try_op(SemOp::MulHi, Some(hi_ty), None, Some(file), &[A::R(a), A::R(b)]).flatten() } else { None };
            match hi {
                Some(hi) if !signed => compare(fx, SemOp::Ne, Ty::I32, A::R(hi), A::I(0))?,
                Some(hi) => {
                    let s = shift(fx, SemOp::Shr, Ty::I32, r, A::I(31))?;
                    compare(fx, SemOp::Ne, Ty::I32, A::R(hi), A::R(s))?
                }
                None => mul_overflow_by_division(fx, signed, sc, a, b, r)?,
            }
        }
    };
    Ok((r, ov))
}

/// Multiplication overflow without a high multiply: a ≠ 0 and r / a ≠ b
/// (signed: also a = -1 and b = MIN).
fn mul_overflow_by_division(fx: &mut Fx, signed: bool, sc: Sc, a: Reg, b: Reg, r: Reg) -> Result<Reg, String> {
    let file = fx.sc_file(sc)?;
    let bits = sc.bits();
    let one = fx.imm(1, file)?;
    let a_zero = icmp(fx, IntPred::LLVMIntEQ, sc, A::R(a), A::I(0))?;
    let a_m1 = icmp(fx, IntPred::LLVMIntEQ, sc, A::R(a), A::I(-1))?;
    let safe = if signed { pred_op(fx, SemOp::Or, &[a_zero, a_m1])? } else { a_zero };
    let div = select_reg(fx, safe, one, a)?;
    let q = crate::inst::binop(fx, if signed { Op::LLVMSDiv } else { Op::LLVMUDiv }, sc, A::R(r), A::R(div))?;
    let ne = icmp(fx, IntPred::LLVMIntNE, sc, A::R(q), A::R(b))?;
    let not_safe = pred_op(fx, SemOp::Not, &[safe])?;
    let general = pred_op(fx, SemOp::And, &[ne, not_safe])?;
    if !signed {
        return Ok(general);
    }
    let min = if bits == 64 { i64::MIN } else { -(1i64 << (bits - 1)) };
    let b_min = icmp(fx, IntPred::LLVMIntEQ, sc, A::R(b), A::I(min))?;
    let special = pred_op(fx, SemOp::And, &[a_m1, b_min])?;
    pred_op(fx, SemOp::Or, &[general, special])
}

/// A register holding an address.
pub fn addr_reg(fx: &mut Fx, a: &Addr) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    match &a.off {
        A::I(0) => Ok(a.base),
        A::I(o) => fx.op(SemOp::Add, Ty::I32, int, &[A::R(a.base), A::I(*o)]),
        A::S(n, o) => {
            let s = fx.sym_addr(n, *o)?;
            if fx.zero_reg(int) == Some(a.base) {
                Ok(s)
            } else {
                fx.op(SemOp::Add, Ty::I32, int, &[A::R(a.base), A::R(s)])
            }
        }
        A::F(i, o) => fx.frame_addr(*i, *o),
        A::R(_) => Err("internal: register offset".into()),
    }
}

/// A length argument as a 32-bit register.
fn len_reg(fx: &mut Fx, v: V) -> Result<Reg, String> {
    let int = fx.addr_file()?;
    let r = fx.reg(v)?;
    if fx.file(r) != int {
        return fx.cvt(Ty::I64, Ty::I32, int, r);
    }
    Ok(r)
}

/// The `align` attribute of call argument `k` (1 when absent).
pub fn param_align(i: V, k: u32) -> u32 {
    i.call_int_attr(k + 1, crate::llvm::attr_kind("align")).map(|a| a.clamp(1, 1 << 16) as u32).unwrap_or(1)
}

/// Copies `size` bytes from `src` (a pointer register) to `dst` (byval
/// arguments); `aligns` are the known alignments of destination and source.
pub fn copy_bytes(fx: &mut Fx, dst: Addr, src: Reg, size: u32, aligns: (u32, u32)) -> Result<(), String> {
    if size <= fx.opts.inline_mem_limit {
        return copy_inline(fx, dst, Addr { base: src, off: A::I(0) }, size, aligns, false);
    }
    let d = addr_reg(fx, &dst)?;
    let int = fx.addr_file()?;
    let n = fx.imm(size as i64, int)?;
    crate::call::libcall(fx, "memcpy", &[d, src, n], None)?;
    Ok(())
}

/// An inline copy in the widest units the (known) alignment allows; all
/// loads come before the stores when the areas may overlap.
fn copy_inline(fx: &mut Fx, dst: Addr, src: Addr, size: u32, aligns: (u32, u32), overlap: bool) -> Result<(), String> {
    let (dalign, salign) = aligns;
    let unit = [4u32, 2, 1].into_iter().find(|u| dalign.min(salign) >= *u).unwrap_or(1);
    let mut parts = Vec::new();
    let mut off = 0u32;
    while off < size {
        let mut u = unit;
        while u > size - off {
            u /= 2;
        }
        parts.push((off, u));
        off += u;
    }
    let mut loaded = Vec::new();
    for &(off, u) in &parts {
        let r = load_scalar(fx, &src.plus(off as i64), Sc::Int(u * 8), u as u64, align_at(salign, off as u64))?;
        if overlap {
            loaded.push(r);
        } else {
            store_scalar(fx, &dst.plus(off as i64), Sc::Int(u * 8), u as u64, align_at(dalign, off as u64), r)?;
        }
    }
    for (&(off, u), r) in parts.iter().zip(loaded) {
        store_scalar(fx, &dst.plus(off as i64), Sc::Int(u * 8), u as u64, align_at(dalign, off as u64), r)?;
    }
    Ok(())
}

fn set_inline(fx: &mut Fx, dst: Addr, val: V, size: u32, align: u32) -> Result<(), String> {
    let int = fx.addr_file()?;
    // The byte replicated over a word.
    let word = if let Some((b, _)) = val.const_int() {
        let b = (b & 0xff) as i64;
        fx.imm((b * 0x0101_0101) as i32 as i64, int)?
    } else {
        let r = fx.reg(val)?;
        let z = zext_reg(fx, r, 8)?;
        crate::inst::binop(fx, Op::LLVMMul, Sc::Int(32), A::R(z), A::I(0x0101_0101))?
    };
    let unit = [4u32, 2, 1].into_iter().find(|u| align >= *u).unwrap_or(1);
    let mut off = 0u32;
    while off < size {
        let mut u = unit;
        while u > size - off {
            u /= 2;
        }
        store_scalar(fx, &dst.plus(off as i64), Sc::Int(u * 8), u as u64, align_at(align, off as u64), word)?;
        off += u;
    }
    let _ = as_reg;
    Ok(())
}

/// Reverses the bits of an integer (swaps of 1, 2, 4 bits, then a byte swap).
fn bitreverse(fx: &mut Fx, sc: Sc, x: Reg) -> Result<Reg, String> {
    let bits = sc.bits();
    if bits > 32 {
        let file = fx.sc_file(sc)?;
        let (lo, hi) = fx.halves(x)?;
        let rl = bitreverse(fx, Sc::Int(32), lo)?;
        let rh = bitreverse(fx, Sc::Int(32), hi)?;
        let r = fx.pack(rh, rl, file)?;
        if bits < 64 {
            return shift(fx, SemOp::Shr, Ty::U64, r, A::I((64 - bits) as i64));
        }
        return Ok(r);
    }
    let int = fx.addr_file()?;
    let mut v = x;
    for (sh, m) in [(1, 0x5555_5555u32), (2, 0x3333_3333), (4, 0x0f0f_0f0f)] {
        let m = m as i32 as i64;
        let a = shift(fx, SemOp::Shr, Ty::U32, v, A::I(sh))?;
        let a = fx.op(SemOp::And, Ty::I32, int, &[A::R(a), A::I(m)])?;
        let b = fx.op(SemOp::And, Ty::I32, int, &[A::R(v), A::I(m)])?;
        let b = shift(fx, SemOp::Shl, Ty::I32, b, A::I(sh))?;
        v = fx.op(SemOp::Or, Ty::I32, int, &[A::R(a), A::R(b)])?;
    }
    let v = scalar_intrinsic(fx, "bswap", "llvm.bswap.i32", Sc::Int(32), &[v], V(std::ptr::null_mut()))?;
    if bits < 32 {
        return shift(fx, SemOp::Shr, Ty::U32, v, A::I((32 - bits) as i64));
    }
    Ok(v)
}

/// `llvm.is.fpclass`: tests on the IEEE bits (bit 0 signaling NaN, 1 quiet
/// NaN, 2..5 negative infinity/normal/subnormal/zero, 6..9 positive zero/subnormal/normal/infinity).
fn fpclass(fx: &mut Fx, sc: Sc, x: Reg, mask: u32) -> Result<Reg, String> {
    let p = fx.m.predicate_file().ok_or("no predicates")?;
    let bits = sc.bits();
    let isc = Sc::Int(bits);
    let (inf, quiet, min_normal): (i64, i64, i64) = if bits == 32 {
        (0x7f80_0000, 0x7fc0_0000, 0x0080_0000)
    } else {
        (0x7ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0x0010_0000_0000_0000)
    };
    let abs_mask = if bits == 32 { 0x7fff_ffff } else { i64::MAX };
    let abs = crate::inst::binop(fx, Op::LLVMAnd, isc, A::R(x), A::I(abs_mask))?;
    let u = |fx: &mut Fx, pred, a: Reg, b: i64| icmp(fx, pred, isc, A::R(a), A::I(b));
    let mut acc: Option<Reg> = None;
    let mut add = |fx: &mut Fx, r: Reg| -> Result<(), String> {
        acc = Some(match acc {
            None => r,
            Some(a) => pred_op(fx, SemOp::Or, &[a, r])?,
        });
        Ok(())
    };
    // NaNs.
    let nan_bits = mask & 3;
    if nan_bits == 3 {
        let r = u(fx, IntPred::LLVMIntUGT, abs, inf)?;
        add(fx, r)?;
    } else if nan_bits != 0 {
        let is_q = u(fx, IntPred::LLVMIntUGE, abs, quiet)?;
        let r = if nan_bits == 2 {
            is_q
        } else {
            let nan = u(fx, IntPred::LLVMIntUGT, abs, inf)?;
            let nq = pred_op(fx, SemOp::Not, &[is_q])?;
            pred_op(fx, SemOp::And, &[nan, nq])?
        };
        add(fx, r)?;
    }
    // The other classes, each with a negative (bit n) and positive (bit 9 - n) form.
    for (neg_bit, pos_bit, class) in [(2u32, 9u32, 0u8), (3, 8, 1), (4, 7, 2), (5, 6, 3)] {
        let (n, ps) = (mask >> neg_bit & 1 == 1, mask >> pos_bit & 1 == 1);
        if !n && !ps {
            continue;
        }
        let r = match class {
            0 => u(fx, IntPred::LLVMIntEQ, abs, inf)?,
            1 => {
                let lo = u(fx, IntPred::LLVMIntUGE, abs, min_normal)?;
                let hi = u(fx, IntPred::LLVMIntULT, abs, inf)?;
                pred_op(fx, SemOp::And, &[lo, hi])?
            }
            2 => {
                let m1 = crate::inst::binop(fx, Op::LLVMSub, isc, A::R(abs), A::I(1))?;
                u(fx, IntPred::LLVMIntULT, m1, min_normal - 1)?
            }
            _ => u(fx, IntPred::LLVMIntEQ, abs, 0)?,
        };
        let r = if n && ps {
            r
        } else {
            let neg = u(fx, IntPred::LLVMIntSLT, x, 0)?;
            let s = if n { neg } else { pred_op(fx, SemOp::Not, &[neg])? };
            pred_op(fx, SemOp::And, &[r, s])?
        };
        add(fx, r)?;
    }
    match acc {
        Some(r) => Ok(r),
        None => fx.imm(0, p),
    }
}

//! Integers wider than 64 bits (up to 128), which clang produces for
//! bit-field storage units (`load i72`): held as 32-bit parts, least
//! significant first, in the 32-bit integer file; the top part's unused
//! bits are undefined until an operation needs them. Supported: constants,
//! loads and stores (through `memory`), bitwise logic, add/sub with carries,
//! shifts by constants, compares, select, and casts to and from scalars.
//! Multiplication and division are errors.

use dsp_mir::Reg;
use isa_tablegen::{SemOp, Ty};

use crate::emit::A;
use crate::function::{Fx, Val};
use crate::inst::{compare, pred_op, pred_to_int, select_reg, sext_reg, shift, zext_reg};
use crate::llvm::{IntPred, Op, TyKind, V};
use crate::types::{Sc, Shape};

fn wide_info(fx: &Fx, v: V) -> Option<(u32, u32)> {
    match fx.shape(v.ty()).ok()? {
        Shape::Wide { bits, parts } => Some((bits, parts)),
        _ => None,
    }
}

/// Bits of the top part of a `bits`-bit integer.
fn top_bits(bits: u32) -> u32 {
    bits - 32 * (bits.div_ceil(32) - 1)
}

/// A wide constant (LLVM's C API gives at most 64 bits, so read its text).
pub fn constant(fx: &mut Fx, v: V, bits: u32, parts: u32) -> Result<Val, String> {
    let int = fx.addr_file()?;
    let value = wide_const(v).ok_or_else(|| format!("constant '{}' is not supported", v.print()))?;
    let _ = bits;
    let mut out = Vec::new();
    for k in 0..parts {
        out.push(fx.imm((value >> (32 * k)) as i32 as i64, int)?);
    }
    Ok(Val::L(out))
}

/// The value of a wide integer constant (from its text: the C API reads at most 64 bits).
pub fn wide_const(v: V) -> Option<i128> {
    if v.is_undef() || v.is_null_or_zero() {
        return Some(0);
    }
    if !v.is_constant() || v.const_opcode().is_some() {
        return None;
    }
    let text = v.print();
    let last = text.rsplit(' ').next()?;
    match last {
        "true" => Some(1),
        "false" => Some(0),
        _ => last.parse::<i128>().ok(),
    }
}

fn parts_of(fx: &mut Fx, v: V) -> Result<Vec<Reg>, String> {
    match fx.val(v)? {
        Val::L(rs) => Ok(rs),
        _ => Err("internal: wide value".into()),
    }
}

/// Parts with the top part zero- or sign-extended.
fn normalized(fx: &mut Fx, mut p: Vec<Reg>, bits: u32, signed: bool) -> Result<Vec<Reg>, String> {
    let tb = top_bits(bits);
    let last = p.len() - 1;
    p[last] = if signed { sext_reg(fx, p[last], tb)? } else { zext_reg(fx, p[last], tb)? };
    Ok(p)
}

pub fn lower(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    use Op::*;
    let int = fx.addr_file()?;
    let t = i.ty();
    let v = match op {
        LLVMAnd | LLVMOr | LLVMXor => {
            let (a, b) = (parts_of(fx, i.operand(0))?, parts_of(fx, i.operand(1))?);
            let sop = match op {
                LLVMAnd => SemOp::And,
                LLVMOr => SemOp::Or,
                _ => SemOp::Xor,
            };
            let mut out = Vec::new();
            for (x, y) in a.into_iter().zip(b) {
                out.push(fx.op(sop, Ty::I32, int, &[A::R(x), A::R(y)])?);
            }
            Val::L(out)
        }
        LLVMAdd | LLVMSub => {
            let (a, b) = (parts_of(fx, i.operand(0))?, parts_of(fx, i.operand(1))?);
            let add = op == LLVMAdd;
            let sop = if add { SemOp::Add } else { SemOp::Sub };
            let mut out = Vec::new();
            let mut carry: Option<Reg> = None;
            for (x, y) in a.into_iter().zip(b) {
                let s = fx.op(sop, Ty::I32, int, &[A::R(x), A::R(y)])?;
                // Carry (add): s < x; borrow (sub): x < y.
                let c1 = if add {
                    compare(fx, SemOp::Lt, Ty::U32, A::R(s), A::R(x))?
                } else {
                    compare(fx, SemOp::Lt, Ty::U32, A::R(x), A::R(y))?
                };
                let (r, c) = match carry {
                    None => (s, c1),
                    Some(ci) => {
                        let r = fx.op(sop, Ty::I32, int, &[A::R(s), A::R(ci)])?;
                        let c2 = if add {
                            compare(fx, SemOp::Lt, Ty::U32, A::R(r), A::R(s))?
                        } else {
                            compare(fx, SemOp::Lt, Ty::U32, A::R(s), A::R(ci))?
                        };
                        (r, pred_op(fx, SemOp::Or, &[c1, c2])?)
                    }
                };
                out.push(r);
                carry = Some(pred_to_int(fx, c)?);
            }
            Val::L(out)
        }
        LLVMShl | LLVMLShr | LLVMAShr => {
            let (bits, n) = wide_info(fx, i).ok_or("internal: wide shift")?;
            let s = wide_const(i.operand(1)).ok_or_else(|| format!("{bits}-bit shifts by a variable amount are not supported"))?;
            if s < 0 || s >= bits as i128 {
                let v = fx.zero_of(t)?;
                fx.set(i, v);
                return Ok(());
            }
            let s = s as u32;
            let a = parts_of(fx, i.operand(0))?;
            let a = if op == LLVMShl { a } else { normalized(fx, a, bits, op == LLVMAShr)? };
            let fill = if op == LLVMAShr { shift(fx, SemOp::Shr, Ty::I32, a[n as usize - 1], A::I(31))? } else { fx.imm(0, int)? };
            let (w, b) = ((s / 32) as i64, (s % 32) as i64);
            let zero = fx.imm(0, int)?;
            // Parts beyond the value: the fill word (right shifts) or zero (left shifts).
            let ext = |k: i64| -> Reg {
                if k < 0 {
                    zero
                } else if k >= n as i64 {
                    fill
                } else {
                    a[k as usize]
                }
            };
            let mut out = Vec::new();
            for k in 0..n as i64 {
                let r = if op == LLVMShl {
                    let m = ext(k - w);
                    if b == 0 {
                        m
                    } else {
                        let x = shift(fx, SemOp::Shl, Ty::I32, m, A::I(b))?;
                        let y = shift(fx, SemOp::Shr, Ty::U32, ext(k - w - 1), A::I(32 - b))?;
                        fx.op(SemOp::Or, Ty::I32, int, &[A::R(x), A::R(y)])?
                    }
                } else {
                    let m = ext(k + w);
                    if b == 0 {
                        m
                    } else {
                        let x = shift(fx, SemOp::Shr, Ty::U32, m, A::I(b))?;
                        let y = shift(fx, SemOp::Shl, Ty::I32, ext(k + w + 1), A::I(32 - b))?;
                        fx.op(SemOp::Or, Ty::I32, int, &[A::R(x), A::R(y)])?
                    }
                };
                out.push(r);
            }
            Val::L(out)
        }
        LLVMICmp => {
            let (bits, _) = wide_info(fx, i.operand(0)).ok_or("internal: wide compare")?;
            let pred = i.icmp_pred();
            let signed = matches!(pred, IntPred::LLVMIntSLT | IntPred::LLVMIntSLE | IntPred::LLVMIntSGT | IntPred::LLVMIntSGE);
            let a = parts_of(fx, i.operand(0))?;
            let b = parts_of(fx, i.operand(1))?;
            let a = normalized(fx, a, bits, signed)?;
            let b = normalized(fx, b, bits, signed)?;
            Val::S(wide_compare(fx, pred, &a, &b)?)
        }
        LLVMSelect => {
            let c = fx.reg(i.operand(0))?;
            let (a, b) = (parts_of(fx, i.operand(1))?, parts_of(fx, i.operand(2))?);
            let mut out = Vec::new();
            for (x, y) in a.into_iter().zip(b) {
                out.push(select_reg(fx, c, x, y)?);
            }
            Val::L(out)
        }
        LLVMTrunc => {
            let a = parts_of(fx, i.operand(0))?;
            match fx.shape(t)? {
                Shape::Wide { parts, .. } => Val::L(a[..parts as usize].to_vec()),
                Shape::Scalar(Sc::I1) => {
                    let m = fx.op(SemOp::And, Ty::I32, int, &[A::R(a[0]), A::I(1)])?;
                    Val::S(compare(fx, SemOp::Ne, Ty::I32, A::R(m), A::I(0))?)
                }
                Shape::Scalar(sc) if sc.bits() <= 32 => Val::S(a[0]),
                Shape::Scalar(sc) => {
                    let f = fx.sc_file(sc)?;
                    Val::S(fx.pack(a[0], a[1], f)?)
                }
                _ => return Err("truncation of a wide integer to this type is not supported".into()),
            }
        }
        LLVMZExt | LLVMSExt => {
            let signed = op == LLVMSExt;
            let (_, n) = wide_info(fx, i).ok_or("internal: wide extension")?;
            let src = i.operand(0);
            let mut low: Vec<Reg> = match fx.shape(src.ty())? {
                Shape::Wide { bits, .. } => {
                    let p = parts_of(fx, src)?;
                    normalized(fx, p, bits, signed)?
                }
                Shape::Scalar(Sc::I1) => {
                    let p = fx.reg(src)?;
                    let one = pred_to_int(fx, p)?;
                    vec![if signed { fx.op(SemOp::Sub, Ty::I32, int, &[A::I(0), A::R(one)])? } else { one }]
                }
                Shape::Scalar(sc) if sc.bits() <= 32 => {
                    let r = fx.reg(src)?;
                    vec![if signed { sext_reg(fx, r, sc.bits())? } else { zext_reg(fx, r, sc.bits())? }]
                }
                Shape::Scalar(sc) => {
                    let r = fx.reg(src)?;
                    let r = if signed { sext_reg(fx, r, sc.bits())? } else { zext_reg(fx, r, sc.bits())? };
                    let (lo, hi) = fx.halves(r)?;
                    vec![lo, hi]
                }
                _ => return Err("extension of this type to a wide integer is not supported".into()),
            };
            let top = *low.last().ok_or("empty")?;
            let fill = if signed { shift(fx, SemOp::Shr, Ty::I32, top, A::I(31))? } else { fx.imm(0, int)? };
            while low.len() < n as usize {
                low.push(fill);
            }
            Val::L(low)
        }
        LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem => {
            let bits = match t.kind() {
                TyKind::Int(b) => b,
                _ => 0,
            };
            return Err(format!("{bits}-bit multiplication and division are not supported"));
        }
        _ => return Err(format!("operation '{op:?}' on integers wider than 64 bits is not supported")),
    };
    fx.set(i, v);
    Ok(())
}

/// A compare of two normalized wide integers, most significant part first.
fn wide_compare(fx: &mut Fx, pred: IntPred, a: &[Reg], b: &[Reg]) -> Result<Reg, String> {
    use IntPred::*;
    let int = fx.addr_file()?;
    match pred {
        LLVMIntEQ | LLVMIntNE => {
            let mut acc: Option<Reg> = None;
            for (x, y) in a.iter().zip(b) {
                let d = fx.op(SemOp::Xor, Ty::I32, int, &[A::R(*x), A::R(*y)])?;
                acc = Some(match acc {
                    None => d,
                    Some(s) => fx.op(SemOp::Or, Ty::I32, int, &[A::R(s), A::R(d)])?,
                });
            }
            let op = if pred == LLVMIntEQ { SemOp::Eq } else { SemOp::Ne };
            compare(fx, op, Ty::I32, A::R(acc.ok_or("empty")?), A::I(0))
        }
        _ => {
            // a < b (or <=), built from the least significant part up.
            let (x, y) = match pred {
                LLVMIntSGT | LLVMIntSGE | LLVMIntUGT | LLVMIntUGE => (b, a),
                _ => (a, b),
            };
            let or_equal = matches!(pred, LLVMIntSLE | LLVMIntSGE | LLVMIntULE | LLVMIntUGE);
            let signed = matches!(pred, LLVMIntSLT | LLVMIntSLE | LLVMIntSGT | LLVMIntSGE);
            let n = x.len();
            let mut acc = compare(fx, if or_equal { SemOp::Le } else { SemOp::Lt }, Ty::U32, A::R(x[0]), A::R(y[0]))?;
            for k in 1..n {
                let ty = if signed && k == n - 1 { Ty::I32 } else { Ty::U32 };
                let lt = compare(fx, SemOp::Lt, ty, A::R(x[k]), A::R(y[k]))?;
                let eq = compare(fx, SemOp::Eq, Ty::I32, A::R(x[k]), A::R(y[k]))?;
                let keep = pred_op(fx, SemOp::And, &[eq, acc])?;
                acc = pred_op(fx, SemOp::Or, &[lt, keep])?;
            }
            Ok(acc)
        }
    }
}

//! `dsp-split-wide-ints`: integers wider than 64 bits (clang's storage units
//! for runs of bit-fields, such as `i72` or `i136` in packed structures)
//! become 32-bit limbs, so the backend only sees the widths the machine has.
//!
//! A value of `W` bits is `L = ⌈W/32⌉` `i32` limbs, least significant
//! first, with the bits of the top limb above `W` kept zero. Loads and stores
//! touch exactly the value's store size (`⌈W/8⌉` bytes, pieces no wider than
//! the known alignment allows); `and/or/xor`, `add/sub` (with carries), shifts
//! by constants, `trunc/zext/sext`, `icmp`, `select`, `phi` and `freeze` work
//! limb by limb. A function whose wide values meet anything else (a
//! multiplication, a shift by a variable, a call, a return) is left as it
//! is, so the backend reports it.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::{self, *};
use inkwell::llvm_sys::LLVMOpcode::*;
use inkwell::llvm_sys::LLVMTypeKind;

use crate::cfg::Cfg;
use crate::ir::{self, Builder};

/// The widest integer the backend takes.
pub const MAX_BITS: u32 = 64;

/// Runs the pass; returns whether anything changed.
pub fn run(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in ir::defined_functions(m) {
        changed |= split_function(f);
    }
    changed
}

/// The width of `ty` if it is a scalar integer wider than [`MAX_BITS`].
fn wide(ty: LLVMTypeRef) -> Option<u32> {
    unsafe {
        (LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind
            && LLVMGetIntTypeWidth(ty) > MAX_BITS)
            .then(|| LLVMGetIntTypeWidth(ty))
    }
}

fn is_wide(v: LLVMValueRef) -> bool {
    wide(unsafe { LLVMTypeOf(v) }).is_some()
}

/// Whether an instruction touching wide values is one we split.
fn supported(i: LLVMValueRef) -> bool {
    let op = ir::opcode(i);
    let operands: Vec<LLVMValueRef> = (0..unsafe { LLVMGetNumOperands(i) })
        .map(|k| unsafe { LLVMGetOperand(i, k as u32) })
        .collect();
    let wide_constant_ok = |v: LLVMValueRef| unsafe {
        !is_wide(v)
            || !LLVMIsAInstruction(v).is_null()
            || !LLVMIsAConstantInt(v).is_null()
            || LLVMIsUndef(v) != 0
            || LLVMIsPoison(v) != 0
    };
    if !operands.iter().all(|&v| wide_constant_ok(v)) {
        return false;
    }
    match op {
        LLVMLoad | LLVMAnd | LLVMOr | LLVMXor | LLVMAdd | LLVMSub | LLVMTrunc | LLVMZExt
        | LLVMSExt | LLVMICmp | LLVMSelect | LLVMPHI | LLVMFreeze => true,
        LLVMStore => true,
        LLVMShl | LLVMLShr | LLVMAShr => ir::const_u64(operands[1])
            .is_some_and(|c| c < wide(unsafe { LLVMTypeOf(i) }).unwrap_or(0) as u64),
        _ => false,
    }
}

/// The instructions of a function that produce or use wide values.
fn wide_instructions(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    for b in ir::blocks(f) {
        for i in ir::instructions(b) {
            let n = unsafe { LLVMGetNumOperands(i) };
            if is_wide(i) || (0..n).any(|k| is_wide(unsafe { LLVMGetOperand(i, k as u32) })) {
                out.push(i);
            }
        }
    }
    out
}

struct Splitter {
    limbs: HashMap<LLVMValueRef, Vec<LLVMValueRef>>,
    i32t: LLVMTypeRef,
}

fn split_function(f: LLVMValueRef) -> bool {
    let insts = wide_instructions(f);
    if insts.is_empty() || !insts.iter().all(|&i| supported(i)) {
        return false;
    }
    let params: Vec<LLVMValueRef> = (0..unsafe { LLVMCountParams(f) })
        .map(|k| unsafe { LLVMGetParam(f, k) })
        .collect();
    if params.iter().any(|&p| is_wide(p)) {
        return false;
    }
    // Definitions before uses: reverse post-order, then unreachable blocks.
    let cfg = Cfg::new(f);
    let mut order: Vec<usize> = (0..cfg.blocks.len())
        .filter(|&b| cfg.reachable(b))
        .collect();
    order.sort_by_key(|&b| cfg.rpo_position(b));
    order.extend((0..cfg.blocks.len()).filter(|&b| !cfg.reachable(b)));
    let ctx = unsafe { LLVMGetTypeContext(LLVMTypeOf(f)) };
    let mut s = Splitter {
        limbs: HashMap::new(),
        i32t: unsafe { LLVMInt32TypeInContext(ctx) },
    };
    // Phis first (their inputs may come later), filled in at the end.
    let mut phis = Vec::new();
    for &b in &order {
        for i in ir::instructions(cfg.blocks[b]) {
            if ir::opcode(i) == LLVMPHI && is_wide(i) {
                let bld = Builder::at_start(cfg.blocks[b]);
                let n = limb_count(i);
                let new: Vec<LLVMValueRef> = (0..n)
                    .map(|k| bld.phi(s.i32t, &format!("{}.l{k}", ir::value_name(i))))
                    .collect();
                s.limbs.insert(i, new);
                phis.push(i);
            }
        }
    }
    let wide_set: std::collections::HashSet<LLVMValueRef> = insts.iter().copied().collect();
    for &b in &order {
        for i in ir::instructions(cfg.blocks[b]) {
            if wide_set.contains(&i) && ir::opcode(i) != LLVMPHI {
                s.lower(i);
            }
        }
    }
    for &phi in &phis {
        let new = s.limbs[&phi].clone();
        for k in 0..unsafe { LLVMCountIncoming(phi) } {
            let (v, from) = unsafe { (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k)) };
            let bld = Builder::before(unsafe { LLVMGetBasicBlockTerminator(from) });
            let parts = s.get(&bld, v);
            for (p, part) in new.iter().zip(parts) {
                let (mut vals, mut blocks) = ([part], [from]);
                unsafe { LLVMAddIncoming(*p, vals.as_mut_ptr(), blocks.as_mut_ptr(), 1) };
            }
        }
    }
    // The old instructions only feed each other now.
    for &i in insts.iter().rev() {
        unsafe {
            if !ir::users(i).is_empty() {
                LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
            }
        }
    }
    for &i in insts.iter().rev() {
        unsafe { LLVMInstructionEraseFromParent(i) };
    }
    true
}

fn limb_count(v: LLVMValueRef) -> usize {
    wide(unsafe { LLVMTypeOf(v) })
        .map(|w| w.div_ceil(32) as usize)
        .unwrap_or(1)
}

/// Bits used in the top limb of a `w`-bit value.
fn top_bits(w: u32) -> u32 {
    w - 32 * (w.div_ceil(32) - 1)
}

impl Splitter {
    fn k(&self, v: u64) -> LLVMValueRef {
        ir::const_int(self.i32t, v)
    }

    /// `a | b`, `a & b`, `a << c`, `a >> c` without the operations that do
    /// nothing (no LLVM pass runs after ours to remove them).
    fn or(&self, bld: &Builder, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        match (ir::const_u64(a), ir::const_u64(b)) {
            (Some(0), _) => b,
            (_, Some(0)) => a,
            _ => bld.or(a, b),
        }
    }
    fn and(&self, bld: &Builder, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        match (ir::const_u64(a), ir::const_u64(b)) {
            (Some(0), _) | (_, Some(0)) => self.k(0),
            (_, Some(0xffff_ffff)) => a,
            (Some(0xffff_ffff), _) => b,
            _ => bld.and(a, b),
        }
    }
    fn shl(&self, bld: &Builder, a: LLVMValueRef, c: u64) -> LLVMValueRef {
        if c == 0 || ir::const_u64(a) == Some(0) {
            if c == 0 {
                a
            } else {
                self.k(0)
            }
        } else {
            bld.shl(a, self.k(c))
        }
    }
    fn lshr(&self, bld: &Builder, a: LLVMValueRef, c: u64) -> LLVMValueRef {
        if c == 0 || ir::const_u64(a) == Some(0) {
            if c == 0 {
                a
            } else {
                self.k(0)
            }
        } else {
            bld.lshr(a, self.k(c))
        }
    }

    /// The limbs of a wide value (constants split on the spot; not yet seen: poison).
    fn get(&self, bld: &Builder, v: LLVMValueRef) -> Vec<LLVMValueRef> {
        if let Some(l) = self.limbs.get(&v) {
            return l.clone();
        }
        let n = limb_count(v);
        unsafe {
            if !LLVMIsAConstantInt(v).is_null() {
                let ty = LLVMTypeOf(v);
                return (0..n)
                    .map(|k| bld.trunc(bld.lshr(v, ir::const_int(ty, 32 * k as u64)), self.i32t))
                    .collect();
            }
        }
        vec![unsafe { LLVMGetPoison(self.i32t) }; n]
    }

    /// Clears the bits above `w` in the top limb.
    fn canon(&self, bld: &Builder, mut l: Vec<LLVMValueRef>, w: u32) -> Vec<LLVMValueRef> {
        let tb = top_bits(w);
        if tb < 32 {
            if let Some(top) = l.last_mut() {
                *top = self.and(bld, *top, self.k(ir::low_mask(tb)));
            }
        }
        l
    }

    /// The limbs with the top one sign-extended from bit `w - 1`, and the sign word.
    fn signed(
        &self,
        bld: &Builder,
        mut l: Vec<LLVMValueRef>,
        w: u32,
    ) -> (Vec<LLVMValueRef>, LLVMValueRef) {
        let tb = top_bits(w);
        let top = l.len() - 1;
        if tb < 32 {
            let sh = self.k((32 - tb) as u64);
            l[top] = bld.ashr(bld.shl(l[top], sh), sh);
        }
        let sign = bld.ashr(l[top], self.k(31));
        (l, sign)
    }

    /// Limbs of a narrow (≤ 64-bit) integer, extended by `fill` (zero or the sign word).
    fn limbs_of_narrow(
        &self,
        bld: &Builder,
        v: LLVMValueRef,
        n: usize,
        signed: bool,
    ) -> Vec<LLVMValueRef> {
        let bits = unsafe { LLVMGetIntTypeWidth(LLVMTypeOf(v)) };
        let (lo, hi) = if bits <= 32 {
            let lo = if bits == 32 {
                v
            } else if signed {
                bld.sext(v, self.i32t)
            } else {
                bld.zext(v, self.i32t)
            };
            let hi = if signed {
                bld.ashr(lo, self.k(31))
            } else {
                self.k(0)
            };
            (lo, hi)
        } else {
            let i64t = ir::int_like(self.i32t, 64);
            let v64 = if bits == 64 {
                v
            } else if signed {
                bld.sext(v, i64t)
            } else {
                bld.zext(v, i64t)
            };
            (
                bld.trunc(v64, self.i32t),
                bld.trunc(bld.lshr(v64, ir::const_int(i64t, 32)), self.i32t),
            )
        };
        let fill = if signed {
            bld.ashr(hi, self.k(31))
        } else {
            self.k(0)
        };
        let mut out = vec![lo, hi];
        out.resize(n, fill);
        out
    }

    fn lower(&mut self, i: LLVMValueRef) {
        let bld = Builder::before(i);
        let op = ir::opcode(i);
        let operand = |k: u32| unsafe { LLVMGetOperand(i, k) };
        let w = wide(unsafe { LLVMTypeOf(i) }).unwrap_or(0);
        let n = w.div_ceil(32) as usize;
        let result: Option<Vec<LLVMValueRef>> = match op {
            LLVMLoad => Some(self.load(&bld, i, w)),
            LLVMStore => {
                self.store(&bld, i);
                None
            }
            LLVMAnd | LLVMOr | LLVMXor => {
                let (a, b) = (self.get(&bld, operand(0)), self.get(&bld, operand(1)));
                let f = |x, y| match op {
                    LLVMAnd => self.and(&bld, x, y),
                    LLVMOr => self.or(&bld, x, y),
                    _ => bld.xor(x, y),
                };
                Some(a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect())
            }
            LLVMAdd | LLVMSub => {
                let (a, b) = (self.get(&bld, operand(0)), self.get(&bld, operand(1)));
                let mut out = Vec::with_capacity(n);
                let mut carry: Option<LLVMValueRef> = None;
                for (&x, &y) in a.iter().zip(&b) {
                    let (r, c) = if op == LLVMAdd {
                        let s = bld.add(x, y);
                        let c1 = bld.icmp(LLVMIntULT, s, x);
                        match carry {
                            None => (s, c1),
                            Some(c) => {
                                let s2 = bld.add(s, bld.zext(c, self.i32t));
                                (s2, bld.or(c1, bld.icmp(LLVMIntULT, s2, s)))
                            }
                        }
                    } else {
                        let d = bld.sub(x, y);
                        let b1 = bld.icmp(LLVMIntULT, x, y);
                        match carry {
                            None => (d, b1),
                            Some(c) => {
                                let d2 = bld.sub(d, bld.zext(c, self.i32t));
                                (
                                    d2,
                                    bld.or(b1, bld.icmp(LLVMIntULT, d, bld.zext(c, self.i32t))),
                                )
                            }
                        }
                    };
                    out.push(r);
                    carry = Some(c);
                }
                Some(self.canon(&bld, out, w))
            }
            LLVMShl | LLVMLShr | LLVMAShr => {
                let c = ir::const_u64(operand(1)).unwrap_or(0) as usize;
                let (q, r) = (c / 32, (c % 32) as u64);
                let a = self.get(&bld, operand(0));
                let (ext, fill) = match op {
                    LLVMAShr => self.signed(&bld, a, w),
                    _ => (a, self.k(0)),
                };
                let at = |j: isize| -> LLVMValueRef {
                    if j < 0 {
                        self.k(0)
                    } else {
                        ext.get(j as usize).copied().unwrap_or(fill)
                    }
                };
                let out: Vec<LLVMValueRef> = (0..n as isize)
                    .map(|k| {
                        if op == LLVMShl {
                            let j = k - q as isize;
                            if r == 0 {
                                at(j)
                            } else {
                                self.or(
                                    &bld,
                                    self.shl(&bld, at(j), r),
                                    self.lshr(&bld, at(j - 1), 32 - r),
                                )
                            }
                        } else {
                            let j = k + q as isize;
                            if r == 0 {
                                at(j)
                            } else {
                                self.or(
                                    &bld,
                                    self.lshr(&bld, at(j), r),
                                    self.shl(&bld, at(j + 1), 32 - r),
                                )
                            }
                        }
                    })
                    .collect();
                Some(self.canon(&bld, out, w))
            }
            LLVMTrunc => {
                let a = self.get(&bld, operand(0));
                let to = unsafe { LLVMTypeOf(i) };
                if w > 0 {
                    Some(self.canon(&bld, a[..n].to_vec(), w))
                } else {
                    let bits = unsafe { LLVMGetIntTypeWidth(to) };
                    let v = if bits <= 32 {
                        a[0]
                    } else {
                        let i64t = ir::int_like(self.i32t, 64);
                        bld.or(
                            bld.zext(a[0], i64t),
                            bld.shl(bld.zext(a[1], i64t), ir::const_int(i64t, 32)),
                        )
                    };
                    let v = if bits == 32 || bits == 64 {
                        v
                    } else {
                        bld.trunc(v, to)
                    };
                    unsafe { LLVMReplaceAllUsesWith(i, v) };
                    None
                }
            }
            LLVMZExt | LLVMSExt => {
                let src = operand(0);
                let signed = op == LLVMSExt;
                let out = match wide(unsafe { LLVMTypeOf(src) }) {
                    None => self.limbs_of_narrow(&bld, src, n, signed),
                    Some(sw) => {
                        let a = self.get(&bld, src);
                        let (mut a, fill) = if signed {
                            self.signed(&bld, a, sw)
                        } else {
                            (a, self.k(0))
                        };
                        a.resize(n, fill);
                        a
                    }
                };
                Some(self.canon(&bld, out, w))
            }
            LLVMICmp => {
                let pred = unsafe { LLVMGetICmpPredicate(i) };
                let sw = wide(unsafe { LLVMTypeOf(operand(0)) }).unwrap_or(64);
                let (a, b) = (self.get(&bld, operand(0)), self.get(&bld, operand(1)));
                let v = self.compare(&bld, pred, a, b, sw);
                unsafe { LLVMReplaceAllUsesWith(i, v) };
                None
            }
            LLVMSelect => {
                let c = operand(0);
                let (a, b) = (self.get(&bld, operand(1)), self.get(&bld, operand(2)));
                Some(
                    a.iter()
                        .zip(&b)
                        .map(|(&x, &y)| bld.select(c, x, y))
                        .collect(),
                )
            }
            LLVMFreeze => Some(self.get(&bld, operand(0))),
            _ => None,
        };
        if let Some(limbs) = result {
            self.limbs.insert(i, limbs);
        }
    }

    /// A comparison of two wide values, from the top limb down.
    fn compare(
        &self,
        bld: &Builder,
        pred: LLVMIntPredicate,
        a: Vec<LLVMValueRef>,
        b: Vec<LLVMValueRef>,
        w: u32,
    ) -> LLVMValueRef {
        if matches!(pred, LLVMIntEQ | LLVMIntNE) {
            let diff = a
                .iter()
                .zip(&b)
                .map(|(&x, &y)| bld.xor(x, y))
                .reduce(|p, q| bld.or(p, q))
                .unwrap_or(self.k(0));
            return bld.icmp(pred, diff, self.k(0));
        }
        let signed = matches!(pred, LLVMIntSLT | LLVMIntSLE | LLVMIntSGT | LLVMIntSGE);
        let (a, b) = if signed {
            (self.signed(bld, a, w).0, self.signed(bld, b, w).0)
        } else {
            (a, b)
        };
        let (strict, or_equal) = match pred {
            LLVMIntULT | LLVMIntULE => (LLVMIntULT, pred == LLVMIntULE),
            LLVMIntUGT | LLVMIntUGE => (LLVMIntUGT, pred == LLVMIntUGE),
            LLVMIntSLT | LLVMIntSLE => (LLVMIntSLT, pred == LLVMIntSLE),
            _ => (LLVMIntSGT, pred == LLVMIntSGE),
        };
        let unsigned_strict = match strict {
            LLVMIntSLT => LLVMIntULT,
            LLVMIntSGT => LLVMIntUGT,
            p => p,
        };
        // From the least significant limb up: r = top decides unless equal, then the rest.
        let mut r = bld.icmp(
            if or_equal {
                if unsigned_strict == LLVMIntULT {
                    LLVMIntULE
                } else {
                    LLVMIntUGE
                }
            } else {
                unsigned_strict
            },
            a[0],
            b[0],
        );
        for k in 1..a.len() {
            let p = if k == a.len() - 1 {
                strict
            } else {
                unsigned_strict
            };
            let decided = bld.icmp(p, a[k], b[k]);
            let equal = bld.icmp(LLVMIntEQ, a[k], b[k]);
            r = bld.or(decided, bld.and(equal, r));
        }
        r
    }

    fn load(&self, bld: &Builder, i: LLVMValueRef, w: u32) -> Vec<LLVMValueRef> {
        let p = unsafe { LLVMGetOperand(i, 0) };
        let align = unsafe { LLVMGetAlignment(i) }.max(1) as u64;
        let volatile = unsafe { LLVMGetVolatile(i) } != 0;
        let bytes = w.div_ceil(8) as u64;
        let mut out = vec![self.k(0); w.div_ceil(32) as usize];
        for (off, size) in crate::mem::chunks(bytes, align, 4) {
            let ty = ir::int_like(self.i32t, (size * 8) as u32);
            let v = bld.load(
                ty,
                bld.byte_offset(p, off),
                piece_align(align, off),
                volatile,
            );
            let v = if size == 4 { v } else { bld.zext(v, self.i32t) };
            let limb = (off / 4) as usize;
            let shift = (off % 4) * 8;
            let v = self.shl(bld, v, shift);
            out[limb] = if off % 4 == 0 {
                v
            } else {
                self.or(bld, out[limb], v)
            };
        }
        self.canon(bld, out, w)
    }

    fn store(&self, bld: &Builder, i: LLVMValueRef) {
        let (v, p) = unsafe { (LLVMGetOperand(i, 0), LLVMGetOperand(i, 1)) };
        let w = wide(unsafe { LLVMTypeOf(v) }).unwrap_or(64);
        let limbs = self.get(bld, v);
        let align = unsafe { LLVMGetAlignment(i) }.max(1) as u64;
        let volatile = unsafe { LLVMGetVolatile(i) } != 0;
        for (off, size) in crate::mem::chunks(w.div_ceil(8) as u64, align, 4) {
            let limb = limbs[(off / 4) as usize];
            let shift = (off % 4) * 8;
            let part = self.lshr(bld, limb, shift);
            let part = if size == 4 {
                part
            } else {
                bld.trunc(part, ir::int_like(self.i32t, (size * 8) as u32))
            };
            bld.store(
                part,
                bld.byte_offset(p, off),
                piece_align(align, off),
                volatile,
            );
        }
    }
}

/// The alignment of the access at `off` from a base aligned to `align`.
fn piece_align(align: u64, off: u64) -> u32 {
    (if off == 0 {
        align
    } else {
        align.min(1 << off.trailing_zeros())
    }) as u32
}

#[cfg(test)]
#[path = "wide_tests.rs"]
mod tests;

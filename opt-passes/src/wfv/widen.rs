//! Vector instruction generation (seed 001 §2.1.4): each scalar instruction
//! of a region becomes the instruction for all instances. A value is held
//! as `Uni` (one scalar: uniform operations are cloned as they are,
//! broadcast where a vector needs them), `Lin` (lane 0's scalar and a
//! constant step: consecutive values, so that addresses become unit-stride
//! vector accesses in `memory`) or `Vec` (a `<lanes x T>`). Integer division
//! under a mask divides inactive lanes by 1. Calls: pure with uniform
//! arguments stay scalar; to a function with a vector variant whose
//! uniform/linear parameters match, one call of the variant (the masked one
//! under a mask); a few element-wise intrinsics as vector intrinsics;
//! anything else (nonvectorizable) once per active lane, in lane order.
//! The control flow around the instructions is `control`'s.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode as O, LLVMTypeKind};

use super::attrs::{is_pure_call, Attrs};
use super::linearize::Nest;
use super::mask::{self, Cx, Mask};
use crate::cfg::Cfg;
use crate::ir;
use dsp_vec_contract::{Step, VecFunctionDecl};

/// How a scalar value is held in vector code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VVal {
    Uni(LLVMValueRef),
    Lin { base: LLVMValueRef, stride: i64 },
    Vec(LLVMValueRef),
}

/// A vector variant another function can call.
#[derive(Clone, Debug)]
pub struct Callee {
    pub func: LLVMValueRef,
    pub decl: VecFunctionDecl,
    pub masked: bool,
}

/// The region being vectorized.
pub struct Region<'a> {
    pub cfg: &'a Cfg,
    pub nest: &'a Nest,
    pub attrs: &'a Attrs,
    pub blocks: Vec<bool>,
    pub entry: usize,
    /// Blocks whose terminator leaves the region (a vectorized loop's latch).
    pub exits: Vec<usize>,
}

/// Emits vector code for a region into a function.
pub struct Emitter<'a> {
    pub cx: &'a Cx,
    pub b: LLVMBuilderRef,
    /// The function the code goes into.
    pub f: LLVMValueRef,
    pub r: &'a Region<'a>,
    pub map: HashMap<LLVMValueRef, VVal>,
    /// Keep the scalar instructions' debug locations (same function).
    pub keep_dbg: bool,
    pub variants: &'a HashMap<LLVMValueRef, Vec<Callee>>,
    /// Per region block: its first and last new block.
    pub first: HashMap<usize, LLVMBasicBlockRef>,
    pub last: HashMap<usize, LLVMBasicBlockRef>,
    pub bmask: HashMap<usize, Mask>,
    pub emask: HashMap<(usize, usize), Mask>,
    /// Value after loop k of a value defined in it (result vectors).
    pub loop_out: HashMap<(usize, LLVMValueRef), LLVMValueRef>,
    /// Return blocks' masks and values (linearized functions).
    pub rets: Vec<(Mask, Option<LLVMValueRef>)>,
    /// The open end of the region (exit blocks' terminators not emitted).
    pub ends: Vec<LLVMBasicBlockRef>,
    /// Vector calls emitted (for remarks).
    pub vector_calls: usize,
    pub lane_calls: usize,
    pub gathers: usize,
    /// Blocks behind a branch on superword condition.
    pub boscc: usize,
    /// Of those, blocks with a scalar version for one active lane.
    pub multiversioned: usize,
    /// Pointer parameters with an `alignment` clause, and their alignment.
    pub aligned: Vec<(LLVMValueRef, u32)>,
    /// The CFG is linearized (values leaving loops are in result vectors).
    pub linearized: bool,
}

pub type R<T> = Result<T, String>;

pub fn nm() -> *const std::ffi::c_char {
    c"".as_ptr()
}

/// A call of intrinsic `name` overloaded on `tys`.
pub fn intrinsic(cx: &Cx, b: LLVMBuilderRef, name: &str, tys: &[LLVMTypeRef], args: &[LLVMValueRef]) -> LLVMValueRef {
    ir::build_intrinsic(cx.m, b, name, tys, args).unwrap_or_else(|| panic!("unknown intrinsic {name}"))
}

/// Whether vectors of `t` exist for us: integers, `float`, `double`, pointers.
pub fn scalar_ok(t: LLVMTypeRef) -> bool {
    use LLVMTypeKind::*;
    matches!(
        unsafe { LLVMGetTypeKind(t) },
        LLVMIntegerTypeKind | LLVMFloatTypeKind | LLVMDoubleTypeKind | LLVMPointerTypeKind
    ) && (unsafe { LLVMGetTypeKind(t) } != LLVMIntegerTypeKind || unsafe { LLVMGetIntTypeWidth(t) } <= 64)
}

/// C's math functions whose only effect is `errno`, set from their arguments.
const C_MATH: &[&str] = &[
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "hypot", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fmod", "remainder", "erf", "erfc", "lgamma", "tgamma",
];

/// Whether `callee` is one of [`C_MATH`] (or its `f` form), declared here, not defined.
fn is_c_math(callee: LLVMValueRef, name: &str) -> bool {
    let declared = unsafe { !LLVMIsAFunction(callee).is_null() && LLVMCountBasicBlocks(callee) == 0 };
    declared && C_MATH.iter().any(|&f| name == f || name.strip_suffix('f') == Some(f))
}

/// `EDOM` of the C library (`errno.h`: Linux's numbers).
const EDOM: u64 = 33;

/// Element-wise intrinsics emitted as vector intrinsics.
const VECTOR_INTRINSICS: &[&str] = &["llvm.fabs", "llvm.sqrt", "llvm.smin", "llvm.smax", "llvm.umin", "llvm.umax", "llvm.minnum", "llvm.maxnum", "llvm.fmuladd"];
/// Intrinsics without effect on the vector code.
pub(crate) const DROPPED: &[&str] = &["llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias.scope.decl", "llvm.pseudoprobe"];

impl<'a> Emitter<'a> {
    pub fn new(cx: &'a Cx, f: LLVMValueRef, r: &'a Region<'a>, variants: &'a HashMap<LLVMValueRef, Vec<Callee>>, keep_dbg: bool) -> Self {
        Emitter {
            cx,
            b: unsafe { LLVMCreateBuilderInContext(cx.ctx) },
            f,
            r,
            map: HashMap::new(),
            keep_dbg,
            variants,
            first: HashMap::new(),
            last: HashMap::new(),
            bmask: HashMap::new(),
            emask: HashMap::new(),
            loop_out: HashMap::new(),
            rets: Vec::new(),
            ends: Vec::new(),
            vector_calls: 0,
            lane_calls: 0,
            gathers: 0,
            boscc: 0,
            multiversioned: 0,
            aligned: Vec::new(),
            linearized: false,
        }
    }

    pub fn new_block(&self, name: &str) -> LLVMBasicBlockRef {
        let n = std::ffi::CString::new(name).unwrap_or_default();
        unsafe { LLVMAppendBasicBlockInContext(self.cx.ctx, self.f, n.as_ptr()) }
    }
    pub fn at_end(&self, bb: LLVMBasicBlockRef) {
        unsafe { LLVMPositionBuilderAtEnd(self.b, bb) }
    }
    pub fn cur(&self) -> LLVMBasicBlockRef {
        unsafe { LLVMGetInsertBlock(self.b) }
    }
    pub fn br(&self, to: LLVMBasicBlockRef) {
        unsafe { LLVMBuildBr(self.b, to) };
    }

    /// The block index of a scalar instruction (in the region's CFG).
    pub fn block_index(&self, i: LLVMValueRef) -> Option<usize> {
        self.r.cfg.index.get(&super::attrs::block_of(i)).copied()
    }

    /// The vector code's value of scalar operand `v` used in block `at`.
    pub fn operand(&self, v: LLVMValueRef, at: usize) -> R<VVal> {
        if let Some(&x) = self.map.get(&v) {
            // A value leaving a loop: its result vector.
            if self.linearized && unsafe { !LLVMIsAInstruction(v).is_null() } {
                if let Some(db) = self.block_index(v) {
                    let outer = self.r.nest.loops_of(db).into_iter().rev().find(|&k| !self.r.nest.contains(k, at));
                    if let Some(k) = outer {
                        return self.loop_out.get(&(k, v)).map(|&r| VVal::Vec(r)).ok_or_else(|| "internal: a loop's result vector is missing".into());
                    }
                }
            }
            return Ok(x);
        }
        let inside = unsafe { !LLVMIsAInstruction(v).is_null() } && self.block_index(v).is_some_and(|b| self.r.blocks[b]);
        if inside {
            return Err(format!("internal: '{}' used before its vector code", ir::value_name(v)));
        }
        Ok(VVal::Uni(v))
    }

    /// `x` as a `<lanes x T>` (T the scalar type).
    pub fn vector(&mut self, x: VVal, t: LLVMTypeRef) -> LLVMValueRef {
        let cx = self.cx;
        unsafe {
            match x {
                VVal::Vec(v) => v,
                VVal::Uni(s) if !LLVMIsAConstant(s).is_null() && LLVMIsAGlobalValue(s).is_null() => cx.splat_const(s),
                VVal::Uni(s) => {
                    let vt = cx.vty(t);
                    let ins = LLVMBuildInsertElement(self.b, LLVMGetPoison(vt), s, LLVMConstInt(cx.i32(), 0, 0), nm());
                    let zero = LLVMConstNull(cx.vty(cx.i32()));
                    LLVMBuildShuffleVector(self.b, ins, LLVMGetPoison(vt), zero, nm())
                }
                VVal::Lin { base, stride } => {
                    let bv = self.vector(VVal::Uni(base), t);
                    if LLVMGetTypeKind(t) == LLVMTypeKind::LLVMPointerTypeKind {
                        let i8t = LLVMInt8TypeInContext(cx.ctx);
                        let mut idx = [cx.steps(cx.i32(), stride)];
                        LLVMBuildGEP2(self.b, i8t, bv, idx.as_mut_ptr(), 1, nm())
                    } else {
                        LLVMBuildAdd(self.b, bv, cx.steps(t, stride), nm())
                    }
                }
            }
        }
    }

    /// Lane `k` of `x` as a scalar of type `t`.
    pub fn lane(&mut self, x: VVal, t: LLVMTypeRef, k: u32) -> LLVMValueRef {
        unsafe {
            match x {
                VVal::Uni(s) => s,
                VVal::Vec(v) => LLVMBuildExtractElement(self.b, v, LLVMConstInt(self.cx.i32(), k as u64, 0), nm()),
                VVal::Lin { base, stride } => self.offset(base, t, stride.wrapping_mul(k as i64)),
            }
        }
    }

    /// `base + off` (bytes for pointers).
    pub fn offset(&mut self, base: LLVMValueRef, t: LLVMTypeRef, off: i64) -> LLVMValueRef {
        unsafe {
            if LLVMGetTypeKind(t) == LLVMTypeKind::LLVMPointerTypeKind {
                let i8t = LLVMInt8TypeInContext(self.cx.ctx);
                let mut idx = [LLVMConstInt(self.cx.i32(), off as u64, 1)];
                LLVMBuildGEP2(self.b, i8t, base, idx.as_mut_ptr(), 1, nm())
            } else {
                LLVMBuildAdd(self.b, base, LLVMConstInt(t, off as u64, 1), nm())
            }
        }
    }

    fn set_loc(&self, i: LLVMValueRef) {
        unsafe {
            let loc = if self.keep_dbg { inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(i) } else { std::ptr::null_mut() };
            LLVMSetCurrentDebugLocation2(self.b, loc);
        }
    }

    /// A scalar copy of `i` with its operands replaced by `ops`.
    pub(super) fn clone_scalar(&mut self, i: LLVMValueRef, ops: &[LLVMValueRef]) -> LLVMValueRef {
        unsafe {
            let c = LLVMInstructionClone(i);
            for (k, &o) in ops.iter().enumerate() {
                LLVMSetOperand(c, k as u32, o);
            }
            if !self.keep_dbg {
                inkwell::llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(c, std::ptr::null_mut());
            }
            LLVMInsertIntoBuilder(self.b, c);
            c
        }
    }

    /// Emits the vector code of non-phi, non-terminator instruction `i` of block `bi` under mask `m`.
    pub fn inst(&mut self, i: LLVMValueRef, bi: usize, m: Mask) -> R<()> {
        self.set_loc(i);
        let op = ir::opcode(i);
        let n = unsafe { LLVMGetNumOperands(i) } as u32;
        let ty = unsafe { LLVMTypeOf(i) };
        let what = || format!("'{}'", ir::value_name(i));
        match op {
            O::LLVMLoad => return self.load(i, bi, m),
            O::LLVMStore => return self.store(i, bi, m),
            O::LLVMCall => return self.call(i, bi, m),
            O::LLVMAlloca => return Err("a local variable (alloca) in the vectorized code".into()),
            O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence => return Err("an atomic operation".into()),
            O::LLVMExtractValue | O::LLVMInsertValue | O::LLVMVAArg | O::LLVMInvoke | O::LLVMLandingPad => {
                return Err(format!("an unsupported operation ({op:?})"))
            }
            _ => {}
        }
        if op != O::LLVMGetElementPtr && ty != unsafe { LLVMVoidTypeInContext(self.cx.ctx) } && !scalar_ok(ty) {
            return Err(format!("a value of unsupported type ({})", what()));
        }
        let ops: Vec<VVal> = (0..n).map(|k| self.operand(unsafe { LLVMGetOperand(i, k) }, bi)).collect::<R<_>>()?;
        if let Some(v) = self.linear(i, op, &ops) {
            self.map.insert(i, v);
            return Ok(());
        }
        let divides = matches!(op, O::LLVMSDiv | O::LLVMUDiv | O::LLVMSRem | O::LLVMURem);
        if ops.iter().all(|o| matches!(o, VVal::Uni(_))) {
            let mut s: Vec<LLVMValueRef> = ops.iter().map(|o| if let VVal::Uni(s) = o { *s } else { unreachable!() }).collect();
            if divides && m != Mask::All {
                let any = mask::any(self.cx, self.b, m);
                s[1] = unsafe { LLVMBuildSelect(self.b, any, s[1], LLVMConstInt(ty, 1, 0), nm()) };
            }
            let c = self.clone_scalar(i, &s);
            self.map.insert(i, VVal::Uni(c));
            return Ok(());
        }
        let opty = |k: u32| unsafe { LLVMTypeOf(LLVMGetOperand(i, k)) };
        let mut vops: Vec<LLVMValueRef> = Vec::new();
        for (k, o) in ops.iter().enumerate() {
            let t = opty(k as u32);
            vops.push(if scalar_ok(t) { self.vector(*o, t) } else { std::ptr::null_mut() });
        }
        let b = self.b;
        let vt = self.cx.vty(ty);
        let v = unsafe {
            match op {
                O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl | O::LLVMLShr | O::LLVMAShr | O::LLVMAnd | O::LLVMOr | O::LLVMXor
                | O::LLVMFAdd | O::LLVMFSub | O::LLVMFMul | O::LLVMFDiv | O::LLVMFRem => LLVMBuildBinOp(b, op, vops[0], vops[1], nm()),
                O::LLVMSDiv | O::LLVMUDiv | O::LLVMSRem | O::LLVMURem => {
                    let mut d = vops[1];
                    if let Mask::V(mv) = m {
                        d = LLVMBuildSelect(b, mv, d, self.cx.splat_const(LLVMConstInt(ty, 1, 0)), nm());
                    }
                    LLVMBuildBinOp(b, op, vops[0], d, nm())
                }
                O::LLVMFNeg => LLVMBuildFNeg(b, vops[0], nm()),
                O::LLVMICmp => LLVMBuildICmp(b, LLVMGetICmpPredicate(i), vops[0], vops[1], nm()),
                O::LLVMFCmp => LLVMBuildFCmp(b, LLVMGetFCmpPredicate(i), vops[0], vops[1], nm()),
                O::LLVMSelect => LLVMBuildSelect(b, vops[0], vops[1], vops[2], nm()),
                O::LLVMFreeze => LLVMBuildFreeze(b, vops[0], nm()),
                O::LLVMTrunc | O::LLVMZExt | O::LLVMSExt | O::LLVMFPTrunc | O::LLVMFPExt | O::LLVMFPToUI | O::LLVMFPToSI
                | O::LLVMUIToFP | O::LLVMSIToFP | O::LLVMPtrToInt | O::LLVMIntToPtr | O::LLVMBitCast => {
                    if !scalar_ok(opty(0)) {
                        return Err(format!("a cast of an unsupported type ({})", what()));
                    }
                    LLVMBuildCast(b, op, vops[0], vt, nm())
                }
                O::LLVMGetElementPtr => {
                    let src = LLVMGetGEPSourceElementType(i);
                    let base = vops[0];
                    let mut idx: Vec<LLVMValueRef> = Vec::new();
                    for k in 1..n {
                        // Struct field indices stay constants.
                        match ops[k as usize] {
                            VVal::Uni(s) if !LLVMIsAConstantInt(s).is_null() && k > 1 => idx.push(s),
                            _ => idx.push(vops[k as usize]),
                        }
                    }
                    LLVMBuildGEP2(b, src, base, idx.as_mut_ptr(), idx.len() as u32, nm())
                }
                _ => return Err(format!("an unsupported operation ({op:?})")),
            }
        };
        self.map.insert(i, VVal::Vec(v));
        Ok(())
    }

    /// Consecutive results of consecutive operands (the `Linear` rules of `attrs::transfer`).
    fn linear(&mut self, i: LLVMValueRef, op: O, ops: &[VVal]) -> Option<VVal> {
        use VVal::*;
        let b = self.b;
        let cint = |v: LLVMValueRef| ir::const_u64(v).map(|x| x as i64);
        let ty = unsafe { LLVMTypeOf(i) };
        unsafe {
            match (op, ops) {
                (O::LLVMAdd, [Lin { base, stride }, Uni(u)]) | (O::LLVMAdd, [Uni(u), Lin { base, stride }]) => {
                    Some(Lin { base: LLVMBuildAdd(b, *base, *u, nm()), stride: *stride })
                }
                (O::LLVMAdd, [Lin { base: b1, stride: s1 }, Lin { base: b2, stride: s2 }]) => {
                    Some(Lin { base: LLVMBuildAdd(b, *b1, *b2, nm()), stride: s1 + s2 })
                }
                (O::LLVMSub, [Lin { base, stride }, Uni(u)]) => Some(Lin { base: LLVMBuildSub(b, *base, *u, nm()), stride: *stride }),
                (O::LLVMMul, [Lin { base, stride }, Uni(c)]) | (O::LLVMMul, [Uni(c), Lin { base, stride }]) => {
                    let k = cint(*c)?;
                    Some(Lin { base: LLVMBuildMul(b, *base, *c, nm()), stride: stride.wrapping_mul(k) })
                }
                (O::LLVMShl, [Lin { base, stride }, Uni(c)]) => {
                    let k = cint(*c).filter(|&k| k < 32)?;
                    Some(Lin { base: LLVMBuildShl(b, *base, *c, nm()), stride: stride << k })
                }
                (O::LLVMGetElementPtr, _) => {
                    let src = LLVMGetGEPSourceElementType(i);
                    let mut step = match ops[0] {
                        Uni(_) => 0,
                        Lin { stride, .. } => stride,
                        Vec(_) => return None,
                    };
                    let scales = super::attrs::gep_scales(self.cx.m, i);
                    for (k, o) in ops.iter().enumerate().skip(1) {
                        match (o, scales[k - 1]) {
                            (Uni(_), _) => {}
                            (Lin { stride, .. }, super::attrs::GepIndex::Scale(size)) => step = step.wrapping_add(stride.wrapping_mul(size)),
                            _ => return None,
                        }
                    }
                    if step == 0 {
                        return None;
                    }
                    let lane0: std::vec::Vec<LLVMValueRef> = ops.iter().map(|o| match o {
                        Uni(s) => *s,
                        Lin { base, .. } => *base,
                        Vec(_) => unreachable!(),
                    }).collect();
                    let mut idx = lane0[1..].to_vec();
                    let g = LLVMBuildGEP2(b, src, lane0[0], idx.as_mut_ptr(), idx.len() as u32, nm());
                    let _ = ty;
                    Some(Lin { base: g, stride: step })
                }
                _ => None,
            }
        }
    }

    /// Per-lane code: `f(lane)` for each lane in order, under `m` when
    /// `guard` (a branch per lane), collecting results of type `t` into a vector.
    pub fn per_lane(&mut self, m: Mask, guard: bool, t: Option<LLVMTypeRef>, f: &mut dyn FnMut(&mut Self, u32) -> R<Option<LLVMValueRef>>) -> R<Option<LLVMValueRef>> {
        let cx = self.cx;
        let vt = t.map(|t| cx.vty(t));
        let mut acc = vt.map(|vt| unsafe { LLVMGetPoison(vt) });
        for k in 0..cx.lanes {
            let idx = unsafe { LLVMConstInt(cx.i32(), k as u64, 0) };
            match (m, guard) {
                (Mask::V(mv), true) => {
                    let bit = unsafe { LLVMBuildExtractElement(self.b, mv, idx, nm()) };
                    let then = self.new_block("lane");
                    let next = self.new_block("lane.next");
                    let before = self.cur();
                    unsafe { LLVMBuildCondBr(self.b, bit, then, next) };
                    self.at_end(then);
                    let r = f(self, k)?;
                    let ins = match (acc, r) {
                        (Some(a), Some(r)) => Some(unsafe { LLVMBuildInsertElement(self.b, a, r, idx, nm()) }),
                        _ => None,
                    };
                    let then_end = self.cur();
                    self.br(next);
                    self.at_end(next);
                    if let (Some(a), Some(ins), Some(vt)) = (acc, ins, vt) {
                        let phi = unsafe { LLVMBuildPhi(self.b, vt, nm()) };
                        let mut vals = [a, ins];
                        let mut bbs = [before, then_end];
                        unsafe { LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2) };
                        acc = Some(phi);
                    }
                }
                _ => {
                    let r = f(self, k)?;
                    if let (Some(a), Some(r)) = (acc, r) {
                        acc = Some(unsafe { LLVMBuildInsertElement(self.b, a, r, idx, nm()) });
                    }
                }
            }
        }
        Ok(acc)
    }

    /// `sqrtf(x)` with varying `x`, in line: the vector square root (exactly
    /// the scalar one lane by lane: one IEEE operation), and C's domain error
    /// (C11 7.12.7.5: `errno = EDOM` for an operand below zero; a NaN is
    /// not) when any active lane has one, without a branch, so that a loop
    /// around it stays one block. Calling the variant instead would cost a
    /// call per vector and keep the loop from being pipelined.
    fn sqrtf(&mut self, i: LLVMValueRef, x: VVal, m: Mask) {
        let cx = self.cx;
        let fty = unsafe { LLVMTypeOf(i) };
        let x = self.vector(x, fty);
        let r = intrinsic(cx, self.b, "llvm.sqrt", &[cx.vty(fty)], &[x]);
        unsafe {
            let zero = LLVMConstNull(cx.vty(fty));
            let neg = LLVMBuildFCmp(self.b, inkwell::llvm_sys::LLVMRealPredicate::LLVMRealOLT, x, zero, nm());
            let neg = match m {
                Mask::All => neg,
                Mask::V(mv) => LLVMBuildAnd(self.b, neg, mv, nm()),
            };
            let any = mask::any(cx, self.b, Mask::V(neg));
            let i32t = cx.i32();
            let mut errno = LLVMGetNamedGlobal(cx.m, c"errno".as_ptr());
            if errno.is_null() {
                errno = LLVMAddGlobal(cx.m, i32t, c"errno".as_ptr());
            }
            let old = LLVMBuildLoad2(self.b, i32t, errno, nm());
            LLVMSetAlignment(old, 4);
            let new = LLVMBuildSelect(self.b, any, LLVMConstInt(i32t, EDOM, 0), old, nm());
            let st = LLVMBuildStore(self.b, new, errno);
            LLVMSetAlignment(st, 4);
        }
        self.map.insert(i, VVal::Vec(r));
    }

    fn call(&mut self, i: LLVMValueRef, bi: usize, m: Mask) -> R<()> {
        let name = unsafe { ir::value_name(LLVMGetCalledValue(i)) };
        if DROPPED.iter().any(|p| name.starts_with(p)) {
            return Ok(());
        }
        let nargs = unsafe { LLVMGetNumArgOperands(i) };
        let args: Vec<LLVMValueRef> = (0..nargs).map(|k| unsafe { LLVMGetOperand(i, k) }).collect();
        let ops: Vec<VVal> = args.iter().map(|&a| self.operand(a, bi)).collect::<R<_>>()?;
        let ty = unsafe { LLVMTypeOf(i) };
        let void = unsafe { LLVMGetTypeKind(ty) } == LLVMTypeKind::LLVMVoidTypeKind;
        if !void && !scalar_ok(ty) {
            return Err(format!("a call returning an unsupported type ('{name}')"));
        }
        let pure = is_pure_call(i);
        let callee = unsafe { LLVMGetCalledValue(i) };
        if pure && ops.iter().all(|o| matches!(o, VVal::Uni(_))) {
            let s: Vec<LLVMValueRef> = ops.iter().map(|o| if let VVal::Uni(s) = o { *s } else { unreachable!() }).collect();
            let c = self.clone_scalar(i, &s);
            self.map.insert(i, VVal::Uni(c));
            return Ok(());
        }
        if !pure && !void && ops.iter().all(|o| matches!(o, VVal::Uni(_))) && is_c_math(callee, &name) {
            // Every active instance would make the same call and get the same
            // result and errno: one call, when any instance is active.
            let s: Vec<LLVMValueRef> = ops.iter().map(|o| if let VVal::Uni(s) = o { *s } else { unreachable!() }).collect();
            let c = if m == Mask::All {
                self.clone_scalar(i, &s)
            } else {
                let any = mask::any(self.cx, self.b, m);
                let (before, then, next) = (self.cur(), self.new_block("ucall"), self.new_block("ucall.next"));
                unsafe { LLVMBuildCondBr(self.b, any, then, next) };
                self.at_end(then);
                let c = self.clone_scalar(i, &s);
                self.br(next);
                self.at_end(next);
                unsafe {
                    let phi = LLVMBuildPhi(self.b, ty, nm());
                    let mut vals = [LLVMGetPoison(ty), c];
                    let mut bbs = [before, then];
                    LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2);
                    phi
                }
            };
            self.map.insert(i, VVal::Uni(c));
            return Ok(());
        }
        if !void && name == "sqrtf" && args.len() == 1 && is_c_math(callee, &name) {
            self.sqrtf(i, ops[0], m);
            return Ok(());
        }
        if let Some(v) = self.variant_call(callee, &args, &ops, ty, void, m)? {
            self.vector_calls += 1;
            if let Some(v) = v {
                self.map.insert(i, VVal::Vec(v));
            }
            return Ok(());
        }
        let base = name.rsplit_once('.').map(|(b, _)| b).unwrap_or(&name);
        let widened = VECTOR_INTRINSICS.contains(&base) || (base == "llvm.fma" && name.ends_with(".f32") && self.cx.vector_fma);
        if pure && !void && widened && args.iter().all(|&a| scalar_ok(unsafe { LLVMTypeOf(a) })) {
            let v: Vec<LLVMValueRef> = ops.iter().zip(&args).map(|(o, &a)| self.vector(*o, unsafe { LLVMTypeOf(a) })).collect();
            let r = intrinsic(self.cx, self.b, base, &[self.cx.vty(ty)], &v);
            self.map.insert(i, VVal::Vec(r));
            return Ok(());
        }
        if args.iter().any(|&a| !scalar_ok(unsafe { LLVMTypeOf(a) })) {
            return Err(format!("a call to '{name}' with an argument of unsupported type"));
        }
        // Nonvectorizable: once per active lane.
        self.lane_calls += 1;
        let fty = unsafe { LLVMGetCalledFunctionType(i) };
        let arg_tys: Vec<LLVMTypeRef> = args.iter().map(|&a| unsafe { LLVMTypeOf(a) }).collect();
        let r = self.per_lane(m, !pure, (!void).then_some(ty), &mut |e, k| {
            let mut a: Vec<LLVMValueRef> = ops.iter().zip(&arg_tys).map(|(o, &t)| e.lane(*o, t, k)).collect();
            let c = unsafe { LLVMBuildCall2(e.b, fty, callee, a.as_mut_ptr(), a.len() as u32, nm()) };
            // The original call's convention (an internal callee may be
            // `fastcc`: a call of another convention is undefined).
            unsafe { LLVMSetInstructionCallConv(c, LLVMGetInstructionCallConv(i)) };
            Ok((!void).then_some(c))
        })?;
        if let Some(r) = r {
            self.map.insert(i, VVal::Vec(r));
        }
        Ok(())
    }

    /// A call of a vector variant of `callee`, if one fits the arguments and the mask.
    /// `Ok(Some(result))` when called (`result` `None` for void).
    pub fn variant_call(&mut self, callee: LLVMValueRef, args: &[LLVMValueRef], ops: &[VVal], ty: LLVMTypeRef, void: bool, m: Mask) -> R<Option<Option<LLVMValueRef>>> {
        let Some(cands) = self.variants.get(&callee) else { return Ok(None) };
        let fits = |c: &Callee| -> bool {
            if m != Mask::All && !c.masked {
                return false;
            }
            ops.iter().enumerate().all(|(k, o)| {
                let k = k as u32;
                if c.decl.uniform.contains(&k) {
                    return matches!(o, VVal::Uni(_));
                }
                if let Some(l) = c.decl.linear.iter().find(|l| l.arg == k) {
                    return matches!((o, l.step), (VVal::Lin { stride, .. }, Step::Const(s)) if *stride == s);
                }
                true
            })
        };
        // Unmasked when every lane is active, else masked.
        let Some(c) = cands.iter().filter(|c| fits(c)).min_by_key(|c| c.masked) else { return Ok(None) };
        let c = c.clone();
        let mut a = Vec::new();
        for (k, (o, &arg)) in ops.iter().zip(args).enumerate() {
            let k = k as u32;
            a.push(match *o {
                VVal::Uni(s) if c.decl.uniform.contains(&k) => s,
                VVal::Lin { base, .. } if c.decl.linear.iter().any(|l| l.arg == k) => base,
                x => self.vector(x, unsafe { LLVMTypeOf(arg) }),
            });
        }
        if c.masked {
            a.push(mask::to_arg(self.cx, self.b, m));
        }
        let fty = unsafe { LLVMGlobalGetValueType(c.func) };
        let call = unsafe { LLVMBuildCall2(self.b, fty, c.func, a.as_mut_ptr(), a.len() as u32, nm()) };
        unsafe { LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(c.func)) };
        let _ = ty;
        Ok(Some((!void).then_some(call)))
    }
}

impl Drop for Emitter<'_> {
    fn drop(&mut self) {
        unsafe { LLVMDisposeBuilder(self.b) }
    }
}

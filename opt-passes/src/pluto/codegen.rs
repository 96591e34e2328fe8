//! Code generation: the polyhedral core's loop AST ([`dsp_pluto::ast::Ast`],
//! seed 002's transformed and tiled program) back to LLVM IR, the way
//! Polly's `IslNodeBuilder` and `BlockGenerator` do it:
//!
//! - the new loop nest is built in fresh blocks; each `for` is a guard
//!   (`lower ≤ upper`), a preheader, a header with the counter's phi and
//!   the canonical bottom test `t + 1 != upper + 1` (the guard made
//!   `lower ≤ upper`; no wrap: the bounds are those of the program's own
//!   loops; `!=` stays as it is through instcombine, which the innermost-loop
//!   vectorizers expect);
//!   bounds are exact: `max`/`min` over `ceil`/`floor` divisions of affine
//!   expressions by positive constants (signed division corrected by the
//!   remainder's sign), alternatives combined by `min`/`max`;
//! - guards (`if`) test `aff ≥ 0`, `aff = 0` and divisibility (`srem`);
//! - a statement instance computes its original iterators from the AST's
//!   expressions (exact divisions: the guards made them so), maps each
//!   loop's induction variable (`start + step × count` for steps other than
//!   ±1) and secondary inductions to them, and clones the statement's block
//!   (one statement is one block) with every operand remapped; values the
//!   block takes from other blocks of the region (address arithmetic in a
//!   preheader, a loop's start) are recomputed from their definitions,
//!   pure integer arithmetic only (Polly's "synthesizable" values). Cloned
//!   instructions keep their debug locations.
//!
//! Guards that do not depend on a loop are taken out of it first
//! ([`super::unswitch`]), so that inner loops stay single blocks.
//!
//! Counters have the type of the SCoP's widest induction variable
//! (parameters are sign-extended or truncated to it, as detection assumes
//! no wrapping). Anything unexpected is an error; the caller then deletes
//! the blocks made so far ([`discard`]) and the IR is as it was.

use std::collections::{HashMap, HashSet};
use std::ffi::CString;

use dsp_pluto::ast::{Ast, Cond, LoopBound, Term};

use super::unswitch::{self, G};
use dsp_pluto::poly::Aff;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;
use inkwell::llvm_sys::LLVMOpcode as O;

use crate::ir;
use crate::scop::Scop;

/// The new code: its first block (to branch to from the region's entry)
/// and every block made.
pub struct Generated {
    pub start: LLVMBasicBlockRef,
    pub blocks: Vec<LLVMBasicBlockRef>,
}

struct Gen<'a> {
    scop: &'a Scop,
    ctx: LLVMContextRef,
    f: LLVMValueRef,
    b: LLVMBuilderRef,
    /// The counters' type.
    ty: LLVMTypeRef,
    /// The parameters, in `ty`.
    params: Vec<LLVMValueRef>,
    /// The loop variables in scope.
    vars: Vec<Option<LLVMValueRef>>,
    blocks: Vec<LLVMBasicBlockRef>,
    region: HashSet<LLVMBasicBlockRef>,
    /// Debug location of the control flow made (the region's first instruction's).
    loc: LLVMMetadataRef,
}

type Res<T> = Result<T, String>;

/// Generates `ast` for `scop` in new blocks of `f`, ending in a branch to
/// the region's exit. Nothing outside the new blocks is changed.
pub fn generate(f: LLVMValueRef, scop: &Scop, ast: &Ast) -> Res<Generated> {
    let exit = scop.exit_block.ok_or("the region ends in a return")?;
    let ty = counter_type(scop)?;
    let first = unsafe { LLVMGetFirstInstruction(scop.entry_block) };
    let ctx = unsafe { LLVMGetTypeContext(ty) };
    let b = unsafe { LLVMCreateBuilderInContext(ctx) };
    let loc = if first.is_null() { std::ptr::null_mut() } else { unsafe { LLVMInstructionGetDebugLoc(first) } };
    let mut g = Gen { scop, ctx, f, b, ty, params: Vec::new(), vars: vec![None; ast.n_loops], blocks: Vec::new(), region: scop.blocks.iter().copied().collect(), loc };
    let r = g.run(ast, exit);
    unsafe { LLVMDisposeBuilder(b) };
    match r {
        Ok(start) => Ok(Generated { start, blocks: g.blocks }),
        Err(e) => {
            discard(&g.blocks);
            Err(e)
        }
    }
}

/// The run-time alias check at builder `b` ([`super::alias`]): for every
/// may-alias pair of `scop`, the byte ranges `ranges` gives are disjoint.
pub fn alias_condition(f: LLVMValueRef, scop: &Scop, ranges: &[super::alias::ArrayRange], b: LLVMBuilderRef) -> Res<LLVMValueRef> {
    let ctx = unsafe { LLVMGetTypeContext(LLVMTypeOf(f)) };
    let ty = unsafe { LLVMInt64TypeInContext(ctx) };
    let mut g = Gen { scop, ctx, f, b, ty, params: Vec::new(), vars: Vec::new(), blocks: Vec::new(), region: scop.blocks.iter().copied().collect(), loc: std::ptr::null_mut() };
    for p in &scop.params {
        if int_width(p.value).is_none() {
            return Err(format!("parameter {} is not an integer", p.name));
        }
        let v = g.cast(p.value, ty);
        g.params.push(v);
    }
    // Per array: [start, end) in bytes.
    let mut span = std::collections::HashMap::new();
    for r in ranges {
        let arr = &scop.arrays[r.array];
        let lo = g.bound(&LoopBound { alternatives: r.accesses.iter().map(|a| a.lo.clone()).collect() }, false)?;
        let hi = g.bound(&LoopBound { alternatives: r.accesses.iter().map(|a| a.hi.clone()).collect() }, true)?;
        unsafe {
            let base = LLVMBuildPtrToInt(b, arr.base, ty, c"".as_ptr());
            let size = g.cst(arr.elem_size as i64);
            let start = LLVMBuildAdd(b, base, LLVMBuildMul(b, lo, size, c"".as_ptr()), c"".as_ptr());
            let end = LLVMBuildAdd(b, base, LLVMBuildMul(b, LLVMBuildAdd(b, hi, g.cst(1), c"".as_ptr()), size, c"".as_ptr()), c"".as_ptr());
            span.insert(r.array, (start, end));
        }
    }
    let mut all: Option<LLVMValueRef> = None;
    for &(x, y) in &scop.may_alias {
        let (&(sx, ex), &(sy, ey)) = (span.get(&x).ok_or("no range")?, span.get(&y).ok_or("no range")?);
        unsafe {
            let before = LLVMBuildICmp(b, P::LLVMIntULE, ex, sy, c"".as_ptr());
            let after = LLVMBuildICmp(b, P::LLVMIntULE, ey, sx, c"".as_ptr());
            let ok = LLVMBuildOr(b, before, after, c"".as_ptr());
            all = Some(match all {
                None => ok,
                Some(a) => LLVMBuildAnd(b, a, ok, c"".as_ptr()),
            });
        }
    }
    all.ok_or_else(|| "no may-alias pair".to_string())
}

/// Deletes blocks made by [`generate`] (their instructions first: they use each other).
pub fn discard(blocks: &[LLVMBasicBlockRef]) {
    unsafe {
        for &bb in blocks {
            for i in ir::instructions(bb).into_iter().rev() {
                if !LLVMGetFirstUse(i).is_null() {
                    LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
                }
                LLVMInstructionEraseFromParent(i);
            }
        }
        for &bb in blocks {
            LLVMDeleteBasicBlock(bb);
        }
    }
}

/// The widest induction variable's type.
fn counter_type(scop: &Scop) -> Res<LLVMTypeRef> {
    let mut best: Option<(u32, LLVMTypeRef)> = None;
    for l in &scop.loops {
        let t = unsafe { LLVMTypeOf(l.iv) };
        if unsafe { LLVMGetTypeKind(t) } != inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind {
            return Err("an induction variable is not an integer".into());
        }
        let w = unsafe { LLVMGetIntTypeWidth(t) };
        if best.is_none_or(|(bw, _)| w > bw) {
            best = Some((w, t));
        }
    }
    best.map(|b| b.1).ok_or_else(|| "a SCoP without loops".to_string())
}

fn int_width(v: LLVMValueRef) -> Option<u32> {
    let t = unsafe { LLVMTypeOf(v) };
    (unsafe { LLVMGetTypeKind(t) } == inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind).then(|| unsafe { LLVMGetIntTypeWidth(t) })
}

impl Gen<'_> {
    fn block(&mut self, name: &str) -> LLVMBasicBlockRef {
        let n = CString::new(name).unwrap_or_default();
        let bb = unsafe { LLVMAppendBasicBlockInContext(self.ctx, self.f, n.as_ptr()) };
        self.blocks.push(bb);
        bb
    }

    fn at_end(&self, bb: LLVMBasicBlockRef) {
        unsafe {
            LLVMPositionBuilderAtEnd(self.b, bb);
            LLVMSetCurrentDebugLocation2(self.b, self.loc);
        }
    }

    fn current(&self) -> LLVMBasicBlockRef {
        unsafe { LLVMGetInsertBlock(self.b) }
    }

    fn run(&mut self, ast: &Ast, exit: LLVMBasicBlockRef) -> Res<LLVMBasicBlockRef> {
        let start = self.block("pluto.start");
        self.at_end(start);
        for p in &self.scop.params {
            if int_width(p.value).is_none() {
                return Err(format!("parameter {} is not an integer", p.name));
            }
            let v = self.cast(p.value, self.ty);
            self.params.push(v);
        }
        if self.params.len() != ast.n_params {
            return Err("the AST's parameters are not the SCoP's".into());
        }
        let body = unswitch::lower(&ast.body);
        self.nodes(&body)?;
        unsafe { LLVMBuildBr(self.b, exit) };
        Ok(start)
    }

    /// `v` sign-extended or truncated to `ty`.
    fn cast(&self, v: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        let (from, to) = unsafe { (LLVMGetIntTypeWidth(LLVMTypeOf(v)), LLVMGetIntTypeWidth(ty)) };
        unsafe {
            if from < to {
                LLVMBuildSExt(self.b, v, ty, c"".as_ptr())
            } else if from > to {
                LLVMBuildTrunc(self.b, v, ty, c"".as_ptr())
            } else {
                v
            }
        }
    }

    fn cst(&self, k: i64) -> LLVMValueRef {
        unsafe { LLVMConstInt(self.ty, k as u64, 1) }
    }

    /// An affine expression over (loop variables, parameters).
    fn aff(&self, a: &Aff) -> Res<LLVMValueRef> {
        let nl = self.vars.len();
        let mut acc: Option<LLVMValueRef> = None;
        for (k, &c) in a.coeffs.iter().enumerate().filter(|(_, c)| **c != 0) {
            let x = if k < nl { self.vars[k].ok_or_else(|| format!("loop variable t{k} used outside its loop"))? } else { *self.params.get(k - nl).ok_or("parameter out of range")? };
            let term = unsafe {
                match c {
                    1 => x,
                    -1 => LLVMBuildNeg(self.b, x, c"".as_ptr()),
                    _ => LLVMBuildMul(self.b, x, self.cst(c), c"".as_ptr()),
                }
            };
            acc = Some(match acc {
                None => term,
                Some(s) => unsafe { LLVMBuildAdd(self.b, s, term, c"".as_ptr()) },
            });
        }
        Ok(match acc {
            None => self.cst(a.constant),
            Some(s) if a.constant == 0 => s,
            Some(s) => unsafe { LLVMBuildAdd(self.b, s, self.cst(a.constant), c"".as_ptr()) },
        })
    }

    /// `floor(aff / div)` (`upper`) or `ceil(aff / div)`, `div > 0`.
    fn term(&self, t: &Term, upper: bool) -> Res<LLVMValueRef> {
        if t.div <= 0 {
            return Err(format!("division by {}", t.div));
        }
        let a = self.aff(&t.aff)?;
        if t.div == 1 {
            return Ok(a);
        }
        unsafe {
            let d = self.cst(t.div);
            let q = LLVMBuildSDiv(self.b, a, d, c"".as_ptr());
            let r = LLVMBuildSRem(self.b, a, d, c"".as_ptr());
            // Truncating division: floor is one less for a negative remainder, ceil one more for a positive one.
            let (p, adj) = if upper { (P::LLVMIntSLT, -1) } else { (P::LLVMIntSGT, 1) };
            let c = LLVMBuildICmp(self.b, p, r, self.cst(0), c"".as_ptr());
            let q2 = LLVMBuildAdd(self.b, q, self.cst(adj), c"".as_ptr());
            Ok(LLVMBuildSelect(self.b, c, q2, q, c"".as_ptr()))
        }
    }

    fn pick(&self, a: LLVMValueRef, b: LLVMValueRef, max: bool) -> LLVMValueRef {
        unsafe {
            let c = LLVMBuildICmp(self.b, if max { P::LLVMIntSGT } else { P::LLVMIntSLT }, a, b, c"".as_ptr());
            LLVMBuildSelect(self.b, c, a, b, c"".as_ptr())
        }
    }

    /// A lower bound (`min` over alternatives of `max` of `ceil`s) or an
    /// upper one (`max` of `min` of `floor`s).
    fn bound(&self, b: &LoopBound, upper: bool) -> Res<LLVMValueRef> {
        let mut best = None;
        for alt in &b.alternatives {
            let mut v = None;
            for t in alt {
                let x = self.term(t, upper)?;
                v = Some(match v {
                    None => x,
                    Some(c) => self.pick(c, x, !upper),
                });
            }
            let v = v.ok_or("an empty bound alternative")?;
            best = Some(match best {
                None => v,
                Some(c) => self.pick(c, v, upper),
            });
        }
        best.ok_or_else(|| "a bound without alternatives".to_string())
    }

    fn cond(&self, c: &Cond) -> Res<LLVMValueRef> {
        unsafe {
            Ok(match c {
                Cond::Ge(a) => LLVMBuildICmp(self.b, P::LLVMIntSGE, self.aff(a)?, self.cst(0), c"".as_ptr()),
                Cond::Eq(a) => LLVMBuildICmp(self.b, P::LLVMIntEQ, self.aff(a)?, self.cst(0), c"".as_ptr()),
                Cond::Divisible(a, k) if *k > 0 => {
                    let r = LLVMBuildSRem(self.b, self.aff(a)?, self.cst(*k), c"".as_ptr());
                    LLVMBuildICmp(self.b, P::LLVMIntEQ, r, self.cst(0), c"".as_ptr())
                }
                Cond::Divisible(_, k) => return Err(format!("divisibility by {k}")),
            })
        }
    }

    fn nodes(&mut self, nodes: &[G]) -> Res<()> {
        for n in nodes {
            match n {
                G::For { var, lower, upper, body } => self.for_loop(*var, lower, upper, body)?,
                G::If { conds, then_, else_ } => {
                    let mut c: Option<LLVMValueRef> = None;
                    for x in conds {
                        let v = self.cond(x)?;
                        c = Some(match c {
                            None => v,
                            Some(p) => unsafe { LLVMBuildAnd(self.b, p, v, c"".as_ptr()) },
                        });
                    }
                    let Some(c) = c else {
                        self.nodes(then_)?;
                        continue;
                    };
                    let (tb, eb, after) = (self.block("pluto.then"), (!else_.is_empty()).then(|| self.block("pluto.else")), self.block("pluto.endif"));
                    unsafe { LLVMBuildCondBr(self.b, c, tb, eb.unwrap_or(after)) };
                    self.at_end(tb);
                    self.nodes(then_)?;
                    unsafe { LLVMBuildBr(self.b, after) };
                    if let Some(eb) = eb {
                        self.at_end(eb);
                        self.nodes(else_)?;
                        unsafe { LLVMBuildBr(self.b, after) };
                    }
                    self.at_end(after);
                }
                G::Stmt { stmt, iters } => self.statement(*stmt, iters)?,
            }
        }
        Ok(())
    }

    fn for_loop(&mut self, var: usize, lower: &LoopBound, upper: &LoopBound, body: &[G]) -> Res<()> {
        if var >= self.vars.len() || self.vars[var].is_some() {
            return Err(format!("loop variable t{var} out of range or nested in itself"));
        }
        let lb = self.bound(lower, false)?;
        let ub = self.bound(upper, true)?;
        let (pre, header, after) = (self.block("pluto.preheader"), self.block("pluto.loop"), self.block("pluto.exit"));
        unsafe {
            let guard = LLVMBuildICmp(self.b, P::LLVMIntSLE, lb, ub, c"".as_ptr());
            // The canonical bottom test `t + 1 < ub + 1` (no wrap: `ub` is a bound of the program's own loops).
            let end = LLVMBuildNSWAdd(self.b, ub, self.cst(1), c"".as_ptr());
            LLVMBuildCondBr(self.b, guard, pre, after);
            self.at_end(pre);
            LLVMBuildBr(self.b, header);
            self.at_end(header);
            let name = CString::new(format!("t{var}")).unwrap_or_default();
            let phi = LLVMBuildPhi(self.b, self.ty, name.as_ptr());
            ir::add_incoming(phi, &[(lb, pre)]);
            self.vars[var] = Some(phi);
            self.nodes(body)?;
            self.vars[var] = None;
            let latch = self.current();
            let next = LLVMBuildNSWAdd(self.b, phi, self.cst(1), c"".as_ptr());
            let more = LLVMBuildICmp(self.b, P::LLVMIntNE, next, end, c"".as_ptr());
            let br = LLVMBuildCondBr(self.b, more, header, after);
            ir::add_incoming(phi, &[(next, latch)]);
            // A loop around loops is never unrolled: a point loop whose tile
            // size divides its extent has a constant trip count, and LLVM's
            // full unroll would turn the loops inside into copies that
            // neither the vectorizers nor the pipeliner take whole
            // (measured on syrk's 16-row k tiles: 8% more cycles).
            if body.iter().any(unswitch::has_loop) {
                ir::add_loop_property(br, "llvm.loop.unroll.disable", None);
            }
        }
        self.at_end(after);
        Ok(())
    }

    /// One instance of statement `stmt`, its iterators `aff / div`.
    fn statement(&mut self, stmt: usize, iters: &[Term]) -> Res<()> {
        let scop = self.scop;
        let st = scop.stmts.get(stmt).ok_or("unknown statement")?;
        if iters.len() != st.loops.len() {
            return Err(format!("{}: {} iterators for {} loops", st.name, iters.len(), st.loops.len()));
        }
        let mut map: HashMap<usize, LLVMValueRef> = HashMap::new();
        for (k, &l) in st.loops.iter().enumerate() {
            let t = &iters[k];
            let mut x = self.aff(&t.aff)?;
            if t.div != 1 {
                // Exact (guarded): truncating division is floor division here.
                x = unsafe { LLVMBuildSDiv(self.b, x, self.cst(t.div), c"".as_ptr()) };
            }
            let lp = &scop.loops[l];
            let unit = lp.step.abs() == 1;
            let need_start = !unit || !lp.secondary.is_empty();
            let start = if need_start { Some(self.value(lp.start, &mut map).map(|s| self.cast(s, self.ty))?) } else { None };
            let (var, count) = unsafe {
                match start {
                    None => (x, None),
                    Some(s) if unit => {
                        let d = LLVMBuildSub(self.b, x, s, c"".as_ptr());
                        (x, Some(if lp.step == 1 { d } else { LLVMBuildNeg(self.b, d, c"".as_ptr()) }))
                    }
                    Some(s) => (LLVMBuildAdd(self.b, s, LLVMBuildMul(self.b, x, self.cst(lp.step), c"".as_ptr()), c"".as_ptr()), Some(x)),
                }
            };
            map.insert(lp.iv as usize, self.cast(var, unsafe { LLVMTypeOf(lp.iv) }));
            for &(phi, st2, k2) in &lp.secondary {
                let s2 = self.value(st2, &mut map)?;
                let s2 = self.cast(s2, self.ty);
                let count = count.ok_or("secondary induction without a count")?;
                let v = unsafe { LLVMBuildAdd(self.b, s2, LLVMBuildMul(self.b, count, self.cst(k2), c"".as_ptr()), c"".as_ptr()) };
                map.insert(phi as usize, self.cast(v, unsafe { LLVMTypeOf(phi) }));
            }
        }
        for i in ir::instructions(st.bb) {
            if map.contains_key(&(i as usize)) || !unsafe { LLVMIsATerminatorInst(i) }.is_null() {
                continue;
            }
            if ir::called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.dbg.")) {
                continue;
            }
            if ir::opcode(i) == O::LLVMPHI {
                let v = self.value(i, &mut map)?;
                map.insert(i as usize, v);
                continue;
            }
            let c = self.clone_inst(i, &mut map)?;
            map.insert(i as usize, c);
        }
        Ok(())
    }

    /// A clone of `i` at the builder, operands remapped, debug location kept.
    fn clone_inst(&mut self, i: LLVMValueRef, map: &mut HashMap<usize, LLVMValueRef>) -> Res<LLVMValueRef> {
        let n = unsafe { LLVMGetNumOperands(i) };
        let mut ops = Vec::new();
        for k in 0..n {
            let op = unsafe { LLVMGetOperand(i, k as u32) };
            ops.push(self.value(op, map)?);
        }
        unsafe {
            let c = LLVMInstructionClone(i);
            for (k, &op) in ops.iter().enumerate() {
                if op != LLVMGetOperand(c, k as u32) {
                    LLVMSetOperand(c, k as u32, op);
                }
            }
            let loc = LLVMInstructionGetDebugLoc(i);
            LLVMInsertIntoBuilderWithName(self.b, c, c"".as_ptr());
            LLVMInstructionSetDebugLoc(c, loc);
            Ok(c)
        }
    }

    /// The value `v` has in the current statement instance: mapped, from
    /// outside the region (as it is), or recomputed from its definition in
    /// another block of the region (pure integer and address arithmetic).
    fn value(&mut self, v: LLVMValueRef, map: &mut HashMap<usize, LLVMValueRef>) -> Res<LLVMValueRef> {
        if let Some(&n) = map.get(&(v as usize)) {
            return Ok(n);
        }
        if unsafe { LLVMIsAInstruction(v) }.is_null() {
            return Ok(v);
        }
        let bb = unsafe { LLVMGetInstructionParent(v) };
        if !self.region.contains(&bb) {
            return Ok(v);
        }
        let op = ir::opcode(v);
        if op == O::LLVMPHI {
            // One incoming value (an LCSSA phi, or all the same): that value.
            let n = unsafe { LLVMCountIncoming(v) };
            let first = (n > 0).then(|| unsafe { LLVMGetIncomingValue(v, 0) });
            if let Some(x) = first.filter(|&x| (0..n).all(|k| unsafe { LLVMGetIncomingValue(v, k) } == x)) {
                let r = self.value(x, map)?;
                map.insert(v as usize, r);
                return Ok(r);
            }
            return Err(format!("{} is a phi of the region that is no induction variable of the statement's loops", ir::value_name(v)));
        }
        let pure = matches!(
            op,
            O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl | O::LLVMLShr | O::LLVMAShr | O::LLVMAnd | O::LLVMOr | O::LLVMXor
                | O::LLVMTrunc | O::LLVMZExt | O::LLVMSExt | O::LLVMGetElementPtr | O::LLVMICmp | O::LLVMSelect | O::LLVMPtrToInt | O::LLVMIntToPtr | O::LLVMBitCast
        );
        if !pure {
            return Err(format!("{} is computed in another block of the region and cannot be recomputed", ir::value_name(v)));
        }
        let c = self.clone_inst(v, map)?;
        map.insert(v as usize, c);
        Ok(c)
    }
}

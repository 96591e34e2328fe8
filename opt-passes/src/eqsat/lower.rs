//! Lowering an extracted DSL program back to IR (issue 11: IR that selects
//! onto the `.isa`'s instructions one to one): a vector loop runs `copies`
//! iterations of the lifted loop per step (`lanes` times the interleave
//! factor) — its body the program, its
//! address classes pointers computed from the counter and the inductions,
//! its carried values scalar phis — and the original loop, kept, runs the
//! iterations that remain (or none: then the exit is taken directly, its
//! phis given the vector loop's results). With a masked tail the original
//! loop is left unreachable: the iterations that remain (fewer than
//! `copies`) run as `copies / lanes` masked steps of the one-vector
//! program, in one block, each with its own lanes of what is left; integer
//! sums kept in vector accumulators go on adding into them there and are
//! reduced once, after the tail.

use std::collections::HashMap;

use dsp_egg_isel::lang::{Elem, VecLang};
use egg::{Id, RecExpr};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;

use super::lift::{ArgSrc, Lifted, Output};
use crate::ir;
use crate::wfv::vloop::Shape;
use crate::wfv::widen::nm;

type R<T> = Result<T, String>;

mod address;
mod strip_step;
mod tail;
pub(crate) use strip_step::{full_strip_ok, rewrite_strip, strip_ok};
pub(crate) use tail::{tail_ok, Narrow};

/// Whether the loop's values reach beyond it only as the exit's phis of
/// carried values (what [`rewrite`] can give results for); checked before
/// anything changes.
pub(crate) fn check(sh: &Shape, body: LLVMBasicBlockRef, lifted: &Lifted) -> R<()> {
    unsafe {
        let incoming = |p: LLVMValueRef, from: LLVMBasicBlockRef| {
            (0..LLVMCountIncoming(p)).find(|&j| LLVMGetIncomingBlock(p, j) == from).map(|j| LLVMGetIncomingValue(p, j))
        };
        let carried: Vec<LLVMValueRef> = lifted.args.iter().filter_map(|a| if let ArgSrc::Carried(p) = a.1 { Some(p) } else { None }).collect();
        for i in ir::instructions(body) {
            for u in ir::users(i) {
                if LLVMGetInstructionParent(u) == body {
                    continue;
                }
                // An exit phi's value, or (the exit reached only from the
                // loop) any use after it: it gets an exit phi of its own.
                let phi_use = LLVMGetInstructionParent(u) == sh.exit && ir::opcode(u) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI;
                let only_exit = single_pred(sh.exit);
                let ok = (phi_use || only_exit) && carried.iter().any(|&p| incoming(p, body) == Some(i));
                if !ok {
                    return Err(format!("'{}', computed in the loop, is used after it", ir::value_name(i)));
                }
            }
        }
        for phi in ir::instructions(sh.exit).into_iter().filter(|&i| ir::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI) {
            let v = incoming(phi, body).ok_or("an exit phi without a value from the loop")?;
            if !carried.iter().any(|&p| incoming(p, body) == Some(v)) {
                return Err("the exit block takes a value other than a carried one from the loop".into());
            }
        }
    }
    Ok(())
}

/// The machine's strided vector accesses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Strided {
    pub load: bool,
    pub store: bool,
}

/// Emits the vector loop for `lifted` (program `prog`) in front of the loop
/// of shape `sh` in function `f` (after [`check`]); with `tail`, the
/// one-vector program (see [`tail_ok`]; `lifted`'s own when it is not
/// interleaved), the iterations left run as masked steps of it and the
/// original loop is left unreachable.
pub(crate) fn rewrite(f: LLVMValueRef, sh: &Shape, body: LLVMBasicBlockRef, lifted: &Lifted, prog: &RecExpr<VecLang>, tail: Option<Narrow>, strided: Strided) -> R<()> {
    let Strided { load: strided_load, store: strided_store } = strided;
    if let Some((nl, np)) = tail {
        if !tail_ok(nl, np) || lifted.copies % nl.lanes != 0 || nl.lanes != lifted.lanes {
            return Err("internal: a masked tail for a program that cannot have one".into());
        }
    }
    let lanes = lifted.lanes as i64;
    unsafe {
        let m = LLVMGetGlobalParent(f);
        let ctx = LLVMGetModuleContext(m);
        let b = LLVMCreateBuilderInContext(ctx);
        let ity = sh.ity;
        let c = |v: i64| LLVMConstInt(ity, v as u64, 1);
        let Types { i32t, et, vt, pty } = Types::of(m, lifted);
        let block = |name: &str| {
            let n = std::ffi::CString::new(name).unwrap();
            LLVMAppendBasicBlockInContext(ctx, f, n.as_ptr())
        };
        let (check, vloop, mid, rest_ph) = (block("egg.check"), block("egg.vloop"), block("egg.mid"), block("egg.rest.ph"));
        let loc = inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(body));
        LLVMSetCurrentDebugLocation2(b, loc);
        let pre = LLVMGetInstructionParent(sh.pre_term);
        let incoming = |p: LLVMValueRef, from: LLVMBasicBlockRef| {
            (0..LLVMCountIncoming(p)).find(|&j| LLVMGetIncomingBlock(p, j) == from).map(|j| LLVMGetIncomingValue(p, j))
        };
        // check: any vector step?
        LLVMPositionBuilderAtEnd(b, check);
        let tc = sh.trip_count(b);
        // Whole steps of `copies` iterations.
        let copies = lifted.copies as i64;
        let vtc = if copies & (copies - 1) == 0 {
            LLVMBuildAnd(b, tc, c(-copies), nm())
        } else {
            LLVMBuildSub(b, tc, LLVMBuildURem(b, tc, c(copies), nm()), nm())
        };
        let em = Emitter { m, b, et, vt, i32t, pty, lanes, float: lifted.elem == Elem::F32, strided_load, strided_store, lifted, prog };
        // Classes that may overlap: no vector step unless a step's byte
        // ranges are disjoint (the pointers' distance, at the first step, is
        // that of every step), checked only when there is a step to make.
        // Without a masked tail (and no narrower vector loop to come, which
        // needs the original loop's single preheader), no vector step means
        // the original loop straight away: the short trip counts of an FFT's
        // first stages pay nothing more. Otherwise through mid.
        let straight = tail.is_none() && lifted.copies == lifted.lanes;
        let skip_to = if straight { body } else { mid };
        let some = LLVMBuildICmp(b, P::LLVMIntNE, vtc, c(0), nm());
        let enter = if lifted.disjoint.is_empty() {
            LLVMBuildCondBr(b, some, vloop, skip_to);
            check
        } else {
            let overlap = block("egg.overlap");
            LLVMBuildCondBr(b, some, overlap, skip_to);
            LLVMPositionBuilderAtEnd(b, overlap);
            let mut ind0: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
            for i in &lifted.inductions {
                ind0.insert(i.phi, incoming(i.phi, pre).ok_or("internal: an induction without a start")?);
            }
            let k = |v: i64| LLVMConstInt(pty, v as u64, 1);
            let mut ok = LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0);
            for d in &lifted.disjoint {
                let dist = em.distance(d.a, d.b, sh.start, sh.iv, &ind0);
                let above = LLVMBuildICmp(b, P::LLVMIntSGE, dist, k(d.hi_a - d.lo_b), nm());
                let below = LLVMBuildICmp(b, P::LLVMIntSLE, dist, k(d.lo_a - d.hi_b), nm());
                ok = LLVMBuildAnd(b, ok, LLVMBuildOr(b, above, below, nm()), nm());
            }
            LLVMBuildCondBr(b, ok, vloop, skip_to);
            overlap
        };
        // The ways around the vector loop: into mid (with the steps made),
        // or into the original loop.
        let around: Vec<(LLVMBasicBlockRef, LLVMValueRef)> = if enter == check { vec![(check, vtc)] } else { vec![(check, vtc), (enter, c(0))] };
        let (skips, direct) = if straight { (Vec::new(), around) } else { (around, Vec::new()) };
        // the vector loop
        LLVMPositionBuilderAtEnd(b, vloop);
        let k = LLVMBuildPhi(b, ity, nm());
        let mut carried: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        let mut starts: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (_, src) in &lifted.args {
            if let ArgSrc::Carried(p) = *src {
                let start = incoming(p, pre).ok_or("internal: a carried value without a start")?;
                carried.insert(p, LLVMBuildPhi(b, LLVMTypeOf(p), nm()));
                starts.insert(p, start);
            }
        }
        // Maps are read in these orders (the program's), never iterated:
        // the same code on every run.
        let carried_order: Vec<LLVMValueRef> = lifted.args.iter().filter_map(|a| if let ArgSrc::Carried(p) = a.1 { Some(p) } else { None }).collect();
        let ind_order: Vec<LLVMValueRef> = lifted.inductions.iter().map(|i| i.phi).collect();
        let mut ind: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for i in &lifted.inductions {
            ind.insert(i.phi, LLVMBuildPhi(b, LLVMTypeOf(i.phi), nm()));
            starts.insert(i.phi, incoming(i.phi, pre).ok_or("internal: an induction without a start")?);
        }
        // Integer sums `s + ReduceAdd(x)` carried from step to step keep a
        // vector accumulator instead (reassociation is exact on wrapping
        // integers): one vector add per step, one reduction after the loop.
        // With an interleave factor, a sum `((s + ReduceAdd(x1)) + …) +
        // ReduceAdd(xU)` keeps one accumulator per vector.
        let accumulated = vector_accumulators(lifted, prog);
        let mut acc_phi: HashMap<(LLVMValueRef, usize), LLVMValueRef> = HashMap::new();
        for &(p, _, _, k) in &accumulated {
            acc_phi.insert((p, k), LLVMBuildPhi(b, vt, nm()));
        }
        let iv0 = LLVMBuildAdd(b, sh.start, k, nm());
        let ptrs = em.pointers(iv0, sh.iv, &ind);
        let (val, acc_next_of) = em.program(&ptrs, &carried, None, Some(&(accumulated.clone(), acc_phi.clone())))?;
        let next = em.outputs(&val, &ptrs, None)?;
        let k1 = LLVMBuildAdd(b, k, c(copies), nm());
        let mut ind_next: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for i in &lifted.inductions {
            let p = ind[&i.phi];
            ind_next.insert(i.phi, LLVMBuildAdd(b, p, LLVMConstInt(LLVMTypeOf(p), (i.step * copies) as u64, 1), nm()));
        }
        let more = LLVMBuildICmp(b, P::LLVMIntNE, k1, vtc, nm());
        let latch = LLVMBuildCondBr(b, more, vloop, mid);
        if lifted.independent {
            // Its steps are iterations of an independent loop: so are they.
            crate::interchange::mark_independent(latch);
        }
        ir::add_incoming(k, &[(c(0), enter), (k1, vloop)]);
        for p in &carried_order {
            ir::add_incoming(carried[p], &[(starts[p], enter), (*next.get(p).ok_or("internal: a carried value without its next")?, vloop)]);
        }
        for p in &ind_order {
            ir::add_incoming(ind[p], &[(starts[p], enter), (ind_next[p], vloop)]);
        }
        for (key, &phi) in &acc_phi {
            ir::add_incoming(phi, &[(LLVMConstNull(vt), enter), (acc_next_of[key], vloop)]);
        }
        // mid: the results, then done or the rest in the original loop.
        LLVMPositionBuilderAtEnd(b, mid);
        // The iterations the vector loop made (none when it did not run).
        let made = LLVMBuildPhi(b, ity, nm());
        for &(from, v) in &skips {
            ir::add_incoming(made, &[(v, from)]);
        }
        ir::add_incoming(made, &[(vtc, vloop)]);
        let mut result: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for &p in &carried_order {
            let r = LLVMBuildPhi(b, LLVMTypeOf(p), nm());
            for &(from, _) in &skips {
                ir::add_incoming(r, &[(starts[&p], from)]);
            }
            ir::add_incoming(r, &[(next[&p], vloop)]);
            result.insert(p, r);
        }
        // (All phis first.)
        for &p in &ind_order {
            let r = LLVMBuildPhi(b, LLVMTypeOf(p), nm());
            for &(from, _) in &skips {
                ir::add_incoming(r, &[(starts[&p], from)]);
            }
            ir::add_incoming(r, &[(ind_next[&p], vloop)]);
            result.insert(p, r);
        }
        // Each sum's accumulators added up, then reduced once.
        let mut keys: Vec<(LLVMValueRef, usize)> = acc_phi.keys().copied().collect();
        keys.sort_by_key(|&(p, k)| (carried_order.iter().position(|&q| q == p), k));
        let mut total: Vec<(LLVMValueRef, LLVMValueRef)> = Vec::new();
        let mut acc_out = Vec::new();
        for key in keys {
            let a = LLVMBuildPhi(b, vt, nm());
            for &(from, _) in &skips {
                ir::add_incoming(a, &[(LLVMConstNull(vt), from)]);
            }
            ir::add_incoming(a, &[(acc_next_of[&key], vloop)]);
            acc_out.push((key, a));
        }
        for (key, a) in acc_out {
            match total.iter_mut().find(|t| t.0 == key.0) {
                Some(t) => t.1 = LLVMBuildAdd(b, t.1, a, nm()),
                None => total.push((key.0, a)),
            }
        }
        // Sums the masked tail keeps accumulating stay vectors until after it.
        let tail_acc = tail.map(|(nl, np)| vector_accumulators(nl, np)).unwrap_or_default();
        let mut vec_total: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (p, a) in total {
            if tail_acc.iter().any(|t| t.0 == p) {
                vec_total.insert(p, a);
                continue;
            }
            let red = em.intrinsic("llvm.vector.reduce.add", &[vt], &[a]);
            let r = LLVMBuildAdd(b, result[&p], red, nm());
            result.insert(p, r);
        }
        let rest_start = LLVMBuildAdd(b, sh.start, made, nm());
        let done = LLVMBuildICmp(b, P::LLVMIntEQ, made, tc, nm());
        // The masked tail: the narrow program's steps over what is left
        // (fewer than `copies` iterations; lanes below the iterations left
        // are active), then the sums reduced once.
        let mut tail_next: Option<(LLVMBasicBlockRef, HashMap<LLVMValueRef, LLVMValueRef>)> = None;
        if let Some((nl, np)) = tail {
            let em_n = Emitter { lifted: nl, prog: np, ..em };
            let join = block("egg.join");
            let tb = block("egg.tail");
            let left = LLVMBuildSub(b, tc, made, nm());
            LLVMBuildCondBr(b, done, join, tb);
            // From mid: the results, and the accumulators the tail goes on with.
            let from_mid: HashMap<LLVMValueRef, LLVMValueRef> = carried_order.iter().map(|&p| (p, result[&p])).collect();
            let acc_keys: Vec<LLVMValueRef> = carried_order.iter().copied().filter(|p| tail_acc.iter().any(|t| t.0 == *p)).collect();
            let acc_mid: HashMap<LLVMValueRef, LLVMValueRef> = acc_keys.iter().map(|&p| (p, vec_total.get(&p).copied().unwrap_or(LLVMConstNull(vt)))).collect();
            LLVMPositionBuilderAtEnd(b, tb);
            let (mut scalars, mut accs) = (from_mid.clone(), acc_mid.clone());
            let ind_at: HashMap<LLVMValueRef, LLVMValueRef> = nl.inductions.iter().map(|i| (i.phi, result[&i.phi])).collect();
            let at = tail::TailAt { left, start: rest_start, iv: sh.iv, ind: &ind_at };
            em_n.masked_steps(lifted.copies / nl.lanes, &at, &tail_acc, &carried_order, &mut scalars, &mut accs)?;
            LLVMBuildBr(b, join);
            // join: each value from mid or from the tail; the sums reduced.
            LLVMPositionBuilderAtEnd(b, join);
            let both = |ty: LLVMTypeRef, m: LLVMValueRef, t: LLVMValueRef| {
                let phi = LLVMBuildPhi(b, ty, nm());
                ir::add_incoming(phi, &[(m, mid), (t, tb)]);
                phi
            };
            let mut fin: HashMap<LLVMValueRef, LLVMValueRef> = carried_order.iter().map(|&p| (p, both(LLVMTypeOf(p), from_mid[&p], scalars[&p]))).collect();
            // (All phis first.)
            let acc_fin: Vec<(LLVMValueRef, LLVMValueRef)> = acc_keys.iter().map(|&p| (p, both(vt, acc_mid[&p], accs[&p]))).collect();
            for (p, a) in acc_fin {
                let red = em.intrinsic("llvm.vector.reduce.add", &[vt], &[a]);
                fin.insert(p, LLVMBuildAdd(b, fin[&p], red, nm()));
            }
            LLVMBuildBr(b, sh.exit);
            tail_next = Some((join, fin));
        } else {
            LLVMBuildCondBr(b, done, sh.exit, rest_ph);
        }
        // Values used after the loop other than by the exit's phis: an exit phi of their own.
        for &p in &carried_order {
            let Some(v) = incoming(p, body) else { continue };
            let outside: Vec<LLVMValueRef> = ir::users(v).into_iter().filter(|&u| LLVMGetInstructionParent(u) != body && !(LLVMGetInstructionParent(u) == sh.exit && ir::opcode(u) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI)).collect();
            if outside.is_empty() {
                continue;
            }
            let first = LLVMGetFirstInstruction(sh.exit);
            LLVMPositionBuilderBefore(b, first);
            let ephi = LLVMBuildPhi(b, LLVMTypeOf(v), nm());
            ir::add_incoming(ephi, &[(v, body)]);
            for u in outside {
                for k in 0..LLVMGetNumOperands(u) as u32 {
                    if LLVMGetOperand(u, k) == v {
                        LLVMSetOperand(u, k, ephi);
                    }
                }
            }
        }
        // The exit's phis, from mid: the carried values' results.
        for phi in ir::instructions(sh.exit).into_iter().filter(|&i| ir::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI) {
            let v = incoming(phi, body).ok_or("an exit phi without a value from the loop")?;
            let p = *carried.keys().find(|&&p| incoming(p, body) == Some(v)).ok_or("a value computed in the loop other than a carried one is used after it")?;
            match &tail_next {
                Some((join, fin)) => ir::add_incoming(phi, &[(fin[&p], *join)]),
                None => ir::add_incoming(phi, &[(result[&p], mid)]),
            }
        }
        LLVMPositionBuilderAtEnd(b, rest_ph);
        LLVMBuildBr(b, body);
        // The original loop starts where the vector loop stopped.
        LLVMSetSuccessor(sh.pre_term, 0, check);
        let mut starts_rest: Vec<(LLVMValueRef, LLVMValueRef)> = vec![(sh.iv, rest_start)];
        for p in carried_order.iter().chain(&ind_order) {
            starts_rest.push((*p, result[p]));
        }
        for (p, s) in starts_rest {
            let latch_v = incoming(p, body).ok_or("internal: a header phi without its latch value")?;
            LLVMPositionBuilderBefore(b, p);
            let np = LLVMBuildPhi(b, LLVMTypeOf(p), nm());
            ir::add_incoming(np, &[(s, rest_ph), (latch_v, body)]);
            let start = if p == sh.iv { sh.start } else { *starts.get(&p).ok_or("internal: a header phi without its start")? };
            for &(from, _) in &direct {
                ir::add_incoming(np, &[(start, from)]);
            }
            LLVMReplaceAllUsesWith(p, np);
            // The vector loop's copies referred to `p` only through the maps above.
            LLVMInstructionEraseFromParent(p);
        }
        LLVMDisposeBuilder(b);
    }
    Ok(())
}

/// The types a lowering uses: `i32`, the element and its vector, and the
/// pointer-sized integer.
struct Types {
    i32t: LLVMTypeRef,
    et: LLVMTypeRef,
    vt: LLVMTypeRef,
    pty: LLVMTypeRef,
}

impl Types {
    unsafe fn of(m: LLVMModuleRef, lifted: &Lifted) -> Types {
        let ctx = LLVMGetModuleContext(m);
        let i32t = LLVMInt32TypeInContext(ctx);
        let et = match lifted.elem {
            Elem::I32 => i32t,
            Elem::F32 => LLVMFloatTypeInContext(ctx),
        };
        let vt = LLVMVectorType(et, lifted.lanes as u32);
        let dl = inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m);
        let pty = inkwell::llvm_sys::target::LLVMIntPtrTypeInContext(ctx, dl);
        Types { i32t, et, vt, pty }
    }
}

/// What the program's emission needs: the builder, the types and the program.
struct Emitter<'a> {
    m: LLVMModuleRef,
    b: LLVMBuilderRef,
    et: LLVMTypeRef,
    vt: LLVMTypeRef,
    i32t: LLVMTypeRef,
    pty: LLVMTypeRef,
    lanes: i64,
    float: bool,
    /// The machine has a strided vector load (else strided arrays gather).
    strided_load: bool,
    /// The machine has a strided vector store (else stores lane by lane).
    strided_store: bool,
    lifted: &'a Lifted,
    prog: &'a RecExpr<VecLang>,
}

/// The accumulated sums ([`vector_accumulators`]) and their phis.
type Accumulators = (Vec<(LLVMValueRef, usize, Id, usize)>, HashMap<(LLVMValueRef, usize), LLVMValueRef>);

impl Emitter<'_> {
    fn splat(&self, x: LLVMValueRef) -> LLVMValueRef {
        unsafe {
            let ins = LLVMBuildInsertElement(self.b, LLVMGetPoison(self.vt), x, LLVMConstInt(self.i32t, 0, 0), nm());
            LLVMBuildShuffleVector(self.b, ins, LLVMGetPoison(self.vt), LLVMConstNull(LLVMVectorType(self.i32t, self.lanes as u32)), nm())
        }
    }

    fn intrinsic(&self, name: &str, tys: &[LLVMTypeRef], args: &[LLVMValueRef]) -> LLVMValueRef {
        ir::build_intrinsic(self.m, self.b, name, tys, args).expect("an intrinsic LLVM 19 has")
    }

    /// The identity of a sum across lanes: `-0.0` for floats (exact in
    /// any order, whatever the other terms), 0 for integers.
    fn zero(&self) -> LLVMValueRef {
        unsafe {
            if self.float {
                self.splat(LLVMConstReal(self.et, -0.0))
            } else {
                LLVMConstNull(self.vt)
            }
        }
    }

    /// Emits the program: each node's value. `carried` gives the carried
    /// inputs; with `mask` (the masked tail) vector loads are masked and
    /// what is summed across lanes is the identity in inactive lanes; with
    /// `acc`, the accumulated sums add into their vector accumulators
    /// (returned: the next accumulators).
    fn program(
        &self,
        ptrs: &[LLVMValueRef],
        carried: &HashMap<LLVMValueRef, LLVMValueRef>,
        mask: Option<LLVMValueRef>,
        acc: Option<&Accumulators>,
    ) -> R<(Vec<LLVMValueRef>, HashMap<(LLVMValueRef, usize), LLVMValueRef>)> {
        let (b, prog, lifted, et, vt, i32t, float) = (self.b, self.prog, self.lifted, self.et, self.vt, self.i32t, self.float);
        let mut val: Vec<LLVMValueRef> = Vec::with_capacity(prog.len());
        // Integer vectors known to be 0 in the lanes `mask` leaves off: a
        // masked load's (its pass-through is 0), products with one, sums of
        // two. What is summed from them needs no select. (Not floats: 0
        // times an infinity is a NaN.)
        let mut zero_off: Vec<bool> = Vec::with_capacity(prog.len());
        let mut acc_next_of: HashMap<(LLVMValueRef, usize), LLVMValueRef> = HashMap::new();
        let num = |id: Id| match &prog[id] {
            VecLang::Num(n) => Ok(*n),
            _ => Err("internal: a constant expected".to_string()),
        };
        let sym = |id: Id| match &prog[id] {
            VecLang::Symbol(s) => Ok(*s),
            _ => Err("internal: a name expected".to_string()),
        };
        let fma = |t: LLVMTypeRef, a: LLVMValueRef, x: LLVMValueRef, y: LLVMValueRef| self.intrinsic("llvm.fma", &[t], &[a, x, y]);
        // Inactive lanes summed as the identity.
        let active = |x: LLVMValueRef| match mask {
            Some(mk) => unsafe { LLVMBuildSelect(b, mk, x, self.zero(), nm()) },
            None => x,
        };
        unsafe {
            for (_, n) in prog.items() {
                let v = |id: Id| val[usize::from(id)];
                let class_ptr = |id: Id| -> R<LLVMValueRef> {
                    let s = sym(id)?;
                    let k = lifted.classes.iter().position(|c| c.name == s).ok_or("internal: an unknown array")?;
                    Ok(ptrs[k])
                };
                // Element `i` of an array: `i` elements on, or `i` strides.
            let at = |id: Id, i: Id| -> R<LLVMValueRef> {
                    let s = sym(id)?;
                    let stride = lifted.classes.iter().find(|c| c.name == s).and_then(|c| c.stride);
                    let k = LLVMConstInt(i32t, num(i)? as u64, 1);
                    let mut idx = [match stride {
                        Some(st) => LLVMBuildMul(b, k, LLVMBuildIntCast2(b, st, i32t, 1, nm()), nm()),
                        None => k,
                    }];
                    Ok(LLVMBuildGEP2(b, et, class_ptr(id)?, idx.as_mut_ptr(), 1, nm()))
                };
                let bin = |op: u8, x: LLVMValueRef, y: LLVMValueRef| match (op, float) {
                    (0, false) => LLVMBuildAdd(b, x, y, nm()),
                    (0, true) => LLVMBuildFAdd(b, x, y, nm()),
                    (1, false) => LLVMBuildSub(b, x, y, nm()),
                    (1, true) => LLVMBuildFSub(b, x, y, nm()),
                    (_, false) => LLVMBuildMul(b, x, y, nm()),
                    (_, true) => LLVMBuildFMul(b, x, y, nm()),
                };
                let index = val.len();
                if let Some((accumulated, acc_phi)) = acc {
                    if let Some(&(p, _, x, k)) = accumulated.iter().find(|a| a.1 == index) {
                        let x_off = if zero_off[usize::from(x)] { v(x) } else { active(v(x)) };
                        let sum = LLVMBuildAdd(b, acc_phi[&(p, k)], x_off, nm());
                        acc_next_of.insert((p, k), sum);
                        // The scalar sum is unchanged inside the loop.
                        val.push(carried[&p]);
                        zero_off.push(false);
                        continue;
                    }
                }
                let out = match n {
                    VecLang::Num(x) => {
                        if float {
                            LLVMConstReal(et, f32::from_bits(*x as u32) as f64)
                        } else {
                            LLVMConstInt(et, *x as u32 as u64, 0)
                        }
                    }
                    VecLang::Symbol(_) | VecLang::List(_) => std::ptr::null_mut(),
                    VecLang::Arg(s) => {
                        let s = sym(*s)?;
                        match lifted.args.iter().find(|a| a.0 == s).map(|a| a.1) {
                            Some(ArgSrc::Invariant(x)) => x,
                            Some(ArgSrc::Carried(p)) => carried[&p],
                            None => return Err("internal: an unknown input".into()),
                        }
                    }
                    VecLang::Get([a, i]) => {
                        let l = LLVMBuildLoad2(b, et, at(*a, *i)?, nm());
                        LLVMSetAlignment(l, 4);
                        l
                    }
                    VecLang::VecLoadS([a, i]) if self.strided_load && mask.is_none() => {
                    // Elements i + lane, `stride` elements apart: the
                    // machine's strided load (`stride` × 4 bytes).
                    let s = sym(*a)?;
                    let cl = lifted.classes.iter().position(|c| c.name == s).ok_or("internal: an unknown array")?;
                    let stride = lifted.classes[cl].stride.ok_or("internal: a strided load of a consecutive array")?;
                    let bytes = LLVMBuildMul(b, LLVMBuildIntCast2(b, stride, i32t, 1, nm()), LLVMConstInt(i32t, 4, 0), nm());
                    let one = LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(et)), 1, 0);
                    let mut ones: Vec<LLVMValueRef> = vec![one; self.lanes as usize];
                    let all = LLVMConstVector(ones.as_mut_ptr(), self.lanes as u32);
                    let p = at(*a, *i)?;
                    self.intrinsic("llvm.experimental.vp.strided.load", &[vt, LLVMTypeOf(p), i32t], &[p, bytes, all, LLVMConstInt(i32t, self.lanes as u64, 0)])
                }
                VecLang::VecLoadS([a, i]) => {
                    // Elements i + lane, `stride` elements apart: a gather.
                    let s = sym(*a)?;
                    let cl = lifted.classes.iter().position(|c| c.name == s).ok_or("internal: an unknown array")?;
                    let stride = lifted.classes[cl].stride.ok_or("internal: a strided load of a consecutive array")?;
                    let stride = LLVMBuildIntCast2(b, stride, i32t, 1, nm());
                    let first = num(*i)?;
                    let mut lanes_k: Vec<LLVMValueRef> = (0..self.lanes).map(|l| LLVMConstInt(i32t, (first + l) as u64, 1)).collect();
                    let ks = LLVMConstVector(lanes_k.as_mut_ptr(), self.lanes as u32);
                    let iv32 = LLVMVectorType(i32t, self.lanes as u32);
                    let ins = LLVMBuildInsertElement(b, LLVMGetPoison(iv32), stride, LLVMConstInt(i32t, 0, 0), nm());
                    let sv = LLVMBuildShuffleVector(b, ins, LLVMGetPoison(iv32), LLVMConstNull(iv32), nm());
                    let mut idx = [LLVMBuildMul(b, ks, sv, nm())];
                    let addrs = LLVMBuildGEP2(b, et, class_ptr(*a)?, idx.as_mut_ptr(), 1, nm());
                    let all = match mask {
                        Some(mk) => mk,
                        None => {
                            let one = LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(et)), 1, 0);
                            let mut ones: Vec<LLVMValueRef> = vec![one; self.lanes as usize];
                            LLVMConstVector(ones.as_mut_ptr(), self.lanes as u32)
                        }
                    };
                    self.intrinsic("llvm.masked.gather", &[vt, LLVMTypeOf(addrs)], &[addrs, LLVMConstInt(i32t, 4, 0), all, LLVMGetPoison(vt)])
                }
                VecLang::VecLoad([a, i]) => match mask {
                        Some(mk) => {
                            let ptr = at(*a, *i)?;
                            let pass = if float { LLVMGetPoison(vt) } else { LLVMConstNull(vt) };
                            self.intrinsic("llvm.masked.load", &[vt, LLVMTypeOf(ptr)], &[ptr, LLVMConstInt(i32t, 4, 0), mk, pass])
                        }
                        None => {
                            let l = LLVMBuildLoad2(b, vt, at(*a, *i)?, nm());
                            LLVMSetAlignment(l, 4);
                            l
                        }
                    },
                    VecLang::Shuffle(xs) => {
                        // Lane k is lane idx[k] of the source: one
                        // shufflevector with a constant mask (the machine's
                        // permute; the isel loads the mask as a constant).
                        let (src, idx) = xs.split_first().ok_or("internal: a shuffle without a vector")?;
                        let mut mask: Vec<LLVMValueRef> = idx.iter().map(|&k| num(k).map(|k| LLVMConstInt(i32t, k.rem_euclid(self.lanes) as u64, 0))).collect::<Result<_, _>>()?;
                        LLVMBuildShuffleVector(b, v(*src), LLVMGetPoison(vt), LLVMConstVector(mask.as_mut_ptr(), mask.len() as u32), nm())
                    }
                    VecLang::And([x, y]) | VecLang::VecAnd([x, y]) => LLVMBuildAnd(b, v(*x), v(*y), nm()),
                VecLang::Or([x, y]) | VecLang::VecOr([x, y]) => LLVMBuildOr(b, v(*x), v(*y), nm()),
                VecLang::Xor([x, y]) | VecLang::VecXor([x, y]) => LLVMBuildXor(b, v(*x), v(*y), nm()),
                // Shift amounts as lifted: 32 or more was poison in the
                // source already (the DSL reads them modulo 32, as the machine).
                VecLang::Shl([x, y]) => LLVMBuildShl(b, v(*x), v(*y), nm()),
                VecLang::AShr([x, y]) => LLVMBuildAShr(b, v(*x), v(*y), nm()),
                VecLang::LShr([x, y]) => LLVMBuildLShr(b, v(*x), v(*y), nm()),
                VecLang::VecShlS([x, s]) => LLVMBuildShl(b, v(*x), self.splat(v(*s)), nm()),
                VecLang::VecAShrS([x, s]) => LLVMBuildAShr(b, v(*x), self.splat(v(*s)), nm()),
                VecLang::VecLShrS([x, s]) => LLVMBuildLShr(b, v(*x), self.splat(v(*s)), nm()),
                VecLang::Add([x, y]) | VecLang::VecAdd([x, y]) => bin(0, v(*x), v(*y)),
                    VecLang::Sub([x, y]) | VecLang::VecSub([x, y]) => bin(1, v(*x), v(*y)),
                    VecLang::Mul([x, y]) | VecLang::VecMul([x, y]) => bin(2, v(*x), v(*y)),
                    VecLang::Neg(x) | VecLang::VecNeg(x) => {
                        if float {
                            LLVMBuildFNeg(b, v(*x), nm())
                        } else {
                            LLVMBuildNeg(b, v(*x), nm())
                        }
                    }
                    VecLang::Mac([x, y, z]) if float => fma(et, v(*x), v(*y), v(*z)),
                    VecLang::VecMac([x, y, z]) if float => fma(vt, v(*x), v(*y), v(*z)),
                    VecLang::Mac([x, y, z]) | VecLang::VecMac([x, y, z]) => bin(0, bin(2, v(*x), v(*y)), v(*z)),
                    VecLang::VecAddS([x, s]) => bin(0, v(*x), self.splat(v(*s))),
                    VecLang::VecMulS([x, s]) => bin(2, v(*x), self.splat(v(*s))),
                    VecLang::VecMacS([x, s, z]) if float => fma(vt, v(*x), self.splat(v(*s)), v(*z)),
                    VecLang::VecMacS([x, s, z]) => bin(0, bin(2, v(*x), self.splat(v(*s))), v(*z)),
                    VecLang::Broadcast(s) => self.splat(v(*s)),
                    VecLang::Insert([x, s, l]) => LLVMBuildInsertElement(b, v(*x), v(*s), LLVMConstInt(i32t, num(*l)? as u64, 0), nm()),
                    VecLang::Extract([x, l]) => LLVMBuildExtractElement(b, v(*x), LLVMConstInt(i32t, num(*l)? as u64, 0), nm()),
                    VecLang::Vec(es) => {
                        let mut acc = LLVMGetPoison(vt);
                        for (l, &e) in es.iter().enumerate() {
                            acc = LLVMBuildInsertElement(b, acc, v(e), LLVMConstInt(i32t, l as u64, 0), nm());
                        }
                        acc
                    }
                    VecLang::ReduceAdd(x) => {
                        if float {
                            // Ordered (no reassociation), from -0.0: the lanes in lane order.
                            self.intrinsic("llvm.vector.reduce.fadd", &[vt], &[LLVMConstReal(et, -0.0), active(v(*x))])
                        } else {
                            self.intrinsic("llvm.vector.reduce.add", &[vt], &[if zero_off[usize::from(*x)] { v(*x) } else { active(v(*x)) }])
                        }
                    }
                };
                let z = |id: &Id| zero_off[usize::from(*id)];
                let off = mask.is_some()
                    && !float
                    && match n {
                        VecLang::VecLoad(_) => true,
                        VecLang::VecMul([x, y]) => z(x) || z(y),
                        VecLang::VecMulS([x, _]) => z(x),
                        VecLang::VecAdd([x, y]) | VecLang::VecSub([x, y]) => z(x) && z(y),
                        VecLang::VecMac([x, y, c]) => (z(x) || z(y)) && z(c),
                        VecLang::VecMacS([x, _, c]) => z(x) && z(c),
                        VecLang::VecNeg(x) => z(x),
                        _ => false,
                    };
                zero_off.push(off);
                val.push(out);
            }
        }
        Ok((val, acc_next_of))
    }

    /// Stores vector `x` at `p`, lane `l` `l × stride` elements on (`stride`
    /// an `i32`): the
    /// machine's strided store, or (without one) lane by lane.
    unsafe fn strided_store(&self, x: LLVMValueRef, p: LLVMValueRef, stride: LLVMValueRef) {
        let b = self.b;
        if self.strided_store {
            let bytes = LLVMBuildMul(b, stride, LLVMConstInt(self.i32t, 4, 0), nm());
            let all = LLVMConstAllOnes(LLVMVectorType(LLVMInt1TypeInContext(LLVMGetTypeContext(self.i32t)), self.lanes as u32));
            self.intrinsic("llvm.experimental.vp.strided.store", &[self.vt, LLVMTypeOf(p), self.i32t], &[x, p, bytes, all, LLVMConstInt(self.i32t, self.lanes as u64, 0)]);
            return;
        }
        for l in 0..self.lanes {
            let e = LLVMBuildExtractElement(b, x, LLVMConstInt(self.i32t, l as u64, 0), nm());
            let mut idx = [LLVMBuildMul(b, LLVMConstInt(self.i32t, l as u64, 0), stride, nm())];
            let q = LLVMBuildGEP2(b, self.et, p, idx.as_mut_ptr(), 1, nm());
            let st = LLVMBuildStore(b, e, q);
            LLVMSetAlignment(st, 4);
        }
    }

    /// Stores the program's stored outputs (masked with `mask`); the carried
    /// values' next values.
    fn outputs(&self, val: &[LLVMValueRef], ptrs: &[LLVMValueRef], mask: Option<LLVMValueRef>) -> R<HashMap<LLVMValueRef, LLVMValueRef>> {
        let b = self.b;
        let root = self.prog.as_ref().last().ok_or("internal: an empty program")?;
        let VecLang::List(outs) = root else { return Err("internal: the program is not a list".into()) };
        let mut next: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (o, &id) in self.lifted.outputs.iter().zip(outs.iter()) {
            match o {
                Output::Store { class, off, vector } => unsafe {
                    // A strided class's element `off` is `off` strides on.
                    let stride = self.lifted.classes[*class].stride.map(|st| LLVMBuildIntCast2(b, st, self.i32t, 1, nm()));
                    let k = LLVMConstInt(self.i32t, *off as u64, 1);
                    let mut idx = [match stride {
                        Some(st) => LLVMBuildMul(b, k, st, nm()),
                        None => k,
                    }];
                    let p = LLVMBuildGEP2(b, self.et, ptrs[*class], idx.as_mut_ptr(), 1, nm());
                    let x = val[usize::from(id)];
                    if let (true, Some(st)) = (*vector, stride) {
                        if mask.is_some() {
                            return Err("internal: a strided store in a masked tail".into());
                        }
                        self.strided_store(x, p, st);
                        continue;
                    }
                    match mask {
                        Some(mk) if *vector => {
                            self.intrinsic("llvm.masked.store", &[self.vt, LLVMTypeOf(p)], &[x, p, LLVMConstInt(self.i32t, 4, 0), mk]);
                        }
                        Some(_) => return Err("internal: a scalar store in a masked tail".into()),
                        None => {
                            let st = LLVMBuildStore(b, x, p);
                            LLVMSetAlignment(st, 4);
                        }
                    }
                },
                Output::Carried(p) => {
                    next.insert(*p, val[usize::from(id)]);
                }
            }
        }
        Ok(next)
    }
}


/// The integer carried values whose program output is a chain of sums
/// `((s + ReduceAdd(x1)) + …) + ReduceAdd(xU)` (each sum in either order),
/// `s` its `(arg s)`, with every sum and `(arg s)` used only by the chain:
/// `(carried value, the sum's node index, xk, k)` for each sum, k from 0 at
/// the innermost.
pub(crate) fn vector_accumulators(lifted: &Lifted, prog: &RecExpr<VecLang>) -> Vec<(LLVMValueRef, usize, Id, usize)> {
    let mut out = Vec::new();
    if lifted.elem != Elem::I32 {
        return out;
    }
    let Some(VecLang::List(outs)) = prog.as_ref().last() else { return out };
    let users = |x: Id| prog.as_ref().iter().filter(|n| egg::Language::children(*n).contains(&x)).count();
    for (o, &id) in lifted.outputs.iter().zip(outs.iter()) {
        let Output::Carried(p) = o else { continue };
        let arg_of = |x: Id| match &prog[x] {
            VecLang::Arg(s) => match &prog[*s] {
                VecLang::Symbol(s) => lifted.args.iter().find(|a| a.0 == *s).is_some_and(|a| a.1 == ArgSrc::Carried(*p)),
                _ => false,
            },
            _ => false,
        };
        let red = |x: Id| match &prog[x] {
            VecLang::ReduceAdd(v) => Some(*v),
            _ => None,
        };
        // From the output inwards: each sum's reduced vector and the rest.
        let mut chain: Vec<(usize, Id)> = Vec::new();
        let mut at = id;
        let ok = loop {
            if arg_of(at) {
                break users(at) == 1 && !chain.is_empty();
            }
            let VecLang::Add([a, c]) = &prog[at] else { break false };
            let (rest, x) = match (red(*c), red(*a)) {
                (Some(x), _) => (*a, x),
                (None, Some(x)) => (*c, x),
                (None, None) => break false,
            };
            // Every sum used once: by the next one out, or (the outermost) by the output list.
            if users(at) != 1 {
                break false;
            }
            chain.push((usize::from(at), x));
            at = rest;
        };
        if ok {
            let n = chain.len();
            out.extend(chain.into_iter().enumerate().map(|(j, (index, x))| (*p, index, x, n - 1 - j)));
        }
    }
    out
}

/// Whether `b` has exactly one predecessor.
fn single_pred(b: LLVMBasicBlockRef) -> bool {
    unsafe {
        let mut n = 0;
        let mut u = LLVMGetFirstUse(LLVMBasicBlockAsValue(b));
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if !LLVMIsATerminatorInst(user).is_null() {
                n += 1;
            }
            u = LLVMGetNextUse(u);
        }
        n == 1
    }
}

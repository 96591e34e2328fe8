//! `dsp-reduction-jam`: unroll-and-jam of a two-deep reduction nest whose
//! inner loop may start where the outer counter says (Allen and Kennedy,
//! "Optimizing Compilers for Modern Architectures", §8.4.2, with the
//! triangular case's peeling of §8.4.3). An autocorrelation,
//! `for k { s = 0; for (i = k; i < n; i++) s += x[i] * x[i - k]; r[k] = s; }`,
//! runs one sum per lag, each over its own loop: short loops whose set-up,
//! prologue and reduction cost as much as their work. Run U lags side by
//! side instead: the first U − 1 − u iterations of lag k + u alone
//! (peeled, in order), then one loop over the iterations all U lags share,
//! `x[i]` loaded once for U independent sums, each kept in its own order:
//! exact. It runs before dsp-egg-isel, which vectorizes the jammed loop.
//!
//! A nest qualifies when the outer loop is counted and holds exactly one
//! loop, of one block, counted from `k + c` or an invariant to an
//! invariant bound; the inner loop carries integer values (sums egg
//! vectorizes; a strict float sum is left to outer-loop vectorization,
//! which runs its outer iterations across the lanes) starting from
//! invariants, loads but stores nothing, and calls only pure functions; the
//! rest of the outer loop is pure arithmetic, the branch that skips the
//! inner loop, and stores to identified objects (`restrict` arguments,
//! globals, allocas) that nothing in the nest loads or may load; no value
//! leaves the nest. U is the number of units for the machine's vector
//! multiply-add, as a power of two from 2 to 4 ([`factor`]). Jammed steps run while
//! U outer iterations remain and all U of them enter the inner loop with
//! at least one shared iteration; the original nest runs the rest.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};
use isa_tablegen::SemOp;

use crate::addr::{counted, may_alias, mem_op, poly, Counted};
use crate::caps::Caps;
use crate::cfg::{Cfg, Loop};
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// Runs the pass on every function of `m` (remarks of pass `unroll-jam`).
pub fn run(m: LLVMModuleRef, caps: &Caps) -> (bool, Vec<Remark>) {
    crate::wfv::per_function(m, |f| run_function(f, caps))
}

/// Runs the pass on one function.
pub fn run_function(f: LLVMValueRef, caps: &Caps) -> (bool, Vec<Remark>) {
    let u = factor(caps);
    if u < 2 {
        return (false, Vec::new());
    }
    // An inner loop carrying a value besides its counter.
    let carries = |cfg: &Cfg, j: &Loop| ir::instructions(cfg.blocks[j.header]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).count() >= 2;
    let (changed, tried) = crate::loops::rewrite_two_deep_nests(f, carries, |cfg, l, j| check(f, cfg, l, j).and_then(|nest| jam(f, cfg, l, &nest, u)));
    let remarks = tried
        .into_iter()
        .map(|(at, r)| match r {
            Ok(()) => Remark { kind: RemarkKind::Passed, at, name: "ReductionJam", msg: format!("loop unrolled by {u} and jammed: {u} reductions side by side in its inner loop") },
            Err(why) => Remark { kind: RemarkKind::Missed, at, name: "NotReductionJammed", msg: format!("loop not unrolled and jammed: {why}") },
        })
        .collect();
    (changed, remarks)
}

/// Outer iterations side by side: as many as the machine has units for
/// its vector multiply-add (the sums become independent multiply-add
/// chains), rounded up to a power of two, 2 to 4 (measured with
/// `scripts/bench-egg`: an autocorrelation of 256 samples on ftm, three
/// multiply-add units: 2001 cycles unjammed, 1363 with 2, 714 with 4, 1223
/// with 8, whose sums spill); 0 without vectors.
fn factor(caps: &Caps) -> usize {
    use dsp_egg_isel::lang::Elem;
    use dsp_egg_isel::target::{Opnd, Target};
    let Some(mac) = Target::new(caps.m, Elem::I32).ok().and_then(|t| t.find(SemOp::Mac, Some(Opnd::V), &[Opnd::V, Opnd::V, Opnd::V])) else { return 0 };
    let units: u32 = mac.units.iter().map(|&u| caps.m.units[u.0 as usize].count.max(1)).sum();
    (units.max(2) as usize).next_power_of_two().min(4)
}

/// What the jam needs of a nest that qualifies.
struct Nest {
    outer: Counted,
    inner: Counted,
    /// The inner loop's start is `k · slope + rest` (slope 0 or 1).
    slope: i64,
    /// Carried values of the inner loop: (phi, its start, its next value).
    carried: Vec<(LLVMValueRef, LLVMValueRef, LLVMValueRef)>,
    /// The branch conditions that send an outer iteration into the inner
    /// loop, with the value that does.
    guards: Vec<(LLVMValueRef, bool)>,
    /// The outer loop's instructions before the inner loop (pure) and after
    /// it (pure or stores), in order; the phis after it merge the inner
    /// loop's results.
    before: Vec<LLVMValueRef>,
    after: Vec<LLVMValueRef>,
    /// Blocks after the inner loop (its exit path) in the outer loop.
    after_blocks: Vec<usize>,
}

fn check(f: LLVMValueRef, cfg: &Cfg, l: &Loop, j: &Loop) -> Result<Nest, String> {
    let m = unsafe { LLVMGetGlobalParent(f) };
    let outer = counted(cfg, l).ok_or("the outer loop is not a counted loop with one exit")?;
    let inner = counted(cfg, j).ok_or("the inner loop is not a counted loop with one exit")?;
    let body = cfg.blocks[j.header];
    let inside_l = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&x| l.contains(x)) };
    if inside_l(inner.bound) {
        return Err("the inner loop's bound changes with the outer counter".into());
    }
    // The inner start: an invariant, or k + c.
    let atom = |v: LLVMValueRef| !inside_l(v) || v == outer.iv;
    let sp = poly(inner.start, 8, &atom).ok_or("the inner loop's start is not affine in the outer counter")?;
    let (slope, rest) = sp.split(outer.iv);
    let slope = slope.as_const().filter(|&s| s == 0 || s == 1).ok_or("the inner loop's start moves other than with the outer counter")?;
    if rest.mentions(inside_l) {
        return Err("the inner loop's start is not affine in the outer counter".into());
    }
    unsafe {
        let first = LLVMGetFirstInstruction(cfg.blocks[outer.exit]);
        if !first.is_null() && ir::opcode(first) == O::LLVMPHI {
            return Err("values leave the nest".into());
        }
    }
    // The inner loop: carried values from invariants, loads only.
    let mut carried = Vec::new();
    let mut loads: Vec<LLVMValueRef> = Vec::new();
    for i in ir::instructions(body) {
        let op = ir::opcode(i);
        if op == O::LLVMPHI && i != inner.iv {
            let (mut start, mut next) = (None, None);
            for k in 0..unsafe { LLVMCountIncoming(i) } {
                let (v, from) = unsafe { (LLVMGetIncomingValue(i, k), LLVMGetIncomingBlock(i, k)) };
                if from == body {
                    next = Some(v);
                } else {
                    start = Some(v);
                }
            }
            let (Some(s), Some(n)) = (start, next) else { return Err("internal: a carried value without its two entries".into()) };
            if inside_l(s) {
                return Err("a sum of the inner loop starts from a value of the outer loop".into());
            }
            // A strict float sum stays scalar in egg: outer-loop
            // vectorization (with dsp-unroll-jam around it) serves it better.
            if unsafe { LLVMGetTypeKind(LLVMTypeOf(i)) } != inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind {
                return Err("a sum of other than integers (outer-loop vectorization takes those)".into());
            }
            carried.push((i, s, n));
        }
        if op == O::LLVMStore {
            return Err("the inner loop stores".into());
        }
        if let Some(a) = mem_op(m, i)? {
            loads.push(a.ptr);
        }
    }
    // The outer loop outside the inner one: before it, or on its exit path.
    let jx = cfg.succs[j.header].iter().copied().find(|&s| s != j.header).ok_or("internal: no inner exit")?;
    let after_blocks: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b) && !j.contains(b) && b != l.header && cfg.reaches_in_loop(l, jx, b)).collect();
    let latch = outer.latch;
    let latch_term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[latch]) };
    let blocks: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b) && !j.contains(b)).collect();
    let mut guards = Vec::new();
    let (mut before, mut after) = (Vec::new(), Vec::new());
    let mut stores: Vec<LLVMValueRef> = Vec::new();
    // (Blocks in layout order: the straight path of a rotated nest.)
    for &b in &blocks {
        let is_after = after_blocks.contains(&b);
        for i in ir::instructions(cfg.blocks[b]) {
            if ir::users(i).into_iter().any(|u| !inside_l(u)) {
                return Err("values leave the nest".into());
            }
            let op = ir::opcode(i);
            if i == outer.iv || i == outer.next || i == outer.cmp || i == latch_term {
                continue;
            }
            if unsafe { !LLVMIsATerminatorInst(i).is_null() } {
                if op != O::LLVMBr {
                    return Err("a switch in the nest".into());
                }
                if unsafe { LLVMGetNumOperands(i) } == 3 {
                    if is_after {
                        return Err("a branch after the inner loop".into());
                    }
                    let reach = |s: LLVMBasicBlockRef| cfg.index.get(&s).is_some_and(|&s| cfg.reaches_in_loop(l, s, j.header));
                    let (t, e) = unsafe { (reach(LLVMGetSuccessor(i, 0)), reach(LLVMGetSuccessor(i, 1))) };
                    if t == e {
                        return Err("a branch in the outer loop does not decide whether the inner loop runs".into());
                    }
                    guards.push((unsafe { LLVMGetOperand(i, 0) }, t));
                }
                continue;
            }
            if op == O::LLVMPHI {
                if !is_after {
                    return Err("the outer loop carries values besides its counter".into());
                }
                after.push(i);
                continue;
            }
            match op {
                O::LLVMStore if is_after => unsafe {
                    if LLVMGetVolatile(i) != 0 {
                        return Err("volatile or atomic accesses".into());
                    }
                    stores.push(LLVMGetOperand(i, 1));
                },
                O::LLVMLoad | O::LLVMStore | O::LLVMCall | O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence | O::LLVMInvoke | O::LLVMCallBr => {
                    return Err("the outer loop does more than sum and store the results".into());
                }
                _ => {}
            }
            if is_after {
                after.push(i);
            } else {
                before.push(i);
            }
        }
    }
    // Stores only to identified objects that no load of the nest may reach.
    for &p in &stores {
        let (base, _) = crate::addr::address(m, p, &|_| true);
        if !ir::identified_object(base) {
            return Err("a store through a pointer of unknown origin".into());
        }
        for &q in &loads {
            let (lb, _) = crate::addr::address(m, q, &|_| true);
            if lb == base || may_alias(lb, base) {
                return Err(format!("'{}' is stored where the inner loop may load", ir::value_name(base)));
            }
        }
    }
    // The merging phis after the inner loop take its results: each has one
    // entry from the exit path (the others come from where it is skipped).
    for &p in after.iter().filter(|&&p| ir::opcode(p) == O::LLVMPHI) {
        let from: Vec<usize> = (0..unsafe { LLVMCountIncoming(p) })
            .filter(|&k| cfg.index.get(&unsafe { LLVMGetIncomingBlock(p, k) }).is_some_and(|&b| j.contains(b) || after_blocks.contains(&b)))
            .map(|k| k as usize)
            .collect();
        if from.len() != 1 {
            return Err("a value after the inner loop merges more than its result".into());
        }
    }
    Ok(Nest { outer, inner, slope, carried, guards, before, after, after_blocks })
}

/// Clones `i` at `b` with its operands mapped through `map`.
/// `x` (just built) as a constant when it is a sum or difference of sums
/// whose non-constant terms cancel: a peeled iteration's `i - k`, with `i`
/// the first copy's start plus a constant and `k` the copy's counter, is a
/// constant, which LLVM does not see once it has turned the additions into
/// disjoint ors (the loads of `x[i - k]` then need no address arithmetic).
/// Exact: additions and subtractions of one integer type wrap alike (not
/// [`poly`], which also looks through sign extensions, which do not).
unsafe fn constant_difference(x: LLVMValueRef) -> LLVMValueRef {
    fn terms(v: LLVMValueRef, ty: LLVMTypeRef, depth: u32) -> crate::addr::Poly {
        if let Some(c) = ir::const_i64(v) {
            return crate::addr::Poly::constant(c);
        }
        let same = unsafe { LLVMTypeOf(v) == ty && !LLVMIsAInstruction(v).is_null() };
        if same && depth > 0 {
            let op = |k: u32| unsafe { LLVMGetOperand(v, k) };
            match ir::opcode(v) {
                O::LLVMAdd => return terms(op(0), ty, depth - 1).add(&terms(op(1), ty, depth - 1), 1),
                O::LLVMSub => return terms(op(0), ty, depth - 1).add(&terms(op(1), ty, depth - 1), -1),
                _ => {}
            }
        }
        crate::addr::Poly::atom(v)
    }
    let ty = LLVMTypeOf(x);
    if !matches!(ir::opcode(x), O::LLVMAdd | O::LLVMSub) || LLVMGetTypeKind(ty) != inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind {
        return x;
    }
    match terms(x, ty, 8).as_const() {
        Some(c) => {
            LLVMInstructionEraseFromParent(x);
            LLVMConstInt(ty, c as u64, 1)
        }
        None => x,
    }
}

unsafe fn clone_at(b: LLVMBuilderRef, i: LLVMValueRef, map: &HashMap<LLVMValueRef, LLVMValueRef>) -> LLVMValueRef {
    let x = LLVMInstructionClone(i);
    LLVMInsertIntoBuilder(b, x);
    for q in 0..LLVMGetNumOperands(x) as u32 {
        if let Some(&v) = map.get(&LLVMGetOperand(x, q)) {
            LLVMSetOperand(x, q, v);
        }
    }
    x
}

/// Builds the jammed nest in front of the original (see the module doc);
/// returns the new loops' headers.
fn jam(f: LLVMValueRef, cfg: &Cfg, l: &Loop, nest: &Nest, u: usize) -> Result<Vec<LLVMBasicBlockRef>, String> {
    let (o, jc) = (&nest.outer, &nest.inner);
    let (h, pre, exit) = (cfg.blocks[l.header], cfg.blocks[o.preheader], cfg.blocks[o.exit]);
    let body = cfg.blocks[jc.latch];
    let body_insts: Vec<LLVMValueRef> = ir::instructions(body).into_iter().filter(|&i| ir::opcode(i) != O::LLVMPHI && unsafe { LLVMIsATerminatorInst(i).is_null() }).collect();
    unsafe {
        let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
        let b = LLVMCreateBuilderInContext(ctx);
        let kty = LLVMTypeOf(o.iv);
        let ity = LLVMTypeOf(jc.iv);
        let kc = |v: i64| LLVMConstInt(kty, v as u64, 1);
        let ic = |v: i64| LLVMConstInt(ity, v as u64, 1);
        let new_block = |name: &std::ffi::CStr| LLVMAppendBasicBlockInContext(ctx, f, name.as_ptr());
        let (check, entry, jb, after, rest) = (new_block(c"rjam.check"), new_block(c"rjam.entry"), new_block(c"rjam.inner"), new_block(c"rjam.after"), new_block(c"rjam.rest"));
        let loc = inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(body));
        LLVMSetCurrentDebugLocation2(b, loc);
        // check: U outer iterations left, each entering the inner loop, which has a shared iteration.
        LLVMPositionBuilderAtEnd(b, check);
        let kk = LLVMBuildPhi(b, kty, c"".as_ptr());
        let left = LLVMBuildSub(b, o.bound, kk, c"".as_ptr());
        let mut conds = vec![LLVMBuildICmp(b, P::LLVMIntSGE, left, kc(u as i64), c"".as_ptr())];
        // Per copy: its counter and the values before the inner loop.
        let mut maps: Vec<HashMap<LLVMValueRef, LLVMValueRef>> = Vec::new();
        for c in 0..u {
            let mut map = HashMap::new();
            map.insert(o.iv, if c == 0 { kk } else { LLVMBuildAdd(b, kk, kc(c as i64), c"".as_ptr()) });
            for &i in &nest.before {
                let x = clone_at(b, i, &map);
                map.insert(i, x);
            }
            for &(g, want) in &nest.guards {
                let gv = *map.get(&g).unwrap_or(&g);
                conds.push(if want { gv } else { LLVMBuildXor(b, gv, LLVMConstInt(LLVMTypeOf(gv), 1, 0), c"".as_ptr()) });
            }
            maps.push(map);
        }
        // The shared start: the last copy's; its inner loop runs at least once.
        let start_of = |c: usize| *maps[c].get(&jc.start).unwrap_or(&jc.start);
        let common = start_of(u - 1);
        conds.push(LLVMBuildICmp(b, P::LLVMIntSLT, common, jc.bound, c"".as_ptr()));
        let all = ir::all_of(b, conds)?;
        LLVMBuildCondBr(b, all, entry, rest);
        // entry: each copy's iterations before the shared start, in order.
        // What does not depend on the sums (addresses, loads, products) of
        // every peeled iteration first, then the sums' chains: independent
        // work side by side for the scheduler. Copy c's iteration t is at
        // the first copy's start + c + t (the start moves with the counter).
        LLVMPositionBuilderAtEnd(b, entry);
        let carried_dep: HashSet<LLVMValueRef> = {
            let mut dep: HashSet<LLVMValueRef> = nest.carried.iter().map(|x| x.0).collect();
            for &i in &body_insts {
                if (0..LLVMGetNumOperands(i) as u32).any(|q| dep.contains(&LLVMGetOperand(i, q))) {
                    dep.insert(i);
                }
            }
            dep
        };
        let mut at: HashMap<usize, LLVMValueRef> = HashMap::new();
        let mut peeled: Vec<(usize, HashMap<LLVMValueRef, LLVMValueRef>)> = Vec::new();
        for c in 0..u {
            let peel = if nest.slope == 1 { u - 1 - c } else { 0 };
            for t in 0..peel {
                let iv = *at.entry(c + t).or_insert_with(|| if c + t == 0 { start_of(0) } else { LLVMBuildAdd(b, start_of(0), ic((c + t) as i64), c"".as_ptr()) });
                let mut map = maps[c].clone();
                map.insert(jc.iv, iv);
                for &i in body_insts.iter().filter(|i| !carried_dep.contains(i)) {
                    let x = constant_difference(clone_at(b, i, &map));
                    map.insert(i, x);
                }
                peeled.push((c, map));
            }
        }
        let mut acc: Vec<HashMap<LLVMValueRef, LLVMValueRef>> = vec![HashMap::new(); u];
        for c in 0..u {
            for &(p, s, _) in &nest.carried {
                acc[c].insert(p, s);
            }
        }
        for (c, mut map) in peeled {
            map.extend(acc[c].iter().map(|(&k, &v)| (k, v)));
            for &i in body_insts.iter().filter(|i| carried_dep.contains(i)) {
                let x = clone_at(b, i, &map);
                map.insert(i, x);
            }
            for &(p, _, n) in &nest.carried {
                acc[c].insert(p, map[&n]);
            }
        }
        LLVMBuildBr(b, jb);
        // The jammed inner loop: shared values once, each copy's own U times.
        LLVMPositionBuilderAtEnd(b, jb);
        let iv = LLVMBuildPhi(b, ity, c"".as_ptr());
        let mut phis: Vec<Vec<LLVMValueRef>> = Vec::new();
        for c in 0..u {
            let mut row = Vec::new();
            for &(p, _, _) in &nest.carried {
                let np = LLVMBuildPhi(b, LLVMTypeOf(p), c"".as_ptr());
                ir::add_incoming(np, &[(acc[c][&p], entry)]);
                row.push(np);
            }
            phis.push(row);
        }
        let own: HashSet<LLVMValueRef> = {
            let mut dep: HashSet<LLVMValueRef> = nest.carried.iter().map(|x| x.0).chain(std::iter::once(o.iv)).chain(nest.before.iter().copied()).collect();
            for &i in &body_insts {
                if (0..LLVMGetNumOperands(i) as u32).any(|q| dep.contains(&LLVMGetOperand(i, q))) {
                    dep.insert(i);
                }
            }
            dep
        };
        let mut shared: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        shared.insert(jc.iv, iv);
        let mut inner_maps: Vec<HashMap<LLVMValueRef, LLVMValueRef>> = (0..u)
            .map(|c| {
                let mut mp = maps[c].clone();
                for (k, &(p, _, _)) in nest.carried.iter().enumerate() {
                    mp.insert(p, phis[c][k]);
                }
                mp
            })
            .collect();
        for &i in &body_insts {
            if own.contains(&i) {
                for mp in inner_maps.iter_mut() {
                    let mut full = shared.clone();
                    full.extend(mp.iter().map(|(&k, &v)| (k, v)));
                    let x = clone_at(b, i, &full);
                    mp.insert(i, x);
                }
            } else {
                let x = clone_at(b, i, &shared);
                shared.insert(i, x);
            }
        }
        let next = LLVMBuildAdd(b, iv, ic(1), c"".as_ptr());
        LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, next, jc.bound, c"".as_ptr()), jb, after);
        ir::add_incoming(iv, &[(common, entry), (next, jb)]);
        for c in 0..u {
            for (k, &(_, _, n)) in nest.carried.iter().enumerate() {
                let v = *inner_maps[c].get(&n).or_else(|| shared.get(&n)).unwrap_or(&n);
                ir::add_incoming(phis[c][k], &[(v, jb)]);
            }
        }
        // after: each copy's results merged and stored, in copy order.
        LLVMPositionBuilderAtEnd(b, after);
        for c in 0..u {
            let mut map = maps[c].clone();
            // The inner loop's values as its last iteration left them.
            for (k, &(p, _, _)) in nest.carried.iter().enumerate() {
                map.insert(p, phis[c][k]);
            }
            for &i in &body_insts {
                if let Some(&v) = inner_maps[c].get(&i).or_else(|| shared.get(&i)) {
                    map.insert(i, v);
                }
            }
            for &i in &nest.after {
                if ir::opcode(i) == O::LLVMPHI {
                    // Its entry from the inner loop's exit path.
                    let k = (0..LLVMCountIncoming(i))
                        .find(|&k| cfg.index.get(&LLVMGetIncomingBlock(i, k)).is_some_and(|&x| x == jc.latch || nest.after_blocks.contains(&x)))
                        .ok_or("internal: a merge without the inner loop's entry")?;
                    let v = LLVMGetIncomingValue(i, k);
                    map.insert(i, *map.get(&v).unwrap_or(&v));
                    continue;
                }
                let x = clone_at(b, i, &map);
                map.insert(i, x);
            }
        }
        let knext = LLVMBuildAdd(b, kk, kc(u as i64), c"".as_ptr());
        LLVMBuildBr(b, check);
        ir::add_incoming(kk, &[(o.start, pre), (knext, after)]);
        // rest: the original nest for what is left, if anything.
        LLVMPositionBuilderAtEnd(b, rest);
        LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, kk, o.bound, c"".as_ptr()), h, exit);
        // The original loop is entered from `rest`, starting at `kk`.
        ir::rebuild_phi(o.iv, &[(kk, rest), (o.next, cfg.blocks[o.latch])]);
        ir::redirect(pre, h, check);
        LLVMDisposeBuilder(b);
        Ok(vec![check, jb, h])
    }
}

#[cfg(test)]
#[path = "rjam_tests.rs"]
mod tests;

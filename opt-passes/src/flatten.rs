//! `dsp-flatten`: loop coalescing (Polychronopoulos, "Loop Coalescing: A
//! Compiler Transformation for Parallel Machines", ICPP 1987; LLVM's
//! LoopFlatten is the same idea for nests whose inner counter only indexes
//! `i·M + j`) of a two-deep nest whose iterations all touch disjoint memory,
//! after vectorization, so that the backend pipelines one loop of `T_O·T_I`
//! iterations instead of entering a pipeline `T_O` times for `T_I`
//! iterations each. The target is an FFT's stages after dsp-interchange:
//! `for (j < half) for (t < n / len)` (interchanged early stages) and `for
//! (strip) for (row)` (strip-mined late stages) run a pipelined loop of 8
//! to 64 iterations per outer iteration, and every entry pays its guard,
//! prologue and epilogue.
//!
//! A nest qualifies when its outer loop's latch carries
//! [`NEST_INDEPENDENT`] (dsp-interchange sets it where its guard proved
//! that any two iterations of the nest touch disjoint memory); the outer
//! loop counts by one to a bound; the path through one outer iteration
//! (branches on values defined before the nest decided, each such
//! decision a condition of the guard) is straight-line code, one inner
//! loop of one block counted (by a constant step) from and to values defined before the nest,
//! and straight-line code to the outer latch. Where the outer loop holds
//! several inner loops (a vector loop and its scalar remainder), the path
//! through the one with the most vector instructions is taken. The code
//! around the inner loop must be pure arithmetic or loads of objects the
//! nest never stores: it runs in every iteration of the flattened loop
//! (with the same outer values, so at the same addresses), its results
//! taken only when the inner loop wraps. Its inner phis start from values
//! defined before the nest.
//!
//! The flattened loop runs when, at run time, the path's conditions hold,
//! the inner loop runs at least once, the outer one at least twice, and
//! `T_O·T_I` fits 31 bits; else the nest runs as it was. Its counter counts
//! `T_O·T_I` iterations; the outer values advance and the inner ones
//! restart with a select when the inner loop wraps. It is marked
//! `dsp.loop.independent` for the pipeliner. Addresses affine in both
//! counters (`base + C + R·o + S·i`, the inner loop's accesses and the
//! loads around it) become pointers of their own, stepped by `S·step` or,
//! on a wrap, by `R - (T_I - 1)·step·S` (strength reduction across the
//! wrap: one add and a shared select per pointer, where computing the
//! address from the counters takes a multiply and adds; measured on an
//! FFT's interchanged stages on ftm, II 14 → 8).
//!
//! Not flattened (measured with `scripts/bench-egg`): the strip-mined
//! nests of dsp-interchange. Their strips' strided twiddle loads, hoisted
//! out of the row loop now, would run every iteration, and the flattened
//! loop's scalar work (six pointers, the inner counter, the selects, the
//! loop counter: thirteen operations on ftm's two scalar ALUs) bounds it at
//! II 7 where the row loop runs at II 5: fft 2048 on ftm 8368 → 8474,
//! conv2d 64 4429 → 5131.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O, LLVMTypeKind};

use crate::addr::{address, counted, counted_by, may_alias, Counted};
use crate::cfg::{Cfg, Loop};
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// The loop property of an outer loop whose nest's iterations all touch
/// disjoint memory (set by dsp-interchange, read here).
pub const NEST_INDEPENDENT: &str = "dsp.loop.nest.independent";

/// Runs the pass on every function of `m` (remarks: pass `loop-flatten`).
pub fn run(m: LLVMModuleRef) -> (bool, Vec<Remark>) {
    crate::wfv::per_function(m, run_function)
}

/// Runs the pass on one function.
pub fn run_function(f: LLVMValueRef) -> (bool, Vec<Remark>) {
    let mut changed = false;
    let mut remarks = Vec::new();
    let mut tried: HashSet<LLVMValueRef> = HashSet::new();
    loop {
        let cfg = Cfg::new(f);
        let loops = cfg.loops();
        let next = loops.iter().find_map(|l| {
            let [latch] = l.latches[..] else { return None };
            let term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[latch]) };
            (!tried.contains(&term) && crate::wfv::directives::has_loop_property(term, NEST_INDEPENDENT)).then_some((l.clone(), term))
        });
        let Some((l, term)) = next else { break };
        tried.insert(term);
        match flatten(f, &cfg, &loops, &l) {
            Ok(()) => {
                changed = true;
                remarks.push(Remark { kind: RemarkKind::Passed, at: term, name: "Flattened", msg: "loop nest flattened into one loop (its iterations independent)".into() });
            }
            Err(why) => remarks.push(Remark { kind: RemarkKind::Missed, at: term, name: "NotFlattened", msg: format!("loop nest not flattened: {why}") }),
        }
    }
    (changed, remarks)
}

/// What memory an instruction touches.
enum Mem {
    None,
    Load(LLVMValueRef),
    Store(LLVMValueRef),
    Unknown,
}

fn mem(i: LLVMValueRef) -> Mem {
    unsafe {
        match ir::opcode(i) {
            O::LLVMLoad if LLVMGetVolatile(i) == 0 => Mem::Load(LLVMGetOperand(i, 0)),
            O::LLVMStore if LLVMGetVolatile(i) == 0 => Mem::Store(LLVMGetOperand(i, 1)),
            O::LLVMLoad | O::LLVMStore | O::LLVMFence | O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMInvoke => Mem::Unknown,
            O::LLVMCall => match ir::called_intrinsic(i).as_deref() {
                Some(n) if n.starts_with("llvm.masked.load") || n.starts_with("llvm.experimental.vp.strided.load") => Mem::Load(ir::arg(i, 0)),
                Some(n) if n.starts_with("llvm.masked.store") || n.starts_with("llvm.experimental.vp.strided.store") => Mem::Store(ir::arg(i, 1)),
                Some(n) if PURE.iter().any(|p| n.starts_with(p)) => Mem::None,
                _ => Mem::Unknown,
            },
            _ => Mem::None,
        }
    }
}

/// Intrinsics that touch no memory and cannot trap.
const PURE: &[&str] = &[
    "llvm.fma.", "llvm.fmuladd.", "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs.", "llvm.ctlz.", "llvm.cttz.", "llvm.ctpop.",
    "llvm.fabs.", "llvm.minnum.", "llvm.maxnum.", "llvm.bitreverse.", "llvm.bswap.",
];

/// Whether `i` (outside the inner loop) may run in every iteration: it
/// cannot trap or write.
fn speculatable(i: LLVMValueRef) -> bool {
    let op = ir::opcode(i);
    match op {
        O::LLVMUDiv | O::LLVMSDiv | O::LLVMURem | O::LLVMSRem => unsafe { ir::const_i64(LLVMGetOperand(i, 1)).is_some_and(|d| d != 0 && d != -1) },
        O::LLVMCall => matches!(mem(i), Mem::None | Mem::Load(_)),
        O::LLVMStore | O::LLVMFence | O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMInvoke | O::LLVMAlloca | O::LLVMVAArg => false,
        _ => true,
    }
}

/// One outer iteration's path through the nest.
struct Path {
    /// Blocks before the inner loop (from the header) and after it (to the latch), each with the block it is entered from.
    before: Vec<(usize, usize)>,
    after: Vec<(usize, usize)>,
    inner: usize,
    /// Branch conditions decided, with the value each has on the path.
    conds: Vec<(LLVMValueRef, bool)>,
}

fn defined_in(cfg: &Cfg, l: &Loop, v: LLVMValueRef) -> bool {
    unsafe { !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&b| l.contains(b)) }
}

/// The path through `l` for the choices `pick` (one bit per condition met, in order).
fn walk(cfg: &Cfg, l: &Loop, inner_loops: &[&Loop], pre: usize, latch: usize, pick: u32) -> Result<Path, String> {
    let mut p = Path { before: Vec::new(), after: Vec::new(), inner: usize::MAX, conds: Vec::new() };
    let (mut cur, mut from) = (l.header, pre);
    let mut seen = HashSet::new();
    loop {
        if !seen.insert(cur) {
            return Err("the outer loop's path goes round".into());
        }
        if let Some(il) = inner_loops.iter().find(|il| il.header == cur) {
            if p.inner != usize::MAX || il.size() != 1 {
                return Err("the path holds more than one inner loop, or one of several blocks".into());
            }
            p.inner = cur;
            let out: Vec<usize> = cfg.succs[cur].iter().copied().filter(|&s| s != cur).collect();
            let [next] = out[..] else { return Err("the inner loop does not have one exit".into()) };
            (from, cur) = (cur, next);
            continue;
        }
        if p.inner == usize::MAX { &mut p.before } else { &mut p.after }.push((cur, from));
        if cur == latch {
            break;
        }
        let term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[cur]) };
        if ir::opcode(term) != O::LLVMBr {
            return Err("a switch in the nest".into());
        }
        let next = if unsafe { LLVMGetNumOperands(term) } == 1 {
            unsafe { LLVMGetSuccessor(term, 0) }
        } else {
            let c = unsafe { LLVMGetOperand(term, 0) };
            if defined_in(cfg, l, c) {
                return Err("a branch in the outer loop depends on its iteration".into());
            }
            let k = p.conds.len() as u32;
            if k >= 3 {
                return Err("more than three branches in the outer loop".into());
            }
            let want = pick & (1 << k) != 0;
            p.conds.push((c, want));
            unsafe { LLVMGetSuccessor(term, if want { 0 } else { 1 }) }
        };
        let next = *cfg.index.get(&next).ok_or("internal: a block out of the function")?;
        if !l.contains(next) {
            return Err("the path leaves the nest before its latch".into());
        }
        (from, cur) = (cur, next);
    }
    if p.inner == usize::MAX {
        return Err("the path holds no inner loop".into());
    }
    Ok(p)
}

fn vector_insts(b: LLVMBasicBlockRef) -> usize {
    ir::instructions(b).into_iter().filter(|&i| unsafe { LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMTypeKind::LLVMVectorTypeKind }).count()
}

fn flatten(f: LLVMValueRef, cfg: &Cfg, loops: &[Loop], l: &Loop) -> Result<(), String> {
    let oc = counted(cfg, l).ok_or("the outer loop does not count by one to a bound")?;
    let inner_loops: Vec<&Loop> = loops.iter().filter(|il| il.header != l.header && l.contains(il.header)).collect();
    // The path through the most vector work.
    let mut best: Option<(usize, Path)> = None;
    for pick in 0..8u32 {
        let Ok(p) = walk(cfg, l, &inner_loops, oc.preheader, oc.latch, pick) else { continue };
        if p.conds.len() < 3 && pick >> p.conds.len() != 0 {
            continue;
        }
        let score = vector_insts(cfg.blocks[p.inner]);
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, p));
        }
    }
    let (_, path) = best.ok_or_else(|| walk(cfg, l, &inner_loops, oc.preheader, oc.latch, 0).err().unwrap_or_else(|| "no path".into()))?;
    let il = inner_loops.iter().find(|il| il.header == path.inner).ok_or("internal: the inner loop")?;
    let (ic, istep) = counted_by(cfg, il).ok_or("the inner loop is not counted")?;
    if defined_in(cfg, l, ic.start) || defined_in(cfg, l, ic.bound) {
        return Err("the inner loop's bounds change with the outer loop".into());
    }
    let body = cfg.blocks[path.inner];
    // The inner phis start from values defined before the nest.
    let inner_phis: Vec<LLVMValueRef> = ir::instructions(body).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).collect();
    for &phi in &inner_phis {
        let init = ir::incoming_from(phi, cfg.blocks[ic.preheader]).ok_or("internal: an inner phi without a preheader entry")?;
        if defined_in(cfg, l, init) {
            return Err("an inner loop's value starts from one the outer loop computes".into());
        }
    }
    // Stores of the nest, and what runs around the inner loop.
    let mut stored: Vec<LLVMValueRef> = Vec::new();
    let m = unsafe { LLVMGetGlobalParent(f) };
    let nothing = |_: LLVMValueRef| true;
    for b in (0..cfg.blocks.len()).filter(|&b| l.contains(b)) {
        for i in ir::instructions(cfg.blocks[b]) {
            match mem(i) {
                Mem::Store(p) => stored.push(address(m, p, &nothing).0),
                Mem::Unknown => return Err("an access the pass cannot follow (a call, volatile or atomic)".into()),
                _ => {}
            }
            // No value of the nest is used outside it but by the exit's phis.
            for u in ir::users(i) {
                let ub = unsafe { LLVMGetInstructionParent(u) };
                let at = cfg.index.get(&ub).copied();
                if at.is_some_and(|x| l.contains(x)) {
                    continue;
                }
                if at != Some(oc.exit) || ir::opcode(u) != O::LLVMPHI {
                    return Err("values leave the nest".into());
                }
            }
        }
    }
    for &(b, _) in path.before.iter().chain(&path.after) {
        for i in ir::instructions(cfg.blocks[b]) {
            if unsafe { !LLVMIsATerminatorInst(i).is_null() } || ir::opcode(i) == O::LLVMPHI || ir::is_debug(i) {
                continue;
            }
            if !speculatable(i) {
                return Err("the outer loop does more than arithmetic and loads around the inner loop".into());
            }
            if let Mem::Load(p) = mem(i) {
                let base = address(m, p, &nothing).0;
                if stored.iter().any(|&s| s == base || may_alias(s, base)) {
                    return Err("the outer loop loads memory the nest stores".into());
                }
            }
        }
    }
    unsafe { build(f, cfg, l, &oc, (&ic, istep), &path, &inner_phis) }
}

unsafe fn build(f: LLVMValueRef, cfg: &Cfg, l: &Loop, oc: &Counted, (ic, istep): (&Counted, i64), path: &Path, inner_phis: &[LLVMValueRef]) -> Result<(), String> {
    let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    let b = LLVMCreateBuilderInContext(ctx);
    let (pre, h, latch, exit) = (cfg.blocks[oc.preheader], cfg.blocks[l.header], cfg.blocks[oc.latch], cfg.blocks[oc.exit]);
    let body = cfg.blocks[path.inner];
    LLVMSetCurrentDebugLocation2(b, inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(latch)));
    let guard = LLVMInsertBasicBlockInContext(ctx, h, c"fl.guard".as_ptr());
    let fpre = LLVMAppendBasicBlockInContext(ctx, f, c"fl.pre".as_ptr());
    let fh = LLVMAppendBasicBlockInContext(ctx, f, c"fl.body".as_ptr());
    let i64t = LLVMInt64TypeInContext(ctx);
    let k64 = |v: i64| LLVMConstInt(i64t, v as u64, 1);
    let wide = |v: LLVMValueRef| if LLVMTypeOf(v) == i64t { v } else { LLVMBuildSExt(b, v, i64t, c"".as_ptr()) };
    // The guard: the path's conditions, the inner step dividing its span,
    // T_I ≥ 1, T_O ≥ 2, T_O·T_I < 2^31.
    LLVMPositionBuilderAtEnd(b, guard);
    let to = LLVMBuildSub(b, wide(oc.bound), wide(oc.start), c"".as_ptr());
    let span = LLVMBuildSub(b, wide(ic.bound), wide(ic.start), c"".as_ptr());
    let ti = LLVMBuildSDiv(b, span, k64(istep), c"".as_ptr());
    let n = LLVMBuildMul(b, to, ti, c"".as_ptr());
    let mut ok = vec![
        LLVMBuildICmp(b, P::LLVMIntEQ, LLVMBuildSRem(b, span, k64(istep), c"".as_ptr()), k64(0), c"".as_ptr()),
        LLVMBuildICmp(b, P::LLVMIntSGE, ti, k64(1), c"".as_ptr()),
        LLVMBuildICmp(b, P::LLVMIntSGE, to, k64(2), c"".as_ptr()),
        LLVMBuildICmp(b, P::LLVMIntSLE, to, k64(1 << 31), c"".as_ptr()),
        LLVMBuildICmp(b, P::LLVMIntSLE, ti, k64(1 << 31), c"".as_ptr()),
        LLVMBuildICmp(b, P::LLVMIntSLT, n, k64((1 << 31) - 1), c"".as_ptr()),
    ];
    for &(c, want) in &path.conds {
        ok.push(if want { c } else { LLVMBuildXor(b, c, LLVMConstInt(LLVMTypeOf(c), 1, 0), c"".as_ptr()) });
    }
    let all = ir::all_of(b, ok)?;
    let cty = LLVMTypeOf(ic.iv);
    let ncount = LLVMBuildTrunc(b, n, cty, c"".as_ptr());
    LLVMBuildCondBr(b, all, fpre, h);
    ir::redirect(pre, h, guard);
    for phi in ir::instructions(h).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI) {
        let entries: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(phi))
            .map(|k| {
                let bb = LLVMGetIncomingBlock(phi, k);
                (LLVMGetIncomingValue(phi, k), if bb == pre { guard } else { bb })
            })
            .collect();
        ir::rebuild_phi(phi, &entries);
    }
    LLVMPositionBuilderAtEnd(b, fpre);
    LLVMBuildBr(b, fh);
    // The flattened loop: its counter, the outer and the inner phis.
    LLVMPositionBuilderAtEnd(b, fh);
    let k = LLVMBuildPhi(b, cty, c"".as_ptr());
    let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
    let outer_phis: Vec<LLVMValueRef> = ir::instructions(h).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).collect();
    let mut new_outer = Vec::new();
    for &phi in &outer_phis {
        let np = LLVMBuildPhi(b, LLVMTypeOf(phi), c"".as_ptr());
        map.insert(phi, np);
        new_outer.push(np);
    }
    let mut new_inner = Vec::new();
    for &phi in inner_phis {
        let np = LLVMBuildPhi(b, LLVMTypeOf(phi), c"".as_ptr());
        map.insert(phi, np);
        new_inner.push(np);
    }
    // Clones the non-phi instructions of `bb` (phis of path blocks other
    // than the header take their value from the block they are entered from).
    let clone_block = |bb: LLVMBasicBlockRef, from: Option<LLVMBasicBlockRef>, map: &mut HashMap<LLVMValueRef, LLVMValueRef>| -> Result<(), String> {
        for i in ir::instructions(bb) {
            if !LLVMIsATerminatorInst(i).is_null() || ir::is_debug(i) {
                continue;
            }
            if ir::opcode(i) == O::LLVMPHI {
                if let Some(from) = from {
                    let v = ir::incoming_from(i, from).ok_or("internal: a phi without an entry from the path")?;
                    map.insert(i, map.get(&v).copied().unwrap_or(v));
                }
                continue;
            }
            let x = LLVMInstructionClone(i);
            LLVMInsertIntoBuilder(b, x);
            ir::remap_operands(&[x], map);
            map.insert(i, x);
        }
        Ok(())
    };
    for &(bb, from) in &path.before {
        let from = (bb != l.header).then(|| cfg.blocks[from]);
        clone_block(cfg.blocks[bb], from, &mut map)?;
    }
    clone_block(body, None, &mut map)?;
    for &(bb, from) in &path.after {
        clone_block(cfg.blocks[bb], Some(cfg.blocks[from]), &mut map)?;
    }
    let get = |map: &HashMap<LLVMValueRef, LLVMValueRef>, v: LLVMValueRef| map.get(&v).copied().unwrap_or(v);
    // The inner loop wraps when its counter's increment reaches the bound.
    let inext = get(&map, ic.next);
    let wrap = LLVMBuildICmp(b, P::LLVMIntEQ, inext, ic.bound, c"".as_ptr());
    let knext = LLVMBuildAdd(b, k, LLVMConstInt(cty, 1, 0), c"".as_ptr());
    let term = LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, knext, ncount, c"".as_ptr()), fh, exit);
    crate::interchange::mark_independent(term);
    ir::add_incoming(k, &[(LLVMConstInt(cty, 0, 0), fpre), (knext, fh)]);
    LLVMPositionBuilderBefore(b, term);
    for (&phi, &np) in outer_phis.iter().zip(&new_outer) {
        let init = ir::incoming_from(phi, guard).ok_or("internal: an outer phi without a preheader entry")?;
        let next = get(&map, ir::incoming_from(phi, latch).ok_or("internal: an outer phi without a latch entry")?);
        let sel = LLVMBuildSelect(b, wrap, next, np, c"".as_ptr());
        ir::add_incoming(np, &[(init, fpre), (sel, fh)]);
    }
    for (&phi, &np) in inner_phis.iter().zip(&new_inner) {
        let init = ir::incoming_from(phi, cfg.blocks[ic.preheader]).ok_or("internal: an inner phi without a preheader entry")?;
        let next = get(&map, ir::incoming_from(phi, body).ok_or("internal: an inner phi without a latch entry")?);
        let sel = LLVMBuildSelect(b, wrap, init, next, c"".as_ptr());
        ir::add_incoming(np, &[(init, fpre), (sel, fh)]);
    }
    // The outer counter (rebuilt with the guard as its entry) and its start.
    if let Some(&ov) = outer_phis.iter().find(|&&p| ir::incoming_from(p, latch) == Some(oc.next)) {
        let ostart = ir::incoming_from(ov, guard).ok_or("internal: the outer counter without an entry from the guard")?;
        let around: Vec<LLVMBasicBlockRef> = path.before.iter().map(|&(bb, _)| cfg.blocks[bb]).collect();
        let flat = Flat { b, fpre, fh, wrap, ti, map: &map };
        reduce_addresses(&flat, f, cfg, l, (ov, ostart), (ic, istep), body, &around)?;
    }
    // The exit's phis take the latch's values from the last iteration.
    for phi in ir::instructions(exit).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI) {
        let v = ir::incoming_from(phi, latch).ok_or("internal: an exit phi without a latch entry")?;
        ir::add_incoming(phi, &[(get(&map, v), fh)]);
    }
    LLVMDisposeBuilder(b);
    Ok(())
}

/// The flattened loop as [`reduce_addresses`] adds to it: the builder,
/// its preheader and its block, whether the inner loop wraps in this
/// iteration, the inner trip count (`i64`, in the guard) and the clones of
/// the nest's instructions.
struct Flat<'a> {
    b: LLVMBuilderRef,
    fpre: LLVMBasicBlockRef,
    fh: LLVMBasicBlockRef,
    wrap: LLVMValueRef,
    ti: LLVMValueRef,
    map: &'a HashMap<LLVMValueRef, LLVMValueRef>,
}

/// The accesses' addresses in the flattened loop as pointers of their own
/// when they are affine in both counters, `base + C + R·o + S·i`: each
/// iteration adds `S·step`, or, when the inner loop wraps, `R - (T_I -
/// 1)·step·S` (both invariant), instead of computing the address from the
/// counters (a multiply and adds per access).
/// (`ov`, `ostart`: the outer counter and its start; `around`: the blocks
/// of the path before the inner loop `body`.)
#[allow(clippy::too_many_arguments)]
unsafe fn reduce_addresses(
    fl: &Flat,
    f: LLVMValueRef,
    cfg: &Cfg,
    l: &Loop,
    (ov, ostart): (LLVMValueRef, LLVMValueRef),
    (ic, istep): (&Counted, i64),
    body: LLVMBasicBlockRef,
    around: &[LLVMBasicBlockRef],
) -> Result<(), String> {
    use crate::addr::Poly;
    let Flat { b, fpre, fh, wrap, ti, map } = *fl;
    let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    let m = LLVMGetGlobalParent(f);
    let i64t = LLVMInt64TypeInContext(ctx);
    let ity = LLVMTypeOf(ic.iv);
    let i8t = LLVMInt8TypeInContext(ctx);
    let iv = ic.iv;
    let atom = |v: LLVMValueRef| v == ov || v == iv || !defined_in(cfg, l, v);
    let counters = |v: LLVMValueRef| v == ov || v == iv;
    let val = |v: LLVMValueRef| ir::const_i64(v).map(Poly::constant).unwrap_or_else(|| Poly::atom(v));
    let ranks = ir::Ranks::new(f);
    let first = LLVMGetFirstInstruction(fh);
    let term = LLVMGetBasicBlockTerminator(fh);
    let pre_term = LLVMGetBasicBlockTerminator(fpre);
    let mut pointers: Vec<(LLVMValueRef, Poly, LLVMValueRef)> = Vec::new();
    let mut deltas: Vec<(Poly, Poly, LLVMValueRef)> = Vec::new();
    // The inner loop's accesses, and the loads around it (affine in the outer counter alone).
    let around: Vec<LLVMValueRef> = around.iter().flat_map(|&bb| ir::instructions(bb)).collect();
    for a in ir::instructions(body).into_iter().chain(around) {
        let at = match (ir::opcode(a), mem(a)) {
            (O::LLVMLoad, Mem::Load(_)) => 0,
            (O::LLVMStore, Mem::Store(_)) => 1,
            (O::LLVMCall, Mem::Load(_)) => 0,
            (O::LLVMCall, Mem::Store(_)) => 1,
            _ => continue,
        };
        let ptr = LLVMGetOperand(a, at);
        let (base, Some(off)) = address(m, ptr, &atom) else { continue };
        if defined_in(cfg, l, base) || counters(base) {
            continue;
        }
        let (sc, rest) = off.split(iv);
        let (rc, cc) = rest.split(ov);
        if sc.mentions(counters) || rc.mentions(counters) || cc.mentions(counters) {
            continue;
        }
        let Some(&clone) = map.get(&a) else { continue };
        let pp = match pointers.iter().find(|p| p.0 == base && p.1 == off) {
            Some(p) => p.2,
            None => {
                let (Some(ro), Some(si)) = (rc.mul(&val(ostart)), sc.mul(&val(ic.start))) else { continue };
                let init = cc.add(&ro, 1).add(&si, 1);
                LLVMPositionBuilderBefore(b, pre_term);
                let off0 = LLVMBuildTrunc(b, crate::interchange::emit_poly(b, &init, &ranks, i64t)?, ity, c"".as_ptr());
                let mut idx = [off0];
                let p0 = LLVMBuildGEP2(b, i8t, base, idx.as_mut_ptr(), 1, c"".as_ptr());
                let delta = match deltas.iter().find(|d| d.0 == sc && d.1 == rc) {
                    Some(d) => d.2,
                    None => {
                        let sv = crate::interchange::emit_poly(b, &sc, &ranks, i64t)?;
                        let rv = crate::interchange::emit_poly(b, &rc, &ranks, i64t)?;
                        let k64 = |v: i64| LLVMConstInt(i64t, v as u64, 1);
                        let d = LLVMBuildMul(b, sv, k64(istep), c"".as_ptr());
                        let back = LLVMBuildMul(b, LLVMBuildSub(b, ti, k64(1), c"".as_ptr()), d, c"".as_ptr());
                        let dw = LLVMBuildSub(b, rv, back, c"".as_ptr());
                        let (d, dw) = (LLVMBuildTrunc(b, d, ity, c"".as_ptr()), LLVMBuildTrunc(b, dw, ity, c"".as_ptr()));
                        LLVMPositionBuilderBefore(b, term);
                        let sel = LLVMBuildSelect(b, wrap, dw, d, c"".as_ptr());
                        deltas.push((sc.clone(), rc.clone(), sel));
                        sel
                    }
                };
                LLVMPositionBuilderBefore(b, first);
                let phi = LLVMBuildPhi(b, LLVMTypeOf(ptr), c"".as_ptr());
                LLVMPositionBuilderBefore(b, term);
                let mut di = [delta];
                let next = LLVMBuildGEP2(b, i8t, phi, di.as_mut_ptr(), 1, c"".as_ptr());
                ir::add_incoming(phi, &[(p0, fpre), (next, fh)]);
                pointers.push((base, off.clone(), phi));
                phi
            }
        };
        LLVMSetOperand(clone, at, pp);
    }
    Ok(())
}

#[cfg(test)]
#[path = "flatten_tests.rs"]
mod tests;

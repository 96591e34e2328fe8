//! `dsp-unroll-jam`: unroll-and-jam of the loop around a reduction nest
//! (the classic transformation of Allen and Kennedy, "Optimizing Compilers
//! for Modern Architectures", §8.4.2; what TI's and Hexagon's compilers
//! apply to matrix products). In `for i { for j { s = 0; for k { s += x[i][k]
//! * y[k][j] } z[i][j] = s } }` the sum over k is one chain of dependent
//! multiply-adds per (i, j): a strict float sum cannot be split, and when
//! the j loop is short (a 16×16 product on 16 lanes: one vector of j) the
//! chain's latency is the loop's speed. Running U iterations of i in one
//! (i, i+1, …, i+U−1 side by side in the j and k loops) makes U independent
//! chains that share the loads of y, and each keeps its order: exact.
//!
//! A nest qualifies when the outer loop is counted and holds exactly one
//! loop, which holds exactly one innermost loop carrying a value (the
//! reduction); the inner loops' bounds and branches do not depend on the
//! outer counter; no value leaves the nest; calls are pure; and the jam
//! provably keeps every memory access in its order where it matters: each
//! object stored to is stored at one place per iteration, `base + R·i +
//! c·j + d` with `c` the element size and `R` at least `c` times the j
//! loop's trip count (rows of a row-major matrix), and loaded, if at all,
//! only there. U is the machine's vector multiply-add latency from the
//! `.isa`, at most 4. The remaining iterations (and loops too short for one
//! jammed iteration) run the original nest.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};
use isa_tablegen::SemOp;

use crate::addr::{address, counted, may_alias, mem_op, poly, Counted, Poly};
use crate::caps::Caps;
use crate::cfg::{Cfg, Loop};
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// Runs the pass on `m`: whether it changed, and its remarks (pass `unroll-jam`).
pub fn run(m: LLVMModuleRef, caps: &Caps) -> (bool, Vec<Remark>) {
    let mut remarks = Vec::new();
    crate::loops::run(m);
    let mut changed = false;
    for f in ir::defined_functions(m) {
        let mut tried: Vec<LLVMBasicBlockRef> = Vec::new();
        loop {
            let cfg = Cfg::new(f);
            let loops = cfg.loops();
            let Some((l, j, k)) = candidate(&cfg, &loops, &tried) else { break };
            tried.push(cfg.blocks[l.header]);
            let at = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[l.latches[0]]) };
            let u = factor(caps, float_reduction(&cfg, k));
            if u < 2 {
                continue;
            }
            match check(m, &cfg, l, j).and_then(|nest| jam(f, &cfg, l, &nest, u)) {
                Ok(made) => {
                    changed = true;
                    tried.extend(made);
                    remarks.push(Remark { kind: RemarkKind::Passed, at, name: "UnrollAndJam", msg: format!("loop unrolled by {u} and jammed: {u} independent reductions in the inner loop") });
                }
                Err(why) => remarks.push(Remark { kind: RemarkKind::Missed, at, name: "NotUnrollAndJammed", msg: format!("loop not unrolled and jammed: {why}") }),
            }
            crate::loops::run(m);
        }
        ir::delete_dead(f);
    }
    (changed, remarks)
}

/// Iterations jammed: the latency of the machine's vector multiply-add of
/// the reduction's type (the chain's step), rounded to 2 or 4 (a power of
/// two keeps the guard's arithmetic a mask); 0 without one.
fn factor(caps: &Caps, float: bool) -> usize {
    use dsp_egg_isel::lang::Elem;
    use dsp_egg_isel::target::{Opnd, Target};
    let elem = if float { Elem::F32 } else { Elem::I32 };
    let lat = Target::new(caps.m, elem).ok().and_then(|t| t.find(SemOp::Mac, Some(Opnd::V), &[Opnd::V, Opnd::V, Opnd::V]).map(|i| i.latency));
    match lat {
        Some(l) if l >= 4 => 4,
        Some(_) => 2,
        None => 0,
    }
}

/// Whether the innermost loop's carried values (besides its counter) are floats.
fn float_reduction(cfg: &Cfg, k: &Loop) -> bool {
    ir::instructions(cfg.blocks[k.header]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).any(|p| unsafe {
        matches!(inkwell::llvm_sys::core::LLVMGetTypeKind(LLVMTypeOf(p)), inkwell::llvm_sys::LLVMTypeKind::LLVMFloatTypeKind | inkwell::llvm_sys::LLVMTypeKind::LLVMDoubleTypeKind)
    })
}

/// The next loop (not tried) around exactly one loop around exactly one
/// innermost loop that carries a value besides its counter.
fn candidate<'a>(cfg: &Cfg, loops: &'a [Loop], tried: &[LLVMBasicBlockRef]) -> Option<(&'a Loop, &'a Loop, &'a Loop)> {
    let children = |l: &Loop| -> Vec<&'a Loop> {
        let inner: Vec<&Loop> = loops.iter().filter(|q| q.header != l.header && l.contains(q.header)).collect();
        inner.iter().copied().filter(|q| !inner.iter().any(|r| r.header != q.header && r.contains(q.header))).collect()
    };
    loops.iter().filter(|l| !tried.contains(&cfg.blocks[l.header])).find_map(|l| {
        let [j] = children(l)[..] else { return None };
        let [k] = children(j)[..] else { return None };
        if !children(k).is_empty() {
            return None;
        }
        let phis = ir::instructions(cfg.blocks[k.header]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).count();
        (phis >= 2).then_some((l, j, k))
    })
}

/// What the jam needs of a nest that qualifies.
struct Nest {
    outer: Counted,
    /// Values of the outer loop that depend on its counter (copied U times).
    dep: HashSet<LLVMValueRef>,
}

fn check(m: LLVMModuleRef, cfg: &Cfg, l: &Loop, j: &Loop) -> Result<Nest, String> {
    let outer = counted(cfg, l).ok_or("the outer loop is not a counted loop with one exit")?;
    let jc = counted(cfg, j).ok_or("the middle loop is not a counted loop with one exit")?;
    let blocks: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b)).collect();
    let insts: Vec<LLVMValueRef> = blocks.iter().flat_map(|&b| ir::instructions(cfg.blocks[b])).collect();
    let inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&x| l.contains(x)) };
    let header_phis = ir::instructions(cfg.blocks[l.header]).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).count();
    if header_phis != 1 {
        return Err("the outer loop carries values besides its counter".into());
    }
    unsafe {
        if LLVMGetFirstInstruction(cfg.blocks[outer.exit]).is_null() || ir::opcode(LLVMGetFirstInstruction(cfg.blocks[outer.exit])) == O::LLVMPHI {
            return Err("values leave the nest".into());
        }
    }
    for &i in &insts {
        if ir::users(i).into_iter().any(|u| !inside(u)) {
            return Err("values leave the nest".into());
        }
    }
    // What depends on the outer counter (its own increment and test too).
    let mut dep: HashSet<LLVMValueRef> = [outer.iv].into_iter().collect();
    loop {
        let before = dep.len();
        for &i in &insts {
            if dep.contains(&i) {
                continue;
            }
            let n = unsafe { LLVMGetNumOperands(i) } as u32;
            if (0..n).any(|k| dep.contains(&unsafe { LLVMGetOperand(i, k) })) {
                dep.insert(i);
            }
        }
        if dep.len() == before {
            break;
        }
    }
    let latch_term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[outer.latch]) };
    let atom = |v: LLVMValueRef| !dep.contains(&v) || v == outer.iv;
    let mut stores: Vec<(LLVMValueRef, Poly, i64)> = Vec::new();
    let mut loads: Vec<(LLVMValueRef, Option<Poly>)> = Vec::new();
    for &i in &insts {
        let op = ir::opcode(i);
        if unsafe { !LLVMIsATerminatorInst(i).is_null() } && i != latch_term && dep.contains(&i) {
            return Err("a branch in the nest depends on the outer counter".into());
        }
        if op == O::LLVMSwitch || op == O::LLVMIndirectBr {
            return Err("a switch in the nest".into());
        }
        // (Lifetime markers and assumptions touch no memory the jam reorders.)
        if ir::called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.lifetime.") || n.starts_with("llvm.assume")) {
            continue;
        }
        if let Some(a) = mem_op(m, i)? {
            let (base, off) = address(m, a.ptr, &atom);
            if a.store {
                let off = off.ok_or("a store at an address not affine in the loops' counters")?;
                stores.push((base, off, a.size));
            } else {
                loads.push((base, off));
            }
        }
    }
    if stores.is_empty() {
        return Err("it stores nothing".into());
    }
    // Each stored object: one slot per iteration, a row of its own per outer iteration.
    let any = |_: LLVMValueRef| true;
    let (rb, rs) = (poly(jc.bound, 0, &any).ok_or("internal: no trip count")?, poly(jc.start, 0, &any).ok_or("internal: no trip count")?);
    let row = rb.add(&rs, -1);
    for (base, off, size) in &stores {
        if !ir::identified_object(*base) {
            return Err("a store through a pointer of unknown origin".into());
        }
        if stores.iter().any(|s| s.0 == *base && s.1 != *off) {
            return Err(format!("'{}' is stored at two places", ir::value_name(*base)));
        }
        let (r, rest) = off.split(outer.iv);
        let (cj, d) = rest.split(jc.iv);
        if cj.as_const() != Some(*size) || d.mentions(|v| inside(v)) || r.mentions(|v| inside(v)) {
            return Err(format!("'{}' is not stored one element per middle iteration along a row", ir::value_name(*base)));
        }
        // The row's length in bytes: at least the middle loop's elements.
        let long = match (r.as_const(), row.as_const()) {
            (Some(rc), Some(n)) => rc >= size * n,
            _ => r.multiple_of(&row.scaled(*size)).is_some_and(|k| k >= 1),
        };
        if !long {
            return Err(format!("rows of '{}' that different outer iterations store may overlap", ir::value_name(*base)));
        }
    }
    for (base, off) in &loads {
        for (sb, so, _) in &stores {
            let same = base == sb;
            if (same && off.as_ref() != Some(so)) || (!same && may_alias(*base, *sb)) {
                return Err(format!("'{}' is loaded where the nest may store", ir::value_name(*base)));
            }
        }
    }
    Ok(Nest { outer, dep })
}

/// Builds the jammed nest in front of the original (see the module doc);
/// returns the new loops' headers.
fn jam(f: LLVMValueRef, cfg: &Cfg, l: &Loop, nest: &Nest, u: usize) -> Result<Vec<LLVMBasicBlockRef>, String> {
    let o = &nest.outer;
    let blocks: Vec<LLVMBasicBlockRef> = (0..cfg.blocks.len()).filter(|&b| l.contains(b)).map(|b| cfg.blocks[b]).collect();
    let (h, latch, pre, exit) = (cfg.blocks[l.header], cfg.blocks[o.latch], cfg.blocks[o.preheader], cfg.blocks[o.exit]);
    unsafe {
        let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
        let b = LLVMCreateBuilderInContext(ctx);
        let ity = LLVMTypeOf(o.iv);
        let c = |v: i64| LLVMConstInt(ity, v as u64, 1);
        let new_block = |name: &str| {
            let n = std::ffi::CString::new(name).unwrap();
            LLVMAppendBasicBlockInContext(ctx, f, n.as_ptr())
        };
        let (guard, jpre, jexit, rest) = (new_block("jam.guard"), new_block("jam.ph"), new_block("jam.exit"), new_block("jam.rest"));
        // guard: the trip count, the jammed iterations, and whether any.
        let loc = inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(latch));
        LLVMSetCurrentDebugLocation2(b, loc);
        LLVMPositionBuilderAtEnd(b, guard);
        let trip = LLVMBuildSub(b, o.bound, o.start, c"".as_ptr());
        // (A `<` test that fails at once still runs one iteration: none jammed.)
        let trip = match LLVMGetICmpPredicate(o.cmp) {
            P::LLVMIntSLT => LLVMBuildSelect(b, LLVMBuildICmp(b, P::LLVMIntSGT, o.bound, o.start, c"".as_ptr()), trip, c(0), c"".as_ptr()),
            P::LLVMIntULT => LLVMBuildSelect(b, LLVMBuildICmp(b, P::LLVMIntUGT, o.bound, o.start, c"".as_ptr()), trip, c(0), c"".as_ptr()),
            _ => trip,
        };
        let whole = LLVMBuildAnd(b, trip, c(-(u as i64)), c"".as_ptr());
        let end = LLVMBuildAdd(b, o.start, whole, c"".as_ptr());
        LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, whole, c(0), c"".as_ptr()), jpre, rest);
        // Clones of the nest's blocks.
        let bmap: HashMap<LLVMBasicBlockRef, LLVMBasicBlockRef> = blocks.iter().map(|&x| (x, new_block("jam.body"))).collect();
        LLVMPositionBuilderAtEnd(b, jpre);
        LLVMBuildBr(b, bmap[&h]);
        // The jammed counter and its copies i + 1 … i + U − 1.
        LLVMPositionBuilderAtEnd(b, bmap[&h]);
        let iv = LLVMBuildPhi(b, ity, c"".as_ptr());
        let mut copies: Vec<HashMap<LLVMValueRef, LLVMValueRef>> = vec![HashMap::new(); u];
        let mut shared: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        // Each clone and the copy of the outer iteration it belongs to (0 when shared).
        let mut made: Vec<(LLVMValueRef, usize)> = Vec::new();
        for (k, map) in copies.iter_mut().enumerate() {
            let v = if k == 0 { iv } else { LLVMBuildAdd(b, iv, c(k as i64), c"".as_ptr()) };
            map.insert(o.iv, v);
        }
        let latch_term = LLVMGetBasicBlockTerminator(latch);
        for &blk in &blocks {
            LLVMPositionBuilderAtEnd(b, bmap[&blk]);
            for i in ir::instructions(blk) {
                // (The increment and test are cloned too, per copy: dead
                // unless the body reads them, then each copy's own.)
                if i == o.iv || i == latch_term {
                    continue;
                }
                let n = if nest.dep.contains(&i) { u } else { 1 };
                for k in 0..n {
                    // (In the original's order: its phis come first.)
                    let x = LLVMInstructionClone(i);
                    LLVMInsertIntoBuilder(b, x);
                    made.push((x, k));
                    if n == 1 {
                        shared.insert(i, x);
                    } else {
                        copies[k].insert(i, x);
                    }
                }
            }
        }
        // Operands: each copy's own values, the shared ones, blocks mapped.
        let remap = |v: LLVMValueRef, k: usize| -> LLVMValueRef { copies[k].get(&v).or_else(|| shared.get(&v)).copied().unwrap_or(v) };
        for &(x, k) in &made {
            for q in 0..LLVMGetNumOperands(x) as u32 {
                let v = LLVMGetOperand(x, q);
                if LLVMValueIsBasicBlock(v) != 0 {
                    if let Some(&nb) = bmap.get(&LLVMValueAsBasicBlock(v)) {
                        LLVMSetOperand(x, q, LLVMBasicBlockAsValue(nb));
                    }
                } else {
                    LLVMSetOperand(x, q, remap(v, k));
                }
            }
        }
        // A phi's incoming blocks are not operands in the C API: such phis are rebuilt.
        for &(x, _) in &made {
            if ir::opcode(x) != O::LLVMPHI {
                continue;
            }
            let incoming: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(x)).map(|q| (LLVMGetIncomingValue(x, q), LLVMGetIncomingBlock(x, q))).collect();
            LLVMPositionBuilderBefore(b, x);
            let np = LLVMBuildPhi(b, LLVMTypeOf(x), c"".as_ptr());
            for (v, from) in incoming {
                ir::add_incoming(np, &[(v, *bmap.get(&from).unwrap_or(&from))]);
            }
            LLVMReplaceAllUsesWith(x, np);
            LLVMInstructionEraseFromParent(x);
        }
        // The jammed latch: U on, until the end of the whole steps.
        LLVMPositionBuilderAtEnd(b, bmap[&latch]);
        let next = LLVMBuildAdd(b, iv, c(u as i64), c"".as_ptr());
        LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, next, end, c"".as_ptr()), bmap[&h], jexit);
        ir::add_incoming(iv, &[(o.start, jpre), (next, bmap[&latch])]);
        // After it: the original loop for what is left, or done.
        LLVMPositionBuilderAtEnd(b, jexit);
        LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, whole, trip, c"".as_ptr()), rest, exit);
        LLVMPositionBuilderAtEnd(b, rest);
        let from = LLVMBuildPhi(b, ity, c"".as_ptr());
        ir::add_incoming(from, &[(o.start, guard), (end, jexit)]);
        LLVMBuildBr(b, h);
        // The original loop is entered from `rest`, starting at `from`.
        ir::rebuild_phi(o.iv, &[(from, rest), (o.next, latch)]);
        ir::redirect(pre, h, guard);
        LLVMDisposeBuilder(b);
        Ok(vec![bmap[&h], h])
    }
}

#[cfg(test)]
#[path = "jam_tests.rs"]
mod tests;

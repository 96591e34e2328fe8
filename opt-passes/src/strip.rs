//! `dsp-interchange`'s second form: strip-mining the inner loop by the lane
//! count and interchanging the strip loop with the outer one (Allen and
//! Kennedy, "Optimizing Compilers for Modern Architectures", §9.3.1 strip
//! mining, §5.2 interchange), so that a short vector loop inside a long loop
//! becomes one masked vector step inside a long loop the backend can
//! software-pipeline. The target is a 3×3 convolution of a 64-wide image:
//! `for (r < 62) for (col < 62)` vectorizes to three whole steps and a
//! masked one per row, too short to pipeline; as
//! `for (strip < 4) for (r < 62) for (col in strip)` each of the four strips
//! is a 62-iteration loop around one masked step.
//!
//! The nest qualifies as for the interchange ([`crate::interchange`]: one
//! inner loop of one block carrying only its counter, affine accesses,
//! stored objects identified and reached alike); the outer loop may also
//! count by one to a bound (`icmp eq`). Its accesses move with the inner
//! counter element by element (a masked step can do them), or a strip's
//! iterations can be shown to touch disjoint memory ([`independence`]:
//! an FFT's butterflies `x[i + j]`, `x[i + j + half]` once `half` is at
//! least a vector) and every strip is whole, which the guard checks: then
//! egg makes one step with no mask, strided twiddles `w[j * step]` and all
//! ([`STRIP_FULL`]). The strips run when, at run time,
//! the outer iterations touch disjoint memory (the interchange's guard),
//! the inner loop is at most [`MAX_VECTORS`] vectors long, and the outer
//! loop has at least twice as many iterations as the inner one has strips
//! (fewer loop entries than before). Else the nest runs as it was. (An
//! inner loop shorter than a vector is one strip: one masked step per outer
//! iteration as before, but in a loop that pipelines. Where the interchange
//! applies too, its guard comes first: its strided vectors fill every lane.)
//!
//! The strip's loop (at most `lanes` iterations, from the strip's start to
//! the smaller of its end and the inner bound) is marked [`STRIP`] (and
//! independent when [`independence`] says so, with its run-time part in
//! the guard): `dsp-egg-isel` then lowers it to one masked step with no
//! loop, so the loop around it is one block. The loop around it is marked
//! independent (its iterations touch disjoint memory).

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;

use crate::cfg::Cfg;
use crate::addr::Poly;
use crate::interchange::{clone_split, emit_poly, mark_independent, Form, Guard, Nest};
use crate::ir;

/// The loop property of a strip's loop: at most the lane count of
/// iterations, for `dsp-egg-isel` to lower to one masked step.
pub const STRIP: &str = "dsp.loop.strip";

/// The loop property of a strip's loop that always runs exactly the lane
/// count of iterations (the inner trip count a multiple of it, checked by
/// the guard): one step with no mask, so strided accesses may be in it.
pub const STRIP_FULL: &str = "dsp.loop.strip.full";

/// The longest inner loop, in vectors, that is strip-mined: longer vector
/// loops run long enough for the pipeliner as they are, and walking a long
/// row strip by strip loses the row's cache lines between strips. Measured
/// (`scripts/bench-egg`, `scripts/bench-poly`): 8 rather than 4 takes
/// conv2d 64 on ftm8 (62 columns, 8 vectors) from 12626 to 9096 cycles and
/// costs covariance's medium size 0.3% in stalls (2324110 to 2331909 on ftm).
pub const MAX_VECTORS: i64 = 8;

/// Whether the loop of latch branch `term` is a strip (see [`STRIP`]).
pub fn is_strip(term: LLVMValueRef) -> bool {
    crate::wfv::directives::has_loop_property(term, STRIP)
}

/// Whether the loop of latch branch `term` is a full strip (see [`STRIP_FULL`]).
pub fn is_full_strip(term: LLVMValueRef) -> bool {
    crate::wfv::directives::has_loop_property(term, STRIP_FULL)
}

/// Two places of one stored object that must stay apart for the inner
/// loop's iterations to touch disjoint memory: their distance `d` (bytes,
/// over invariants), the bytes both move per inner iteration (`step`,
/// positive) and the larger access's size.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Apart {
    pub(crate) d: Poly,
    pub(crate) step: i64,
    pub(crate) size: i64,
}

impl Apart {
    /// `|d| ≥ (iters - 1)·step + size` at `b` for a run-time `iters` (i64),
    /// `known` its polynomial when there is one: then a distance that
    /// differs from the bound by a constant is decided here (an FFT's
    /// `x[i + j]` and `x[i + j + half]` over `j < half`: always apart).
    pub(crate) unsafe fn emit_over(&self, b: LLVMBuilderRef, iters: LLVMValueRef, known: Option<&Poly>, ranks: &ir::Ranks, i64t: LLVMTypeRef) -> Result<LLVMValueRef, String> {
        let k64 = |v: i64| LLVMConstInt(i64t, v as u64, 1);
        if let Some(n) = known {
            let min = n.scaled(self.step).add(&Poly::constant(self.size - self.step), 1);
            let apart = [self.d.add(&min, -1), self.d.scaled(-1).add(&min, -1)].iter().any(|x| x.as_const().is_some_and(|c| c >= 0));
            if apart {
                return Ok(LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(i64t)), 1, 0));
            }
        }
        let d = emit_poly(b, &self.d, ranks, i64t)?;
        let min = LLVMBuildAdd(b, LLVMBuildMul(b, iters, k64(self.step), c"".as_ptr()), k64(self.size - self.step), c"".as_ptr());
        let neg = LLVMBuildSub(b, k64(0), min, c"".as_ptr());
        Ok(LLVMBuildOr(b, LLVMBuildICmp(b, P::LLVMIntSGE, d, min, c"".as_ptr()), LLVMBuildICmp(b, P::LLVMIntSLE, d, neg, c"".as_ptr()), c"".as_ptr()))
    }
}

/// When the inner loop's iterations touch disjoint memory: per stored
/// object, every access moves with the inner counter by the same `b ≠ 0`
/// bytes (at least its size), and each pair of its accesses at different
/// places `q1`, `q2` stays apart over the iterations considered:
/// `|q2 - q1| ≥ (iterations - 1)·|b| + size` (the returned pairs, for the
/// guard: over a strip of `lanes` iterations, or over the whole inner loop
/// for [`crate::flatten`]). `None` when that cannot be said.
pub(crate) fn independence(nest: &Nest) -> Option<Vec<Apart>> {
    let mut out: Vec<Apart> = Vec::new();
    for (accs, _) in &nest.objects {
        let b = accs.first()?.0;
        let size = accs.iter().map(|a| a.2).max()?;
        if b == 0 || accs.iter().any(|a| a.0 != b) || b.abs() < size {
            return None;
        }
        for (x, (_, q1, s1)) in accs.iter().enumerate() {
            for (_, q2, s2) in &accs[x + 1..] {
                if q1 == q2 {
                    continue;
                }
                // One condition per distance (a load and a store of one element share it).
                let d = q2.add(q1, -1);
                let size = (*s1).max(*s2);
                match out.iter_mut().find(|e| e.d == d || e.d == d.scaled(-1)) {
                    Some(e) => e.size = e.size.max(size),
                    None => out.push(Apart { d, step: b.abs(), size }),
                }
            }
        }
    }
    Some(out)
}

/// Builds the strip-mined nest behind its guard, which falls back to
/// `fallback` (`indep`: what [`independence`] said of the nest); returns
/// the guard and the new loops' headers. The caller enters the guard.
pub(crate) fn strip_mine(
    f: LLVMValueRef,
    cfg: &Cfg,
    nest: &Nest,
    lanes: i64,
    indep: Option<&[Apart]>,
    fallback: LLVMBasicBlockRef,
    shared: &Guard,
) -> Result<(LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>), String> {
    let o = &nest.outer;
    let exit = cfg.blocks[o.exit];
    let ranks = ir::Ranks::new(f);
    unsafe {
        let fm = Form::new(f, nest);
        let (b, jty, i64t) = (fm.b, fm.jty, fm.i64t);
        let k64 = |v: i64| fm.k64(v);
        let kj = |v: i64| LLVMConstInt(jty, v as u64, 1);
        let (guard_bb, sh, tph, t, jl, tl, sl) =
            (fm.block(c"sm.guard"), fm.block(c"sm.strip"), fm.block(c"sm.tph"), fm.block(c"sm.t"), fm.block(c"sm.j"), fm.block(c"sm.tlatch"), fm.block(c"sm.slatch"));
        // The guard: disjoint outer iterations, at most MAX_VECTORS vectors
        // of inner loop, and at least two outer iterations per strip.
        LLVMPositionBuilderAtEnd(b, guard_bb);
        let Guard { cnt, trip_j, mut ok } = shared.clone();
        // Strips whose iterations are independent are marked so (egg then
        // needs no checks of its own); without contiguous accesses every
        // strip must be whole (no mask), and independent.
        let full = !nest.contiguous;
        if full && indep.is_none() {
            return Err("internal: whole strips without independence".into());
        }
        for a in indep.into_iter().flatten() {
            ok.push(a.emit_over(b, k64(lanes), Some(&Poly::constant(lanes)), &ranks, i64t)?);
        }
        if full {
            ok.push(LLVMBuildICmp(b, P::LLVMIntEQ, LLVMBuildSRem(b, trip_j, k64(lanes), c"".as_ptr()), k64(0), c"".as_ptr()));
        }
        let strips = LLVMBuildSDiv(b, LLVMBuildAdd(b, trip_j, k64(lanes - 1), c"".as_ptr()), k64(lanes), c"".as_ptr());
        ok.push(LLVMBuildICmp(b, P::LLVMIntSLE, trip_j, k64(MAX_VECTORS * lanes), c"".as_ptr()));
        ok.push(LLVMBuildICmp(b, P::LLVMIntSGE, cnt, LLVMBuildMul(b, strips, k64(2), c"".as_ptr()), c"".as_ptr()));
        let cnt_i = fm.end_guard(ok, cnt, sh, fallback)?;
        // The strip loop: its start, and its end (at most `lanes` on).
        LLVMPositionBuilderAtEnd(b, sh);
        let sphi = LLVMBuildPhi(b, jty, c"".as_ptr());
        let rem = LLVMBuildSub(b, nest.jbound, sphi, c"".as_ptr());
        let more = LLVMBuildICmp(b, P::LLVMIntSGT, rem, kj(lanes), c"".as_ptr());
        let len = LLVMBuildSelect(b, more, kj(lanes), rem, c"".as_ptr());
        let jend = LLVMBuildAdd(b, sphi, len, c"".as_ptr());
        LLVMBuildBr(b, tph);
        // The outer loop, by its own count, around the strip's loop.
        let (tphi, i) = fm.outer_counter(nest, t);
        LLVMPositionBuilderAtEnd(b, jl);
        let jphi = LLVMBuildPhi(b, jty, c"".as_ptr());
        // The outer loop's values the body uses (in the outer loop when they
        // depend on its counter, else before it), then the body in the
        // strip's loop; the inner latch's compare is rebuilt.
        let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        map.insert(o.iv, i);
        map.insert(nest.jiv, jphi);
        let mut varies: HashSet<LLVMValueRef> = [o.iv].into_iter().collect();
        let mut made = Vec::new();
        let cmp_only_for_latch = ir::users(nest.jcmp) == [nest.jterm];
        clone_split(b, nest.glue.iter().copied(), &mut varies, &mut map, &mut made, t, tph);
        LLVMPositionBuilderAtEnd(b, jl);
        fm.clone_body(nest, cmp_only_for_latch, &mut map, &mut made);
        ir::remap_operands(&made, &map);
        let jnext = *map.get(&nest.jnext).ok_or("internal: the inner counter's increment was not cloned")?;
        let jterm = LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, jnext, jend, c"".as_ptr()), jl, tl);
        ir::add_loop_property(jterm, STRIP, None);
        if full {
            ir::add_loop_property(jterm, STRIP_FULL, None);
        }
        if indep.is_some() {
            mark_independent(jterm);
        }
        ir::add_incoming(jphi, &[(sphi, t), (jnext, jl)]);
        LLVMPositionBuilderAtEnd(b, tph);
        LLVMBuildBr(b, t);
        LLVMPositionBuilderAtEnd(b, t);
        LLVMBuildBr(b, jl);
        // The outer latch, marked independent; then the next strip or out of the nest.
        let tterm = fm.count_outer(tphi, cnt_i, (tph, t, tl, sl));
        mark_independent(tterm);
        LLVMPositionBuilderAtEnd(b, sl);
        LLVMBuildCondBr(b, more, sh, exit);
        ir::add_incoming(sphi, &[(nest.jstart, guard_bb), (jend, sl)]);
        Ok((guard_bb, vec![sh, t, jl]))
    }
}

#[cfg(test)]
#[path = "strip_tests.rs"]
mod tests;

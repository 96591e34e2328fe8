//! The pass `dsp-egg-isel`: instruction selection by equality saturation (seed 004)
//! on innermost loops. [`lift`] turns `lanes` iterations of a one-block
//! innermost loop into the vector DSL of `dsp-egg-isel` (the crate), which
//! saturates it with the rules derived from the `.isa` and extracts the
//! cheapest program by the `.isa`'s costs; when that is cheaper than the
//! scalar iterations, [`lower`] emits it as a vector loop in front of the
//! original loop, which runs what remains. Loops LLVM's vectorizers
//! already vectorized are left to them. Remarks: `-Rpass=egg` (what was
//! done: cost before and after, rules that fired, limits hit),
//! `-Rpass-missed=egg` (why not), `-Rpass-analysis=egg` (e-graph sizes).

pub mod lift;
pub mod lower;

use std::time::Duration;

use dsp_egg_isel::cost::IsaCost;
use dsp_egg_isel::rules::{self, Families, FloatRules};
use dsp_egg_isel::saturate::{optimize, ExtractOpts, Limits};
use dsp_egg_isel::lang::Elem;
use dsp_egg_isel::target::{Opnd, Target};
use dsp_egg_isel::throughput::{self, Stores};
use dsp_egg_isel::lang::VecLang;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use crate::caps::Caps;
use crate::cfg::Cfg;
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// The pass's parameters: `dsp-egg-isel<[limits=N,I,MS][;no-coop][;contract][;fast-math][;no-ilp][;no-tail]>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub limits: Limits,
    /// The scalar–vector cooperation rules (off: a Diospyros-like rule set).
    pub cooperation: bool,
    pub floats: FloatRules,
    /// Try the optimal (MILP) extractor on small e-graphs.
    pub ilp: bool,
    /// The iterations left after a vector loop as one masked step (else
    /// the original loop runs them).
    pub tail: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { limits: Limits::default(), cooperation: true, floats: FloatRules::default(), ilp: true, tail: true }
    }
}

impl Options {
    pub fn parse(params: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for p in params.split(';').filter(|p| !p.is_empty()) {
            match p {
                "no-coop" => o.cooperation = false,
                "contract" => o.floats.contract = true,
                "fast-math" => {
                    o.floats.contract = true;
                    o.floats.reassociate = true;
                }
                "no-ilp" => o.ilp = false,
                "no-tail" => o.tail = false,
                _ => match p.strip_prefix("limits=") {
                    Some(l) => o.limits = Limits::parse(l).map_err(|e| format!("dsp-egg-isel: --egg-limits: {e}"))?,
                    None => return Err(format!("dsp-egg-isel: unknown parameter '{p}' (expected limits=N,I,MS, no-coop, contract, fast-math, no-ilp or no-tail)")),
                },
            }
        }
        Ok(o)
    }
}

/// Runs the pass on `m`: whether it changed, and its remarks.
pub fn run(m: LLVMModuleRef, caps: &Caps, opts: &Options) -> (bool, Vec<Remark>) {
    let mut remarks = Vec::new();
    let mut changed = false;
    for f in ir::defined_functions(m) {
        let (c, r) = run_function(f, caps, opts);
        changed |= c;
        remarks.extend(r);
    }
    (changed, remarks)
}

/// Runs the pass on one function (the form LLVM's function pass managers run).
pub fn run_function(f: LLVMValueRef, caps: &Caps, opts: &Options) -> (bool, Vec<Remark>) {
    let m = unsafe { LLVMGetGlobalParent(f) };
    let mut remarks = Vec::new();
    if unsafe { LLVMCountBasicBlocks(f) } == 0 {
        return (false, remarks);
    }
    // Preheaders, single latches, dedicated exits.
    let mut changed = crate::loops::canonicalize(f);
    for latch in candidates(f) {
        match one(m, caps, opts, f, latch, true, &mut remarks) {
            Ok(u) => {
                changed = true;
                // An interleaved loop leaves up to `u` vectors' worth of
                // iterations: one vector at a time, before the scalar rest.
                if u > 1 {
                    if let Err(why) = one(m, caps, opts, f, latch, false, &mut remarks) {
                        remarks.push(Remark { kind: RemarkKind::Missed, at: latch, name: "NotSelected", msg: format!("the interleaved loop's remainder not vectorized by egg: {why}") });
                    }
                }
                // The loop left for what remains is not LLVM's to vectorize again.
                mark_vectorized(latch);
            }
            Err(why) => remarks.push(Remark { kind: RemarkKind::Missed, at: latch, name: "NotSelected", msg: format!("loop not vectorized by egg: {why}") }),
        }
    }
    (changed, remarks)
}

/// Marks the loop whose latch branch is `latch` as vectorized
/// (`llvm.loop.isvectorized`), so that LLVM's loop vectorizer leaves it.
fn mark_vectorized(latch: LLVMValueRef) {
    ir::add_loop_property(latch, "llvm.loop.isvectorized", Some(1));
}

/// The latch branches of `f`'s innermost loops.
fn candidates(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let cfg = Cfg::new(f);
    let loops = cfg.loops();
    loops
        .iter()
        .filter(|lp| !loops.iter().any(|o| !std::ptr::eq(o, *lp) && o.header != lp.header && lp.contains(o.header)))
        .filter_map(|lp| lp.latches.first().map(|&l| unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[l]) }))
        .collect()
}

/// The most vectors a step interleaves. More hide more latency on long
/// loops but cost registers (callee-saved vector registers saved and
/// restored, the pipelined loop's prologue) and a narrower loop for the
/// rest: measured with `scripts/bench-egg` and `dsp-bench` on the three
/// machines, 2 never loses to LLVM's interleaving on short loops (a
/// 256-element dot product: 77 cycles on ftm, as LLVM; 139 with 3) while
/// keeping most of the gain on long ones (autocorrelation of 4096 samples
/// on ftm: 7751 cycles; 5944 with 3; 8367 for LLVM).
const MAX_INTERLEAVE: usize = 2;

/// Vectorizes the loop of `latch` (with interleaved vectors where a sum
/// asks for them and `interleave` allows): the vectors per step.
fn one(m: LLVMModuleRef, caps: &Caps, opts: &Options, f: LLVMValueRef, latch: LLVMValueRef, interleave: bool, remarks: &mut Vec<Remark>) -> Result<usize, String> {
    let cfg = Cfg::new(f);
    let sh = crate::wfv::vloop::shape_with(&cfg, latch, true)?;
    if sh.lp.size() != 1 {
        return Err("its body has more than one block".into());
    }
    let body = cfg.blocks[sh.h];
    let vector = ir::instructions(body).into_iter().any(|i| unsafe { LLVMGetTypeKind(LLVMTypeOf(i)) == inkwell::llvm_sys::LLVMTypeKind::LLVMVectorTypeKind });
    if vector {
        return Err("LLVM's vectorizers already vectorized it".into());
    }
    let lanes = caps.m.vector_lanes(32).ok_or("the machine has no 32-bit vectors")? as usize;
    let cond = unsafe { LLVMGetCondition(latch) };
    let control = vec![cond, sh.next];
    // The backend fuses `llvm.fmuladd` where the machine has a scalar fused multiply-add.
    let fused_muladd = Target::new(caps.m, Elem::F32).is_ok_and(|t| t.has(isa_tablegen::SemOp::Mac, Some(Opnd::S), &[Opnd::S; 3]));
    let independent = crate::interchange::is_independent(latch);
    // A strip's loop: one masked step, one vector (no interleaving).
    let strip = crate::strip::is_strip(latch);
    let interleave = interleave && !strip;
    let lb = lift::LoopBody { block: body, iv: sh.iv, control, fused_muladd, independent };
    // The rules for a lifted loop (its strided arrays load with `VecLoadS`).
    let rules_for = |l: &lift::Lifted| -> Result<_, String> {
        let target = Target::new(caps.m, l.elem)?;
        let strided: Vec<egg::Symbol> = l.classes.iter().filter(|c| c.stride.is_some()).map(|c| c.name).collect();
        let rules = rules::all_with(&target, opts.floats, Families { cooperation: opts.cooperation, ..Families::default() }, &strided);
        Ok((target, rules))
    };
    let ex = ExtractOpts { ilp_max_nodes: if opts.ilp { 400 } else { 0 }, ilp_cap: Duration::from_millis(200) };
    let lifted = lift::lift(m, &lb, lanes, lanes)?;
    let (target, rules) = rules_for(&lifted)?;
    let cost = IsaCost::new(&target);
    let (best, report) = optimize(&lifted.expr, &rules, &cost, opts.limits, ex);
    saturation_remark(remarks, latch, &report);
    if report.cost_after >= report.cost_before {
        return Err(format!("no cheaper program for {lanes} iterations (cost {})", report.cost_before));
    }
    // Sums kept in vector accumulators: as many vectors per step as the
    // accumulate's latency asks for (at most MAX_INTERLEAVE, and 64 iterations).
    let mut chosen = (lifted, best, report);
    let mut narrow: Option<(lift::Lifted, egg::RecExpr<VecLang>)> = None;
    let accs = lower::vector_accumulators(&chosen.0, &chosen.1);
    if interleave && !accs.is_empty() {
        let stores = Stores {
            vectors: chosen.0.outputs.iter().filter(|o| matches!(o, lift::Output::Store { vector: true, .. })).count(),
            scalars: chosen.0.outputs.iter().filter(|o| matches!(o, lift::Output::Store { vector: false, .. })).count(),
        };
        let summed: Vec<(usize, egg::Id)> = accs.iter().map(|a| (a.1, a.2)).collect();
        let step = throughput::step_cycles(&target, &chosen.1, stores, &summed);
        let product = accs.iter().any(|a| matches!(chosen.1[a.2], VecLang::VecMul(_) | VecLang::VecMulS(_)));
        let latency = throughput::accumulate_latency(&target, product);
        let u = throughput::interleave(step, latency, (64 / lanes).clamp(1, MAX_INTERLEAVE));
        if u > 1 {
            let wide = lift::lift(m, &lb, lanes, u * lanes)?;
            let (_, wide_rules) = rules_for(&wide)?;
            let (best_u, report_u) = optimize(&wide.expr, &wide_rules, &cost, opts.limits, ex);
            saturation_remark(remarks, latch, &report_u);
            let kept = lower::vector_accumulators(&wide, &best_u);
            if report_u.cost_after < report_u.cost_before && kept.len() == u * accs.len() {
                let (l1, b1, _) = std::mem::replace(&mut chosen, (wide, best_u, report_u));
                narrow = Some((l1, b1));
            }
        }
    }
    let (lifted, best, report) = chosen;
    // Integer sums as several chains (exact: wrapping addition).
    let best = dsp_egg_isel::rebalance::rebalance(&best, &target);
    lower::check(&sh, body, &lifted)?;
    // The masked tail runs the one-vector program: the interleaved loop's
    // rest as `copies / lanes` masked steps.
    let narrow = narrow.map(|(l, p)| (l, dsp_egg_isel::rebalance::rebalance(&p, &target)));
    let one_vector: lower::Narrow = narrow.as_ref().map_or((&lifted, &best), |(l, p)| (l, p));
    let tail_prog = Some(one_vector).filter(|(l, p)| opts.tail && lower::tail_ok(l, p));
    let tail = tail_prog.is_some();
    let strided_load = target.has(isa_tablegen::SemOp::VLoadS, Some(Opnd::V), &[Opnd::S, Opnd::S]);
    let strided_store = target.has(isa_tablegen::SemOp::VStoreS, None, &[Opnd::S, Opnd::S, Opnd::V]);
    let strided = lower::Strided { load: strided_load, store: strided_store };
    // A strip (at most `lanes` iterations) as one masked step, no loop; a
    // whole one (exactly `lanes`) as one step with no mask.
    let full = strip && crate::strip::is_full_strip(latch) && lower::full_strip_ok(&lifted);
    let one_step = full || (opts.tail && strip && lower::strip_ok(&lifted, &best));
    if one_step {
        lower::rewrite_strip(f, &sh, body, &lifted, &best, strided, full)?;
    } else {
        lower::rewrite(f, &sh, body, &lifted, &best, tail_prog, strided)?;
    }
    let fired: Vec<String> = report.fired.iter().take(6).map(|(r, n)| format!("{r}×{n}")).collect();
    let mut per_step = if lifted.copies == lanes { format!("{lanes} iterations per step") } else { format!("{} iterations per step ({} vectors interleaved)", lifted.copies, lifted.copies / lanes) };
    if full {
        per_step = format!("a strip of {lanes} iterations as one step");
    } else if one_step {
        per_step = format!("a strip of at most {lanes} iterations as one masked step");
    } else if tail && lifted.copies > lanes {
        per_step.push_str(&format!(", the rest in {} masked steps of {lanes}", lifted.copies / lanes));
    } else if tail {
        per_step.push_str(", the rest in one masked step");
    }
    remarks.push(Remark {
        kind: RemarkKind::Passed,
        at: latch,
        name: "Selected",
        msg: format!(
            "loop vectorized by egg: {per_step}, cost {} -> {} ({} extraction); rules {}{}",
            report.cost_before,
            report.cost_after,
            report.extractor.name(),
            fired.join(", "),
            report.limit.as_ref().map(|l| format!("; {l} hit")).unwrap_or_default()
        ),
    });
    // With a masked tail nothing is left for a narrower loop.
    Ok(if tail || one_step { 1 } else { lifted.copies / lanes })
}

fn saturation_remark(remarks: &mut Vec<Remark>, latch: LLVMValueRef, report: &dsp_egg_isel::saturate::Report) {
    remarks.push(Remark {
        kind: RemarkKind::Analysis,
        at: latch,
        name: "Saturation",
        msg: format!(
            "egg: {} iterations, {} e-nodes in {} classes, {:.1} ms saturating, {:.1} ms in all{}",
            report.iterations,
            report.nodes,
            report.classes,
            report.saturation.as_secs_f64() * 1e3,
            report.time.as_secs_f64() * 1e3,
            report.limit.as_ref().map(|l| format!(", stopped by its {l}: the best program so far is used")).unwrap_or_default()
        ),
    });
}

#[cfg(test)]
mod tests;

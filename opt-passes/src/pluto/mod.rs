//! The pass `dsp-pluto` (issue 12 item 2): every SCoP of a function
//! ([`crate::scop`]) scheduled by PLuTo (seed 002: Farkas-linearized
//! legality, bounding function, permutable bands, SCC cuts), its
//! permutable bands tiled (seed 002's tiling, PLDI'08 §5) and the result
//! generated back into LLVM IR in place of the region:
//!
//! - [`model`]: the detected SCoP as the polyhedral core's model, or why
//!   not (scalars crossing blocks: left alone with a remark; see there);
//! - [`profit`], [`tilesize`], [`tilecost`]: whether tiling can pay (data
//!   beyond L1D) and the tile sizes (seed 004's reuse model, the innermost
//!   loop whole, refined by the machine model's cost: its Algorithm 1);
//! - [`alias`]: run-time checks for arrays that may alias;
//! - [`dsp_pluto::transform`]: dependences, schedule, tiling, the exact
//!   legality check of the result, the loop AST;
//! - [`region`]: what the region must satisfy to be replaced, and the
//!   switch from the old code to the new;
//! - [`codegen`]: the AST as IR (Polly's `IslNodeBuilder`/`BlockGenerator`
//!   way: new loops in fresh blocks, statements' blocks cloned with their
//!   induction variables remapped).
//!
//! A SCoP whose schedule is the original order with nothing tiled is left
//! alone. Whatever fails — no schedule, an unsupported construct, a module
//! the verifier refuses — leaves the IR as it was, with a remark of pass
//! `pluto`: `-Rpass=pluto` (the hyperplanes of each statement, the bands,
//! the tile sizes), `-Rpass-missed=pluto` (why a SCoP was not
//! transformed), `-Rpass-analysis=pluto` (what detection rejected; SCoPs
//! left as they were). A SCoP whose arrays fit in L1D is left alone unless
//! tile sizes are given or `always` ([`profit`]). Parameters:
//! `dsp-pluto<sizes=32,32,8;default-size=N;always;no-tile;report=FILE>`
//! ([`report`]: the same as JSON, dspcc `--polyhedral-report=FILE`).

pub mod alias;
pub mod codegen;
pub mod model;
pub mod permute;
pub mod profit;
pub mod region;
pub mod report;
pub mod tilecost;
pub mod tilesize;
pub mod unswitch;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod legality_tests;

use dsp_pluto::deps::Dep;
use dsp_pluto::schedule;
use dsp_pluto::tile::TileOptions;
use inkwell::llvm_sys::prelude::*;

use crate::ir;
use crate::scop::{self, Scop};
use crate::wfv::{Remark, RemarkKind};

/// The pass's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Tile permutable bands of two loops or more.
    pub tile: bool,
    /// Tile sizes, one per tiled band row in order; rows past the end get
    /// `default_size`.
    pub sizes: Vec<i64>,
    pub default_size: i64,
    /// Transform even when the data fits in L1D ([`profit`]); implied by
    /// explicit `sizes`.
    pub always: bool,
    /// The machine's L1D capacity in bytes, if it has one: with no `sizes`
    /// given, the tile sizes come from seed 004's model ([`tilesize`]).
    pub l1d: Option<u64>,
    /// The machine's vector lanes (tile sizes of at least one vector are whole vectors).
    pub lanes: i64,
    /// The machine as the tile sizes' cost feedback reads it ([`tilecost`]).
    pub machine: Option<tilecost::MachineFacts>,
    /// Write what happened to every SCoP and rejected nest here as JSON ([`report`]).
    pub report: Option<String>,
    /// When PLuTo's schedule is not worth it, try an interchange-only one ([`permute`]).
    pub interchange: bool,
    /// Refine the tile sizes by the machine model's cost ([`tilecost`]; seed 004's Algorithm 1).
    pub feedback: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { tile: true, sizes: Vec::new(), default_size: 32, always: false, l1d: None, lanes: 1, machine: None, report: None, interchange: true, feedback: true }
    }
}

impl Options {
    /// `sizes=N,N,…` (also `tile-sizes=`), `default-size=N`, `always`, `no-tile`, `[no-]interchange`, `[no-]feedback`, `report=FILE`, separated by `;`.
    pub fn parse(params: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for p in params.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let num = |s: &str| -> Result<i64, String> {
                match s.trim().parse::<i64>() {
                    Ok(n) if n >= 1 => Ok(n),
                    _ => Err(format!("dsp-pluto: tile size '{s}' is not a positive integer")),
                }
            };
            if let Some(v) = p.strip_prefix("sizes=").or_else(|| p.strip_prefix("tile-sizes=")) {
                o.sizes = v.split(',').filter(|s| !s.trim().is_empty()).map(num).collect::<Result<_, _>>()?;
            } else if let Some(v) = p.strip_prefix("default-size=") {
                o.default_size = num(v)?;
            } else if let Some(v) = p.strip_prefix("report=") {
                o.report = Some(v.to_string());
            } else if p == "always" {
                o.always = true;
            } else if p == "no-tile" {
                o.tile = false;
            } else if p == "tile" {
                o.tile = true;
            } else if p == "interchange" {
                o.interchange = true;
            } else if p == "no-interchange" {
                o.interchange = false;
            } else if p == "feedback" {
                o.feedback = true;
            } else if p == "no-feedback" {
                o.feedback = false;
            } else {
                return Err(format!("dsp-pluto: unknown parameter '{p}'"));
            }
        }
        Ok(o)
    }
}

/// What happened to one SCoP.
enum Outcome {
    Transformed(String),
    Unchanged(String),
}

/// Runs the pass on every defined function of `module`: whether anything
/// changed, and the remarks.
pub fn run(module: LLVMModuleRef, opts: &Options) -> (bool, Vec<Remark>) {
    let (changed, remarks, entries) = run_all(module, opts);
    if let Some(path) = &opts.report {
        if let Err(e) = std::fs::write(path, report::json(&entries)) {
            eprintln!("dsp-opt-passes: warning: --polyhedral-report {path}: {e}");
        }
    }
    (changed, remarks)
}

fn run_all(module: LLVMModuleRef, opts: &Options) -> (bool, Vec<Remark>, Vec<report::Entry>) {
    let mut changed = false;
    let mut remarks = Vec::new();
    let mut entries = Vec::new();
    for f in ir::defined_functions(module) {
        let found = scop::detect_function(module, f);
        for rej in &found.rejections {
            let at = if rej.reason.at.is_null() { f } else { rej.reason.at };
            let msg = format!("loop at {} is not a SCoP ({}): {}", rej.header, rej.reason.kind.name(), rej.reason.msg);
            entries.push(report::Entry { function: found.function.clone(), region: rej.header.clone(), outcome: "not-a-scop", reason: rej.reason.kind.name().to_string(), message: msg.clone() });
            remarks.push(Remark { kind: RemarkKind::Analysis, at, name: rej.reason.kind.name(), msg });
        }
        for s in &found.scops {
            let at = s.stmts.first().and_then(|st| st.accesses.first()).map(|a| a.inst).unwrap_or(f);
            let what = format!("SCoP {}..{} in {}", s.entry, s.exit, found.function);
            let (kind, name, msg) = match transform(module, f, s, opts) {
                Ok(Outcome::Transformed(msg)) => {
                    changed = true;
                    (RemarkKind::Passed, "transformed", msg)
                }
                Ok(Outcome::Unchanged(msg)) => (RemarkKind::Analysis, "unchanged", msg),
                Err(msg) => (RemarkKind::Missed, "not-transformed", msg),
            };
            let verb = match kind {
                RemarkKind::Passed => "transformed",
                RemarkKind::Analysis => "left as it was",
                RemarkKind::Missed => "not transformed",
            };
            entries.push(report::Entry { function: found.function.clone(), region: format!("{}..{}", s.entry, s.exit), outcome: name, reason: String::new(), message: msg.clone() });
            remarks.push(Remark { kind, at, name, msg: format!("{what} {verb}: {msg}") });
        }
    }
    (changed, remarks, entries)
}

/// Schedules, tiles and regenerates one SCoP; when PLuTo's schedule is
/// not worth it, an interchange schedule ([`permute`]) if one is legal and
/// moves a loop. Neither when the arrays fit in L1D ([`profit`]).
fn transform(module: LLVMModuleRef, f: LLVMValueRef, s: &Scop, opts: &Options) -> Result<Outcome, String> {
    model::check(s)?;
    region::check(f, s)?;
    let m = model::build(s)?;
    if !opts.always && opts.sizes.is_empty() {
        // Measured: in L1D the interchanged nests' short inner loops (18–24
        // iterations at the small datasets) lose to the original order, so
        // the interchange is gated like tiling.
        if let Some(why) = profit::not_worth_tiling(s, opts.l1d) {
            return Ok(Outcome::Unchanged(why));
        }
    }
    // The dependences, once for PLuTo's schedule and the interchange one.
    let d = dsp_pluto::deps::compute(&m, false).map_err(|e| e.to_string())?;
    let (t, sizes_note) = match schedule_and_tile(s, &m, &d, opts).map_err(|e| e.to_string())? {
        Ok(x) => x,
        Err(why) => return interchange_or(module, f, s, &m, &d, opts, why),
    };
    let mut desc = describe(&m, &t);
    if let Some(n) = sizes_note {
        desc.push_str(&format!("; tile sizes by seed 004's model: {n}"));
    }
    if std::env::var_os("DSP_PLUTO_DEBUG").is_some() {
        eprintln!("dsp-pluto: {}:\n{}{}", s.entry, t.schedule.pretty(&m), t.ast.pretty(&m.params));
    }
    if model::is_identity(&m, &t) {
        return interchange_or(module, f, s, &m, &d, opts, format!("the schedule is the original order and nothing is tiled ({desc})"));
    }
    emit(module, f, s, &m, &t, desc)
}

/// The interchange schedule of [`permute`] generated, when the options
/// allow it and one is found; else the SCoP is left as it was for `why`.
fn interchange_or(module: LLVMModuleRef, f: LLVMValueRef, s: &Scop, m: &dsp_pluto::scop::Scop, d: &[Dep], opts: &Options, why: String) -> Result<Outcome, String> {
    use dsp_pluto::ast;
    if !opts.interchange {
        return Ok(Outcome::Unchanged(why));
    }
    let Some(p) = permute::schedule(m, d).map_err(|e| e.to_string())? else {
        return Ok(Outcome::Unchanged(why));
    };
    let prog = ast::ScheduledProgram::new(m, &p.schedule).map_err(|e| e.to_string())?;
    let a = ast::generate(&prog).map_err(|e| e.to_string())?;
    if std::env::var_os("DSP_PLUTO_DEBUG").is_some() {
        eprintln!("dsp-pluto: {} (interchange):\n{}{}", s.entry, p.schedule.pretty(m), a.pretty(&m.params));
    }
    let t = dsp_pluto::Transformed { deps: d.to_vec(), schedule: p.schedule, tiled: None, ast: a };
    let desc = format!("{} ({why}); {}", p.note, t.schedule.pretty(m).trim_end().replace('\n', "; "));
    emit(module, f, s, m, &t, desc)
}

/// Generates `t`'s AST in place of the SCoP (behind the run-time alias
/// check when arrays may alias); undone when the module does not verify.
fn emit(module: LLVMModuleRef, f: LLVMValueRef, s: &Scop, m: &dsp_pluto::scop::Scop, t: &dsp_pluto::Transformed, desc: String) -> Result<Outcome, String> {
    // Arrays that may alias: the new code behind a run-time check of their ranges.
    let ranges = if s.may_alias.is_empty() { None } else { Some(alias::ranges(s, m)?) };
    let g = codegen::generate(f, s, &t.ast)?;
    let check = |b: LLVMBuilderRef| codegen::alias_condition(f, s, ranges.as_deref().unwrap_or(&[]), b);
    let sw = match region::switch_to(f, s, g.start, ranges.as_ref().map(|_| &check as &dyn Fn(LLVMBuilderRef) -> Result<LLVMValueRef, String>)) {
        Ok(sw) => sw,
        Err(e) => {
            codegen::discard(&g.blocks);
            return Err(format!("run-time alias check: {e}"));
        }
    };
    let desc = if s.may_alias.is_empty() { desc } else { format!("{desc}; behind a run-time check that {} pair(s) of arrays do not overlap", s.may_alias.len()) };
    if let Err(e) = ir::verify(module) {
        if std::env::var_os("DSP_PLUTO_DEBUG").is_some() {
            eprintln!("dsp-pluto: invalid code:\n{e}\n{}", ir::print_module(module));
        }
        sw.undo();
        codegen::discard(&g.blocks);
        return Err(format!("the generated code does not verify (left as it was): {}", e.lines().next().unwrap_or("")));
    }
    drop(sw);
    Ok(Outcome::Transformed(desc))
}

/// PLuTo's schedule, then the tiling (sizes given, or from seed 004's
/// model when the machine has an L1D: [`tilesize`]), the core's exact
/// check and the AST — [`dsp_pluto::transform`] with the sizes chosen
/// between scheduling and tiling.
/// `Ok(Err(why))`: automatic tiling judged it not worth it.
type Scheduled = Result<(dsp_pluto::Transformed, Option<String>), String>;

fn schedule_and_tile(s: &Scop, m: &dsp_pluto::scop::Scop, d: &[Dep], opts: &Options) -> dsp_pluto::Result<Scheduled> {
    use dsp_pluto::{ast, tile, verify};
    // The bounding function's w must reach the dependence distances, which
    // for constant loop bounds are constants of the program's size.
    let largest = m.stmts.iter().flat_map(|st| st.domain.cons.iter().map(|c| c.aff.constant.unsigned_abs())).max().unwrap_or(0);
    let defaults = schedule::Options::default();
    let sopts = schedule::Options { bound_bound: defaults.bound_bound.max(i64::try_from(largest.saturating_mul(2)).unwrap_or(i64::MAX / 4)), ..defaults };
    let sch = schedule::schedule(m, d, &sopts)?;
    if !opts.tile {
        let p = ast::ScheduledProgram::new(m, &sch)?;
        verify::verify(m, d, &p)?;
        let a = ast::generate(&p)?;
        return Ok(Ok((dsp_pluto::Transformed { deps: d.to_vec(), schedule: sch, tiled: None, ast: a }, None)));
    }
    let (sizes, note) = match opts.l1d {
        Some(l1d) if opts.sizes.is_empty() => {
            // The core's intra-tile order (at the default sizes) says which row ends innermost.
            let first = tile::tile(m, d, &sch, &TileOptions { default_size: opts.default_size, ..TileOptions::default() })?;
            if let Some(b) = first.bands.iter().find(|b| !b.innermost_parallel) {
                return Ok(Err(format!(
                    "not worth it: the innermost point loop of band [{}..{}) would carry a dependence (no vectorization; give --tile-sizes to tile anyway)",
                    b.band.start,
                    b.band.start + b.band.len
                )));
            }
            // Only a band that ends at the innermost loop row has the nest's innermost loop;
            // without one, that loop must carry nothing either.
            let last_loop = sch.kinds.iter().rposition(|k| *k == schedule::RowKind::Loop);
            let in_band = |r: usize| first.bands.iter().any(|b| r >= b.band.start && r < b.band.start + b.band.len);
            if let Some(r) = last_loop.filter(|&r| !in_band(r) && sch.carries[r]) {
                return Ok(Err(format!("not worth it: the innermost loop (row {r}) would carry a dependence (no vectorization; give --tile-sizes to tile anyway)")));
            }
            let bands: Vec<tilesize::BandInfo> = first
                .bands
                .iter()
                .map(|b| {
                    let ends_inside = Some(b.band.start + b.band.len - 1) == last_loop;
                    tilesize::BandInfo {
                        inner: b.point_order.last().filter(|_| ends_inside).and_then(|&r| extent_of_row(s, m, &sch, r).map(|e| (r, e))),
                        extents: (b.band.start..b.band.start + b.band.len).map(|r| extent_of_row(s, m, &sch, r)).collect(),
                        point_order: b.point_order.clone(),
                    }
                })
                .collect();
            let elem: Vec<u64> = s.arrays.iter().map(|a| a.elem_size).collect();
            let req = tilesize::Request {
                elem: &elem,
                budget: l1d / 2,
                lanes: opts.lanes.max(1),
                bands: &bands,
                machine: opts.machine.as_ref().filter(|_| opts.feedback),
                data: profit::footprint(s),
            };
            let (sz, note) = tilesize::choose(m, &sch, &req);
            (sz, Some(note))
        }
        _ => (opts.sizes.clone(), None),
    };
    let tiled = tile::tile(m, d, &sch, &TileOptions { sizes, default_size: opts.default_size, ..TileOptions::default() })?;
    verify::verify_tiling(m, d, &sch, &tiled)?;
    let a = ast::generate(&tiled.program)?;
    Ok(Ok((dsp_pluto::Transformed { deps: d.to_vec(), schedule: sch, tiled: Some(tiled), ast: a }, note)))
}

/// The number of values schedule row `r` takes, when it is one of the
/// original loops (a unit row) with constant bounds in every statement
/// that has it: the largest such trip count.
fn extent_of_row(s: &Scop, m: &dsp_pluto::scop::Scop, sch: &schedule::Schedule, r: usize) -> Option<i64> {
    let mut best = None;
    for (k, st) in m.stmts.iter().enumerate() {
        let d = st.depth();
        let row = &sch.rows[k][r];
        let nz: Vec<usize> = (0..d).filter(|&j| row.coeffs[j] != 0).collect();
        if nz.is_empty() {
            continue;
        }
        if nz.len() != 1 || row.coeffs[nz[0]].abs() != 1 {
            return None;
        }
        let (lo, hi) = loop_range(s, s.stmts[k].loops[nz[0]], 0)?;
        let e = (hi - lo + 1).max(1);
        best = Some(best.map_or(e, |b: i64| b.max(e)));
    }
    best
}

/// The values loop `l`'s iterator can take at most, by interval
/// arithmetic over the enclosing loops' ranges (a triangular `j <= i`
/// takes `i`'s largest value); `None` when a bound has a parameter.
fn loop_range(s: &Scop, l: usize, depth: usize) -> Option<(i64, i64)> {
    let lp = s.loops.get(l)?;
    if depth > 16 {
        return None;
    }
    let mut chain = Vec::new();
    let mut p = lp.parent;
    while let Some(x) = p {
        chain.push(x);
        p = s.loops[x].parent;
    }
    chain.reverse();
    let outer: Vec<(i64, i64)> = chain.iter().map(|&a| loop_range(s, a, depth + 1)).collect::<Option<_>>()?;
    let range = |e: &crate::scop::AffExpr| -> Option<(i64, i64)> {
        let (mut lo, mut hi) = (e.constant, e.constant);
        for (k, &c) in e.coeffs.iter().enumerate().filter(|(_, c)| **c != 0) {
            let (a, b) = *outer.get(k)?;
            let (x, y) = (c.checked_mul(a)?, c.checked_mul(b)?);
            lo = lo.checked_add(x.min(y))?;
            hi = hi.checked_add(x.max(y))?;
        }
        Some((lo, hi))
    };
    let lo = lp.lower.iter().map(|e| range(e).map(|r| r.0)).collect::<Option<Vec<i64>>>()?.into_iter().max()?;
    let hi = lp.upper.iter().map(|e| range(e).map(|r| r.1)).collect::<Option<Vec<i64>>>()?.into_iter().min()?;
    Some((lo, hi))
}

/// The schedule's hyperplanes, bands and tiles, on one line.
fn describe(m: &dsp_pluto::scop::Scop, t: &dsp_pluto::Transformed) -> String {
    let mut out = t.schedule.pretty(m).trim_end().replace('\n', "; ");
    if let Some(tiled) = &t.tiled {
        for b in &tiled.bands {
            let sizes: Vec<String> = b.sizes.iter().map(|&x| if x >= tilesize::UNTILED { "whole".to_string() } else { x.to_string() }).collect();
            out.push_str(&format!(
                "; band [{}..{}) tiled {}{}{}",
                b.band.start,
                b.band.start + b.band.len,
                sizes.join("x"),
                if b.innermost_parallel { ", innermost point loop parallel" } else { "" },
                if b.wavefront_parallel { ", tile wavefront parallel" } else { "" }
            ));
        }
        if tiled.bands.is_empty() {
            out.push_str("; no band of two loops or more to tile");
        }
    }
    out
}

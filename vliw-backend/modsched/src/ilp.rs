//! An optimal modulo scheduler: the time-indexed 0-1 integer program of
//! modulo scheduling (the formulation Eichenberger and Davidson call
//! "structured", after Pritsker et al.; see A. E. Eichenberger, E. S.
//! Davidson, "Efficient Formulation for Optimal Modulo Schedulers", PLDI
//! 1997, §3–4), solved with CBC through `good_lp`. It is the reference the
//! heuristics are compared with, like the optimal scheduler of seed 000's
//! Table 2: minimum II first, then minimum register pressure at that II.
//!
//! **Variables** (for one II): a binary `x[n][t]` per node and issue time
//! `t` of its window (one time per node: `Σ_t x[n][t] = 1`). The window is
//! `[ASAP, T − 1 − tail]` with longest paths under the effective delays
//! `delay − II·distance`; the horizon is `T = II·(K + 2)` where `K` bounds
//! the stages a schedule needs: for fixed rows the stages solve a system of
//! difference constraints whose edges weigh at most
//! `w = ⌈(II − 1 + delay)/II⌉ − distance`, so a least solution spans at most
//! `K = min(Σ max(w, 0), (N − 1)·max w)` stages — no row assignment is lost
//! (one more stage is kept as slack for the register objective). A node
//! with a pinned row only gets times in that row. A non-pipelined node
//! (busy > 1) with alternative units gets one binary per (time, unit)
//! instead, since the unit it holds over the next rows is a choice.
//!
//! **Dependences**, in the structured (strong) form: for every edge
//! `u → v` and every time `τ`, `Σ_{t ≥ τ} x[u][t] ≤ Σ_{t ≥ τ + delay −
//! II·distance} x[v][t]` (implies `t(v) + distance·II ≥ t(u) + delay` and
//! has a much tighter LP relaxation).
//!
//! **Resources** per row `r` (`X[n][r] = Σ_{t ≡ r} x[n][t]`), as
//! [`Mrt`] checks them: at most `max_ops` operations; register reads per
//! file within its read ports; results landing in row `r` (issued in row
//! `r − latency`) within each file's write ports; and units with slots as a
//! flow in every row: operation → unit (continuous `f[r][n][u]`, one per
//! alternative unit) → slot feeding that unit (continuous `g[r][u][s]`),
//! `Σ_u f = X[n][r]`, `Σ_n f[r][n][u] + held[r][u] ≤ count(u)`,
//! `Σ_n f[r][n][u] = Σ_s g[r][u][s]`, `Σ_u g[r][u][s] ≤ 1`, where `held`
//! counts the non-pipelined operations issued in rows `r − 1 … r − busy + 1`
//! (with multiplicity when busy > II). With integral `x` the flow has an
//! integral solution (integral capacities), which is a legal placement of
//! the row on slots and unit instances: the continuous flow is exact.
//! The schedule found is checked with [`crate::schedule::verify`]; should
//! the table reject a row the program accepted, the nodes of a minimal
//! rejected subset (a deletion filter over the table) are cut off from
//! those rows (`Σ_{n∈S} X[n][row_n] ≤ |S| − 1`) and the program solved
//! again.
//!
//! **Register pressure** (`min_registers`): a value is a node that writes a
//! register and has flow successors; as in seed 000 §3 it lives from its
//! producer's issue to the issue of its last consumer (`t(v) +
//! distance·II`), cycles `[start, end)`. Continuous `live[u][c] ≥
//! Σ_{t ≤ c} x[u][t] − Σ_{t + d·II ≤ c} x[v][t]` for every flow edge, and
//! `MaxLive ≥ Σ_u Σ_{c ≡ r} live[u][c]` for every row: the objective is
//! exact MaxLive (all files together), with the sum of lifetimes as the
//! tie-break (`A·MaxLive + Σ live`, `A` larger than any lifetime sum).
//! Without `min_registers` the objective is `Σ t(n)` (a compact schedule).
//!
//! **Search.** IIs from the MII up. An upper bound comes first from
//! [`crate::ims`] (Rau's heuristic, cheap): below it every II is either
//! proven infeasible by CBC or, at the first feasible one, optimised; at
//! the bound itself a schedule exists. The time cap covers the whole loop
//! (CBC's `sec` parameter gets what is left, rounded up to whole seconds):
//! when it hits, the result is the best schedule CBC found or, failing
//! that, the heuristic's, with `capped = true` and a note saying what is
//! not proven.

use std::time::Instant;

use good_lp::{
    coin_cbc, variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel,
    Variable, WithTimeLimit,
};
use isa_tablegen::{Machine, UnitId};

use crate::graph::{DepKind, LoopGraph, NodeId};
use crate::ims::{self, check_graph, default_max_ii, ImsOptions};
use crate::mii::MiiReport;
use crate::mrt::Mrt;
use crate::schedule::{verify, Attempt, Outcome, Schedule, ScheduleError};

/// Options of the optimal scheduler.
#[derive(Clone, Debug, PartialEq)]
pub struct IlpOptions {
    /// Wall-clock cap for one loop, in seconds (CBC counts whole seconds).
    pub time_limit_secs: f64,
    /// Largest II to try.
    pub max_ii: Option<u32>,
    /// At the minimum II, minimise MaxLive (then the sum of lifetimes);
    /// otherwise just find the minimum II.
    pub min_registers: bool,
}

impl Default for IlpOptions {
    fn default() -> IlpOptions {
        IlpOptions { time_limit_secs: 10.0, max_ii: None, min_registers: true }
    }
}

/// Minimum II, then minimum MaxLive, by integer programming.
pub fn schedule(m: &Machine, g: &LoopGraph, mii: &MiiReport, opts: &IlpOptions) -> Result<Outcome, Vec<Attempt>> {
    schedule_from(m, g, mii.mii, opts)
}

/// [`schedule`] from a given first II.
pub fn schedule_from(m: &Machine, g: &LoopGraph, first_ii: u32, opts: &IlpOptions) -> Result<Outcome, Vec<Attempt>> {
    let started = Instant::now();
    let first_ii = first_ii.max(1);
    if let Err(reason) = check_graph(g) {
        return Err(vec![Attempt { ii: first_ii, reason }]);
    }
    let last_ii = opts.max_ii.unwrap_or_else(|| default_max_ii(m, g, first_ii)).max(first_ii);
    // The heuristic's schedule bounds the search (and is the fallback at the cap).
    let heuristic = ims::schedule_from(m, g, first_ii, &ImsOptions { budget_ratio: 6, max_ii: Some(last_ii) })
        .ok()
        .map(|o| o.schedule);
    let last_ii = heuristic.as_ref().map_or(last_ii, |s| s.ii.min(last_ii));
    let mut attempts = Vec::new();
    let mut notes = Vec::new();
    let limit = opts.time_limit_secs.max(0.0);
    for ii in first_ii..=last_ii {
        let left = limit - started.elapsed().as_secs_f64();
        if left <= 0.0 {
            attempts.push(Attempt { ii, reason: format!("time cap of {limit} s reached before this II was tried") });
            return capped_fallback(g, heuristic, attempts, notes, limit);
        }
        match solve_ii(m, g, ii, opts.min_registers, left) {
            Ok(IiResult::Infeasible(reason)) => attempts.push(Attempt { ii, reason }),
            Ok(IiResult::Capped) => {
                attempts.push(Attempt {
                    ii,
                    reason: format!("time cap of {limit} s reached: no schedule found and none proven impossible at this II"),
                });
                return capped_fallback(g, heuristic, attempts, notes, limit);
            }
            Ok(IiResult::Found { schedule, proven, cuts }) => {
                let what = if opts.min_registers { "MaxLive" } else { "sum of issue times" };
                let live = max_live(m, g, &schedule);
                if attempts.is_empty() {
                    notes.push(format!("ilp: II={ii} is the MII"));
                } else {
                    notes.push(format!("ilp: II={ii}, every smaller II proven infeasible"));
                }
                if proven {
                    notes.push(format!("ilp: MaxLive={live}, {what} optimal at this II"));
                } else {
                    notes.push(format!(
                        "ilp: time cap of {limit} s reached: MaxLive={live} is the best found, not proven optimal"
                    ));
                }
                if cuts > 0 {
                    notes.push(format!("ilp: {cuts} row assignments cut off after the reservation table rejected them"));
                }
                notes.push(format!("ilp: {:.3} s", started.elapsed().as_secs_f64()));
                let order = time_order(&schedule);
                return Ok(Outcome { schedule, attempts, order, notes, capped: !proven });
            }
            Err(reason) => {
                // The solver failed: say so, and fall back on the heuristic's
                // schedule if it reaches this far.
                attempts.push(Attempt { ii, reason });
            }
        }
    }
    match heuristic {
        Some(s) if attempts.last().is_some_and(|a| a.ii == s.ii) => {
            notes.push(format!(
                "ilp: no schedule from the integer program at II={}: the iterative scheduler's schedule is used",
                s.ii
            ));
            let order = time_order(&s);
            Ok(Outcome { schedule: s, attempts, order, notes, capped: false })
        }
        _ => Err(attempts),
    }
}

/// At the time cap: the heuristic's schedule, if any, flagged as capped.
fn capped_fallback(
    _g: &LoopGraph,
    heuristic: Option<Schedule>,
    attempts: Vec<Attempt>,
    mut notes: Vec<String>,
    limit: f64,
) -> Result<Outcome, Vec<Attempt>> {
    match heuristic {
        Some(s) => {
            notes.push(format!(
                "ilp: time cap of {limit} s reached: II={} from the iterative scheduler, not proven minimal",
                s.ii
            ));
            let order = time_order(&s);
            Ok(Outcome { schedule: s, attempts, order, notes, capped: true })
        }
        None => Err(attempts),
    }
}

fn time_order(s: &Schedule) -> Vec<NodeId> {
    let mut order: Vec<NodeId> = (0..s.time.len()).collect();
    order.sort_by_key(|&n| (s.time[n], n));
    order
}

/// MaxLive of a schedule as the integer program counts it: values (nodes
/// writing a register with flow successors) live over `[t(u), max t(v) +
/// d·II)`, counted per row of the kernel, all files together.
pub fn max_live(m: &Machine, g: &LoopGraph, s: &Schedule) -> u32 {
    let _ = m;
    let ii = s.ii.max(1) as i64;
    let mut rows = vec![0u32; ii as usize];
    for (u, node) in g.nodes.iter().enumerate() {
        if node.writes.is_none() {
            continue;
        }
        let end = g
            .edges
            .iter()
            .filter(|e| e.from == u && e.kind == DepKind::Flow)
            .map(|e| s.time[e.to] as i64 + e.distance as i64 * ii)
            .max();
        let Some(end) = end else { continue };
        for c in s.time[u] as i64..end {
            rows[c.rem_euclid(ii) as usize] += 1;
        }
    }
    rows.into_iter().max().unwrap_or(0)
}

enum IiResult {
    Infeasible(String),
    Capped,
    Found { schedule: Schedule, proven: bool, cuts: usize },
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// Issue-time windows at `ii`: (lo, hi) per node, None if a circuit is
/// positive at this II.
fn windows(g: &LoopGraph, ii: u32) -> Option<(Vec<i64>, Vec<i64>)> {
    let n = g.nodes.len();
    let ii64 = ii as i64;
    let w: Vec<i64> = g.edges.iter().map(|e| e.delay as i64 - ii64 * e.distance as i64).collect();
    let relax = |forward: bool| -> Option<Vec<i64>> {
        let mut d = vec![0i64; n];
        for _ in 0..=n {
            let mut changed = false;
            for (i, e) in g.edges.iter().enumerate() {
                let (a, b) = if forward { (e.from, e.to) } else { (e.to, e.from) };
                if d[a] + w[i] > d[b] {
                    d[b] = d[a] + w[i];
                    changed = true;
                }
            }
            if !changed {
                return Some(d);
            }
        }
        None
    };
    let lo = relax(true)?;
    let tail = relax(false)?;
    let ws: Vec<i64> =
        g.edges.iter().map(|e| ceil_div(ii64 - 1 + e.delay as i64, ii64) - e.distance as i64).collect();
    let pos_sum: i64 = ws.iter().map(|&x| x.max(0)).sum();
    let pos_max = ws.iter().copied().max().unwrap_or(0).max(0);
    let k = pos_sum.min((n as i64 - 1).max(0) * pos_max);
    let horizon = ii64 * (k + 2);
    let hi = tail.iter().map(|&t| horizon - 1 - t).collect();
    Some((lo, hi))
}

/// The 0-1 variables of one node: (time, unit chosen if a choice, var).
type NodeVars = Vec<(i64, Option<UnitId>, Variable)>;

fn sum_where(vars: &NodeVars, pred: impl Fn(i64, Option<UnitId>) -> bool) -> Expression {
    let mut e = Expression::default();
    for &(t, u, v) in vars {
        if pred(t, u) {
            e.add_mul(1.0, v);
        }
    }
    e
}

/// Solves one II, cutting and re-solving while the table disagrees.
fn solve_ii(m: &Machine, g: &LoopGraph, ii: u32, min_registers: bool, secs: f64) -> Result<IiResult, String> {
    let started = Instant::now();
    let n = g.nodes.len();
    if n == 0 {
        return Ok(IiResult::Found { schedule: Schedule { ii, time: Vec::new() }, proven: true, cuts: 0 });
    }
    let Some((lo, hi)) = windows(g, ii) else {
        return Ok(IiResult::Infeasible(format!("a recurrence needs more than II={ii}")));
    };
    let mut cuts: Vec<Vec<(NodeId, u32)>> = Vec::new();
    loop {
        let left = secs - started.elapsed().as_secs_f64();
        if left <= 0.0 {
            return Ok(IiResult::Capped);
        }
        let (time, proven) = match solve_model(m, g, ii, &lo, &hi, &cuts, min_registers, left)? {
            ModelResult::Infeasible => {
                let why = if cuts.is_empty() {
                    format!("the integer program is infeasible: no schedule at II={ii}")
                } else {
                    format!("the integer program is infeasible at II={ii} once {} rejected row assignments are cut off", cuts.len())
                };
                return Ok(IiResult::Infeasible(why));
            }
            ModelResult::Capped => return Ok(IiResult::Capped),
            ModelResult::Solved { time, proven } => (time, proven),
        };
        let s = Schedule { ii, time };
        match verify(m, g, &s) {
            Ok(()) => return Ok(IiResult::Found { schedule: s, proven, cuts: cuts.len() }),
            Err(ScheduleError::Resources { .. }) => {
                let subset = rejected_subset(m, g, &s);
                if subset.is_empty() || cuts.len() >= 200 {
                    return Err(format!("II={ii}: the reservation table keeps rejecting the integer program's rows"));
                }
                cuts.push(subset.iter().map(|&x| (x, s.row(x))).collect());
            }
            Err(e) => return Err(format!("internal error at II={ii}: the integer program's schedule fails its check: {e}")),
        }
    }
}

/// A small set of nodes whose rows the table rejects (deletion filter).
fn rejected_subset(m: &Machine, g: &LoopGraph, s: &Schedule) -> Vec<NodeId> {
    let order = time_order(s);
    let fails = |keep: &[bool]| {
        let mut mrt = Mrt::new(m, g, s.ii);
        order.iter().filter(|&&x| keep[x]).any(|&x| mrt.try_place(x, s.time[x]).is_err())
    };
    let mut keep = vec![true; g.nodes.len()];
    if !fails(&keep) {
        return Vec::new();
    }
    for x in 0..keep.len() {
        keep[x] = false;
        if !fails(&keep) {
            keep[x] = true;
        }
    }
    (0..keep.len()).filter(|&x| keep[x]).collect()
}

enum ModelResult {
    Infeasible,
    Capped,
    Solved { time: Vec<u32>, proven: bool },
}

#[allow(clippy::too_many_arguments)]
fn solve_model(
    m: &Machine,
    g: &LoopGraph,
    ii: u32,
    lo: &[i64],
    hi: &[i64],
    cuts: &[Vec<(NodeId, u32)>],
    min_registers: bool,
    secs: f64,
) -> Result<ModelResult, String> {
    let n = g.nodes.len();
    let ii64 = ii as i64;
    let mut pv = ProblemVariables::new();
    let mut constraints = Vec::new();
    // x[n][t] (or per unit for non-pipelined nodes with alternatives).
    let mut xs: Vec<NodeVars> = Vec::with_capacity(n);
    for (v, node) in g.nodes.iter().enumerate() {
        let instr = m.instr(node.instr);
        let mut units = instr.units.clone();
        units.sort();
        units.dedup();
        let choice = g.busy(m, v) > 1 && units.len() > 1;
        let pinned = node.pinned_row.and_then(|p| p.row(ii));
        let mut vars = Vec::new();
        for t in lo[v]..=hi[v] {
            if pinned.is_some_and(|r| t.rem_euclid(ii64) != r as i64) {
                continue;
            }
            if choice {
                for &u in &units {
                    vars.push((t, Some(u), pv.add(variable().binary())));
                }
            } else {
                vars.push((t, None, pv.add(variable().binary())));
            }
        }
        if vars.is_empty() {
            return Ok(ModelResult::Infeasible);
        }
        constraints.push(sum_where(&vars, |_, _| true).eq(1.0));
        xs.push(vars);
    }
    // Dependences, structured form.
    for e in &g.edges {
        let (u, v) = (e.from, e.to);
        if u == v {
            continue; // delay − II·distance ≤ 0 here, or windows() failed
        }
        let w = e.delay as i64 - ii64 * e.distance as i64;
        for tau in lo[u] + 1..=hi[u] {
            if tau + w <= lo[v] {
                continue;
            }
            let lhs = sum_where(&xs[u], |t, _| t >= tau);
            let rhs = sum_where(&xs[v], |t, _| t >= tau + w);
            constraints.push(lhs.leq(rhs));
        }
    }
    // Resources per row.
    let row_of = |t: i64| t.rem_euclid(ii64) as u32;
    let files = m.regfiles.len();
    for r in 0..ii {
        let xr: Vec<Expression> = xs.iter().map(|vars| sum_where(vars, |t, _| row_of(t) == r)).collect();
        // Issue width.
        if n as u32 > m.bundle.max_ops {
            let mut e = Expression::default();
            for x in &xr {
                e += x.clone();
            }
            constraints.push(e.leq(m.bundle.max_ops as f64));
        }
        // Read and write ports.
        for f in 0..files {
            let file = &m.regfiles[f];
            let mut reads = Expression::default();
            let mut total_reads = 0u32;
            let mut lands = Expression::default();
            let mut total_writes = 0u32;
            for (v, node) in g.nodes.iter().enumerate() {
                let k: u32 = node.reads.iter().filter(|(rf, _)| rf.0 as usize == f).map(|(_, k)| k).sum();
                if k > 0 {
                    reads.add_mul(k as f64, xr[v].clone());
                    total_reads += k;
                }
                if node.writes.is_some_and(|wf| wf.0 as usize == f) {
                    let lat = g.latency(m, v) as i64;
                    lands += sum_where(&xs[v], |t, _| row_of(t + lat) == r);
                    total_writes += 1;
                }
            }
            if total_reads > file.read_ports {
                constraints.push(reads.leq(file.read_ports as f64));
            }
            if total_writes > file.write_ports {
                constraints.push(lands.leq(file.write_ports as f64));
            }
        }
        // Units and slots: a flow operation → unit → slot.
        let mut unit_in: Vec<Expression> = vec![Expression::default(); m.units.len()];
        let mut unit_used = vec![false; m.units.len()];
        let mut held: Vec<Expression> = vec![Expression::default(); m.units.len()];
        for (v, node) in g.nodes.iter().enumerate() {
            let mut units = m.instr(node.instr).units.clone();
            units.sort();
            units.dedup();
            let choice = xs[v].first().is_some_and(|x| x.1.is_some());
            if units.len() == 1 {
                unit_in[units[0].0 as usize] += xr[v].clone();
                unit_used[units[0].0 as usize] = true;
            } else if choice {
                for &u in &units {
                    unit_in[u.0 as usize] += sum_where(&xs[v], |t, cu| row_of(t) == r && cu == Some(u));
                    unit_used[u.0 as usize] = true;
                }
            } else {
                let mut split = Expression::default();
                for &u in &units {
                    let f = pv.add(variable().min(0.0).max(1.0));
                    split.add_mul(1.0, f);
                    unit_in[u.0 as usize].add_mul(1.0, f);
                    unit_used[u.0 as usize] = true;
                }
                constraints.push(split.eq(xr[v].clone()));
            }
            // Held by a non-pipelined operation issued k rows earlier.
            let busy = g.busy(m, v) as i64;
            for k in 1..busy {
                if units.len() == 1 {
                    held[units[0].0 as usize] += sum_where(&xs[v], |t, _| row_of(t + k) == r);
                } else {
                    for &u in &units {
                        held[u.0 as usize] += sum_where(&xs[v], |t, cu| row_of(t + k) == r && cu == Some(u));
                    }
                }
            }
        }
        let mut slot_in: Vec<Expression> = vec![Expression::default(); m.slots.len()];
        let mut slot_used = vec![false; m.slots.len()];
        for (ui, unit) in m.units.iter().enumerate() {
            if !unit_used[ui] {
                continue;
            }
            let uid = UnitId(ui as u16);
            let mut out = Expression::default();
            for (si, slot) in m.slots.iter().enumerate() {
                if slot.feeds.contains(&uid) {
                    let gv = pv.add(variable().min(0.0).max(1.0));
                    out.add_mul(1.0, gv);
                    slot_in[si].add_mul(1.0, gv);
                    slot_used[si] = true;
                }
            }
            constraints.push((unit_in[ui].clone() + held[ui].clone()).leq(unit.count as f64));
            constraints.push(unit_in[ui].clone().eq(out));
        }
        for (si, e) in slot_in.into_iter().enumerate() {
            if slot_used[si] {
                constraints.push(e.leq(1.0));
            }
        }
    }
    // Cuts from the reservation table.
    for cut in cuts {
        let mut e = Expression::default();
        for &(v, r) in cut {
            e += sum_where(&xs[v], |t, _| row_of(t) == r);
        }
        constraints.push(e.leq(cut.len() as f64 - 1.0));
    }
    // Objective.
    let objective = if min_registers {
        let (obj, mut cs) = register_objective(&mut pv, g, ii64, lo, hi, &xs);
        constraints.append(&mut cs);
        obj
    } else {
        let mut e = Expression::default();
        for vars in &xs {
            for &(t, _, v) in vars {
                e.add_mul(t as f64, v);
            }
        }
        e
    };
    let mut model = pv.minimise(objective).using(coin_cbc).with_time_limit(secs.max(0.001));
    model.set_parameter("log", "0");
    model.set_parameter("slog", "0");
    for c in constraints {
        model.add_constraint(c);
    }
    let solution = match model.solve() {
        Ok(s) => s,
        Err(ResolutionError::Infeasible) => return Ok(ModelResult::Infeasible),
        Err(e) => return Err(format!("CBC failed at II={ii}: {e}")),
    };
    let capped = matches!(solution.status(), SolutionStatus::TimeLimit);
    let mut time = Vec::with_capacity(n);
    for vars in &xs {
        let on: Vec<i64> = vars.iter().filter(|(_, _, v)| solution.value(*v) > 0.5).map(|x| x.0).collect();
        match on.as_slice() {
            [t] if *t >= 0 => time.push(*t as u32),
            _ if capped => return Ok(ModelResult::Capped),
            _ => return Err(format!("CBC returned no integral schedule at II={ii}")),
        }
    }
    // Stage 0 is the first stage used.
    let shift = time.iter().map(|t| t / ii).min().unwrap_or(0) * ii;
    for t in &mut time {
        *t -= shift;
    }
    Ok(ModelResult::Solved { time, proven: !capped })
}

/// The MaxLive objective (see the module doc): returns the objective and
/// its constraints.
fn register_objective(
    pv: &mut ProblemVariables,
    g: &LoopGraph,
    ii: i64,
    lo: &[i64],
    hi: &[i64],
    xs: &[NodeVars],
) -> (Expression, Vec<good_lp::Constraint>) {
    let mut cs = Vec::new();
    let mut rows: Vec<Expression> = vec![Expression::default(); ii as usize];
    let mut total = Expression::default();
    let mut live_vars = 0usize;
    for (u, node) in g.nodes.iter().enumerate() {
        if node.writes.is_none() {
            continue;
        }
        let uses: Vec<(NodeId, i64)> = g
            .edges
            .iter()
            .filter(|e| e.from == u && e.kind == DepKind::Flow)
            .map(|e| (e.to, e.distance as i64 * ii))
            .collect();
        if uses.is_empty() {
            continue;
        }
        let end = uses.iter().map(|&(v, d)| hi[v] + d).max().unwrap_or(lo[u]);
        for c in lo[u]..end {
            let l = pv.add(variable().min(0.0).max(1.0));
            live_vars += 1;
            let started = sum_where(&xs[u], |t, _| t <= c);
            for &(v, d) in &uses {
                if c - d >= hi[v] {
                    continue; // that use is certainly done
                }
                let done = sum_where(&xs[v], |t, _| t + d <= c);
                cs.push((started.clone() - done).leq(l));
            }
            rows[c.rem_euclid(ii) as usize].add_mul(1.0, l);
            total.add_mul(1.0, l);
        }
    }
    let max_live = pv.add(variable().min(0.0));
    for r in rows {
        cs.push(r.leq(max_live));
    }
    let mut obj = Expression::default();
    obj.add_mul((live_vars + 1) as f64, max_live);
    obj += total;
    (obj, cs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{DepKind, Node};
    use crate::ims::tests::{seed_graph, seed_machine};
    use crate::mii;

    #[test]
    fn seed003_optimal() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let r = mii::compute(&m, &g).unwrap();
        let out = schedule(&m, &g, &r, &IlpOptions::default()).unwrap();
        assert_eq!(out.schedule.ii, 2);
        assert!(!out.capped, "{:?}", out.notes);
        verify(&m, &g, &out.schedule).unwrap();
        let live = max_live(&m, &g, &out.schedule);
        // The IMS schedule needs at least as many registers.
        let ims = ims::schedule(&m, &g, &r, &ImsOptions::default()).unwrap();
        assert!(live <= max_live(&m, &g, &ims.schedule), "{:?}", out.notes);
        eprintln!("{:?} {:?} live {live}", out.schedule, out.notes);
    }

    #[test]
    fn minimum_ii_without_registers() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let out = schedule_from(&m, &g, 1, &IlpOptions { min_registers: false, ..IlpOptions::default() }).unwrap();
        assert_eq!(out.schedule.ii, 2);
        assert_eq!(out.attempts.len(), 1);
        assert!(out.attempts[0].reason.contains("infeasible"), "{:?}", out.attempts);
        verify(&m, &g, &out.schedule).unwrap();
    }

    #[test]
    fn recurrence_sets_the_ii() {
        let m = seed_machine();
        let alu = m.instr_by_mnemonic("addi").unwrap();
        let r = m.regfile_by_name("r").unwrap();
        let mut g = LoopGraph::new();
        for i in 0..3 {
            g.add_node(Node { instr: alu, reads: vec![(r, 1)], writes: Some(r), name: format!("a{i}"), pinned_row: None });
        }
        g.add_edge(0, 1, 2, 0, DepKind::Flow);
        g.add_edge(1, 2, 2, 0, DepKind::Flow);
        g.add_edge(2, 0, 1, 1, DepKind::Flow);
        let out = schedule_from(&m, &g, 1, &IlpOptions::default()).unwrap();
        assert_eq!(out.schedule.ii, 5);
        verify(&m, &g, &out.schedule).unwrap();
        // Lifetimes 2 + 2 + 1 over II 5: one value live at a time.
        assert_eq!(max_live(&m, &g, &out.schedule), 1);
    }
}

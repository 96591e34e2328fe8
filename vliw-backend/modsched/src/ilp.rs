//! An optimal modulo scheduler: modulo scheduling as an integer program in
//! the row/stage form of R. Govindarajan, E. R. Altman and G. R. Gao
//! ("Minimizing register requirements under resource-constrained
//! rate-optimal software pipelining", MICRO-27, 1994, §3–4: `t = II·k +
//! row`, 0-1 row variables, integer stages), with the dependence
//! strengthening and the MaxLive objective of A. E. Eichenberger, E. S.
//! Davidson and S. G. Abraham (MICRO-28, 1995; Eichenberger & Davidson,
//! PLDI 1997), solved with CBC through `good_lp`. It is the reference the
//! heuristics are compared with, like the optimal scheduler behind seed
//! 000's Table 2: minimum II first, then minimum register pressure there.
//!
//! **Variables** (one II): a binary `a[n][ρ]` per node and row, one row
//! per node (`Σ_ρ a[n][ρ] = 1`; a pinned node has only its row), an
//! integer stage `k[n]`, so `t(n) = Σ ρ·a[n][ρ] + II·k[n]`. A
//! non-pipelined node (busy > 1) with alternative units gets one binary per
//! (row, unit) instead: the unit it holds over the next rows is a choice.
//! Each `t(n)` lies in `[ASAP, T − 1 − tail]` (longest paths under
//! `delay − II·distance`), where the horizon `T = II·(K + 2)` loses no
//! schedule: for fixed rows the stages solve difference constraints with
//! edge weights at most `⌈(II − 1 + delay)/II⌉ − distance`, so a least
//! solution spans at most `K` stages, `K` the longest path under those
//! weights (or `min(Σ positive weights, (N − 1)·max weight)` if they have a
//! positive circuit); one more stage is slack for the register objective.
//!
//! **Dependences**: `t(v) − t(u) ≥ delay − II·distance` for every edge,
//! and its stage form: with `delay = II·q + s` (`0 ≤ s < II`), for every
//! `τ`, `k(v) − k(u) + distance − q ≥ [ρ(u) ≥ τ] − [ρ(v) ≥ τ + s]` (v needs
//! one more stage when its row is below `ρ(u) + s`), which the integer
//! stages imply but the LP relaxation does not.
//!
//! **Resources** per row `r`, as [`Mrt`] checks them: at most `max_ops`
//! operations; register reads per file within its read ports; results
//! landing in row `r` (issued in row `r − latency`) within each file's
//! write ports; and units with slots as a flow in every row: operation →
//! unit (continuous `f[r][n][u]` per alternative unit) → slot feeding that
//! unit (continuous `g[r][u][s]`): `Σ_u f = a[n][r]`, `Σ_n f[r][n][u] +
//! held[r][u] ≤ count(u)`, `Σ_n f[r][n][u] = Σ_s g[r][u][s]`,
//! `Σ_u g[r][u][s] ≤ 1`, where `held` counts the non-pipelined operations
//! issued in rows `r − 1 … r − busy + 1` (with multiplicity when busy >
//! II). With integral rows the flow has an integral solution (integral
//! capacities), a legal placement of the row on slots and unit instances,
//! so the continuous flow is exact. The schedule found is checked with
//! [`crate::schedule::verify`]: should the table reject rows the program
//! accepted (the table's greedy unit choice for non-pipelined operations
//! with alternative units can), the nodes of a minimal rejected subset (a
//! deletion filter over the table) are cut off from those rows
//! (`Σ_{n∈S} a[n][row_n] ≤ |S| − 1`) and the program is solved again.
//!
//! **Register pressure** (`min_registers`): a value is a node that writes a
//! register; as in seed 000 §3 and [`crate::regs`] (whose MaxLive this is
//! exactly) it lives from its producer's issue to the issue of its last
//! consumer over flow edges (`t(v) + distance·II`), cycles `[start, end)`,
//! and at least its issue cycle. The values of `u` live in row `r`
//! number `⌈(end − r)/II⌉ − ⌈(t(u) − r)/II⌉`, and `⌈(ρ + II·k − r)/II⌉ =
//! k + [ρ > r]`, so `live[u][r] ≥ k(v) + d + Σ_{ρ>r} a[v][ρ] − k(u) −
//! Σ_{ρ>r} a[u][ρ]` for every flow edge and `live[u][r] ≥ a[u][r]` are
//! exact (a value without uses counts `a[u][r]`), and the integer
//! `MaxLive ≥ Σ_u live[u][r]` for every row. Two phases: first the
//! objective is MaxLive alone (all register files together; a plain
//! objective keeps CBC's root LP fast — with the tie-breaks below in it, a
//! 70-node loop at II = 32 spent minutes there, where CBC does not look at
//! its clock); then, with the rows found fixed (resources hold whatever the
//! stages), MaxLive at most that, lexicographically by weights the sum of
//! lifetimes (`Σ live`) and then `Σ k(n)` (few stages). Without
//! `min_registers` the one objective is `Σ t(n)` (a compact schedule).
//!
//! **Search.** IIs from the MII up. [`crate::ims`] (Rau's heuristic) and
//! [`crate::sms`] run first (both cheap): the better schedule's II bounds
//! the search, and at that II it is the incumbent (CBC's cutoff asks for a
//! strictly smaller MaxLive; if there is none, the incumbent's MaxLive is
//! optimal and its rows go to the second phase). Below it each II is proven
//! infeasible by CBC or, at the first feasible one, optimised. The time cap
//! covers the whole loop, a tenth of it kept for the second phase (CBC's
//! `seconds`, wall clock): when it hits, the result is the best schedule
//! found — CBC's or the heuristic's — with `capped = true` and a note
//! saying what is not proven.

use std::time::Instant;

use isa_tablegen::Machine;

use crate::graph::{LoopGraph, NodeId};
use crate::ims::{self, check_graph, default_max_ii, ImsOptions};
use crate::mii::MiiReport;
use crate::mrt::Mrt;
use crate::regs::pressure;
use crate::sms::{self, SmsOptions};
use crate::schedule::{verify, Attempt, Outcome, Schedule, ScheduleError};

mod program;
use program::{Mode, ModelResult, Program};

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
    // The heuristics' best schedule bounds the search (and is the incumbent
    // at its II, the fallback at the cap).
    let heuristic = best_heuristic(m, g, first_ii, last_ii);
    let last_ii = heuristic.as_ref().map_or(last_ii, |(s, _)| s.ii.min(last_ii));
    let mut attempts: Vec<Attempt> = Vec::new();
    let mut notes = Vec::new();
    let limit = opts.time_limit_secs.max(0.0);
    // Whether every II before the current one was proven infeasible.
    let mut all_proven = true;
    for ii in first_ii..=last_ii {
        let left = limit - started.elapsed().as_secs_f64();
        if left <= 0.0 {
            attempts.push(Attempt { ii, reason: format!("time cap of {limit} s reached before this II was tried") });
            return capped_fallback(heuristic, attempts, notes, limit);
        }
        let incumbent = heuristic.as_ref().filter(|(h, _)| h.ii == ii).map(|(h, name)| (h, *name));
        match solve_ii(m, g, ii, opts.min_registers, left, incumbent) {
            Ok(IiResult::Infeasible(reason)) => attempts.push(Attempt { ii, reason }),
            Ok(IiResult::Capped) => {
                attempts.push(Attempt {
                    ii,
                    reason: format!("time cap of {limit} s reached: no schedule found and none proven impossible at this II"),
                });
                return capped_fallback(heuristic, attempts, notes, limit);
            }
            Ok(IiResult::Found { schedule, proven, cuts, by }) => {
                let what = if opts.min_registers { "MaxLive" } else { "sum of issue times" };
                let live = pressure(m, g, &schedule).max_live;
                if ii == first_ii {
                    notes.push(format!("ilp: II={ii}, the first II tried (the MII)"));
                } else if all_proven {
                    notes.push(format!("ilp: II={ii}, every smaller II proven infeasible"));
                } else {
                    notes.push(format!("ilp: II={ii}; not every smaller II was proven infeasible (see the attempts)"));
                }
                if proven {
                    notes.push(format!("ilp: MaxLive={live} ({by}), {what} optimal at this II"));
                } else {
                    notes.push(format!(
                        "ilp: time cap of {limit} s reached: MaxLive={live} ({by}) is the best found, not proven optimal"
                    ));
                }
                if cuts > 0 {
                    notes.push(format!("ilp: {cuts} row assignments cut off after the reservation table rejected them"));
                }
                notes.push(format!("ilp: {:.3} s", started.elapsed().as_secs_f64()));
                let order = time_order(&schedule);
                let capped = !proven || !all_proven;
                return Ok(Outcome { schedule, attempts, order, notes, capped });
            }
            Err(reason) => {
                // The solver failed: say so and go on; the heuristic's
                // schedule is the answer if nothing better comes.
                all_proven = false;
                attempts.push(Attempt { ii, reason });
            }
        }
    }
    match heuristic {
        Some((s, name)) if attempts.last().is_some_and(|a| a.ii == s.ii) => {
            notes.push(format!("ilp: no schedule from the integer program at II={}: {name}'s schedule is used", s.ii));
            let order = time_order(&s);
            Ok(Outcome { schedule: s, attempts, order, notes, capped: true })
        }
        _ => Err(attempts),
    }
}

/// At the time cap: the heuristic's schedule, if any, flagged as capped.
fn capped_fallback(
    heuristic: Option<(Schedule, &'static str)>,
    attempts: Vec<Attempt>,
    mut notes: Vec<String>,
    limit: f64,
) -> Result<Outcome, Vec<Attempt>> {
    match heuristic {
        Some((s, name)) => {
            notes.push(format!("ilp: time cap of {limit} s reached: II={} from {name}, not proven minimal", s.ii));
            let order = time_order(&s);
            Ok(Outcome { schedule: s, attempts, order, notes, capped: true })
        }
        None => Err(attempts),
    }
}

/// The better of the iterative scheduler's and SMS's schedules (lower II,
/// then lower MaxLive, then fewer lifetime cycles).
fn best_heuristic(m: &Machine, g: &LoopGraph, first_ii: u32, last_ii: u32) -> Option<(Schedule, &'static str)> {
    let ims = ims::schedule_from(m, g, first_ii, &ImsOptions { budget_ratio: 6, max_ii: Some(last_ii) }).ok();
    let mii = MiiReport {
        res_mii: first_ii,
        rec_mii: 0,
        mii: first_ii,
        bottleneck: String::new(),
        recurrence: Vec::new(),
        res_exact: false,
    };
    let sms = sms::schedule(m, g, &mii, &SmsOptions { max_ii: Some(last_ii), ..SmsOptions::production() }).ok();
    let key = |s: &Schedule| {
        let p = pressure(m, g, s);
        (s.ii, p.max_live, p.lifetimes.iter().flatten().map(|&x| x as u64).sum::<u64>())
    };
    [ims.map(|o| (o.schedule, "the iterative scheduler")), sms.map(|o| (o.schedule, "SMS"))]
        .into_iter()
        .flatten()
        .filter(|(s, _)| verify(m, g, s).is_ok())
        .min_by_key(|(s, _)| key(s))
}

fn time_order(s: &Schedule) -> Vec<NodeId> {
    let mut order: Vec<NodeId> = (0..s.time.len()).collect();
    order.sort_by_key(|&n| (s.time[n], n));
    order
}

enum IiResult {
    Infeasible(String),
    Capped,
    /// `by`: whose schedule it is (for the notes).
    Found { schedule: Schedule, proven: bool, cuts: usize, by: String },
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
    let lo = longest(n, g, &w, true)?;
    let tail = longest(n, g, &w, false)?;
    // Stage weights: the most an edge can ask of the stage difference.
    let ws: Vec<i64> =
        g.edges.iter().map(|e| ceil_div(ii64 - 1 + e.delay as i64, ii64) - e.distance as i64).collect();
    let k = match longest(n, g, &ws, true) {
        // No positive circuit even at the worst rows: the longest path bounds
        // every least stage assignment.
        Some(d) => d.into_iter().max().unwrap_or(0),
        None => {
            let pos_sum: i64 = ws.iter().map(|&x| x.max(0)).sum();
            let pos_max = ws.iter().copied().max().unwrap_or(0).max(0);
            pos_sum.min((n as i64 - 1).max(0) * pos_max)
        }
    };
    let critical = lo.iter().zip(&tail).map(|(a, b)| a + b).max().unwrap_or(0);
    let horizon = (ii64 * (k + 2)).max(critical + ii64);
    let hi = tail.iter().map(|&t| horizon - 1 - t).collect();
    Some((lo, hi))
}

/// Longest paths (at least 0) from a virtual source joined to every node,
/// forward or backward along the edges; None on a positive circuit.
fn longest(n: usize, g: &LoopGraph, w: &[i64], forward: bool) -> Option<Vec<i64>> {
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
}

/// Solves one II: the rows with least MaxLive (cutting and re-solving
/// while the table disagrees), then the stages at those rows (lifetimes,
/// then stages). With an incumbent (a schedule at this II), only better
/// MaxLive is sought (CBC's cutoff) and the incumbent's rows are kept when
/// none exists.
fn solve_ii(
    m: &Machine,
    g: &LoopGraph,
    ii: u32,
    min_registers: bool,
    secs: f64,
    incumbent: Option<(&Schedule, &str)>,
) -> Result<IiResult, String> {
    let started = Instant::now();
    let n = g.nodes.len();
    if n == 0 {
        let schedule = Schedule { ii, time: Vec::new() };
        return Ok(IiResult::Found { schedule, proven: true, cuts: 0, by: String::new() });
    }
    let Some((lo, hi)) = windows(g, ii) else {
        return Ok(IiResult::Infeasible(format!("a recurrence needs more than II={ii}")));
    };
    let mode = if min_registers { Mode::MaxLive } else { Mode::Compact };
    let mut cuts: Vec<Vec<(NodeId, u32)>> = Vec::new();
    let keep = |proven: bool| match incumbent {
        Some((s, name)) => Ok((s.clone(), proven, format!("{name}'s schedule"))),
        None => Err(IiResult::Capped),
    };
    // A tenth of the time (at least 0.2 s, when there is that much) is kept
    // for the second phase.
    let phase1_secs = if min_registers { secs - (secs / 10.0).max(0.2).min(secs / 2.0) } else { secs };
    let phase1 = loop {
        let left = phase1_secs - started.elapsed().as_secs_f64();
        if left <= 0.0 {
            break keep(false);
        }
        let program = Program::build(m, g, ii, &lo, &hi, &cuts, mode);
        let cutoff = incumbent.map(|(s, _)| program.objective_of(m, g, s) - 0.5);
        match program.solve(left, cutoff)? {
            ModelResult::Infeasible if incumbent.is_some() => break keep(true),
            ModelResult::Infeasible => {
                let why = if cuts.is_empty() {
                    format!("the integer program is infeasible: no schedule at II={ii}")
                } else {
                    format!("the integer program is infeasible at II={ii} once {} rejected row assignments are cut off", cuts.len())
                };
                return Ok(IiResult::Infeasible(why));
            }
            ModelResult::Capped => break keep(false),
            ModelResult::Solved { time, proven } => {
                let s = Schedule { ii, time };
                match verify(m, g, &s) {
                    Ok(()) => break Ok((s, proven, "the integer program's schedule".to_string())),
                    Err(ScheduleError::Resources { .. }) => {
                        let subset = rejected_subset(m, g, &s);
                        if subset.is_empty() || cuts.len() >= 200 {
                            return Err(format!("II={ii}: the reservation table keeps rejecting the integer program's rows"));
                        }
                        cuts.push(subset.iter().map(|&x| (x, s.row(x))).collect());
                    }
                    Err(e) => {
                        return Err(format!("internal error at II={ii}: the integer program's schedule fails its check: {e}"))
                    }
                }
            }
        }
    };
    let (mut schedule, proven, mut by) = match phase1 {
        Ok(x) => x,
        Err(r) => return Ok(r),
    };
    // Phase 2: the same rows, the best stages.
    let left = secs - started.elapsed().as_secs_f64();
    if min_registers && left > 0.0 {
        let rows: Vec<i64> = schedule.time.iter().map(|&t| (t % ii) as i64).collect();
        let max_live = pressure(m, g, &schedule).max_live;
        let program = Program::build(m, g, ii, &lo, &hi, &[], Mode::Polish { rows: &rows, max_live });
        let before = program.objective_of(m, g, &schedule);
        if let Ok(ModelResult::Solved { time, .. }) = program.solve(left, Some(before + 0.5)) {
            let s = Schedule { ii, time };
            if s.time != schedule.time && verify(m, g, &s).is_ok() && pressure(m, g, &s).max_live <= max_live {
                if !by.starts_with("the integer program") {
                    by = format!("{by} with its stages re-optimised");
                }
                schedule = s;
            }
        }
    }
    Ok(IiResult::Found { schedule, proven, cuts: cuts.len(), by })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{DepKind, Node};
    use crate::ims::tests::{seed_graph, seed_machine};
    use crate::mii;

    /// Seed 003's loop on its machine (tests/machines/seed003_ims.isa;
    /// random graphs are in tests/compare.rs).
    #[test]
    fn seed003_at_mii_with_least_registers() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let r = mii::compute(&m, &g).unwrap();
        assert_eq!((r.res_mii, r.rec_mii, r.mii), (2, 1, 2));
        let out = schedule(&m, &g, &r, &IlpOptions::default()).unwrap();
        assert_eq!(out.schedule.ii, 2);
        assert!(out.attempts.is_empty());
        assert!(!out.capped, "{:?}", out.notes);
        verify(&m, &g, &out.schedule).unwrap();
        // Lifetimes at least 2 (ld), 3 (mpy), 2, 2 (the increments), 1
        // (cmpp): 10 cycles over II = 2 rows need MaxLive 5, and 5 is met.
        assert_eq!(pressure(&m, &g, &out.schedule).max_live, 5, "{:?}", out.notes);
        assert!(out.notes.iter().any(|n| n.contains("MaxLive=5") && n.contains("optimal")), "{:?}", out.notes);
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
        assert_eq!(out.attempts.len(), 4);
        verify(&m, &g, &out.schedule).unwrap();
        // Lifetimes 2 + 2 + 1 over II 5: one value live at a time.
        assert_eq!(pressure(&m, &g, &out.schedule).max_live, 1);
    }

    #[test]
    fn time_cap_returns_the_heuristics_schedule() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let out = schedule_from(&m, &g, 2, &IlpOptions { time_limit_secs: 0.0, ..IlpOptions::default() }).unwrap();
        assert!(out.capped);
        assert!(out.notes.iter().any(|n| n.contains("time cap")), "{:?}", out.notes);
        verify(&m, &g, &out.schedule).unwrap();
    }

    #[test]
    fn pinned_branch_closes_the_kernel() {
        let m = seed_machine();
        let g = seed_graph(&m);
        for ii in 2..5 {
            let out = schedule_from(&m, &g, ii, &IlpOptions { max_ii: Some(ii), ..IlpOptions::default() }).unwrap();
            assert_eq!(out.schedule.ii, ii);
            assert_eq!(out.schedule.row(6), ii - 1);
            verify(&m, &g, &out.schedule).unwrap();
        }
    }

    #[test]
    fn bad_edges_are_an_error() {
        let m = seed_machine();
        let mut g = seed_graph(&m);
        g.add_edge(0, 42, 1, 0, DepKind::Flow);
        let err = schedule_from(&m, &g, 2, &IlpOptions::default()).unwrap_err();
        assert!(err[0].reason.contains("outside the graph"), "{err:?}");
    }
}

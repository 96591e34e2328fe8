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

use std::time::{Duration, Instant};

use crate::isolate::{self, Isolated, Wire};

use good_lp::{
    coin_cbc, variable, Constraint, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus,
    SolverModel, Variable,
};
use isa_tablegen::{Machine, UnitId};

use crate::graph::{DepKind, LoopGraph, NodeId};
use crate::ims::{self, check_graph, default_max_ii, ImsOptions};
use crate::mii::MiiReport;
use crate::mrt::Mrt;
use crate::regs::pressure;
use crate::sms::{self, SmsOptions};
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

/// What a program optimises.
#[derive(Clone, Copy, PartialEq)]
enum Mode<'r> {
    /// MaxLive alone (a plain objective keeps the root LP fast).
    MaxLive,
    /// Rows fixed: MaxLive at most the given, then the sum of lifetimes,
    /// then the stages (resources need no constraints: they depend only on
    /// the rows).
    Polish { rows: &'r [i64], max_live: u32 },
    /// No registers: `Σ t`.
    Compact,
}

enum ModelResult {
    Infeasible,
    Capped,
    Solved { time: Vec<u32>, proven: bool },
}

/// The integer program of one II.
struct Program {
    ii: i64,
    pv: ProblemVariables,
    constraints: Vec<Constraint>,
    objective: Expression,
    /// Per node: (row, unit if chosen, binary).
    a: Vec<Vec<(i64, Option<UnitId>, Variable)>>,
    /// Per node: its stage (integer).
    k: Vec<Variable>,
    /// Per node, for τ in 1..II: `Σ_{ρ ≥ τ} a[n][ρ]` (continuous, defined
    /// by `A(τ) = a[n][τ] + A(τ + 1)`), None for a pinned node.
    at_least: Vec<Option<Vec<Variable>>>,
    /// Objective weights of MaxLive, the sum of lifetimes and the sum of
    /// stages (all 0: `Σ t`).
    weights: (f64, f64, f64),
    /// The sum of lifetimes (`Σ live`) and a bound on it.
    lifetime_sum: Option<(Expression, f64)>,
}

impl Program {
    /// `Σ_{ρ ∈ rows} a[n][ρ]`, optionally for one unit choice.
    fn rows_where(&self, n: NodeId, rows: impl Fn(i64) -> bool, unit: Option<UnitId>) -> Expression {
        let mut e = Expression::default();
        for &(r, u, v) in &self.a[n] {
            if rows(r) && (unit.is_none() || u == unit) {
                e.add_mul(1.0, v);
            }
        }
        e
    }

    /// `[ρ(n) ≥ τ]` (0/1): a cumulative variable, keeping constraints short.
    fn row_at_least(&self, n: NodeId, tau: i64) -> Expression {
        if tau <= 0 {
            return Expression::from(1.0);
        }
        if tau >= self.ii {
            return Expression::from(0.0);
        }
        match &self.at_least[n] {
            Some(vars) => Expression::from(vars[(tau - 1) as usize]),
            None => self.rows_where(n, |x| x >= tau, None),
        }
    }

    /// Whether `n` issues in row `r` (0/1).
    fn in_row(&self, n: NodeId, r: i64, unit: Option<UnitId>) -> Expression {
        self.rows_where(n, |x| x == r, unit)
    }

    /// The issue time `Σ ρ·a[n][ρ] + II·k[n]`.
    fn time(&self, n: NodeId) -> Expression {
        let mut e = Expression::default();
        for &(r, _, v) in &self.a[n] {
            e.add_mul(r as f64, v);
        }
        e.add_mul(self.ii as f64, self.k[n]);
        e
    }

    fn build(
        m: &Machine,
        g: &LoopGraph,
        ii: u32,
        lo: &[i64],
        hi: &[i64],
        cuts: &[Vec<(NodeId, u32)>],
        mode: Mode,
    ) -> Program {
        let ii64 = ii as i64;
        let n = g.nodes.len();
        let fixed = match mode {
            Mode::Polish { rows, .. } => Some(rows),
            _ => None,
        };
        let mut p = Program {
            ii: ii64,
            pv: ProblemVariables::new(),
            constraints: Vec::new(),
            objective: Expression::default(),
            a: Vec::new(),
            k: Vec::new(),
            at_least: Vec::new(),
            weights: (0.0, 0.0, 0.0),
            lifetime_sum: None,
        };
        // Rows (one per node) and stages, within the windows.
        for (v, node) in g.nodes.iter().enumerate() {
            let units = units_of(m, v, g);
            let choice = g.busy(m, v) > 1 && units.len() > 1;
            let pinned = match fixed {
                Some(rows) => Some(rows[v]),
                None => node.pinned_row.and_then(|pr| pr.row(ii)).map(|r| r as i64),
            };
            let mut rows = Vec::new();
            for r in 0..ii64 {
                if pinned.is_some_and(|pr| pr != r) {
                    continue;
                }
                if choice {
                    for &u in &units {
                        rows.push((r, Some(u), p.pv.add(variable().binary())));
                    }
                } else {
                    rows.push((r, None, p.pv.add(variable().binary())));
                }
            }
            let k = p.pv.add(variable().integer().min(lo[v].div_euclid(ii64) as f64).max(hi[v].div_euclid(ii64) as f64));
            p.a.push(rows);
            p.k.push(k);
            let one = p.rows_where(v, |_| true, None);
            p.constraints.push(one.eq(1.0));
            // Cumulative rows: A(τ) = a[τ] + A(τ + 1), A(II) = 0.
            if pinned.is_none() && ii64 > 1 {
                let vars: Vec<Variable> = (1..ii64).map(|_| p.pv.add(variable().min(0.0).max(1.0))).collect();
                for tau in 1..ii64 {
                    let next = if tau + 1 < ii64 { Expression::from(vars[tau as usize]) } else { Expression::from(0.0) };
                    let here = p.in_row(v, tau, None);
                    p.constraints.push(Expression::from(vars[(tau - 1) as usize]).eq(here + next));
                }
                p.at_least.push(Some(vars));
            } else {
                p.at_least.push(None);
            }
            let t = p.time(v);
            p.constraints.push(t.clone().geq(lo[v] as f64));
            p.constraints.push(t.leq(hi[v] as f64));
        }
        // Dependences: t(v) + distance·II ≥ t(u) + delay.
        for e in &g.edges {
            if e.from == e.to {
                continue; // delay − II·distance ≤ 0 here, or windows() failed
            }
            let w = e.delay as i64 - ii64 * e.distance as i64;
            let c = (p.time(e.to) - p.time(e.from)).geq(w as f64);
            p.constraints.push(c);
            // Stage form: with delay = II·q + s (0 ≤ s < II), the stages
            // differ by at least q − distance, one more when ρ(v) < ρ(u) + s:
            // k(v) − k(u) + distance − q ≥ [ρ(u) ≥ τ] − [ρ(v) ≥ τ + s] ∀τ.
            let q = (e.delay as i64).div_euclid(ii64);
            let s_ = (e.delay as i64).rem_euclid(ii64);
            for tau in 0..ii64 {
                let mut lhs = Expression::default();
                lhs.add_mul(1.0, p.k[e.to]);
                lhs.add_mul(-1.0, p.k[e.from]);
                lhs += (e.distance as i64 - q) as f64;
                let rhs = p.row_at_least(e.from, tau) - p.row_at_least(e.to, tau + s_);
                p.constraints.push(lhs.geq(rhs));
            }
        }
        if fixed.is_none() {
            p.resources(m, g);
        }
        for cut in cuts {
            let mut e = Expression::default();
            for &(v, r) in cut {
                e += p.in_row(v, r as i64, None);
            }
            p.constraints.push(e.leq(cut.len() as f64 - 1.0));
        }
        match mode {
            Mode::Compact => {
                for v in 0..n {
                    let t = p.time(v);
                    p.objective += t;
                }
            }
            Mode::MaxLive => {
                let max_live = p.registers(g, hi);
                p.objective.add_mul(1.0, max_live);
                p.weights = (1.0, 0.0, 0.0);
            }
            Mode::Polish { max_live: most, .. } => {
                // Lexicographic: MaxLive, the sum of lifetimes, the stages.
                let max_live = p.registers(g, hi);
                p.constraints.push(Expression::from(max_live).leq(most as f64));
                let (total, bound) = p.lifetime_sum.take().unwrap_or_default();
                let c = hi.iter().map(|&h| (h.max(0) / ii64) as f64 + 1.0).sum::<f64>() + 1.0;
                let b = c;
                let a = b * (bound + 1.0);
                p.objective.add_mul(a, max_live);
                p.objective.add_mul(b, total);
                for v in 0..n {
                    p.objective.add_mul(1.0, p.k[v]);
                }
                p.weights = (a, b, 1.0);
            }
        }
        p
    }

    /// Issue width, ports, and the operation → unit → slot flow of each row.
    fn resources(&mut self, m: &Machine, g: &LoopGraph) {
        let ii = self.ii;
        let n = g.nodes.len();
        for r in 0..ii {
            let xr: Vec<Expression> = (0..n).map(|v| self.in_row(v, r, None)).collect();
            if n as u32 > m.bundle.max_ops {
                let mut e = Expression::default();
                for x in &xr {
                    e += x.clone();
                }
                self.constraints.push(e.leq(m.bundle.max_ops as f64));
            }
            for (f, file) in m.regfiles.iter().enumerate() {
                let (mut reads, mut total_reads) = (Expression::default(), 0u32);
                let (mut lands, mut total_writes) = (Expression::default(), 0u32);
                for (v, node) in g.nodes.iter().enumerate() {
                    let k: u32 = node.reads.iter().filter(|(rf, _)| rf.0 as usize == f).map(|(_, k)| k).sum();
                    if k > 0 {
                        reads.add_mul(k as f64, xr[v].clone());
                        total_reads += k;
                    }
                    if node.writes.is_some_and(|wf| wf.0 as usize == f) {
                        let lat = g.latency(m, v) as i64;
                        lands += self.in_row(v, (r - lat).rem_euclid(ii), None);
                        total_writes += 1;
                    }
                }
                if total_reads > file.read_ports {
                    self.constraints.push(reads.leq(file.read_ports as f64));
                }
                if total_writes > file.write_ports {
                    self.constraints.push(lands.leq(file.write_ports as f64));
                }
            }
            let nu = m.units.len();
            let mut unit_in: Vec<Expression> = vec![Expression::default(); nu];
            let mut held: Vec<Expression> = vec![Expression::default(); nu];
            let mut used = vec![false; nu];
            for (v, xv) in xr.iter().enumerate() {
                let units = units_of(m, v, g);
                let choice = self.a[v].first().is_some_and(|x| x.1.is_some());
                if units.len() == 1 {
                    unit_in[units[0].0 as usize] += xv.clone();
                } else if choice {
                    for &u in &units {
                        unit_in[u.0 as usize] += self.in_row(v, r, Some(u));
                    }
                } else {
                    let mut split = Expression::default();
                    for &u in &units {
                        let f = self.pv.add(variable().min(0.0).max(1.0));
                        split.add_mul(1.0, f);
                        unit_in[u.0 as usize].add_mul(1.0, f);
                    }
                    self.constraints.push(split.eq(xv.clone()));
                }
                for &u in &units {
                    used[u.0 as usize] = true;
                }
                // Held by a non-pipelined operation issued k rows earlier.
                for k in 1..g.busy(m, v) as i64 {
                    let row = (r - k).rem_euclid(ii);
                    if units.len() == 1 {
                        held[units[0].0 as usize] += self.in_row(v, row, None);
                    } else if choice {
                        for &u in &units {
                            held[u.0 as usize] += self.in_row(v, row, Some(u));
                        }
                    }
                }
            }
            let mut slot_in: Vec<Option<Expression>> = vec![None; m.slots.len()];
            for (ui, unit) in m.units.iter().enumerate() {
                if !used[ui] {
                    continue;
                }
                let uid = UnitId(ui as u16);
                let mut out = Expression::default();
                for (si, slot) in m.slots.iter().enumerate() {
                    if slot.feeds.contains(&uid) {
                        let gv = self.pv.add(variable().min(0.0).max(1.0));
                        out.add_mul(1.0, gv);
                        slot_in[si].get_or_insert_with(Expression::default).add_mul(1.0, gv);
                    }
                }
                let c = (unit_in[ui].clone() + held[ui].clone()).leq(unit.count as f64);
                self.constraints.push(c);
                self.constraints.push(unit_in[ui].clone().eq(out));
            }
            for e in slot_in.into_iter().flatten() {
                self.constraints.push(e.leq(1.0));
            }
        }
    }

    /// The live values of each row and the integer MaxLive above them (see
    /// the module doc); the sum of lifetimes and a bound on it are kept in
    /// `lifetime_sum`.
    fn registers(&mut self, g: &LoopGraph, hi: &[i64]) -> Variable {
        let ii = self.ii;
        let mut rows: Vec<Expression> = vec![Expression::default(); ii as usize];
        let mut total = Expression::default();
        let mut most_live = 0.0;
        for (u, node) in g.nodes.iter().enumerate() {
            if node.writes.is_none() {
                continue;
            }
            let uses: Vec<(NodeId, i64)> = g
                .edges
                .iter()
                .filter(|e| e.from == u && e.kind == DepKind::Flow)
                .map(|e| (e.to, e.distance as i64))
                .collect();
            let Some(&longest) = uses.iter().map(|(v, d)| hi[*v] + d * ii).collect::<Vec<_>>().iter().max() else {
                // No use in the loop: one register in the issue row.
                for (r, row) in rows.iter_mut().enumerate() {
                    *row += self.in_row(u, r as i64, None);
                }
                total += 1.0;
                continue;
            };
            // Values of u live in row r: ⌈(end − r)/II⌉ − ⌈(t(u) − r)/II⌉,
            // and ⌈(ρ + II·k − r)/II⌉ = k + [ρ > r] for a row ρ < II; at
            // least one in the issue row (a lifetime is at least 1).
            for r in 0..ii {
                let l = self.pv.add(variable().min(0.0));
                most_live += (longest / ii + 2) as f64;
                let issue = self.in_row(u, r, None);
                self.constraints.push(issue.leq(l));
                for &(v, d) in &uses {
                    let mut e = Expression::default();
                    e.add_mul(1.0, self.k[v]);
                    e += self.row_at_least(v, r + 1);
                    e += d as f64;
                    e.add_mul(-1.0, self.k[u]);
                    e -= self.row_at_least(u, r + 1);
                    self.constraints.push(e.leq(l));
                }
                rows[r as usize].add_mul(1.0, l);
                total.add_mul(1.0, l);
            }
        }
        // MaxLive is an integer: the LP bound rounds up.
        let max_live = self.pv.add(variable().integer().min(0.0));
        for r in rows {
            self.constraints.push(r.leq(max_live));
        }
        self.lifetime_sum = Some((total, most_live));
        max_live
    }

    /// The objective's value at a schedule of this II.
    fn objective_of(&self, m: &Machine, g: &LoopGraph, s: &Schedule) -> f64 {
        let p = pressure(m, g, s);
        let total = p.lifetimes.iter().flatten().map(|&x| x as f64).sum::<f64>();
        let ii = s.ii.max(1);
        let first = s.time.iter().map(|&t| t / ii).min().unwrap_or(0);
        let (a, b, c) = self.weights;
        if (a, b, c) == (0.0, 0.0, 0.0) {
            return s.time.iter().map(|&t| (t - first * ii) as f64).sum::<f64>();
        }
        let sum_k = s.time.iter().map(|&t| (t / ii - first) as f64).sum::<f64>();
        a * p.max_live as f64 + b * total + c * sum_k
    }

    /// Solves in a child process (see [`crate::isolate`]) that is killed
    /// half a second after CBC's own limit: CBC does not watch its clock
    /// during the root LP.
    fn solve(self, secs: f64, cutoff: Option<f64>) -> Result<ModelResult, String> {
        let limit = Duration::from_secs_f64(secs.max(0.01) + 0.5);
        match isolate::run(limit, move || Solved(self.solve_here(secs, cutoff))) {
            Ok(Solved(r)) => r,
            Err(Isolated::TimedOut) => Ok(ModelResult::Capped),
            Err(Isolated::Failed(why)) => Err(format!("CBC failed: {why}")),
        }
    }

    fn solve_here(self, secs: f64, cutoff: Option<f64>) -> Result<ModelResult, String> {
        let Program { ii, pv, constraints, objective, a, k, .. } = self;
        let started = Instant::now();
        let mut model = pv.minimise(objective).using(coin_cbc);
        model.set_parameter("seconds", &format!("{:.3}", secs.max(0.01)));
        model.set_parameter("log", "0");
        model.set_parameter("slog", "0");
        // Wall-clock seconds (CBC counts CPU time by default).
        model.set_parameter("timeMode", "elapsed");
        if let Some(c) = cutoff {
            model.set_parameter("cutoff", &format!("{c}"));
        }
        for c in constraints {
            model.add_constraint(c);
        }
        let solution = match model.solve() {
            Ok(s) => s,
            // CBC may call a run stopped by its clock infeasible.
            Err(ResolutionError::Infeasible) if started.elapsed().as_secs_f64() >= secs - 0.05 => {
                return Ok(ModelResult::Capped)
            }
            Err(ResolutionError::Infeasible) => return Ok(ModelResult::Infeasible),
            Err(e) => return Err(format!("CBC failed at II={ii}: {e}")),
        };
        let capped = matches!(solution.status(), SolutionStatus::TimeLimit);
        let mut time = Vec::with_capacity(a.len());
        for (rows, &kv) in a.iter().zip(&k) {
            let on: Vec<i64> = rows.iter().filter(|(_, _, v)| solution.value(*v) > 0.5).map(|x| x.0).collect();
            let stage = solution.value(kv).round() as i64;
            match on.as_slice() {
                [r] if stage >= 0 => time.push((r + ii * stage) as u32),
                _ if capped => return Ok(ModelResult::Capped),
                _ => return Err(format!("CBC returned no integral schedule at II={ii}")),
            }
        }
        // Stage 0 is the first stage used.
        let ii = ii as u32;
        let shift = time.iter().map(|t| t / ii).min().unwrap_or(0) * ii;
        for t in &mut time {
            *t -= shift;
        }
        Ok(ModelResult::Solved { time, proven: !capped })
    }
}

/// A solve's result as it crosses the pipe from the solver process.
struct Solved(Result<ModelResult, String>);

impl Wire for Solved {
    fn encode(&self, out: &mut Vec<u8>) {
        match &self.0 {
            Ok(ModelResult::Infeasible) => out.push(0),
            Ok(ModelResult::Capped) => out.push(1),
            Ok(ModelResult::Solved { time, proven }) => {
                out.push(if *proven { 3 } else { 2 });
                for t in time {
                    out.extend_from_slice(&t.to_le_bytes());
                }
            }
            Err(e) => {
                out.push(4);
                out.extend_from_slice(e.as_bytes());
            }
        }
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        let (&tag, rest) = bytes.split_first()?;
        Some(Solved(match tag {
            0 if rest.is_empty() => Ok(ModelResult::Infeasible),
            1 if rest.is_empty() => Ok(ModelResult::Capped),
            2 | 3 if rest.len() % 4 == 0 => {
                let time = rest.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
                Ok(ModelResult::Solved { time, proven: tag == 3 })
            }
            4 => Err(String::from_utf8_lossy(rest).into_owned()),
            _ => return None,
        }))
    }
}

fn units_of(m: &Machine, v: NodeId, g: &LoopGraph) -> Vec<UnitId> {
    let mut units = m.instr(g.nodes[v].instr).units.clone();
    units.sort();
    units.dedup();
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ims::tests::{seed_graph, seed_machine};
    use crate::mii;

    /// Seed 003's loop (more in tests/ilp.rs and tests/compare.rs).
    #[test]
    fn seed003_optimal() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let r = mii::compute(&m, &g).unwrap();
        let out = schedule(&m, &g, &r, &IlpOptions::default()).unwrap();
        assert_eq!(out.schedule.ii, 2);
        assert!(!out.capped, "{:?}", out.notes);
        verify(&m, &g, &out.schedule).unwrap();
        // Lifetimes at least 2 (ld), 3 (mpy), 2, 2 (the increments), 1
        // (cmpp): 10 cycles over II = 2 rows need MaxLive 5, and 5 is met.
        assert_eq!(pressure(&m, &g, &out.schedule).max_live, 5, "{:?}", out.notes);
    }
}

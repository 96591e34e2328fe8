//! The integer program of one II (the formulation in the parent module's
//! doc): variables, constraints and objective per [`Mode`], and its
//! solution by CBC in a child process killed at the time cap
//! ([`crate::isolate`]).

use std::time::{Duration, Instant};

use good_lp::{
    coin_cbc, variable, Constraint, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus,
    SolverModel, Variable,
};
use isa_tablegen::{Machine, UnitId};

use crate::graph::{DepKind, LoopGraph, NodeId};
use crate::isolate::{self, Isolated, Wire};
use crate::regs::pressure;
use crate::schedule::Schedule;

/// What a program optimises.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Mode<'r> {
    /// MaxLive alone (a plain objective keeps the root LP fast).
    MaxLive,
    /// Rows fixed: MaxLive at most the given, then the sum of lifetimes,
    /// then the stages (resources need no constraints: they depend only on
    /// the rows).
    Polish { rows: &'r [i64], max_live: u32 },
    /// No registers: `Σ t`.
    Compact,
}

pub(super) enum ModelResult {
    Infeasible,
    Capped,
    Solved { time: Vec<u32>, proven: bool },
}

/// The integer program of one II.
pub(super) struct Program {
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

    pub(super) fn build(
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
    pub(super) fn objective_of(&self, m: &Machine, g: &LoopGraph, s: &Schedule) -> f64 {
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
    pub(super) fn solve(self, secs: f64, cutoff: Option<f64>) -> Result<ModelResult, String> {
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

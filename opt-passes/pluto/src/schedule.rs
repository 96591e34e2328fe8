//! PLuTo's scheduling algorithm (seed 002, "The PLuTo scheduling algorithm";
//! Bondhugula et al., CC'08 §3–4, PLDI'08): hyperplanes are found one at a
//! time from the outside in, each the lexicographic minimum of an integer
//! program:
//!
//! - legality: `φ_T(t) − φ_S(s) ≥ 0` on every dependence polyhedron not
//!   yet satisfied when the current band started (seed 002 图2);
//! - the bounding function `v(n) = u·n + w ≥ φ_T(t) − φ_S(s)` on the same
//!   polyhedra (communication volume / reuse distance);
//! - both linearized with Farkas' lemma ([`crate::farkas`], multipliers kept
//!   as LP variables);
//! - objective: lexmin of `(u, w, c)`; the statement coefficients are
//!   ordered innermost iterator first, then the constant, so that among
//!   equal `(u, w)` the original outer loops come first (as PLuTo permutes
//!   its ILP columns);
//! - PLuTo's non-negative coefficient assumption: every hyperplane
//!   coefficient (iterators and the constant shift) is in `[0, coeff_bound]`,
//!   `u`, `w` in `[0, bound_bound]`; hyperplanes have no parameter terms
//!   (as in PLuTo). Loop reversal and negative skews are therefore never
//!   found; a nest that needs them ends in [`Error::NoSchedule`];
//! - non-triviality (`Σ c_i ≥ 1`) and linear independence: for a statement
//!   whose hyperplanes so far `H` are not of full column rank, the basis
//!   rows `h` of `H`'s orthogonal sub-space (its right kernel), each
//!   oriented so that `h·c ≥ 1` is feasible, give `Σ h·c ≥ 1` (a hyperplane
//!   in the span of `H` has `h·c = 0` for every `h`), as PLuTo's
//!   `get_linear_ind_constraints`; eagerly for every such statement, and,
//!   when that finds nothing and no cut helps, lazily (PLuTo's LAZY mode:
//!   the constraints summed over the statements, so at least one
//!   progresses);
//! - permutable bands (seed 002 图5): consecutive hyperplanes found against
//!   the same set of dependences (those unsatisfied at the band's start)
//!   until no more is found or every statement has full rank; then the
//!   dependence instances ordered by the band (distance ≥ 1 on some row)
//!   are removed — instance-wise, each dependence polyhedron keeps only the
//!   pairs with distance 0 on every row so far, and is dropped when empty;
//! - when no hyperplane is found, a scalar dimension cuts between the
//!   strongly connected components of the graph of unsatisfied
//!   dependences (each SCC its own position in topological order: full
//!   distribution at that depth, PLuTo's `cut_all_sccs`);
//! - it stops when every statement has a full-rank schedule and every
//!   dependence is satisfied.

use crate::deps::{lift, Dep};
use crate::error::{Error, Result};
use crate::farkas::{add_nonneg_on, LinForm};
use crate::ilp::Milp;
use crate::linalg::{kernel, rank};
use crate::poly::{Aff, Polyhedron};
use crate::scop::Scop;

/// Whether a schedule row is a loop or a scalar (textual order) dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// A loop hyperplane.
    Loop,
    /// A constant per statement: distribution/fusion (SCC cut).
    Scalar,
}

/// A permutable band: loop rows `start..start+len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Band {
    /// First row.
    pub start: usize,
    /// Number of rows.
    pub len: usize,
}

/// Options of the scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Upper bound of every hyperplane coefficient (PLuTo's coeff bound).
    pub coeff_bound: i64,
    /// Upper bound of `u` and `w`.
    pub bound_bound: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options { coeff_bound: 10, bound_bound: 100 }
    }
}

/// A transformed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Per statement, per row: affine over the statement's iterators then
    /// the parameters, plus a constant. Scalar rows are constants.
    pub rows: Vec<Vec<Aff>>,
    /// Per row.
    pub kinds: Vec<RowKind>,
    /// The permutable bands, outermost first.
    pub bands: Vec<Band>,
    /// Per row: whether it carries a dependence (some dependence instance
    /// not ordered by the earlier rows has distance ≥ 1 on it); a loop row
    /// that carries none is parallel.
    pub carries: Vec<bool>,
    /// Per row: the bounding function `(u, w)` found with it (loop rows).
    pub bounding: Vec<Option<(Vec<i64>, i64)>>,
}

impl Schedule {
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.kinds.len()
    }
    /// Checks that the schedule fits the SCoP: one list of rows per
    /// statement, every list as long as `kinds`, each row over the
    /// statement's iterators and the parameters, scalar rows constant.
    pub fn check(&self, scop: &Scop) -> Result<()> {
        let n = self.kinds.len();
        if self.rows.len() != scop.stmts.len() || self.carries.len() != n {
            return Err(Error::Invalid("schedule does not match the SCoP".into()));
        }
        for (s, st) in scop.stmts.iter().enumerate() {
            if self.rows[s].len() != n || self.rows[s].iter().any(|r| r.len() != st.depth() + scop.n_params()) {
                return Err(Error::Invalid(format!("{}: schedule rows do not match", st.name)));
            }
            if self.rows[s].iter().zip(&self.kinds).any(|(r, k)| *k == RowKind::Scalar && !r.is_constant()) {
                return Err(Error::Invalid(format!("{}: a scalar row is not constant", st.name)));
            }
        }
        if self.bands.iter().any(|b| b.len == 0 || b.start + b.len > n || self.kinds[b.start..b.start + b.len].iter().any(|k| *k != RowKind::Loop)) {
            return Err(Error::Invalid("a band is out of range or not made of loop rows".into()));
        }
        Ok(())
    }
    /// The schedule as text for remarks: one line per statement with its
    /// rows, e.g. `S1: (t, 2t + i, 0)`, then the bands and the parallel
    /// rows, e.g. `bands: [0..2); parallel rows: none`.
    pub fn pretty(&self, scop: &Scop) -> String {
        let mut out = String::new();
        for (s, st) in scop.stmts.iter().enumerate() {
            let names: Vec<&str> = st.iters.iter().map(|x| x.as_str()).chain(scop.params.iter().map(|x| x.as_str())).collect();
            let rows: Vec<String> = self.rows.get(s).map_or(Vec::new(), |r| r.iter().map(|a| fmt_row(a, &names)).collect());
            out.push_str(&format!("{}: ({})\n", st.name, rows.join(", ")));
        }
        let bands: Vec<String> = self.bands.iter().map(|b| format!("[{}..{})", b.start, b.start + b.len)).collect();
        let par: Vec<String> = (0..self.n_rows()).filter(|&r| self.is_parallel(r)).map(|r| r.to_string()).collect();
        out.push_str(&format!(
            "bands: {}; parallel rows: {}\n",
            if bands.is_empty() { "none".to_string() } else { bands.join(" ") },
            if par.is_empty() { "none".to_string() } else { par.join(" ") }
        ));
        out
    }
    /// Whether row `r` is a loop that carries no dependence.
    pub fn is_parallel(&self, r: usize) -> bool {
        self.kinds.get(r) == Some(&RowKind::Loop) && !self.carries[r]
    }
    /// The original schedule of a SCoP in this form (every 2d+1 row, loops
    /// at odd positions), with no bands — the identity transformation.
    pub fn original(scop: &Scop, deps: &[Dep]) -> Result<Schedule> {
        let width = scop.stmts.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
        let np = scop.n_params();
        let mut rows = Vec::new();
        for s in &scop.stmts {
            let mut r = s.schedule.clone();
            r.resize(width, Aff::zero(s.depth() + np));
            rows.push(r);
        }
        let kinds = (0..width)
            .map(|k| if rows.iter().all(|r| r[k].is_constant()) { RowKind::Scalar } else { RowKind::Loop })
            .collect();
        let mut s = Schedule { rows, kinds, bands: Vec::new(), carries: vec![false; width], bounding: vec![None; width] };
        s.carries = carried_rows(scop, deps, &s.rows)?;
        Ok(s)
    }
}

/// `2t + i + 1` style text of a row over the given variable names.
fn fmt_row(a: &Aff, names: &[&str]) -> String {
    let mut s = String::new();
    for (c, n) in a.coeffs.iter().zip(names) {
        if *c == 0 {
            continue;
        }
        let mag = if c.abs() == 1 { String::new() } else { c.unsigned_abs().to_string() };
        if s.is_empty() {
            s = format!("{}{mag}{n}", if *c < 0 { "-" } else { "" });
        } else {
            s.push_str(&format!(" {} {mag}{n}", if *c < 0 { "-" } else { "+" }));
        }
    }
    if s.is_empty() {
        return a.constant.to_string();
    }
    if a.constant != 0 {
        s.push_str(&format!(" {} {}", if a.constant < 0 { "-" } else { "+" }, a.constant.unsigned_abs()));
    }
    s
}

/// `φ_T(t) − φ_S(s)` of row `r` in the dependence's space.
fn diff(scop: &Scop, d: &Dep, rows: &[Vec<Aff>], r: usize) -> Result<Aff> {
    let (ds, dt, np) = (scop.stmts[d.src].depth(), scop.stmts[d.dst].depth(), scop.n_params());
    let nd = ds + dt;
    lift(&rows[d.dst][r], dt, ds, nd, np)?.sub(&lift(&rows[d.src][r], ds, 0, nd, np)?)
}

/// Per row, whether it carries a dependence (see [`Schedule::carries`]).
pub fn carried_rows(scop: &Scop, deps: &[Dep], rows: &[Vec<Aff>]) -> Result<Vec<bool>> {
    let n_rows = rows.first().map_or(0, |r| r.len());
    let mut out = vec![false; n_rows];
    for d in deps.iter().filter(|d| d.is_ordering()) {
        let mut p = d.poly.clone();
        for (r, o) in out.iter_mut().enumerate() {
            let e = diff(scop, d, rows, r)?;
            let mut q = p.clone();
            q.add_ineq(e.add(&Aff::cst(e.len(), -1))?)?;
            if !q.surely_empty() {
                *o = true;
            }
            p.add_eq(e)?;
            p.simplify()?;
            if p.is_trivially_empty() || p.surely_empty() {
                break;
            }
        }
    }
    Ok(out)
}

/// Iterator-coefficient matrix of the loop rows of statement `s`.
fn iter_matrix(rows: &[Vec<Aff>], kinds: &[RowKind], s: usize, depth: usize) -> Vec<Vec<i64>> {
    rows[s].iter().zip(kinds).filter(|(_, k)| **k == RowKind::Loop).map(|(a, _)| a.coeffs[..depth].to_vec()).collect()
}

fn full_rank(scop: &Scop, rows: &[Vec<Aff>], kinds: &[RowKind], s: usize) -> Result<bool> {
    let d = scop.stmts[s].depth();
    Ok(d == 0 || rank(&iter_matrix(rows, kinds, s, d), d)? == d)
}

/// Finds one hyperplane against the dependence polyhedra `band`:
/// per statement its row, and `(u, w)`; `None` when there is none.
/// One hyperplane: per statement its row, and the bounding function `(u, w)`.
type Hyperplane = (Vec<Aff>, Vec<i64>, i64);

#[allow(clippy::too_many_arguments)]
fn find_hyperplane(scop: &Scop, deps: &[Dep], band: &[(usize, Polyhedron)], rows: &[Vec<Aff>], kinds: &[RowKind], opts: &Options, lazy: bool) -> Result<Option<Hyperplane>> {
    let np = scop.n_params();
    let mut m = Milp::default();
    let u: Vec<usize> = (0..np).map(|_| m.add_var(true, Some(0), Some(opts.bound_bound))).collect();
    let w = m.add_var(true, Some(0), Some(opts.bound_bound));
    let c: Vec<Vec<usize>> = scop.stmts.iter().map(|s| (0..=s.depth()).map(|_| m.add_var(true, Some(0), Some(opts.coeff_bound))).collect()).collect();
    for (di, poly) in band {
        let d = &deps[*di];
        let (ds, dt) = (scop.stmts[d.src].depth(), scop.stmts[d.dst].depth());
        let nv = ds + dt + np;
        // δ = φ_T(t) − φ_S(s).
        let mut delta = vec![LinForm::default(); nv];
        for k in 0..ds {
            delta[k].push(c[d.src][k], -1);
        }
        for k in 0..dt {
            delta[ds + k].push(c[d.dst][k], 1);
        }
        let mut dc = LinForm::default();
        dc.push(c[d.dst][dt], 1);
        dc.push(c[d.src][ds], -1);
        add_nonneg_on(&mut m, poly, &delta, &dc)?;
        // u·n + w − δ.
        let mut bnd: Vec<LinForm> = delta.iter().map(|f| LinForm { terms: f.terms.iter().map(|&(v, k)| (v, -k)).collect(), constant: 0 }).collect();
        for (j, &uj) in u.iter().enumerate() {
            bnd[ds + dt + j].push(uj, 1);
        }
        let mut bc = LinForm { terms: dc.terms.iter().map(|&(v, k)| (v, -k)).collect(), constant: 0 };
        bc.push(w, 1);
        add_nonneg_on(&mut m, poly, &bnd, &bc)?;
    }
    // Non-triviality and linear independence for statements not yet full
    // rank: `Σ c ≥ 1`, and `Σ ±h·c ≥ 1` over the basis rows `h` of the
    // orthogonal sub-space (each oriented so that `h·c ≥ 1` is feasible, as
    // PLuTo does). Eager: for every such statement; lazy: summed over them
    // (at least one statement progresses).
    let mut nontrivial: Vec<(usize, i64)> = Vec::new();
    let mut independent: Vec<(usize, i64)> = Vec::new();
    for (s, st) in scop.stmts.iter().enumerate() {
        let dep = st.depth();
        if full_rank(scop, rows, kinds, s)? {
            continue;
        }
        let nt: Vec<(usize, i64)> = c[s][..dep].iter().map(|&v| (v, 1)).collect();
        let h = iter_matrix(rows, kinds, s, dep);
        let mut ind: Vec<(usize, i64)> = Vec::new();
        for mut k in kernel(&h, dep)? {
            let pos = k.iter().all(|&x| x >= 0);
            let neg = k.iter().all(|&x| x <= 0);
            if neg && !pos {
                k.iter_mut().for_each(|x| *x = -*x);
            } else if !pos {
                // Mixed signs: keep the orientation in which h·c ≥ 1 is feasible.
                let mut t = m.clone();
                t.add_row(k.iter().enumerate().map(|(i, &x)| (c[s][i], x)).collect(), -1, false)?;
                if !t.feasible()? {
                    k.iter_mut().for_each(|x| *x = -*x);
                }
            }
            ind.extend(k.iter().enumerate().filter(|(_, &x)| x != 0).map(|(i, &x)| (c[s][i], x)));
        }
        if lazy {
            nontrivial.extend(nt);
            independent.extend(ind);
        } else {
            m.add_row(nt, -1, false)?;
            m.add_row(ind, -1, false)?;
        }
    }
    if lazy && !nontrivial.is_empty() {
        m.add_row(nontrivial, -1, false)?;
        m.add_row(independent, -1, false)?;
    }
    let mut order: Vec<usize> = u.clone();
    order.push(w);
    for (s, st) in scop.stmts.iter().enumerate() {
        order.extend(c[s][..st.depth()].iter().rev());
        order.push(c[s][st.depth()]);
    }
    let Some(sol) = m.lexmin(&order)? else { return Ok(None) };
    let val = |v: usize| sol[v].round() as i64;
    let mut out = Vec::new();
    for (s, st) in scop.stmts.iter().enumerate() {
        let mut a = Aff::zero(st.depth() + np);
        for (k, &v) in c[s][..st.depth()].iter().enumerate() {
            a.coeffs[k] = val(v);
        }
        a.constant = val(c[s][st.depth()]);
        out.push(a);
    }
    Ok(Some((out, u.iter().map(|&v| val(v)).collect(), val(w))))
}

/// Strongly connected components of the statements under the active
/// dependences, numbered in a topological order (ties: lowest statement
/// first).
fn scc_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut reach = vec![vec![false; n]; n];
    for (i, r) in reach.iter_mut().enumerate() {
        r[i] = true;
    }
    for &(a, b) in edges {
        reach[a][b] = true;
    }
    for k in 0..n {
        for i in 0..n {
            if reach[i][k] {
                let via = reach[k].clone();
                for (r, v) in reach[i].iter_mut().zip(via) {
                    *r |= v;
                }
            }
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut placed = 0;
    while placed < n {
        // A statement not yet placed that no other unplaced SCC reaches.
        let Some(s) = (0..n).find(|&s| comp[s] == usize::MAX && (0..n).all(|o| comp[o] != usize::MAX || !reach[o][s] || reach[s][o])) else { break };
        let id = comp.iter().filter(|&&c| c != usize::MAX).map(|&c| c + 1).max().unwrap_or(0);
        for o in 0..n {
            if comp[o] == usize::MAX && reach[s][o] && reach[o][s] {
                comp[o] = id;
                placed += 1;
            }
        }
    }
    comp
}

/// Keeps of each active dependence the instances with distance 0 on the
/// rows `from..` (those not yet ordered); drops the empty ones.
fn refine(scop: &Scop, deps: &[Dep], active: Vec<(usize, Polyhedron)>, rows: &[Vec<Aff>], from: usize) -> Result<Vec<(usize, Polyhedron)>> {
    let mut out = Vec::new();
    for (di, mut p) in active {
        for r in from..rows[0].len() {
            p.add_eq(diff(scop, &deps[di], rows, r)?)?;
        }
        p.simplify()?;
        if !p.is_trivially_empty() && !p.surely_empty() {
            out.push((di, p));
        }
    }
    Ok(out)
}

/// Runs the PLuTo scheduling algorithm on a SCoP and its dependences.
pub fn schedule(scop: &Scop, deps: &[Dep], opts: &Options) -> Result<Schedule> {
    scop.validate()?;
    let n = scop.stmts.len();
    if n == 0 {
        return Ok(Schedule { rows: Vec::new(), kinds: Vec::new(), bands: Vec::new(), carries: Vec::new(), bounding: Vec::new() });
    }
    let mut rows: Vec<Vec<Aff>> = vec![Vec::new(); n];
    let mut kinds: Vec<RowKind> = Vec::new();
    let mut bands = Vec::new();
    let mut bounding = Vec::new();
    let mut active: Vec<(usize, Polyhedron)> = deps.iter().enumerate().filter(|(_, d)| d.is_ordering()).map(|(i, d)| (i, d.poly.clone())).collect();
    let max_depth = scop.stmts.iter().map(|s| s.depth()).max().unwrap_or(0);
    let max_rows = 3 * (max_depth + 1) + n + 4;
    // Eager: every statement not yet of full rank gets a linearly
    // independent hyperplane; lazy (once eager is stuck): at least one.
    let mut lazy = false;
    let all_full = |rows: &[Vec<Aff>], kinds: &[RowKind]| -> Result<bool> {
        for s in 0..n {
            if !full_rank(scop, rows, kinds, s)? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    loop {
        if active.is_empty() && all_full(&rows, &kinds)? {
            break;
        }
        if kinds.len() >= max_rows {
            return Err(Error::NoSchedule(format!("no progress after {} rows", kinds.len())));
        }
        let start = kinds.len();
        let band_deps = active.clone();
        while !all_full(&rows, &kinds)? {
            match find_hyperplane(scop, deps, &band_deps, &rows, &kinds, opts, lazy)? {
                Some((r, u, w)) => {
                    for (s, a) in r.into_iter().enumerate() {
                        rows[s].push(a);
                    }
                    kinds.push(RowKind::Loop);
                    bounding.push(Some((u, w)));
                }
                None => break,
            }
        }
        if kinds.len() > start {
            bands.push(Band { start, len: kinds.len() - start });
            active = refine(scop, deps, active, &rows, start)?;
            continue;
        }
        // No hyperplane: cut between SCCs.
        let edges: Vec<(usize, usize)> = active.iter().map(|(di, _)| (deps[*di].src, deps[*di].dst)).collect();
        let comp = scc_order(n, &edges);
        if edges.iter().all(|&(a, b)| comp[a] == comp[b]) {
            if !lazy && !all_full(&rows, &kinds)? {
                // PLuTo's switch from eager to lazy search.
                lazy = true;
                continue;
            }
            return Err(Error::NoSchedule(format!("no legal hyperplane at row {start} within one strongly connected component")));
        }
        let np = scop.n_params();
        for (s, st) in scop.stmts.iter().enumerate() {
            rows[s].push(Aff::cst(st.depth() + np, comp[s] as i64));
        }
        kinds.push(RowKind::Scalar);
        bounding.push(None);
        active = refine(scop, deps, active, &rows, start)?;
    }
    let carries = carried_rows(scop, deps, &rows)?;
    Ok(Schedule { rows, kinds, bands, carries, bounding })
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;

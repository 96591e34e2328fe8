//! Interchange-only schedules: the fallback when PLuTo's own schedule is
//! not worth generating (issue 12, "transform more kernels"). PLuTo's
//! bounding function (seed 002, §3–4) picks the hyperplanes with the
//! shortest dependence distances, which for a dot-product nest
//! (`for i, j { T[i][j] = 0; for k: T[i][j] += A[i][k] * B[k][j] }`) is
//! the original order with the reduction `k` innermost: a loop no
//! vectorizer may touch under strict float semantics, over a column of
//! `B`. The classic remedy is loop interchange with distribution (Allen
//! and Kennedy, *Optimizing Compilers for Modern Architectures*, §5.2 and
//! §6.2; Wolf and Lam's locality-driven loop permutation, PLDI'91): here,
//! as one more affine schedule that the core's exact legality check
//! ([`dsp_pluto::verify`]) must accept, so nothing illegal is ever
//! generated.
//!
//! The schedule keeps every statement's original 2d+1 rows above a level
//! `L`, distributes the statements below `L` (each gets its own loop nest,
//! in textual order) and, per statement, moves to the innermost place the
//! loop whose accesses are best for the vectorizers: fewest accesses that
//! are neither invariant nor unit-stride along it, then no write invariant
//! along it (a reduction, carried), the original innermost loop on ties.
//! Levels are tried from the deepest (least distribution) up; the first
//! legal one that moves a loop is taken.

use dsp_pluto::deps::Dep;
use dsp_pluto::poly::Aff;
use dsp_pluto::schedule::{carried_rows, RowKind, Schedule};
use dsp_pluto::scop::{AccessKind, Scop, Statement};
use dsp_pluto::{ast, verify};

/// An interchange schedule found for a SCoP.
pub struct Permuted {
    /// The schedule (no bands: nothing is tiled).
    pub schedule: Schedule,
    /// The remark: the level of the distribution and the loops moved.
    pub note: String,
}

/// How bad loop `v` is as the innermost loop of `st`: (accesses neither
/// invariant nor unit-stride along `v`, whether a write is invariant along
/// `v`). Lower is better.
pub fn innermost_cost(st: &Statement, v: usize) -> (usize, bool) {
    let mut strided = 0;
    let mut reduction = false;
    for a in &st.accesses {
        let n = a.subscripts.len();
        let along: Vec<i64> = a.subscripts.iter().map(|e| e.coeffs.get(v).copied().unwrap_or(0)).collect();
        let invariant = along.iter().all(|&c| c == 0);
        let unit = n > 0 && along[..n - 1].iter().all(|&c| c == 0) && along[n - 1].abs() == 1;
        if !invariant && !unit {
            strided += 1;
        }
        if invariant && a.kind == AccessKind::Write {
            reduction = true;
        }
    }
    (strided, reduction)
}

/// The order of `st`'s loops `level..depth` with the best innermost loop
/// last (the others in their original order); `None` when the original
/// innermost loop is already as good.
fn best_order(st: &Statement, level: usize) -> Option<Vec<usize>> {
    let d = st.depth();
    if d < level + 2 {
        return None;
    }
    let orig = innermost_cost(st, d - 1);
    let best = (level..d).min_by_key(|&v| (innermost_cost(st, v), v != d - 1))?;
    if innermost_cost(st, best) >= orig {
        return None;
    }
    let mut order: Vec<usize> = (level..d).filter(|&v| v != best).collect();
    order.push(best);
    Some(order)
}

/// The first legal interchange schedule from the deepest level up, if any
/// moves a loop. Errors of the core (an ILP, a polyhedron too large) are
/// returned; an illegal candidate is skipped.
pub fn schedule(m: &Scop, deps: &[Dep]) -> dsp_pluto::Result<Option<Permuted>> {
    let max_depth = m.stmts.iter().map(|s| s.depth()).max().unwrap_or(0);
    if max_depth < 2 {
        return Ok(None);
    }
    // Textual order: by the scalar rows, then the statement index.
    let scalars = |s: usize| -> Vec<i64> { m.stmts[s].schedule.iter().step_by(2).map(|a| a.constant).collect() };
    let mut order: Vec<usize> = (0..m.stmts.len()).collect();
    order.sort_by_key(|&s| (scalars(s), s));
    let mut rank = vec![0i64; m.stmts.len()];
    for (r, &s) in order.iter().enumerate() {
        rank[s] = r as i64;
    }
    for level in (0..=max_depth - 2).rev() {
        let orders: Vec<Option<Vec<usize>>> = m.stmts.iter().map(|st| best_order(st, level)).collect();
        if orders.iter().all(Option::is_none) {
            continue;
        }
        let sch = build(m, deps, level, &rank, &orders)?;
        let p = match ast::ScheduledProgram::new(m, &sch) {
            Ok(p) => p,
            Err(_) => continue,
        };
        if verify::verify(m, deps, &p).is_err() {
            continue;
        }
        let moved: Vec<String> = orders
            .iter()
            .enumerate()
            .filter_map(|(s, o)| {
                let o = o.as_ref()?;
                let st = &m.stmts[s];
                let names: Vec<&str> = o.iter().map(|&v| st.iters.get(v).map_or("?", |x| x.as_str())).collect();
                Some(format!("{} ({})", st.name, names.join(", ")))
            })
            .collect();
        let note = format!("interchange below loop level {level} (statements distributed there): {}", moved.join(", "));
        return Ok(Some(Permuted { schedule: sch, note }));
    }
    Ok(None)
}

/// The schedule: original rows above `level`, the textual rank at row
/// `2·level`, then each statement's loops from `level` on in `orders`
/// (original order when `None`).
fn build(m: &Scop, deps: &[Dep], level: usize, rank: &[i64], orders: &[Option<Vec<usize>>]) -> dsp_pluto::Result<Schedule> {
    let width = 2 * m.stmts.iter().map(|s| s.depth()).max().unwrap_or(0) + 1;
    let np = m.n_params();
    let mut rows = Vec::new();
    for (s, st) in m.stmts.iter().enumerate() {
        let (d, n) = (st.depth(), st.depth() + np);
        let mut r: Vec<Aff> = vec![Aff::zero(n); width];
        if d < level {
            for (k, a) in st.schedule.iter().enumerate() {
                r[k] = a.clone();
            }
        } else {
            r[..2 * level].clone_from_slice(&st.schedule[..2 * level]);
            r[2 * level] = Aff::cst(n, rank[s]);
            let loops: Vec<usize> = orders[s].clone().unwrap_or_else(|| (level..d).collect());
            for (k, &v) in loops.iter().enumerate() {
                r[2 * level + 1 + 2 * k] = st.schedule[2 * v + 1].clone();
            }
        }
        rows.push(r);
    }
    let kinds: Vec<RowKind> = (0..width).map(|k| if rows.iter().all(|r| r[k].is_constant()) { RowKind::Scalar } else { RowKind::Loop }).collect();
    let carries = carried_rows(m, deps, &rows)?;
    Ok(Schedule { rows, kinds, bands: Vec::new(), carries, bounding: vec![None; width] })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_pluto::deps;
    use dsp_pluto::scop::ScopBuilder;

    /// `for i, j { S0: T[i][j] = 0; for k: S1: T[i][j] += A[i][k] * B[k][j] }`.
    fn dot_product_nest() -> Scop {
        ScopBuilder::new(&["N"])
            .context("N >= 1")
            .and_then(|b| b.array("T", 2).array("A", 2).array("B", 2).stmt("S0", &["i", "j"], &["0 <= i <= N - 1", "0 <= j <= N - 1"], &[0, 0, 0], &["=T[i][j]"]))
            .and_then(|b| {
                b.stmt(
                    "S1",
                    &["i", "j", "k"],
                    &["0 <= i <= N - 1", "0 <= j <= N - 1", "0 <= k <= N - 1"],
                    &[0, 0, 1, 0],
                    &["=T[i][j]", "T[i][j]", "A[i][k]", "B[k][j]"],
                )
            })
            .and_then(|b| b.build())
            .expect("dot-product model")
    }

    #[test]
    fn a_dot_product_nest_gets_its_reduction_out_of_the_innermost_place() {
        let m = dot_product_nest();
        let d = deps::compute(&m, false).unwrap();
        let p = schedule(&m, &d).unwrap().expect("an interchange");
        // Distributed below i; S1 runs (i, k, j): j innermost, parallel.
        assert!(p.note.contains("level 1") && p.note.contains("S1 (k, j)"), "{}", p.note);
        let last = p.schedule.kinds.iter().rposition(|k| *k == RowKind::Loop).unwrap();
        assert!(!p.schedule.carries[last], "{}", p.schedule.pretty(&m));
    }

    #[test]
    fn an_illegal_interchange_is_refused() {
        // for i in 1..N, j in 0..N-1: X[j][i] = X[j+1][i-1]: i innermost would be stride-1, but the distance (1, -1) forbids it.
        let m = ScopBuilder::new(&["N"])
            .context("N >= 3")
            .and_then(|b| b.array("X", 2).stmt("S", &["i", "j"], &["1 <= i <= N - 1", "0 <= j <= N - 2"], &[0, 0, 0], &["=X[j][i]", "X[j+1][i-1]"]))
            .and_then(|b| b.build())
            .unwrap();
        assert_eq!(innermost_cost(&m.stmts[0], 0), (0, false));
        let d = deps::compute(&m, false).unwrap();
        assert!(schedule(&m, &d).unwrap().is_none());
    }

    #[test]
    fn costs_count_strided_accesses_and_reductions() {
        let m = dot_product_nest();
        let s1 = &m.stmts[1];
        assert_eq!(innermost_cost(s1, 2), (1, true)); // k: A[i][k] unit, B[k][j] strided, T invariant and written
        assert_eq!(innermost_cost(s1, 1), (0, false)); // j: T and B unit, A invariant
        assert_eq!(innermost_cost(s1, 0), (3, false)); // i: T (twice) and A strided
    }
}

//! The exact legality check of a scheduled (and possibly tiled) program —
//! the last line of defence before code is emitted (issue 12: "anything
//! whose transformation cannot be proven legal is left as it was"). It does
//! not trust the scheduler's ILP (solved in floating point by CBC): every
//! dependence polyhedron is moved into the space of the scheduled
//! statements (their extra tile dimensions constrained by their domains)
//! and the new schedule must order each of its instance pairs source
//! first: on the instances with distance 0 on the rows before `r`, the
//! distance on row `r` is never negative, and instances with distance 0 on
//! every row are pairs of different statements that code generation emits
//! in the right order (the source's statement first). Each "never" is an
//! integer emptiness test; one that cannot be proven (a solver time-out)
//! fails the check. The same construction gives which rows carry a
//! dependence.

use crate::ast::ScheduledProgram;
use crate::deps::{lift, Dep};
use crate::error::{Error, Result};
use crate::poly::{Aff, Constraint, Polyhedron};
use crate::schedule::Schedule;
use crate::scop::Scop;
use crate::tile::Tiled;

/// A dependence in the space (source statement's dims, target statement's
/// dims, parameters) of a scheduled program, with the distance of every row;
/// also the positions of the two statements in the program.
fn extended(scop: &Scop, d: &Dep, p: &ScheduledProgram) -> Result<(Polyhedron, Vec<Aff>, usize, usize)> {
    let find = |k: usize| p.stmts.iter().position(|s| s.stmt == k).ok_or_else(|| Error::Invalid(format!("statement {k} missing from the program")));
    let (si, ti) = (find(d.src)?, find(d.dst)?);
    let (s, t) = (&p.stmts[si], &p.stmts[ti]);
    let np = p.n_params;
    let (ws, wt) = (s.n_extra + s.depth, t.n_extra + t.depth);
    let nd = ws + wt;
    let mut poly = Polyhedron::universe(nd, np);
    for c in &s.domain.cons {
        poly.add(Constraint { aff: lift(&c.aff, ws, 0, nd, np)?, kind: c.kind })?;
    }
    for c in &t.domain.cons {
        poly.add(Constraint { aff: lift(&c.aff, wt, ws, nd, np)?, kind: c.kind })?;
    }
    let (ds, dt) = (scop.stmts[d.src].depth(), scop.stmts[d.dst].depth());
    if (ds, dt) != (s.depth, t.depth) || d.poly.n_vars() != ds + dt + np {
        return Err(Error::Invalid("dependence does not match the program".into()));
    }
    let map: Vec<usize> = (0..ds).map(|k| s.n_extra + k).chain((0..dt).map(|k| ws + t.n_extra + k)).chain((0..np).map(|k| nd + k)).collect();
    for c in &d.poly.cons {
        poly.add(Constraint { aff: c.aff.remap(nd + np, &map)?, kind: c.kind })?;
    }
    let diffs = (0..p.kinds.len()).map(|r| lift(&t.rows[r], wt, ws, nd, np)?.sub(&lift(&s.rows[r], ws, 0, nd, np)?)).collect::<Result<Vec<_>>>()?;
    Ok((poly, diffs, si, ti))
}

/// Per row of a scheduled program (possibly with extra dimensions): whether
/// it carries a dependence (see [`crate::schedule::Schedule::carries`]).
pub fn program_carries(scop: &Scop, deps: &[Dep], p: &ScheduledProgram) -> Result<Vec<bool>> {
    let mut out = vec![false; p.kinds.len()];
    for d in deps.iter().filter(|d| d.is_ordering()) {
        let (mut poly, diffs, _, _) = extended(scop, d, p)?;
        for (o, e) in out.iter_mut().zip(&diffs) {
            let mut q = poly.clone();
            q.add_ineq(e.add(&Aff::cst(e.len(), -1))?)?;
            if !q.surely_empty() {
                *o = true;
            }
            poly.add_eq(e.clone())?;
            poly.simplify()?;
            if poly.is_trivially_empty() || poly.surely_empty() {
                break;
            }
        }
    }
    Ok(out)
}

/// Proves that the scheduled program respects every dependence, or says
/// which one it could not prove ([`Error::NoSchedule`]).
pub fn verify(scop: &Scop, deps: &[Dep], p: &ScheduledProgram) -> Result<()> {
    for (k, d) in deps.iter().enumerate().filter(|(_, d)| d.is_ordering()) {
        let (mut poly, diffs, si, ti) = extended(scop, d, p)?;
        let what = |r: String| Error::NoSchedule(format!("dependence {k} ({:?}, S{} → S{}) {r}", d.kind, d.src, d.dst));
        let mut done = false;
        for (r, e) in diffs.iter().enumerate() {
            let mut q = poly.clone();
            q.add_ineq(e.scale(-1)?.add(&Aff::cst(e.len(), -1))?)?;
            if !q.surely_empty() {
                return Err(what(format!("may be violated at row {r}")));
            }
            poly.add_eq(e.clone())?;
            poly.simplify()?;
            if poly.is_trivially_empty() || poly.surely_empty() {
                done = true;
                break;
            }
        }
        if !done && si >= ti {
            return Err(what("may be left unordered by every row".into()));
        }
    }
    Ok(())
}

/// Proves a tiling legal: the untiled schedule respects every dependence
/// ([`verify`]), and every tiled band is permutable — each dependence
/// instance not ordered by the rows before the band has a non-negative
/// distance on every row of the band. Rectangular tiling of a permutable
/// band, any order of its point loops and the tile wavefront are then
/// legal (the classic result PLuTo relies on), so the tiled program's
/// floor-division dimensions never reach the solver: [`verify`] on the
/// tiled program itself asks integer programs whose parameters are
/// unbounded and whose infeasibility comes from the tile constraints, which
/// CBC may fail to prove within its time cap.
pub fn verify_tiling(scop: &Scop, deps: &[Dep], sch: &Schedule, tiled: &Tiled) -> Result<()> {
    verify(scop, deps, &ScheduledProgram::new(scop, sch)?)?;
    let np = scop.n_params();
    for tb in &tiled.bands {
        let b = tb.band;
        if b.start + b.len > sch.n_rows() {
            return Err(Error::Invalid("tiled band outside the schedule".into()));
        }
        for (k, d) in deps.iter().enumerate().filter(|(_, d)| d.is_ordering()) {
            let (ds, dt) = (scop.stmts[d.src].depth(), scop.stmts[d.dst].depth());
            let nd = ds + dt;
            let diff = |r: usize| -> Result<Aff> { lift(&sch.rows[d.dst][r], dt, ds, nd, np)?.sub(&lift(&sch.rows[d.src][r], ds, 0, nd, np)?) };
            let mut p = d.poly.clone();
            for r in 0..b.start {
                p.add_eq(diff(r)?)?;
            }
            p.simplify()?;
            if p.is_trivially_empty() || p.surely_empty() {
                continue;
            }
            for r in b.start..b.start + b.len {
                let e = diff(r)?;
                let mut q = p.clone();
                q.add_ineq(e.scale(-1)?.add(&Aff::cst(e.len(), -1))?)?;
                if !q.surely_empty() {
                    return Err(Error::NoSchedule(format!("band {}..{} may not be permutable: dependence {k} ({:?}, S{} → S{}) at row {r}", b.start, b.start + b.len, d.kind, d.src, d.dst)));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::ScheduledProgram;
    use crate::deps::compute;
    use crate::examples;
    use crate::schedule::{schedule, Options, RowKind};

    #[test]
    fn pluto_schedules_verify_and_a_reversal_does_not() {
        let scop = examples::jacobi_1d();
        let deps = compute(&scop, false).unwrap();
        let sch = schedule(&scop, &deps, &Options::default()).unwrap();
        verify(&scop, &deps, &ScheduledProgram::new(&scop, &sch).unwrap()).unwrap();
        // Interchanging (t, i) → (i, t) without the skew is illegal.
        let mut bad = sch.clone();
        for rows in bad.rows.iter_mut() {
            rows.swap(0, 1);
            rows[0] = Aff::new(vec![0, 1, 0, 0], 0);
        }
        let e = verify(&scop, &deps, &ScheduledProgram::new(&scop, &bad).unwrap());
        assert!(matches!(e, Err(Error::NoSchedule(_))), "{e:?}");
        // The original schedule is legal.
        let orig = Schedule::original(&scop, &deps).unwrap();
        assert_eq!(orig.kinds[0], RowKind::Scalar);
        verify(&scop, &deps, &ScheduledProgram::new(&scop, &orig).unwrap()).unwrap();
    }
}

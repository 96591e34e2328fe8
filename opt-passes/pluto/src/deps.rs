//! Exact dependence analysis (PLuTo's input to the scheduler, seed 002:
//! "任何一对(尚未被满足的)实例间依赖"): for every ordered pair of accesses
//! to the same array, at least one a write, and every level of the original
//! lexicographic (2d+1) order, the dependence polyhedron
//!
//! `{ (s, t, n) | s ∈ D_S, t ∈ D_T, n ∈ context, f_a(s, n) = f_b(t, n),
//!    θ_S(s)_k = θ_T(t)_k for k < l, θ_S(s)_l + 1 ≤ θ_T(t)_l }`
//!
//! over the source iterators `s`, the target iterators `t` and the
//! parameters `n`. The levels partition the pairs of instances, so the union
//! over levels is exactly the set of dependent instance pairs (source first)
//! — memory-based dependences, not only distance vectors. Instances whose
//! (zero-padded) schedule vectors are equal are ordered by statement index
//! (level = number of rows), as [`Scop::original_instances`] orders them. Empty polyhedra
//! (integer emptiness, [`Polyhedron::is_empty`]) are dropped; a solver
//! failure keeps the polyhedron (conservative).
//!
//! Kinds: flow (write then read, RAW), anti (read then write, WAR), output
//! (write then write, WAW); input (read then read, RAR) only on request,
//! for reuse analysis — the scheduler ignores them.

use crate::error::{Error, Result};
use crate::ilp::Milp;
use crate::poly::{Aff, Kind, Polyhedron};
use crate::scop::{AccessKind, Scop};

/// The kind of a dependence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepKind {
    /// Read after write (RAW).
    Flow,
    /// Write after read (WAR).
    Anti,
    /// Write after write (WAW).
    Output,
    /// Read after read (RAR): reuse only, not an ordering constraint.
    Input,
}

/// One dependence polyhedron.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dep {
    /// Source statement (executes first).
    pub src: usize,
    /// Target statement.
    pub dst: usize,
    /// Flow, anti, output or input.
    pub kind: DepKind,
    /// Index of the source access in the source statement.
    pub src_access: usize,
    /// Index of the target access in the target statement.
    pub dst_access: usize,
    /// The original schedule row at which the source comes first.
    pub level: usize,
    /// Over (source iterators, target iterators, parameters).
    pub poly: Polyhedron,
}

impl Dep {
    /// Whether the dependence constrains the execution order.
    pub fn is_ordering(&self) -> bool {
        self.kind != DepKind::Input
    }
}

/// Lifts an affine expression over (iterators of one statement, params)
/// into the dependence space (src iters, dst iters, params): `offset` is
/// where the statement's iterators start.
pub fn lift(a: &Aff, depth: usize, offset: usize, n_dims: usize, n_params: usize) -> Result<Aff> {
    let map: Vec<usize> = (0..depth).map(|k| offset + k).chain((0..n_params).map(|k| n_dims + k)).collect();
    a.remap(n_dims + n_params, &map)
}

/// The dependence polyhedra of the SCoP (input dependences too when
/// `with_input`).
pub fn compute(scop: &Scop, with_input: bool) -> Result<Vec<Dep>> {
    scop.validate()?;
    let np = scop.n_params();
    let mut out = Vec::new();
    for (si, s) in scop.stmts.iter().enumerate() {
        for (ti, t) in scop.stmts.iter().enumerate() {
            let (ds, dt) = (s.depth(), t.depth());
            let nd = ds + dt;
            // Both domains and the context in the joint space.
            let mut base = Polyhedron::universe(nd, np);
            for c in &s.domain.cons {
                base.add(crate::poly::Constraint { aff: lift(&c.aff, ds, 0, nd, np)?, kind: c.kind })?;
            }
            for c in &t.domain.cons {
                base.add(crate::poly::Constraint { aff: lift(&c.aff, dt, ds, nd, np)?, kind: c.kind })?;
            }
            for c in &scop.context.cons {
                base.add(crate::poly::Constraint { aff: lift(&c.aff, 0, 0, nd, np)?, kind: c.kind })?;
            }
            for (ai, a) in s.accesses.iter().enumerate() {
                for (bi, b) in t.accesses.iter().enumerate() {
                    if a.array != b.array {
                        continue;
                    }
                    let kind = match (a.kind, b.kind) {
                        (AccessKind::Write, AccessKind::Read) => DepKind::Flow,
                        (AccessKind::Read, AccessKind::Write) => DepKind::Anti,
                        (AccessKind::Write, AccessKind::Write) => DepKind::Output,
                        (AccessKind::Read, AccessKind::Read) if with_input => DepKind::Input,
                        _ => continue,
                    };
                    let mut same = base.clone();
                    for (fa, fb) in a.subscripts.iter().zip(&b.subscripts) {
                        let e = lift(fa, ds, 0, nd, np)?.sub(&lift(fb, dt, ds, nd, np)?)?;
                        same.add_eq(e)?;
                    }
                    same.simplify()?;
                    // The two accesses never meet: no level can have a dependence.
                    if same.is_trivially_empty() || same.surely_empty() {
                        continue;
                    }
                    let levels = s.schedule.len().max(t.schedule.len());
                    let zero = Aff::zero(ds + np);
                    let zt = Aff::zero(dt + np);
                    let mut prefix = same;
                    for l in 0..levels {
                        let rs = lift(s.schedule.get(l).unwrap_or(&zero), ds, 0, nd, np)?;
                        let rt = lift(t.schedule.get(l).unwrap_or(&zt), dt, ds, nd, np)?;
                        let diff = rt.sub(&rs)?;
                        let mut at = prefix.clone();
                        at.add_ineq(diff.add(&Aff::cst(nd + np, -1))?)?;
                        at.simplify()?;
                        if !at.is_trivially_empty() && !at.surely_empty() {
                            out.push(Dep { src: si, dst: ti, kind, src_access: ai, dst_access: bi, level: l, poly: at });
                        }
                        prefix.add_eq(diff)?;
                        prefix.simplify()?;
                        if prefix.is_trivially_empty() {
                            break;
                        }
                    }
                    // Equal schedule vectors (a statement's 2d+1 vector a
                    // prefix of another's): textual order decides.
                    if si < ti && !prefix.is_trivially_empty() && !prefix.surely_empty() {
                        out.push(Dep { src: si, dst: ti, kind, src_access: ai, dst_access: bi, level: levels, poly: prefix });
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The minimum and maximum of `aff` over a polyhedron's integer points
/// (`None` for an unbounded side; an error if it is empty).
pub fn range_of(p: &Polyhedron, aff: &Aff) -> Result<(Option<i64>, Option<i64>)> {
    let mut m = Milp::default();
    for _ in 0..p.n_vars() {
        m.add_var(true, None, None);
    }
    for c in &p.cons {
        let co = c.aff.coeffs.iter().enumerate().filter(|(_, &x)| x != 0).map(|(i, &x)| (i, x)).collect();
        m.add_row(co, c.aff.constant, c.kind == Kind::Eq)?;
    }
    let obj: Vec<(usize, i64)> = aff.coeffs.iter().enumerate().filter(|(_, &x)| x != 0).map(|(i, &x)| (i, x)).collect();
    let neg: Vec<(usize, i64)> = obj.iter().map(|&(i, x)| (i, -x)).collect();
    if p.is_empty()? {
        return Err(Error::Invalid("range of an empty polyhedron".into()));
    }
    // The set is not empty: no solution means unbounded (CBC may report an
    // unbounded program as infeasible).
    let side = |o: &[(usize, i64)]| -> Result<Option<i64>> {
        match m.minimize(o) {
            Ok(Some(x)) => {
                let v: f64 = o.iter().map(|&(i, c)| c as f64 * x[i]).sum();
                Ok(Some(v.round() as i64))
            }
            Ok(None) => Ok(None),
            Err(Error::Solver(m)) if m.contains("nbounded") => Ok(None),
            Err(e) => Err(e),
        }
    };
    let lo = side(&obj)?.map(|v| v + aff.constant);
    let hi = side(&neg)?.map(|v| -v + aff.constant);
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::ScopBuilder;

    fn distance(d: &Dep, k: usize, depth: usize) -> (Option<i64>, Option<i64>) {
        let n = d.poly.n_vars();
        let mut a = Aff::zero(n);
        a.coeffs[depth + k] = 1;
        a.coeffs[k] = -1;
        range_of(&d.poly, &a).unwrap()
    }

    #[test]
    fn stencil_distances() {
        // for t, for i: A[i] = A[i-1] + A[i+1]
        let s = ScopBuilder::new(&["T", "N"])
            .context("T >= 1")
            .unwrap()
            .context("N >= 3")
            .unwrap()
            .array("A", 1)
            .stmt("S", &["t", "i"], &["0 <= t <= T - 1", "1 <= i <= N - 2"], &[0, 0, 0], &["=A[i]", "A[i-1]", "A[i+1]"])
            .unwrap()
            .build()
            .unwrap();
        let deps = compute(&s, false).unwrap();
        // Flow A[i] -> A[i-1] read at (t, i+1): level 3 (carried by i), distance (0, 1).
        let f: Vec<&Dep> = deps.iter().filter(|d| d.kind == DepKind::Flow && d.dst_access == 1).collect();
        assert!(f.iter().any(|d| d.level == 3 && distance(d, 0, 2) == (Some(0), Some(0)) && distance(d, 1, 2) == (Some(1), Some(1))));
        // ... and at level 1 (carried by t): distance (1..T-1, 1).
        assert!(f.iter().any(|d| d.level == 1 && distance(d, 0, 2).0 == Some(1) && distance(d, 1, 2) == (Some(1), Some(1))));
        // Anti: read A[i+1] at (t, i), written at (t, i+1): distance (0, 1).
        assert!(deps.iter().any(|d| d.kind == DepKind::Anti && d.src_access == 2 && d.level == 3 && distance(d, 1, 2) == (Some(1), Some(1))));
        // Output: A[i] rewritten every t: level 1 only.
        let o: Vec<&Dep> = deps.iter().filter(|d| d.kind == DepKind::Output).collect();
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].level, 1);
        assert_eq!(distance(o[0], 1, 2), (Some(0), Some(0)));
    }

    #[test]
    fn disjoint_accesses_have_no_dependence() {
        // A[2i] written, A[2i+1] read: no dependence (gcd test).
        let s = ScopBuilder::new(&["N"])
            .array("A", 1)
            .stmt("S", &["i"], &["0 <= i <= N"], &[0, 0], &["=A[2i]", "A[2i+1]"])
            .unwrap()
            .build()
            .unwrap();
        let deps = compute(&s, false).unwrap();
        assert!(deps.iter().all(|d| d.kind == DepKind::Output || d.src_access == d.dst_access));
        assert!(deps.is_empty());
    }

    #[test]
    fn equal_schedule_vectors_follow_statement_order() {
        // S0's vector (0, i, 0) is a prefix of S1's (0, i, 0, j, 0): at
        // j = 0 they tie and S0 (lower index) comes first, as in
        // Scop::original_instances; the dependence is at the tie level 5.
        let s = ScopBuilder::new(&["N"])
            .context("N >= 1")
            .unwrap()
            .array("A", 1)
            .stmt("S0", &["i"], &["0 <= i <= N"], &[0, 0], &["=A[i]"])
            .unwrap()
            .stmt("S1", &["i", "j"], &["0 <= i <= N", "0 <= j <= N"], &[0, 0, 0], &["A[i + j]"])
            .unwrap()
            .build()
            .unwrap();
        let deps = compute(&s, false).unwrap();
        let tie: Vec<&Dep> = deps.iter().filter(|d| d.level == 5).collect();
        assert_eq!(tie.len(), 1);
        assert_eq!((tie[0].src, tie[0].dst, tie[0].kind), (0, 1, DepKind::Flow));
        let order = s.original_instances(&[1], 100).unwrap();
        assert_eq!(order[0], crate::scop::Instance { stmt: 0, iters: vec![0] });
        assert_eq!(order[1], crate::scop::Instance { stmt: 1, iters: vec![0, 0] });
    }

    #[test]
    fn matmul_reduction_dependences() {
        let s = crate::examples::matmul();
        let deps = compute(&s, false).unwrap();
        // Every ordering dependence is on C and carried by k (level 5) with distance (0,0,1..).
        assert!(!deps.is_empty());
        for d in &deps {
            assert_eq!(d.level, 5, "{d:?}");
            assert_eq!(distance(d, 0, 3), (Some(0), Some(0)));
            assert_eq!(distance(d, 1, 3), (Some(0), Some(0)));
        }
        // Flow C -> C distance exactly... at least 1 in k.
        assert!(deps.iter().all(|d| distance(d, 2, 3).0 == Some(1)));
    }
}

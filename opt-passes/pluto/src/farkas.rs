//! The affine form of Farkas' lemma, as PLuTo uses it to linearize its
//! legality and bounding constraints (seed 002: "对该不等式组做一些等价变换后,
//! 被线性化,作为ILP的约束 … 主要涉及Farkas定理"; CC'08 §3).
//!
//! An affine form `ψ(x) = Σ_v ψ_v·x_v + ψ_0` is non-negative on a non-empty
//! polyhedron `D = { x | a_k·x + b_k ≥ 0, e_j·x + f_j = 0 }` iff
//! `ψ(x) ≡ λ_0 + Σ_k λ_k (a_k·x + b_k) + Σ_j μ_j (e_j·x + f_j)` with
//! `λ ≥ 0` (μ free). Here the coefficients `ψ_v` are themselves linear in
//! the scheduler's unknowns (hyperplane coefficients, `u`, `w`), so the
//! identity gives one equality per variable of `D` and one inequality for
//! the constant, all linear in (unknowns, λ, μ).
//!
//! Choice (documented per the brief): the multipliers stay in the program
//! as continuous LP variables, rather than being eliminated by
//! Fourier–Motzkin as PLuTo does. Both give the same set of feasible
//! hyperplanes (the projection of this program onto the unknowns is what
//! PLuTo's elimination computes); keeping them is simpler and cannot blow up
//! the row count. Farkas' lemma is about the rational polyhedron, so the
//! constraint is sufficient (never unsound) for the integer points.

use crate::error::{Error, Result};
use crate::ilp::Milp;
use crate::poly::{Kind, Polyhedron};

/// A linear form over the program's unknowns plus a constant:
/// `Σ coeff·unknown + constant`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinForm {
    /// (unknown index in the [`Milp`], coefficient).
    pub terms: Vec<(usize, i64)>,
    /// Constant part.
    pub constant: i64,
}

impl LinForm {
    /// Adds `k·unknown`.
    pub fn push(&mut self, var: usize, k: i64) {
        if k != 0 {
            self.terms.push((var, k));
        }
    }
}

/// Adds to `m` the linearized constraint "`ψ ≥ 0` on every point of `d`",
/// where `coeffs[v]` is ψ's coefficient of variable `v` of `d` and
/// `constant` its constant, each a [`LinForm`] over `m`'s unknowns.
pub fn add_nonneg_on(m: &mut Milp, d: &Polyhedron, coeffs: &[LinForm], constant: &LinForm) -> Result<()> {
    if coeffs.len() != d.n_vars() {
        return Err(Error::Invalid(format!("Farkas: {} coefficients for {} variables", coeffs.len(), d.n_vars())));
    }
    let mult: Vec<usize> = d
        .cons
        .iter()
        .map(|c| match c.kind {
            Kind::Ineq => m.add_var(false, Some(0), None),
            Kind::Eq => m.add_var(false, None, None),
        })
        .collect();
    // ψ_v − Σ λ_k a_kv = 0 for every variable v.
    for (v, form) in coeffs.iter().enumerate() {
        let mut row = form.terms.clone();
        for (c, &l) in d.cons.iter().zip(&mult) {
            if c.aff.coeffs[v] != 0 {
                row.push((l, -c.aff.coeffs[v]));
            }
        }
        m.add_row(row, form.constant, true)?;
    }
    // ψ_0 − Σ λ_k b_k = λ_0 ≥ 0.
    let mut row = constant.terms.clone();
    for (c, &l) in d.cons.iter().zip(&mult) {
        if c.aff.constant != 0 {
            row.push((l, -c.aff.constant));
        }
    }
    m.add_row(row, constant.constant, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::Aff;

    #[test]
    fn nonnegative_on_a_segment() {
        // D = { x | 1 <= x <= 5 }. ψ(x) = a·x + b ≥ 0 on D, with b = -3:
        // needs a ≥ 3 (at x = 1) when a ≥ 0: the smallest a is 3.
        let mut d = Polyhedron::universe(1, 0);
        d.add_ineq(Aff::new(vec![1], -1)).unwrap();
        d.add_ineq(Aff::new(vec![-1], 5)).unwrap();
        let mut m = Milp::default();
        let a = m.add_var(true, Some(-10), Some(10));
        let mut ca = LinForm::default();
        ca.push(a, 1);
        add_nonneg_on(&mut m, &d, &[ca], &LinForm { terms: vec![], constant: -3 }).unwrap();
        let s = m.minimize(&[(a, 1)]).unwrap().unwrap();
        assert_eq!(s[a], 3.0);
        // And ψ = a·x − 3 ≥ 0 with a ≤ 0 is impossible.
        let mut m2 = m.clone();
        m2.add_row(vec![(a, -1)], 0, false).unwrap();
        assert!(!m2.feasible().unwrap());
    }
}

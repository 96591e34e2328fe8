//! A thin layer over CBC (through `good_lp`): mixed integer programs whose
//! constraints have exact integer coefficients, solved for feasibility or for
//! a minimum, and the lexicographic minimum by sequential optimization
//! (minimize one variable, fix it, go on) that PLuTo's scheduler asks for
//! (seed 002: "求解目标为具有最小字典序的下述向量").
//!
//! CBC computes in floating point; the programs built by this crate have
//! small integer coefficients, and every integer variable's value is checked
//! to be within 1e-6 of an integer before it is rounded.

use crate::error::{Error, Result};
use good_lp::{
    solvers::coin_cbc::coin_cbc, variable, Expression, ProblemVariables, ResolutionError, Solution,
    SolverModel, Variable,
};

/// One variable of a [`Milp`].
#[derive(Clone, Debug, PartialEq)]
pub struct VarSpec {
    /// Restricted to integer values.
    pub integer: bool,
    /// Lower bound (`None`: unbounded).
    pub lo: Option<i64>,
    /// Upper bound (`None`: unbounded).
    pub hi: Option<i64>,
}

/// A row `Σ coeff·x + constant ≥ 0` (or `= 0` when `eq`).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Sparse coefficients (variable index, coefficient).
    pub coeffs: Vec<(usize, i64)>,
    /// The constant term.
    pub constant: i64,
    /// Equality rather than inequality.
    pub eq: bool,
}

/// A mixed integer linear program over exact integer rows.
#[derive(Clone, Debug, Default)]
pub struct Milp {
    /// The variables.
    pub vars: Vec<VarSpec>,
    /// The constraints.
    pub rows: Vec<Row>,
    /// CBC's time cap in seconds (`None`: 20 s).
    pub seconds: Option<u32>,
}

/// Seconds CBC may spend on one solve.
const TIME_CAP: &str = "20";

impl Milp {
    /// Adds a variable and returns its index.
    pub fn add_var(&mut self, integer: bool, lo: Option<i64>, hi: Option<i64>) -> usize {
        self.vars.push(VarSpec { integer, lo, hi });
        self.vars.len() - 1
    }

    /// Adds `Σ coeff·x + constant ≥ 0` (or `= 0`).
    pub fn add_row(&mut self, coeffs: Vec<(usize, i64)>, constant: i64, eq: bool) -> Result<()> {
        if let Some((v, _)) = coeffs.iter().find(|(v, _)| *v >= self.vars.len()) {
            return Err(Error::Invalid(format!("MILP row names variable {v} of {}", self.vars.len())));
        }
        self.rows.push(Row { coeffs, constant, eq });
        Ok(())
    }

    /// Minimizes `Σ coeff·x`; `Ok(None)` when the program is infeasible.
    pub fn minimize(&self, objective: &[(usize, i64)]) -> Result<Option<Vec<f64>>> {
        let mut pv = ProblemVariables::new();
        let vars: Vec<Variable> = self
            .vars
            .iter()
            .map(|s| {
                let mut d = variable();
                if s.integer {
                    d = d.integer();
                }
                if let Some(lo) = s.lo {
                    d = d.min(lo as f64);
                }
                if let Some(hi) = s.hi {
                    d = d.max(hi as f64);
                }
                pv.add(d)
            })
            .collect();
        let expr = |coeffs: &[(usize, i64)], constant: i64| -> Expression {
            let mut e = Expression::from(constant as f64);
            for &(v, c) in coeffs {
                e += (c as f64) * vars[v];
            }
            e
        };
        let mut model = pv.minimise(expr(objective, 0)).using(coin_cbc);
        model.set_parameter("log", "0");
        model.set_parameter("seconds", &self.seconds.map_or(TIME_CAP.to_string(), |s| s.to_string()));
        model.set_parameter("threads", "1");
        for r in &self.rows {
            let e = expr(&r.coeffs, r.constant);
            if r.eq {
                model.add_constraint(e.eq(0.0));
            } else {
                model.add_constraint(e.geq(0.0));
            }
        }
        match model.solve() {
            Ok(sol) => {
                if !matches!(sol.status(), good_lp::SolutionStatus::Optimal) {
                    return Err(Error::Solver("CBC stopped before optimality".into()));
                }
                let mut out = Vec::with_capacity(vars.len());
                for (k, v) in vars.iter().enumerate() {
                    let x = sol.value(*v);
                    if self.vars[k].integer {
                        let r = x.round();
                        if (x - r).abs() > 1e-6 {
                            return Err(Error::Solver(format!("non-integral value {x}")));
                        }
                        out.push(r);
                    } else {
                        out.push(x);
                    }
                }
                Ok(Some(out))
            }
            Err(ResolutionError::Infeasible) => Ok(None),
            Err(e) => Err(Error::Solver(e.to_string())),
        }
    }

    /// Whether the program has a solution.
    pub fn feasible(&self) -> Result<bool> {
        Ok(self.minimize(&[])?.is_some())
    }

    /// The lexicographic minimum of the variables `order` (all integer),
    /// by sequential optimization: each is minimized with the earlier ones
    /// fixed at their minima. A variable already at its lower bound in the
    /// current optimum is fixed without a solve. `Ok(None)`: infeasible.
    pub fn lexmin(&self, order: &[usize]) -> Result<Option<Vec<f64>>> {
        let mut p = self.clone();
        let Some(mut best) = p.minimize(&[])? else { return Ok(None) };
        for &v in order {
            let at_lo = p.vars[v].lo.is_some_and(|lo| (best[v] - lo as f64).abs() < 1e-6);
            if !at_lo {
                best = p
                    .minimize(&[(v, 1)])?
                    .ok_or_else(|| Error::Solver("lexmin lost feasibility".into()))?;
            }
            let val = best[v].round() as i64;
            p.add_row(vec![(v, 1)], -val, true)?;
        }
        Ok(Some(best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexmin_orders_variables() {
        // x + y >= 3, x, y in [0, 5]: lexmin (x, y) = (0, 3), (y, x) = (3, 0).
        let mut m = Milp::default();
        let x = m.add_var(true, Some(0), Some(5));
        let y = m.add_var(true, Some(0), Some(5));
        m.add_row(vec![(x, 1), (y, 1)], -3, false).unwrap();
        let s = m.lexmin(&[x, y]).unwrap().unwrap();
        assert_eq!((s[x], s[y]), (0.0, 3.0));
        let s = m.lexmin(&[y, x]).unwrap().unwrap();
        assert_eq!((s[x], s[y]), (3.0, 0.0));
    }

    #[test]
    fn infeasible_is_none() {
        // 2x = 2y + 1 has no integer solution.
        let mut m = Milp::default();
        let x = m.add_var(true, Some(-10), Some(10));
        let y = m.add_var(true, Some(-10), Some(10));
        m.add_row(vec![(x, 2), (y, -2)], -1, true).unwrap();
        assert!(!m.feasible().unwrap());
    }
}

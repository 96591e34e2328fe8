//! Affine expressions and integer polyhedra (the polyhedral model's sets, as
//! in PLuTo's `PlutoConstraints`): variables are the set's dimensions
//! followed by the program's parameters; constraints are affine
//! equalities `e = 0` and inequalities `e ≥ 0` with `i64` coefficients.
//!
//! Operations: intersection, normalization (gcd of each row, with the
//! constant of an inequality tightened by floor division — the integer
//! tightening of Fourier–Motzkin — and an equality whose constant the gcd
//! does not divide proving the set empty), simple redundancy removal
//! (duplicate and parallel rows, the tighter kept; and, when an
//! elimination leaves many rows, the rows the others imply, by linear
//! programming), Fourier–Motzkin
//! projection (equalities used for exact substitution first), exact integer
//! emptiness through a CBC feasibility program ([`crate::ilp`]), the bounds
//! of a variable in terms of the outer ones (for code generation) and the
//! enumeration of the integer points for concrete parameters.
//!
//! All arithmetic is exact: `i128` intermediates, results checked back into
//! `i64` ([`crate::Error::Overflow`]).

use crate::error::{gcd, narrow, Error, Result};
use crate::ilp::Milp;
use std::collections::HashMap;

/// `Σ coeffs[k]·x_k + constant` over a space of variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Aff {
    /// One coefficient per variable of the space.
    pub coeffs: Vec<i64>,
    /// The constant term.
    pub constant: i64,
}

impl Aff {
    /// The zero expression over `n` variables.
    pub fn zero(n: usize) -> Aff {
        Aff { coeffs: vec![0; n], constant: 0 }
    }
    /// The constant `c` over `n` variables.
    pub fn cst(n: usize, c: i64) -> Aff {
        Aff { coeffs: vec![0; n], constant: c }
    }
    /// The variable `k` of `n`.
    pub fn var(n: usize, k: usize) -> Aff {
        let mut a = Aff::zero(n);
        if k < n {
            a.coeffs[k] = 1;
        }
        a
    }
    /// From coefficients and a constant.
    pub fn new(coeffs: Vec<i64>, constant: i64) -> Aff {
        Aff { coeffs, constant }
    }
    /// Number of variables.
    pub fn len(&self) -> usize {
        self.coeffs.len()
    }
    /// No variables.
    pub fn is_empty(&self) -> bool {
        self.coeffs.is_empty()
    }
    /// All coefficients are zero.
    pub fn is_constant(&self) -> bool {
        self.coeffs.iter().all(|&c| c == 0)
    }
    /// Value at a point (one value per variable).
    pub fn eval(&self, x: &[i64]) -> Result<i64> {
        if x.len() != self.coeffs.len() {
            return Err(Error::Invalid(format!("point of {} values for {} variables", x.len(), self.len())));
        }
        let mut s = self.constant as i128;
        for (c, v) in self.coeffs.iter().zip(x) {
            s = s.checked_add(*c as i128 * *v as i128).ok_or(Error::Overflow)?;
        }
        narrow(s)
    }
    /// `a·self + b·other` (same space).
    pub fn combine(&self, a: i64, other: &Aff, b: i64) -> Result<Aff> {
        if self.len() != other.len() {
            return Err(Error::Invalid("affine expressions over different spaces".into()));
        }
        let f = |x: i64, y: i64| narrow(a as i128 * x as i128 + b as i128 * y as i128);
        let coeffs = self.coeffs.iter().zip(&other.coeffs).map(|(&x, &y)| f(x, y)).collect::<Result<_>>()?;
        Ok(Aff { coeffs, constant: f(self.constant, other.constant)? })
    }
    /// `self + other`.
    pub fn add(&self, other: &Aff) -> Result<Aff> {
        self.combine(1, other, 1)
    }
    /// `self - other`.
    pub fn sub(&self, other: &Aff) -> Result<Aff> {
        self.combine(1, other, -1)
    }
    /// `k·self`.
    pub fn scale(&self, k: i64) -> Result<Aff> {
        self.combine(k, &Aff::zero(self.len()), 0)
    }
    /// gcd of the coefficients (not the constant).
    pub fn coeff_gcd(&self) -> i64 {
        self.coeffs.iter().fold(0, |g, &c| gcd(g, c))
    }
    /// The same expression over a larger space: variable `k` goes to
    /// `map[k]` among `n` variables.
    pub fn remap(&self, n: usize, map: &[usize]) -> Result<Aff> {
        let mut a = Aff::cst(n, self.constant);
        for (k, &c) in self.coeffs.iter().enumerate() {
            let t = *map.get(k).ok_or_else(|| Error::Invalid("remap too short".into()))?;
            if t >= n {
                return Err(Error::Invalid("remap target out of range".into()));
            }
            a.coeffs[t] = narrow(a.coeffs[t] as i128 + c as i128)?;
        }
        Ok(a)
    }
    /// Substitutes variable `k` by `(num)/den` and multiplies the whole
    /// expression by `den` (> 0) to stay integral: returns `den·self[x_k := num/den]`.
    pub fn substitute(&self, k: usize, num: &Aff, den: i64) -> Result<Aff> {
        let c = *self.coeffs.get(k).ok_or_else(|| Error::Invalid(format!("substituting variable {k} of {}", self.len())))?;
        let mut base = self.clone();
        base.coeffs[k] = 0;
        base.combine(den, num, c)
    }
}

/// Equality (`= 0`) or inequality (`≥ 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `aff = 0`.
    Eq,
    /// `aff ≥ 0`.
    Ineq,
}

/// One constraint of a polyhedron.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// The affine expression.
    pub aff: Aff,
    /// How it is compared with zero.
    pub kind: Kind,
}

/// A bound of one variable: `x ≥ ceil(aff/div)` (lower) or
/// `x ≤ floor(aff/div)` (upper), `aff` over the same space with the
/// variable's own coefficient zero, `div > 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bound {
    /// Numerator.
    pub aff: Aff,
    /// Positive divisor.
    pub div: i64,
}

/// Most constraints Fourier–Motzkin may produce in one elimination.
const FM_LIMIT: usize = 4000;

/// Above this many rows an elimination's result is cleaned of redundant
/// rows by linear programming ([`Polyhedron::remove_redundant`]).
const REDUNDANCY_THRESHOLD: usize = 24;

/// A polyhedron over `n_dims` set dimensions then `n_params` parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Polyhedron {
    /// Number of set dimensions (the first variables).
    pub n_dims: usize,
    /// Number of parameters (the last variables).
    pub n_params: usize,
    /// The constraints, each over `n_dims + n_params` variables.
    pub cons: Vec<Constraint>,
}

impl Polyhedron {
    /// The whole space.
    pub fn universe(n_dims: usize, n_params: usize) -> Polyhedron {
        Polyhedron { n_dims, n_params, cons: Vec::new() }
    }
    /// Number of variables.
    pub fn n_vars(&self) -> usize {
        self.n_dims + self.n_params
    }
    fn check(&self, a: &Aff) -> Result<()> {
        if a.len() != self.n_vars() {
            return Err(Error::Invalid(format!("constraint over {} variables in a space of {}", a.len(), self.n_vars())));
        }
        Ok(())
    }
    /// Adds `aff ≥ 0`.
    pub fn add_ineq(&mut self, aff: Aff) -> Result<()> {
        self.check(&aff)?;
        self.cons.push(Constraint { aff, kind: Kind::Ineq });
        Ok(())
    }
    /// Adds `aff = 0`.
    pub fn add_eq(&mut self, aff: Aff) -> Result<()> {
        self.check(&aff)?;
        self.cons.push(Constraint { aff, kind: Kind::Eq });
        Ok(())
    }
    /// Adds a constraint.
    pub fn add(&mut self, c: Constraint) -> Result<()> {
        self.check(&c.aff)?;
        self.cons.push(c);
        Ok(())
    }
    /// The intersection with a polyhedron of the same space.
    pub fn intersect(&self, other: &Polyhedron) -> Result<Polyhedron> {
        if (self.n_dims, self.n_params) != (other.n_dims, other.n_params) {
            return Err(Error::Invalid("intersection of polyhedra over different spaces".into()));
        }
        let mut p = self.clone();
        p.cons.extend(other.cons.iter().cloned());
        Ok(p)
    }
    /// Whether an integer point (dims then params) satisfies every constraint.
    pub fn contains(&self, x: &[i64]) -> Result<bool> {
        for c in &self.cons {
            let v = c.aff.eval(x)?;
            let ok = match c.kind {
                Kind::Eq => v == 0,
                Kind::Ineq => v >= 0,
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }
    /// Whether some constraint is a false constant (the set is empty
    /// without looking further).
    pub fn is_trivially_empty(&self) -> bool {
        self.cons.iter().any(|c| {
            c.aff.is_constant()
                && match c.kind {
                    Kind::Eq => c.aff.constant != 0,
                    Kind::Ineq => c.aff.constant < 0,
                }
        })
    }
    fn empty_marker(&self) -> Constraint {
        Constraint { aff: Aff::cst(self.n_vars(), -1), kind: Kind::Ineq }
    }

    /// Normalizes every row (gcd, integer tightening of inequalities), drops
    /// true constant rows, and removes duplicate and parallel rows (the
    /// tighter of two parallel inequalities kept; an inequality implied by
    /// an equality dropped; opposite inequalities that leave no integer
    /// between them make the set empty, and ones that meet become an
    /// equality). An empty set is left as the single row `-1 ≥ 0`.
    pub fn simplify(&mut self) -> Result<()> {
        let mut eqs: Vec<Aff> = Vec::new();
        let mut ineqs: HashMap<Vec<i64>, i64> = HashMap::new();
        let mut order: Vec<Vec<i64>> = Vec::new();
        for c in std::mem::take(&mut self.cons) {
            let g = c.aff.coeff_gcd();
            let mut a = c.aff;
            if g == 0 {
                let ok = match c.kind {
                    Kind::Eq => a.constant == 0,
                    Kind::Ineq => a.constant >= 0,
                };
                if ok {
                    continue;
                }
                let n = a.len();
                self.cons = vec![Constraint { aff: Aff::cst(n, -1), kind: Kind::Ineq }];
                return Ok(());
            }
            match c.kind {
                Kind::Eq => {
                    if a.constant % g != 0 {
                        let n = a.len();
                        self.cons = vec![Constraint { aff: Aff::cst(n, -1), kind: Kind::Ineq }];
                        return Ok(());
                    }
                    for x in a.coeffs.iter_mut() {
                        *x /= g;
                    }
                    a.constant /= g;
                    // Sign: first non-zero coefficient positive.
                    if a.coeffs.iter().find(|&&x| x != 0).is_some_and(|&x| x < 0) {
                        a = a.scale(-1)?;
                    }
                    if !eqs.contains(&a) {
                        eqs.push(a);
                    }
                }
                Kind::Ineq => {
                    for x in a.coeffs.iter_mut() {
                        *x /= g;
                    }
                    a.constant = a.constant.div_euclid(g);
                    match ineqs.get_mut(&a.coeffs) {
                        Some(k) => *k = (*k).min(a.constant),
                        None => {
                            order.push(a.coeffs.clone());
                            ineqs.insert(a.coeffs, a.constant);
                        }
                    }
                }
            }
        }
        let mut out: Vec<Constraint> = Vec::new();
        let mut dropped: std::collections::HashSet<Vec<i64>> = Default::default();
        for co in &order {
            if dropped.contains(co) {
                continue;
            }
            let k = ineqs[co];
            let neg: Vec<i64> = co.iter().map(|x| -x).collect();
            // Implied by an equality over the same or opposite coefficients?
            let pos_eq = eqs.iter().find(|e| &e.coeffs == co || e.coeffs == neg);
            if let Some(e) = pos_eq {
                // e: co·x + ce = 0 (or -co·x + ce = 0): co·x = -ce (or ce).
                let val = if &e.coeffs == co { -(e.constant as i128) } else { e.constant as i128 };
                if val + (k as i128) < 0 {
                    out = vec![self.empty_marker()];
                    self.cons = out;
                    return Ok(());
                }
                continue;
            }
            if let Some(&kn) = ineqs.get(&neg) {
                // co·x ≥ -k and co·x ≤ kn.
                let lo = -(k as i128);
                let hi = kn as i128;
                if lo > hi {
                    self.cons = vec![self.empty_marker()];
                    return Ok(());
                }
                if lo == hi {
                    dropped.insert(neg.clone());
                    let mut e = Aff::new(co.clone(), k);
                    if e.coeffs.iter().find(|&&x| x != 0).is_some_and(|&x| x < 0) {
                        e = e.scale(-1)?;
                    }
                    out.push(Constraint { aff: e, kind: Kind::Eq });
                    continue;
                }
            }
            out.push(Constraint { aff: Aff::new(co.clone(), k), kind: Kind::Ineq });
        }
        let mut all: Vec<Constraint> = eqs.into_iter().map(|aff| Constraint { aff, kind: Kind::Eq }).collect();
        for c in out {
            if !all.contains(&c) {
                all.push(c);
            }
        }
        self.cons = all;
        Ok(())
    }

    /// Eliminates variable `k` (rationally: Fourier–Motzkin, or substitution
    /// through an equality that involves it) and removes it from the space.
    /// The result contains the integer projection (it is its rational
    /// shadow, tightened by the gcd normalization).
    pub fn eliminate(&self, k: usize) -> Result<Polyhedron> {
        self.eliminate_pruned(k, true)
    }

    /// [`Polyhedron::eliminate`], with the redundant rows left in when
    /// `prune` is false (what an emptiness test wants: one solve decides
    /// it, where pruning costs an LP per row after every step — 96% of the
    /// solves on heat-3d's dependences).
    fn eliminate_pruned(&self, k: usize, prune: bool) -> Result<Polyhedron> {
        if k >= self.n_vars() {
            return Err(Error::Invalid(format!("eliminating variable {k} of {}", self.n_vars())));
        }
        let mut p = self.clone();
        p.simplify()?;
        let mut out: Vec<Constraint> = Vec::new();
        // An equality with the smallest non-zero coefficient on k.
        let pivot = p
            .cons
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == Kind::Eq && c.aff.coeffs[k] != 0)
            .min_by_key(|(_, c)| c.aff.coeffs[k].unsigned_abs())
            .map(|(i, _)| i);
        if let Some(pi) = pivot {
            let e = p.cons[pi].aff.clone();
            let a = e.coeffs[k];
            for (i, c) in p.cons.iter().enumerate() {
                if i == pi {
                    continue;
                }
                let b = c.aff.coeffs[k];
                if b == 0 {
                    out.push(c.clone());
                    continue;
                }
                // |a|·c − sign(a)·b·e: zero on k, same direction as c.
                let aff = c.aff.combine(a.abs(), &e, -a.signum() * b)?;
                out.push(Constraint { aff, kind: c.kind });
            }
        } else {
            let (mut pos, mut neg) = (Vec::new(), Vec::new());
            for c in &p.cons {
                match c.aff.coeffs[k].signum() {
                    0 => out.push(c.clone()),
                    1 => pos.push(&c.aff),
                    _ => neg.push(&c.aff),
                }
            }
            if out.len() + pos.len() * neg.len() > FM_LIMIT {
                return Err(Error::TooComplex(format!("Fourier–Motzkin: {} × {} rows", pos.len(), neg.len())));
            }
            for l in &pos {
                for u in &neg {
                    let aff = l.combine(-u.coeffs[k], u, l.coeffs[k])?;
                    out.push(Constraint { aff, kind: Kind::Ineq });
                }
            }
        }
        let mut q = Polyhedron {
            n_dims: if k < p.n_dims { p.n_dims - 1 } else { p.n_dims },
            n_params: if k < p.n_dims { p.n_params } else { p.n_params - 1 },
            cons: Vec::with_capacity(out.len()),
        };
        for mut c in out {
            c.aff.coeffs.remove(k);
            q.cons.push(c);
        }
        q.simplify()?;
        if prune && q.cons.len() > REDUNDANCY_THRESHOLD {
            q.remove_redundant()?;
        }
        Ok(q)
    }

    /// Drops every inequality the others imply over the rationals (an LP
    /// per row: its minimum over the other rows is non-negative). Used to
    /// keep Fourier–Motzkin's output small; the set can only grow by a
    /// dropped row, never shrink, and only within the LP's tolerance, so
    /// callers that need exactness (code generation guards, point
    /// enumeration) re-check the original constraints.
    pub fn remove_redundant(&mut self) -> Result<()> {
        let n = self.n_vars();
        let mut keep = vec![true; self.cons.len()];
        for i in 0..self.cons.len() {
            if self.cons[i].kind == Kind::Eq {
                continue;
            }
            let mut m = Milp::default();
            for _ in 0..n {
                m.add_var(false, None, None);
            }
            for (j, c) in self.cons.iter().enumerate() {
                if j == i || !keep[j] {
                    continue;
                }
                let coeffs = c.aff.coeffs.iter().enumerate().filter(|(_, &x)| x != 0).map(|(v, &x)| (v, x)).collect();
                m.add_row(coeffs, c.aff.constant, c.kind == Kind::Eq)?;
            }
            let obj: Vec<(usize, i64)> = self.cons[i].aff.coeffs.iter().enumerate().filter(|(_, &x)| x != 0).map(|(v, &x)| (v, x)).collect();
            // Bounded below by -1 (CBC may call an unbounded LP
            // infeasible): a minimum of -1 means the row is needed.
            m.add_row(obj.clone(), self.cons[i].aff.constant + 1, false)?;
            if let Ok(Some(x)) = m.minimize(&obj) {
                let v: f64 = obj.iter().map(|&(k, c)| c as f64 * x[k]).sum::<f64>() + self.cons[i].aff.constant as f64;
                if v >= -1e-9 {
                    keep[i] = false;
                }
            }
            // Infeasible or a solver failure: keep the row.
        }
        let mut k = keep.into_iter();
        self.cons.retain(|_| k.next().unwrap_or(true));
        Ok(())
    }

    /// Projects out the dimensions `from..from+count`.
    pub fn project_out(&self, from: usize, count: usize) -> Result<Polyhedron> {
        let mut p = self.clone();
        for _ in 0..count {
            if from >= p.n_dims {
                return Err(Error::Invalid("projecting out a dimension that does not exist".into()));
            }
            p = p.eliminate(from)?;
        }
        Ok(p)
    }

    /// Inserts `count` unconstrained dimensions at position `at`.
    pub fn insert_dims(&self, at: usize, count: usize) -> Result<Polyhedron> {
        if at > self.n_dims {
            return Err(Error::Invalid("inserting dimensions past the end".into()));
        }
        let mut p = Polyhedron { n_dims: self.n_dims + count, n_params: self.n_params, cons: Vec::new() };
        for c in &self.cons {
            let mut a = c.aff.clone();
            for _ in 0..count {
                a.coeffs.insert(at, 0);
            }
            p.cons.push(Constraint { aff: a, kind: c.kind });
        }
        Ok(p)
    }

    /// The set with the parameters fixed to `values` (no parameters left).
    pub fn fix_params(&self, values: &[i64]) -> Result<Polyhedron> {
        if values.len() != self.n_params {
            return Err(Error::Invalid(format!("{} parameter values for {} parameters", values.len(), self.n_params)));
        }
        let mut p = Polyhedron::universe(self.n_dims, 0);
        for c in &self.cons {
            let mut k = c.aff.constant as i128;
            for (j, v) in values.iter().enumerate() {
                k += c.aff.coeffs[self.n_dims + j] as i128 * *v as i128;
            }
            let aff = Aff::new(c.aff.coeffs[..self.n_dims].to_vec(), narrow(k)?);
            p.cons.push(Constraint { aff, kind: c.kind });
        }
        Ok(p)
    }

    /// Integer emptiness, exact: equalities with a unit coefficient are
    /// eliminated by (exact, integer) substitution, then CBC decides the
    /// feasibility of the rest over unbounded integers. A solver failure,
    /// or CBC's time cap (2 s: branch and bound need not terminate on an
    /// unbounded integer-empty set), is an error — see [`Polyhedron::surely_empty`].
    pub fn is_empty(&self) -> Result<bool> {
        let mut p = self.clone();
        p.simplify()?;
        while let Some(k) = p.cons.iter().filter(|c| c.kind == Kind::Eq).find_map(|c| c.aff.coeffs.iter().position(|x| x.abs() == 1)) {
            if p.is_trivially_empty() {
                break;
            }
            // Variable k (dims then params) goes; the space shrinks.
            p = p.eliminate_pruned(k, false)?;
        }
        if p.is_trivially_empty() {
            return Ok(true);
        }
        if p.cons.is_empty() {
            return Ok(false);
        }
        if let Some(empty) = p.quick_emptiness() {
            return Ok(empty);
        }
        let mut m = Milp { seconds: Some(2), ..Milp::default() };
        for _ in 0..p.n_vars() {
            m.add_var(true, None, None);
        }
        for c in &p.cons {
            let coeffs = c.aff.coeffs.iter().enumerate().filter(|(_, &x)| x != 0).map(|(i, &x)| (i, x)).collect();
            m.add_row(coeffs, c.aff.constant, c.kind == Kind::Eq)?;
        }
        Ok(!m.feasible()?)
    }

    /// Empty for certain: [`Polyhedron::is_empty`] with a solver failure
    /// taken as "maybe not empty" (the conservative answer for dependences).
    pub fn surely_empty(&self) -> bool {
        matches!(self.is_empty(), Ok(true))
    }

    /// The bounds of variable `k` given by the constraints that involve no
    /// dimension after it: `(lower, upper)`. An equality gives both.
    pub fn bounds(&self, k: usize) -> Result<(Vec<Bound>, Vec<Bound>)> {
        if k >= self.n_dims {
            return Err(Error::Invalid(format!("bounds of dimension {k} of {}", self.n_dims)));
        }
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        for c in &self.cons {
            let a = c.aff.coeffs[k];
            if a == 0 || c.aff.coeffs[k + 1..self.n_dims].iter().any(|&x| x != 0) {
                continue;
            }
            let mut rest = c.aff.clone();
            rest.coeffs[k] = 0;
            // a·x + rest ≥ 0.
            if a > 0 || c.kind == Kind::Eq {
                // x ≥ -rest/a (a > 0) ; for a < 0 equality: x ≥ rest/|a|.
                let b = if a > 0 { Bound { aff: rest.scale(-1)?, div: a } } else { Bound { aff: rest.clone(), div: -a } };
                lo.push(b);
            }
            if a < 0 || c.kind == Kind::Eq {
                let b = if a < 0 { Bound { aff: rest.clone(), div: -a } } else { Bound { aff: rest.scale(-1)?, div: a } };
                hi.push(b);
            }
        }
        Ok((lo, hi))
    }

    /// The integer points for concrete parameter values, in lexicographic
    /// order (at most `limit` of them, else [`Error::TooComplex`]).
    pub fn points(&self, params: &[i64], limit: usize) -> Result<Vec<Vec<i64>>> {
        let p = self.fix_params(params)?;
        let n = p.n_dims;
        // proj[k]: the set projected onto dimensions 0..=k.
        let mut proj = vec![p.clone(); n];
        for k in (0..n.saturating_sub(1)).rev() {
            proj[k] = proj[k + 1].eliminate(k + 1)?;
        }
        let mut out = Vec::new();
        if proj.iter().any(|q| q.is_trivially_empty()) {
            return Ok(out);
        }
        let mut x = vec![0i64; n];
        if n == 0 {
            if p.contains(&[])? {
                out.push(Vec::new());
            }
            return Ok(out);
        }
        scan(&proj, &p, 0, &mut x, &mut out, limit)?;
        Ok(out)
    }
}

fn scan(proj: &[Polyhedron], full: &Polyhedron, k: usize, x: &mut Vec<i64>, out: &mut Vec<Vec<i64>>, limit: usize) -> Result<()> {
    let (lo, hi) = proj[k].bounds(k)?;
    let eval = |b: &Bound, x: &[i64], up: bool| -> Result<i128> {
        // Values of dims > k are irrelevant: their coefficients are zero in proj[k].
        let mut pt = x[..k].to_vec();
        pt.push(0);
        let v = b.aff.eval(&pt)? as i128;
        Ok(if up { crate::error::floor_div(v, b.div as i128) } else { crate::error::ceil_div(v, b.div as i128) })
    };
    let mut l: Option<i128> = None;
    for b in &lo {
        let v = eval(b, x, false)?;
        l = Some(l.map_or(v, |c: i128| c.max(v)));
    }
    let mut u: Option<i128> = None;
    for b in &hi {
        let v = eval(b, x, true)?;
        u = Some(u.map_or(v, |c: i128| c.min(v)));
    }
    let (Some(l), Some(u)) = (l, u) else {
        return Err(Error::Unbounded(format!("dimension {k} has no {} bound", if l.is_none() { "lower" } else { "upper" })));
    };
    let mut v = l;
    while v <= u {
        x[k] = narrow(v)?;
        if k + 1 == x.len() {
            if full.contains(x)? {
                if out.len() >= limit {
                    return Err(Error::TooComplex(format!("more than {limit} points")));
                }
                out.push(x.clone());
            }
        } else {
            scan(proj, full, k + 1, x, out, limit)?;
        }
        v += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aff(c: &[i64], k: i64) -> Aff {
        Aff::new(c.to_vec(), k)
    }

    #[test]
    fn triangle_points_and_projection() {
        // 0 <= i <= N-1, 0 <= j <= i; N param.
        let mut p = Polyhedron::universe(2, 1);
        p.add_ineq(aff(&[1, 0, 0], 0)).unwrap();
        p.add_ineq(aff(&[-1, 0, 1], -1)).unwrap();
        p.add_ineq(aff(&[0, 1, 0], 0)).unwrap();
        p.add_ineq(aff(&[1, -1, 0], 0)).unwrap();
        let pts = p.points(&[3], 100).unwrap();
        assert_eq!(pts.len(), 6);
        assert_eq!(pts[0], vec![0, 0]);
        assert_eq!(pts[5], vec![2, 2]);
        // Projecting i out: 0 <= j <= N-1.
        let q = p.eliminate(0).unwrap();
        assert!(q.contains(&[2, 3]).unwrap());
        assert!(!q.contains(&[3, 3]).unwrap());
        assert!(!p.is_empty().unwrap());
    }

    #[test]
    fn gcd_tightening_and_parity() {
        // 2x >= 1 and 2x <= 1: rationally x = 1/2, integer-empty; simplify sees it.
        let mut p = Polyhedron::universe(1, 0);
        p.add_ineq(aff(&[2], -1)).unwrap();
        p.add_ineq(aff(&[-2], 1)).unwrap();
        p.simplify().unwrap();
        assert!(p.is_trivially_empty());
        // 2x = 2y + 1: gcd test.
        let mut q = Polyhedron::universe(2, 0);
        q.add_eq(aff(&[2, -2], -1)).unwrap();
        assert!(q.is_empty().unwrap());
        // 3x = 2y + 1 with 0 <= x, y <= 1: integer-empty, rationally not (CBC).
        let mut r = Polyhedron::universe(2, 0);
        r.add_eq(aff(&[3, -2], -1)).unwrap();
        for k in 0..2 {
            let mut lo = vec![0, 0];
            lo[k] = 1;
            r.add_ineq(aff(&lo, 0)).unwrap();
            let hi: Vec<i64> = lo.iter().map(|x| -x).collect();
            r.add_ineq(aff(&hi, 1)).unwrap();
        }
        // x=1,y=1 is a solution: 3 = 3.
        assert!(!r.is_empty().unwrap());
        r.add_ineq(aff(&[-1, 0], 0)).unwrap();
        assert!(r.is_empty().unwrap());
    }

    #[test]
    fn bounds_of_inner_variable() {
        // j >= i, j <= N, 2j <= 3i + 1.
        let mut p = Polyhedron::universe(2, 1);
        p.add_ineq(aff(&[-1, 1, 0], 0)).unwrap();
        p.add_ineq(aff(&[0, -1, 1], 0)).unwrap();
        p.add_ineq(aff(&[3, -2, 0], 1)).unwrap();
        let (lo, hi) = p.bounds(1).unwrap();
        assert_eq!(lo.len(), 1);
        assert_eq!(hi.len(), 2);
        assert!(hi.iter().any(|b| b.div == 2 && b.aff == aff(&[3, 0, 0], 1)));
    }

    #[test]
    fn overflow_is_an_error() {
        let a = aff(&[i64::MAX], 0);
        assert_eq!(a.scale(2), Err(Error::Overflow));
        assert_eq!(a.eval(&[2]), Err(Error::Overflow));
    }
}

#[cfg(test)]
#[path = "poly_tests.rs"]
mod prop_tests;

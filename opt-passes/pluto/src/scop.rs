//! The polyhedral program model (a SCoP, "static control part"), as PLuTo's
//! `PlutoProg` holds it (seed 002's input: statements, their iteration
//! domains, original schedules and accesses):
//!
//! - parameters (symbolic loop bounds, e.g. `N`) with a context polyhedron
//!   over them (e.g. `N ≥ 1`);
//! - arrays, each with a number of dimensions (row-major: the last
//!   subscript is the contiguous one — tiling's stride-1 test uses this);
//! - statements: an iteration domain (a [`Polyhedron`] over the
//!   statement's iterators, outermost first, then the parameters), the
//!   original schedule in the 2d+1 form `(β0, i1, β1, …, id, βd)` (rows
//!   affine in the iterators and parameters: textual positions β and loop
//!   iterators), and accesses (read or write, array, one affine subscript
//!   per array dimension over iterators then parameters).
//!
//! An LLVM-side SCoP detector builds a [`Scop`] directly from these plain
//! types; [`ScopBuilder`] writes test programs from short strings such as
//! `"0 <= i <= N - 1"` and `"A[i+1][j]"`.

use crate::error::{Error, Result};
use crate::poly::{Aff, Polyhedron};

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// The statement reads the element.
    Read,
    /// The statement writes the element.
    Write,
}

/// One array access of a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// Read or write.
    pub kind: AccessKind,
    /// Index into [`Scop::arrays`].
    pub array: usize,
    /// One subscript per array dimension, affine over the statement's
    /// iterators then the parameters.
    pub subscripts: Vec<Aff>,
}

/// An array (or a scalar: zero dimensions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// Name, for messages.
    pub name: String,
    /// Number of dimensions.
    pub dims: usize,
}

/// A statement of the SCoP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Name, for messages.
    pub name: String,
    /// Iterator names, outermost first (the domain's dimensions).
    pub iters: Vec<String>,
    /// Iteration domain: `iters.len()` dimensions, then the parameters.
    pub domain: Polyhedron,
    /// Original schedule rows (2d+1 form), affine over iterators then
    /// parameters. The original execution order is the lexicographic order
    /// of these vectors (shorter ones padded with zeros; equal vectors of
    /// different statements run in statement order).
    pub schedule: Vec<Aff>,
    /// The accesses, reads and writes.
    pub accesses: Vec<Access>,
}

impl Statement {
    /// Number of iterators.
    pub fn depth(&self) -> usize {
        self.iters.len()
    }
}

/// A static control part: the input of the scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scop {
    /// Parameter names.
    pub params: Vec<String>,
    /// Constraints on the parameters: 0 dimensions, `params.len()` parameters.
    pub context: Polyhedron,
    /// The arrays.
    pub arrays: Vec<Array>,
    /// The statements, in textual order.
    pub stmts: Vec<Statement>,
}

/// One execution of a statement: the statement and its iterator values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Instance {
    /// Index into [`Scop::stmts`].
    pub stmt: usize,
    /// Iterator values, outermost first.
    pub iters: Vec<i64>,
}

impl Scop {
    /// Number of parameters.
    pub fn n_params(&self) -> usize {
        self.params.len()
    }

    /// Checks that every space and index is consistent.
    pub fn validate(&self) -> Result<()> {
        let np = self.n_params();
        if self.context.n_dims != 0 || self.context.n_params != np {
            return Err(Error::Invalid("the context must have no dimensions and one variable per parameter".into()));
        }
        for s in &self.stmts {
            let n = s.depth() + np;
            if s.domain.n_dims != s.depth() || s.domain.n_params != np {
                return Err(Error::Invalid(format!("{}: domain space is not (iterators, parameters)", s.name)));
            }
            if s.schedule.iter().any(|r| r.len() != n) {
                return Err(Error::Invalid(format!("{}: schedule row over the wrong space", s.name)));
            }
            for a in &s.accesses {
                let arr = self.arrays.get(a.array).ok_or_else(|| Error::Invalid(format!("{}: unknown array {}", s.name, a.array)))?;
                if a.subscripts.len() != arr.dims {
                    return Err(Error::Invalid(format!("{}: {} subscripts for {}-d array {}", s.name, a.subscripts.len(), arr.dims, arr.name)));
                }
                if a.subscripts.iter().any(|e| e.len() != n) {
                    return Err(Error::Invalid(format!("{}: subscript over the wrong space", s.name)));
                }
            }
        }
        Ok(())
    }

    /// The statement's domain intersected with the context.
    pub fn domain_in_context(&self, s: usize) -> Result<Polyhedron> {
        let st = self.stmts.get(s).ok_or_else(|| Error::Invalid(format!("no statement {s}")))?;
        let ctx = self.context.insert_dims(0, st.depth())?;
        st.domain.intersect(&ctx)
    }

    /// The original execution order for concrete parameter values: every
    /// instance of every statement, sorted by the original schedule.
    pub fn original_instances(&self, params: &[i64], limit: usize) -> Result<Vec<Instance>> {
        self.validate()?;
        if !self.context.fix_params(params)?.contains(&[])? {
            return Err(Error::Invalid("parameter values outside the context".into()));
        }
        let width = self.stmts.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
        let mut all: Vec<(Vec<i64>, Instance)> = Vec::new();
        for (k, s) in self.stmts.iter().enumerate() {
            for pt in s.domain.points(params, limit)? {
                let mut x = pt.clone();
                x.extend_from_slice(params);
                let mut t = s.schedule.iter().map(|r| r.eval(&x)).collect::<Result<Vec<_>>>()?;
                t.resize(width, 0);
                all.push((t, Instance { stmt: k, iters: pt }));
                if all.len() > limit {
                    return Err(Error::TooComplex(format!("more than {limit} instances")));
                }
            }
        }
        all.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(all.into_iter().map(|(_, i)| i).collect())
    }
}

/// Parses an affine expression such as `2*i - j + N - 1` over the names
/// `vars` (a term is `[k*]name`, `k name`, `name*k` or `k`).
pub fn parse_aff(text: &str, vars: &[&str]) -> Result<Aff> {
    let mut a = Aff::zero(vars.len());
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if s.is_empty() {
        return Err(Error::Invalid("empty affine expression".into()));
    }
    let mut terms: Vec<(i64, String)> = Vec::new();
    let mut cur = String::new();
    let mut sign = 1i64;
    for ch in s.chars() {
        if (ch == '+' || ch == '-') && !cur.is_empty() {
            terms.push((sign, std::mem::take(&mut cur)));
            sign = if ch == '-' { -1 } else { 1 };
        } else if ch == '-' {
            sign = -sign;
        } else if ch != '+' {
            cur.push(ch);
        }
    }
    if cur.is_empty() {
        return Err(Error::Invalid(format!("dangling sign in {text:?}")));
    }
    terms.push((sign, cur));
    for (sign, t) in terms {
        let mut k = sign;
        let mut name: Option<&str> = None;
        for f in t.split('*') {
            if let Ok(n) = f.parse::<i64>() {
                k = k.checked_mul(n).ok_or(Error::Overflow)?;
            } else {
                let digits = f.chars().take_while(|c| c.is_ascii_digit()).count();
                let (num, rest) = f.split_at(digits);
                if !num.is_empty() {
                    k = k.checked_mul(num.parse::<i64>().map_err(|_| Error::Overflow)?).ok_or(Error::Overflow)?;
                }
                if name.is_some() || rest.is_empty() {
                    return Err(Error::Invalid(format!("not affine: {text:?}")));
                }
                name = Some(rest);
            }
        }
        match name {
            None => a.constant = a.constant.checked_add(k).ok_or(Error::Overflow)?,
            Some(n) => {
                let v = vars.iter().position(|x| *x == n).ok_or_else(|| Error::Invalid(format!("unknown name {n:?} in {text:?}")))?;
                a.coeffs[v] = a.coeffs[v].checked_add(k).ok_or(Error::Overflow)?;
            }
        }
    }
    Ok(a)
}

/// Adds to `p` the constraints of a chain such as `0 <= i <= N - 1`,
/// `i + j >= 2`, `i == j` or `1 < i` (over `vars`, the polyhedron's
/// variables).
pub fn add_constraints(p: &mut Polyhedron, text: &str, vars: &[&str]) -> Result<()> {
    let mut parts: Vec<&str> = Vec::new();
    let mut ops: Vec<&str> = Vec::new();
    let mut rest = text;
    loop {
        let found = ["<=", ">=", "==", "<", ">"].iter().filter_map(|op| rest.find(op).map(|i| (i, *op))).min_by_key(|(i, op)| (*i, std::cmp::Reverse(op.len())));
        match found {
            Some((i, op)) => {
                parts.push(&rest[..i]);
                ops.push(op);
                rest = &rest[i + op.len()..];
            }
            None => {
                parts.push(rest);
                break;
            }
        }
    }
    if ops.is_empty() {
        return Err(Error::Invalid(format!("no comparison in {text:?}")));
    }
    for (k, op) in ops.iter().enumerate() {
        let l = parse_aff(parts[k], vars)?;
        let r = parse_aff(parts[k + 1], vars)?;
        match *op {
            "<=" => p.add_ineq(r.sub(&l)?)?,
            ">=" => p.add_ineq(l.sub(&r)?)?,
            "<" => p.add_ineq(r.sub(&l)?.add(&Aff::cst(vars.len(), -1))?)?,
            ">" => p.add_ineq(l.sub(&r)?.add(&Aff::cst(vars.len(), -1))?)?,
            _ => p.add_eq(l.sub(&r)?)?,
        }
    }
    Ok(())
}

/// Builds [`Scop`]s from short strings (for tests and examples).
#[derive(Clone, Debug)]
pub struct ScopBuilder {
    scop: Scop,
}

impl ScopBuilder {
    /// A SCoP with these parameters, no context constraints yet.
    pub fn new(params: &[&str]) -> ScopBuilder {
        let np = params.len();
        ScopBuilder {
            scop: Scop { params: params.iter().map(|s| s.to_string()).collect(), context: Polyhedron::universe(0, np), arrays: Vec::new(), stmts: Vec::new() },
        }
    }
    /// Adds context constraints, e.g. `"N >= 1"`.
    pub fn context(mut self, text: &str) -> Result<ScopBuilder> {
        let names: Vec<&str> = self.scop.params.iter().map(|s| s.as_str()).collect();
        add_constraints(&mut self.scop.context, text, &names)?;
        Ok(self)
    }
    /// Declares an array.
    pub fn array(mut self, name: &str, dims: usize) -> ScopBuilder {
        self.scop.arrays.push(Array { name: name.to_string(), dims });
        self
    }
    /// Adds a statement: iterators, domain constraints, the textual
    /// positions β (one more than the iterators: the 2d+1 schedule is
    /// `(β0, i1, β1, …)`), and accesses written `"A[i][j+1]"`, writes first
    /// marked with `=`: e.g. `&["=C[i][j]", "C[i][j]", "A[i][k]"]`.
    pub fn stmt(mut self, name: &str, iters: &[&str], domain: &[&str], betas: &[i64], accesses: &[&str]) -> Result<ScopBuilder> {
        let d = iters.len();
        if betas.len() != d + 1 {
            return Err(Error::Invalid(format!("{name}: {} textual positions for {d} iterators", betas.len())));
        }
        let mut names: Vec<&str> = iters.to_vec();
        names.extend(self.scop.params.iter().map(|s| s.as_str()));
        let n = names.len();
        let mut dom = Polyhedron::universe(d, self.scop.n_params());
        for c in domain {
            add_constraints(&mut dom, c, &names)?;
        }
        let mut schedule = Vec::with_capacity(2 * d + 1);
        for (k, &b) in betas.iter().enumerate() {
            schedule.push(Aff::cst(n, b));
            if k < d {
                schedule.push(Aff::var(n, k));
            }
        }
        let mut accs = Vec::new();
        for a in accesses {
            let (kind, body) = match a.strip_prefix('=') {
                Some(b) => (AccessKind::Write, b.trim()),
                None => (AccessKind::Read, a.trim()),
            };
            let open = body.find('[').unwrap_or(body.len());
            let arr_name = &body[..open];
            let array = self.scop.arrays.iter().position(|x| x.name == arr_name).ok_or_else(|| Error::Invalid(format!("unknown array {arr_name:?}")))?;
            let mut subs = Vec::new();
            let mut rest = &body[open..];
            while let Some(r) = rest.strip_prefix('[') {
                let close = r.find(']').ok_or_else(|| Error::Invalid(format!("unclosed subscript in {a:?}")))?;
                subs.push(parse_aff(&r[..close], &names)?);
                rest = &r[close + 1..];
            }
            accs.push(Access { kind, array, subscripts: subs });
        }
        self.scop.stmts.push(Statement { name: name.to_string(), iters: iters.iter().map(|s| s.to_string()).collect(), domain: dom, schedule, accesses: accs });
        Ok(self)
    }
    /// The SCoP, validated.
    pub fn build(self) -> Result<Scop> {
        self.scop.validate()?;
        Ok(self.scop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_affine() {
        let a = parse_aff("2*i - j + N - 1", &["i", "j", "N"]).unwrap();
        assert_eq!(a, Aff::new(vec![2, -1, 1], -1));
        let b = parse_aff("-3i+2", &["i"]).unwrap();
        assert_eq!(b, Aff::new(vec![-3], 2));
        assert!(parse_aff("i*j", &["i", "j"]).is_err());
        assert!(parse_aff("k", &["i"]).is_err());
    }

    #[test]
    fn imperfect_nest_original_order() {
        // for i: { S0(i); for j <= i: S1(i, j) }
        let s = ScopBuilder::new(&["N"])
            .context("N >= 1")
            .unwrap()
            .array("A", 1)
            .stmt("S0", &["i"], &["0 <= i <= N - 1"], &[0, 0], &["=A[i]"])
            .unwrap()
            .stmt("S1", &["i", "j"], &["0 <= i <= N - 1", "0 <= j <= i"], &[0, 1, 0], &["=A[i]", "A[j]"])
            .unwrap()
            .build()
            .unwrap();
        let order = s.original_instances(&[2], 1000).unwrap();
        let seq: Vec<(usize, Vec<i64>)> = order.into_iter().map(|i| (i.stmt, i.iters)).collect();
        assert_eq!(seq, vec![(0, vec![0]), (1, vec![0, 0]), (0, vec![1]), (1, vec![1, 0]), (1, vec![1, 1])]);
    }
}

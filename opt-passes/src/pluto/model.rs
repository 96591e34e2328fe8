//! The polyhedral model of a detected SCoP ([`crate::scop::Scop`], built on
//! IR) as the polyhedral core takes it ([`dsp_pluto::scop::Scop`]): seed
//! 002's input — statements with iteration domains, original 2d+1
//! schedules `(β0, i1, β1, …, id, βd)` and affine accesses.
//!
//! Two differences between the models are settled here: a loop stepping by
//! −1 has its variable as iterator, so its row of the original schedule is
//! `−i` (the iterations run downwards); a loop stepping by any other
//! constant has the iteration count as iterator (row `+t`). What the core
//! cannot take — scalars crossing blocks (Polly's Phi/Value arrays) — is
//! refused by [`check`] with the reason, before anything is built (pairs
//! of arrays that may alias get a run-time check: [`super::alias`]).

use dsp_pluto::poly::{Aff, Polyhedron};
use dsp_pluto::scop as ps;

use crate::scop::{AccessKind, AffExpr, ArrayKind, Scop};

fn aff(e: &AffExpr) -> Aff {
    Aff::new(e.coeffs.clone(), e.constant)
}

/// Why a SCoP is left alone before modelling it, if it must be.
pub fn check(scop: &Scop) -> Result<(), String> {
    if let Some(a) = scop.arrays.iter().find(|a| matches!(a.kind, ArrayKind::Phi | ArrayKind::Value)) {
        return Err(format!("scalar {} crosses blocks (scalar dependences are not transformed yet)", a.name));
    }
    if scop.exit_block.is_none() {
        return Err("the region ends in a return".into());
    }
    Ok(())
}

/// The core's model of `scop`; the context is empty (no assumption on the
/// parameters: the generated code is exact for every value).
pub fn build(scop: &Scop) -> Result<ps::Scop, String> {
    let np = scop.params.len();
    let params: Vec<String> = scop.params.iter().map(|p| p.name.clone()).collect();
    let arrays = scop.arrays.iter().map(|a| ps::Array { name: a.name.clone(), dims: a.dims.len() }).collect();
    let mut stmts = Vec::new();
    for st in &scop.stmts {
        let d = st.loops.len();
        let n = d + np;
        let mut domain = Polyhedron::universe(d, np);
        for c in &st.domain {
            if c.expr.coeffs.len() != n {
                return Err(format!("{}: domain constraint over the wrong space", st.name));
            }
            let r = if c.equality { domain.add_eq(aff(&c.expr)) } else { domain.add_ineq(aff(&c.expr)) };
            r.map_err(|e| e.to_string())?;
        }
        if st.schedule.len() != d + 1 {
            return Err(format!("{}: schedule of {} positions for {d} loops", st.name, st.schedule.len()));
        }
        let mut schedule = Vec::new();
        for (k, &beta) in st.schedule.iter().enumerate() {
            schedule.push(Aff::cst(n, beta as i64));
            if k < d {
                let sign = if scop.loops[st.loops[k]].step == -1 { -1 } else { 1 };
                schedule.push(Aff::var(n, k).scale(sign).map_err(|e| e.to_string())?);
            }
        }
        let mut accesses = Vec::new();
        for a in &st.accesses {
            if a.subscripts.iter().any(|s| s.coeffs.len() != n) {
                return Err(format!("{}: subscript over the wrong space", st.name));
            }
            let kind = if a.kind == AccessKind::Read { ps::AccessKind::Read } else { ps::AccessKind::Write };
            accesses.push(ps::Access { kind, array: a.array, subscripts: a.subscripts.iter().map(aff).collect() });
        }
        let iters = (0..d).map(|k| format!("i{k}")).collect();
        stmts.push(ps::Statement { name: st.name.clone(), iters, domain, schedule, accesses });
    }
    let out = ps::Scop { params, context: Polyhedron::universe(0, np), arrays, stmts };
    out.validate().map_err(|e| e.to_string())?;
    Ok(out)
}

/// Whether the transformation leaves the program as it was: no band tiled
/// and every statement's loop rows its own iterators in their original
/// order and direction (then code generation is not worth it).
pub fn is_identity(model: &ps::Scop, t: &dsp_pluto::Transformed) -> bool {
    if t.tiled.as_ref().is_some_and(|x| !x.bands.is_empty()) {
        return false;
    }
    let sch = &t.schedule;
    for (s, st) in model.stmts.iter().enumerate() {
        let orig: Vec<&Aff> = st.schedule.iter().filter(|r| !r.is_constant()).collect();
        let new: Vec<&Aff> = sch.rows[s].iter().zip(&sch.kinds).filter(|(r, k)| **k == dsp_pluto::schedule::RowKind::Loop && !r.is_constant()).map(|(r, _)| r).collect();
        if orig != new {
            return false;
        }
    }
    true
}

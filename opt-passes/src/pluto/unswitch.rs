//! Guards taken out of the loops they do not depend on (loop unswitching on
//! the AST, as isl's AST generator separates such conditions): a `for`
//! whose body holds an `if` whose conditions do not mention the loop's
//! variable becomes `if (conds) for {body, the if's body in place} else
//! for {body without it}`. Fused statements guarded on an outer loop
//! (`if (k == 0) C[i][j] *= beta` inside a tiled `j` loop) then leave the
//! innermost loops as single blocks for the vectorizers and the software
//! pipeliner. At most [`MAX_UNSWITCH`] guards per loop (each doubles it).

use dsp_pluto::ast::{Cond, LoopBound, Node, Term};

/// At most this many guards are taken out of one loop.
pub const MAX_UNSWITCH: usize = 2;

/// The AST code generation walks: `if` has an `else`.
#[derive(Clone, Debug)]
pub enum G {
    For { var: usize, lower: LoopBound, upper: LoopBound, body: Vec<G> },
    If { conds: Vec<Cond>, then_: Vec<G>, else_: Vec<G> },
    Stmt { stmt: usize, iters: Vec<Term> },
}

/// `nodes` with their invariant guards taken out of loops.
pub fn lower(nodes: &[Node]) -> Vec<G> {
    nodes.iter().map(convert).map(|g| unswitch(g, MAX_UNSWITCH)).collect()
}

fn convert(n: &Node) -> G {
    match n {
        Node::For { var, lower, upper, body } => G::For { var: *var, lower: lower.clone(), upper: upper.clone(), body: body.iter().map(convert).collect() },
        Node::If { conds, body } => G::If { conds: conds.clone(), then_: body.iter().map(convert).collect(), else_: Vec::new() },
        Node::Stmt { stmt, iters } => G::Stmt { stmt: *stmt, iters: iters.clone() },
    }
}

fn mentions(c: &Cond, var: usize) -> bool {
    let a = match c {
        Cond::Ge(a) | Cond::Eq(a) | Cond::Divisible(a, _) => a,
    };
    a.coeffs.get(var).is_some_and(|&k| k != 0)
}

fn unswitch(g: G, budget: usize) -> G {
    match g {
        G::For { var, lower, upper, body } => {
            let body: Vec<G> = body.into_iter().map(|x| unswitch(x, MAX_UNSWITCH)).collect();
            let at = body.iter().position(|x| matches!(x, G::If { conds, .. } if !conds.is_empty() && !conds.iter().any(|c| mentions(c, var))));
            match at.map(|k| (k, body[k].clone())) {
                Some((k, G::If { conds, then_, else_ })) if budget > 0 => {
                    let with = |side: Vec<G>| -> Vec<G> { body[..k].iter().cloned().chain(side).chain(body[k + 1..].iter().cloned()).collect() };
                    let yes = unswitch(G::For { var, lower: lower.clone(), upper: upper.clone(), body: with(then_) }, budget - 1);
                    let no = unswitch(G::For { var, lower, upper, body: with(else_) }, budget - 1);
                    G::If { conds, then_: vec![yes], else_: vec![no] }
                }
                _ => G::For { var, lower, upper, body },
            }
        }
        G::If { conds, then_, else_ } => G::If { conds, then_: then_.into_iter().map(|x| unswitch(x, MAX_UNSWITCH)).collect(), else_: else_.into_iter().map(|x| unswitch(x, MAX_UNSWITCH)).collect() },
        s => s,
    }
}

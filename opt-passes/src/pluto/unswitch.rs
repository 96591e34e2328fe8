//! Guards taken out of the loops they do not depend on (loop unswitching on
//! the AST, as isl's AST generator separates such conditions): a `for`
//! whose body holds an `if` whose conditions do not mention the loop's
//! variable becomes `if (conds) for {body, the if's body in place} else
//! for {body without it}`. Fused statements guarded on an outer loop
//! (`if (k == 0) C[i][j] *= beta` inside a tiled `j` loop) then leave the
//! innermost loops as single blocks for the vectorizers and the software
//! pipeliner. At most [`MAX_UNSWITCH`] guards per loop (each doubles it).
//! Then innermost loops are split where their own guards hold ([`split`]).

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

/// `nodes` with their invariant guards taken out of loops, and innermost
/// loops split where their guards hold ([`split`]).
pub fn lower(nodes: &[Node]) -> Vec<G> {
    nodes.iter().map(convert).map(|g| unswitch(g, MAX_UNSWITCH)).flat_map(split).collect()
}

/// Index-set splitting of an innermost loop whose statements are guarded
/// by inequalities on its own variable (the partial tiles of a skewed
/// band: `if (t3 >= 2*t2 + 1) S0`): `[lo, hi]` becomes `[lo, L - 1]`
/// (guarded), `[max(lo, L), min(hi, U)]` with those guards dropped — the
/// full tiles, one block for the vectorizers and the pipeliner — and
/// `[max(lo, L, U + 1), hi]` (guarded), `L` the largest lower bound and
/// `U` the smallest upper bound the guards put on the variable. The three
/// ranges partition the loop's, in order, so every instance runs once and
/// in its place.
pub fn split(g: G) -> Vec<G> {
    match g {
        G::For { var, lower, upper, body } => {
            let inner = body.iter().any(has_loop);
            let body: Vec<G> = if inner { body.into_iter().flat_map(split).collect() } else { body };
            let (mut los, mut ups) = (Vec::new(), Vec::new());
            if !inner {
                for x in &body {
                    if let G::If { conds, .. } = x {
                        for c in conds {
                            if let Cond::Ge(a) = c {
                                let k = a.coeffs.get(var).copied().unwrap_or(0);
                                let mut rest = a.clone();
                                if k != 0 {
                                    rest.coeffs[var] = 0;
                                }
                                // k·t + rest ≥ 0: t ≥ ceil(-rest / k), or t ≤ floor(rest / -k).
                                if k > 0 {
                                    if let Ok(r) = rest.scale(-1) {
                                        los.push(Term { aff: r, div: k });
                                    }
                                } else if k < 0 {
                                    ups.push(Term { aff: rest, div: -k });
                                }
                            }
                        }
                    }
                }
            }
            if los.is_empty() && ups.is_empty() {
                return vec![G::For { var, lower, upper, body }];
            }
            let one = |t: &Term, d: i64| Term { aff: dsp_pluto::poly::Aff { constant: t.aff.constant + d, ..t.aff.clone() }, div: t.div };
            let with = |b: &LoopBound, extra: &[Term]| LoopBound { alternatives: b.alternatives.iter().map(|alt| alt.iter().chain(extra).cloned().collect()).collect() };
            // min(hi, L - 1) = max over the guards' lower bounds g of min(hi, g - 1): ceil(a/d) - 1 = floor((a - 1)/d).
            let first_up = LoopBound { alternatives: upper.alternatives.iter().flat_map(|alt| los.iter().map(|g| alt.iter().cloned().chain([one(g, -1)]).collect())).collect() };
            // max(lo, L, U + 1) = min over upper bounds u of max(lo, L, u + 1): floor(b/d) + 1 = ceil((b + 1)/d).
            let last_lo = LoopBound { alternatives: lower.alternatives.iter().flat_map(|alt| ups.iter().map(|u| alt.iter().chain(&los).cloned().chain([one(u, 1)]).collect())).collect() };
            let mut out = Vec::new();
            if !los.is_empty() {
                out.push(G::For { var, lower: lower.clone(), upper: first_up, body: body.clone() });
            }
            let middle = body.iter().map(|x| drop_guards(x, var)).collect();
            out.push(G::For { var, lower: with(&lower, &los), upper: with(&upper, &ups), body: middle });
            if !ups.is_empty() {
                out.push(G::For { var, lower: last_lo, upper, body });
            }
            out
        }
        G::If { conds, then_, else_ } => vec![G::If { conds, then_: then_.into_iter().flat_map(split).collect(), else_: else_.into_iter().flat_map(split).collect() }],
        s => vec![s],
    }
}

/// Whether `g` is or holds a loop.
pub fn has_loop(g: &G) -> bool {
    match g {
        G::For { .. } => true,
        G::If { then_, else_, .. } => then_.iter().chain(else_).any(has_loop),
        G::Stmt { .. } => false,
    }
}

/// `g` without the inequalities on `var` of its guards (they hold).
fn drop_guards(g: &G, var: usize) -> G {
    match g {
        G::If { conds, then_, else_ } => {
            let conds: Vec<Cond> = conds.iter().filter(|c| !matches!(c, Cond::Ge(a) if a.coeffs.get(var).is_some_and(|&k| k != 0))).cloned().collect();
            G::If { conds, then_: then_.clone(), else_: else_.clone() }
        }
        x => x.clone(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_pluto::ast::{eval_bound, eval_cond, Ast};
    use dsp_pluto::scop::Instance;

    /// The instances `g` runs, in order (as [`Ast::execute`] does for the AST).
    fn run(nodes: &[G], env: &mut Vec<i64>, out: &mut Vec<Instance>) {
        for n in nodes {
            match n {
                G::For { var, lower, upper, body } => {
                    let (lo, hi) = (eval_bound(lower, env, false).unwrap(), eval_bound(upper, env, true).unwrap());
                    for v in lo..=hi {
                        env[*var] = v as i64;
                        run(body, env, out);
                    }
                    env[*var] = 0;
                }
                G::If { conds, then_, else_ } => {
                    let ok = conds.iter().all(|c| eval_cond(c, env).unwrap());
                    run(if ok { then_ } else { else_ }, env, out);
                }
                G::Stmt { stmt, iters } => {
                    let iters = iters.iter().map(|t| t.aff.eval(env).unwrap() / t.div).collect();
                    out.push(Instance { stmt: *stmt, iters });
                }
            }
        }
    }

    fn same_order(ast: &Ast, params: &[i64]) {
        let mut env = vec![0; ast.n_loops];
        env.extend_from_slice(params);
        let mut got = Vec::new();
        run(&lower(&ast.body), &mut env, &mut got);
        assert_eq!(got, ast.execute(params, 1_000_000).unwrap());
    }

    #[test]
    fn unswitching_and_splitting_keep_every_instance_in_its_place() {
        use dsp_pluto::{examples, schedule, tile::TileOptions, transform};
        for (scop, params) in [(examples::matmul(), vec![7]), (examples::jacobi_1d(), vec![5, 13]), (examples::seidel_2d(), vec![3, 9]), (examples::lu(), vec![8])] {
            for size in [2, 3, 5] {
                let t = transform(&scop, &schedule::Options::default(), Some(&TileOptions { default_size: size, ..Default::default() })).unwrap();
                same_order(&t.ast, &params);
            }
        }
    }
}

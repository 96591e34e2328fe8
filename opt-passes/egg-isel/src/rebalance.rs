//! Tree-height reduction of integer vector sums, on the extracted program
//! (seed 004's fine-grained stage: the scheduler downstream can overlap
//! independent chains, not shorten one). Extraction sums costs, so a chain
//! `a0*b0 + a1*b1 + … + a8*b8` of multiply-adds and a tree of them cost the
//! same; the chain's latency, nine times the multiply-add's, is what a loop
//! that is not software-pipelined (a short trip count, as a 3×3 filter's
//! row of 62 outputs) waits for. Wrapping integer addition is associative
//! and commutative, so for `I32` programs every sum of single-use vector
//! additions and multiply-adds is regrouped into `k` multiply-add chains
//! (`k` the multiply-add's latency in cycles, from the `.isa`), added up
//! pairwise. Float programs are never touched (their order is the source's).

use std::collections::HashMap;

use egg::{Id, Language, RecExpr};
use isa_tablegen::SemOp;

use crate::lang::{Elem, VecLang};
use crate::target::{Opnd, Target};

/// One term of a sum.
#[derive(Clone, Copy, Debug)]
enum Term {
    /// A vector (old id).
    Leaf(Id),
    /// `a * b`, both vectors.
    Product(Id, Id),
    /// `v * s`, `s` a scalar.
    ProductS(Id, Id),
}

/// `prog` with its integer vector sums of more than `k + 1` terms regrouped
/// into `k` chains (see the module's comment); unchanged for floats or
/// when `k < 2`.
pub fn rebalance(prog: &RecExpr<VecLang>, t: &Target) -> RecExpr<VecLang> {
    let k = t.find(SemOp::Mac, Some(Opnd::V), &[Opnd::V; 3]).map_or(1, |i| i.latency as usize);
    if t.elem != Elem::I32 || k < 2 {
        return prog.clone();
    }
    regroup(prog, k)
}

/// The regrouping with `k` chains.
pub fn regroup(prog: &RecExpr<VecLang>, k: usize) -> RecExpr<VecLang> {
    let nodes = prog.as_ref();
    let mut users = vec![0usize; nodes.len()];
    for n in nodes {
        for &c in n.children() {
            users[usize::from(c)] += 1;
        }
    }
    let is_sum = |id: Id| matches!(nodes[usize::from(id)], VecLang::VecAdd(_) | VecLang::VecMac(_) | VecLang::VecMacS(_));
    // The terms of the sum rooted at `id`: single-use sums inside are flattened.
    fn terms(nodes: &[VecLang], users: &[usize], id: Id, root: bool, out: &mut Vec<Term>) {
        let inner = |x: Id| matches!(nodes[usize::from(x)], VecLang::VecAdd(_) | VecLang::VecMac(_) | VecLang::VecMacS(_)) && users[usize::from(x)] == 1;
        match &nodes[usize::from(id)] {
            n @ (VecLang::VecAdd(_) | VecLang::VecMac(_) | VecLang::VecMacS(_)) if root || inner(id) => match n {
                VecLang::VecAdd([x, y]) => {
                    for &c in [x, y] {
                        if inner(c) { terms(nodes, users, c, false, out) } else { out.push(Term::Leaf(c)) }
                    }
                }
                VecLang::VecMac([a, b, c]) => {
                    out.push(Term::Product(*a, *b));
                    if inner(*c) { terms(nodes, users, *c, false, out) } else { out.push(Term::Leaf(*c)) }
                }
                VecLang::VecMacS([v, s, c]) => {
                    out.push(Term::ProductS(*v, *s));
                    if inner(*c) { terms(nodes, users, *c, false, out) } else { out.push(Term::Leaf(*c)) }
                }
                _ => unreachable!("a sum node"),
            },
            _ => out.push(Term::Leaf(id)),
        }
    }
    // Roots: sums used by something other than a single-use sum chain.
    let mut consumed = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if is_sum(Id::from(i)) {
            for &c in n.children() {
                if is_sum(c) && users[usize::from(c)] == 1 {
                    consumed[usize::from(c)] = true;
                }
            }
        }
    }
    let mut out: RecExpr<VecLang> = RecExpr::default();
    let mut map: HashMap<Id, Id> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let id = Id::from(i);
        if is_sum(id) && !consumed[i] {
            let mut ts = Vec::new();
            terms(nodes, &users, id, true, &mut ts);
            if ts.len() > k + 1 {
                let new = emit(&mut out, &map, &ts, k);
                map.insert(id, new);
                continue;
            }
        }
        let copy = n.clone().map_children(|c| map[&c]);
        map.insert(id, out.add(copy));
    }
    compact(&out)
}

/// Emits `terms` as `k` multiply-add chains added up pairwise.
fn emit(out: &mut RecExpr<VecLang>, map: &HashMap<Id, Id>, terms: &[Term], k: usize) -> Id {
    let mut chains: Vec<Option<Id>> = vec![None; k];
    // Leaves first in each chain, so that products fuse onto them.
    let mut ordered: Vec<Term> = terms.iter().copied().filter(|t| matches!(t, Term::Leaf(_))).collect();
    ordered.extend(terms.iter().copied().filter(|t| !matches!(t, Term::Leaf(_))));
    for (j, t) in ordered.iter().enumerate() {
        let slot = &mut chains[j % k];
        let node = match (*t, *slot) {
            (Term::Leaf(x), None) => {
                *slot = Some(map[&x]);
                continue;
            }
            (Term::Leaf(x), Some(acc)) => VecLang::VecAdd([acc, map[&x]]),
            (Term::Product(a, b), None) => VecLang::VecMul([map[&a], map[&b]]),
            (Term::Product(a, b), Some(acc)) => VecLang::VecMac([map[&a], map[&b], acc]),
            (Term::ProductS(v, s), None) => VecLang::VecMulS([map[&v], map[&s]]),
            (Term::ProductS(v, s), Some(acc)) => VecLang::VecMacS([map[&v], map[&s], acc]),
        };
        *slot = Some(out.add(node));
    }
    let mut level: Vec<Id> = chains.into_iter().flatten().collect();
    while level.len() > 1 {
        level = level.chunks(2).map(|p| if let [a, b] = p { out.add(VecLang::VecAdd([*a, *b])) } else { p[0] }).collect();
    }
    level[0]
}

/// The nodes reachable from the last one (the output list), in order.
fn compact(e: &RecExpr<VecLang>) -> RecExpr<VecLang> {
    let nodes = e.as_ref();
    let mut live = vec![false; nodes.len()];
    if let Some(l) = live.last_mut() {
        *l = true;
    }
    for i in (0..nodes.len()).rev() {
        if live[i] {
            for &c in nodes[i].children() {
                live[usize::from(c)] = true;
            }
        }
    }
    let mut out = RecExpr::default();
    let mut map: HashMap<Id, Id> = HashMap::new();
    for (i, n) in nodes.iter().enumerate().filter(|(i, _)| live[*i]) {
        map.insert(Id::from(i), out.add(n.clone().map_children(|c| map[&c])));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{eval, Inputs};

    /// The chain depth of a node: multiply-adds and adds in a row.
    fn depth(e: &RecExpr<VecLang>) -> usize {
        let mut d = vec![0usize; e.as_ref().len()];
        for (i, n) in e.as_ref().iter().enumerate() {
            let own = usize::from(matches!(n, VecLang::VecAdd(_) | VecLang::VecMac(_) | VecLang::VecMacS(_) | VecLang::VecMul(_) | VecLang::VecMulS(_)));
            d[i] = own + n.children().iter().map(|&c| d[usize::from(c)]).max().unwrap_or(0);
        }
        *d.last().unwrap()
    }

    #[test]
    fn a_nine_term_multiply_add_chain_becomes_three_chains_with_the_same_value() {
        // conv2d's row: nine vector loads times nine broadcast taps.
        let mut s = "(VecMulS (VecLoad x 0) (arg k0))".to_string();
        for j in 1..9 {
            s = format!("(VecMACS (VecLoad x {j}) (arg k{j}) {s})");
        }
        let p: RecExpr<VecLang> = format!("(List {s})").parse().unwrap();
        let q = regroup(&p, 3);
        assert_eq!(depth(&p), 9);
        assert_eq!(depth(&q), 3 + 2, "{q}");
        let lanes = 4;
        let mut x = 0x9e37_79b9u32;
        for seed in 0..20u32 {
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x.wrapping_add(seed)
            };
            let mut inputs: Inputs = HashMap::new();
            inputs.insert("x".into(), (0..lanes + 8).map(|_| next()).collect());
            for j in 0..9 {
                inputs.insert(format!("k{j}").as_str().into(), vec![next()]);
            }
            assert_eq!(eval(&p, Elem::I32, lanes, &inputs), eval(&q, Elem::I32, lanes, &inputs), "seed {seed}: {q}");
        }
    }

    #[test]
    fn short_sums_and_shared_values_stay() {
        let p: RecExpr<VecLang> = "(List (VecMAC (VecLoad x 0) (VecLoad y 0) (VecMul (VecLoad x 1) (VecLoad y 1))))".parse().unwrap();
        assert_eq!(regroup(&p, 3).to_string(), p.to_string());
    }
}

//! The shuffle rules (seed 004 §2.2: data movement between lanes). Both
//! exist only when the `.isa` has a general permute (`shuffle` in the
//! semantic vocabulary), and the cost function charges the machine's price
//! for it (on ftm `vshuf` is deliberately slow, so a shuffle is chosen only
//! over something slower still, such as a vector built lane by lane):
//!
//! - window shuffle: `Vec` of elements of one array that all lie within one
//!   vector's width of each other, but not in ascending order (a reversed
//!   access `x[n - k]`, a permutation within a block), is one vector load of
//!   that window and a `Shuffle` of its lanes. The lanes' smallest and
//!   largest elements must be the window's ends, so the load reads only
//!   elements the lanes name or elements between them.
//! - lane shuffle: `Vec` of lanes of one vector (`Extract`s) is a `Shuffle`
//!   of that vector.
//!
//! A splice (two vectors' lanes side by side, seed 004's cheap alternative
//! to a shuffle) has no instruction in the shipped `.isa` files; taken from
//! memory it is an unaligned vector load, which the vector-load rule
//! already makes of any window of consecutive elements.

use egg::{Applier, EGraph, Id, PatternAst, Rewrite, Subst, Symbol, Var};
use isa_tablegen::SemOp;

use crate::lang::VecLang;
use crate::rules::{get_in, Kind, Rule};
use crate::target::{Opnd, Target};

/// The shuffle rules for `t`'s machine: none without a permute instruction.
/// Arrays in `strided` are never loaded as a window (their elements are not
/// adjacent in memory).
pub fn rules(t: &Target, strided: &[Symbol]) -> Vec<Rule> {
    let Some(perm) = t.find(SemOp::Shuffle, Some(Opnd::V), &[Opnd::V, Opnd::V]) else {
        return Vec::new();
    };
    let n = t.lanes;
    let xs: Vec<String> = (0..n).map(|k| format!("?x{k}")).collect();
    let vars: Vec<Var> = xs.iter().map(|x| x.parse().expect("a variable")).collect();
    let kinds: Vec<(String, Kind)> = xs.iter().map(|x| (x.trim_start_matches('?').to_string(), Kind::Scalar)).collect();
    let lhs = || format!("(Vec {})", xs.join(" ")).parse::<egg::Pattern<VecLang>>().expect("internal: the shuffle pattern");
    let mut out = Vec::new();
    let has_load = t.has(SemOp::VLoadU, Some(Opnd::V), &[Opnd::S, Opnd::Imm]) || t.has(SemOp::VLoad, Some(Opnd::V), &[Opnd::S, Opnd::Imm]);
    if has_load {
        let w = Window { vars: vars.clone(), strided: strided.to_vec() };
        let rewrite = Rewrite::new("window-shuffle", lhs(), w).expect("internal: the window shuffle rule");
        out.push(Rule { name: "window-shuffle".into(), rewrite, from: Some(perm.mnemonic.clone()), vars: kinds.clone(), exact: true, phase: 0 });
    }
    let l = Lanes { vars };
    let rewrite = Rewrite::new("lane-shuffle", lhs(), l).expect("internal: the lane shuffle rule");
    out.push(Rule { name: "lane-shuffle".into(), rewrite, from: Some(perm.mnemonic.clone()), vars: kinds, exact: true, phase: 0 });
    out
}

/// `(Extract v k)` in class `c` with a constant `k`: the vector's class and the lane.
fn extracts(egraph: &EGraph<VecLang, ()>, c: Id) -> Vec<(Id, i64)> {
    egraph[c]
        .nodes
        .iter()
        .filter_map(|n| match n {
            VecLang::Extract([v, k]) => Some((egraph.find(*v), num(egraph, *k)?)),
            _ => None,
        })
        .collect()
}

fn num(egraph: &EGraph<VecLang, ()>, c: Id) -> Option<i64> {
    egraph[c].nodes.iter().find_map(|x| if let VecLang::Num(k) = x { Some(*k) } else { None })
}

/// Adds `(Shuffle v idx…)` and merges it into `eclass`.
fn shuffle(egraph: &mut EGraph<VecLang, ()>, eclass: Id, v: Id, idx: &[i64]) -> Vec<Id> {
    let mut kids = vec![v];
    kids.extend(idx.iter().map(|&k| egraph.add(VecLang::Num(k))));
    let s = egraph.add(VecLang::Shuffle(kids.into_boxed_slice()));
    if egraph.union(eclass, s) {
        vec![s]
    } else {
        vec![]
    }
}

/// The applier of the window shuffle.
struct Window {
    vars: Vec<Var>,
    strided: Vec<Symbol>,
}

impl Applier<VecLang, ()> for Window {
    fn apply_one(&self, egraph: &mut EGraph<VecLang, ()>, eclass: Id, subst: &Subst, _: Option<&PatternAst<VecLang>>, _: Symbol) -> Vec<Id> {
        let lanes = self.vars.len() as i64;
        for (a, _) in get_in(egraph, subst[self.vars[0]]) {
            if self.strided.contains(&a) {
                continue;
            }
            // Each lane's element of `a` (a lane may hold several gets).
            let Some(idx) = self.vars.iter().map(|&v| get_in(egraph, subst[v]).into_iter().find(|g| g.0 == a).map(|g| g.1)).collect::<Option<Vec<i64>>>() else {
                continue;
            };
            let (lo, hi) = (idx.iter().copied().min().unwrap_or(0), idx.iter().copied().max().unwrap_or(0));
            let ascending = idx.iter().enumerate().all(|(k, &i)| i == idx[0] + k as i64);
            // The lanes must span exactly one window (a load of more would
            // read elements beyond those named); consecutive ascending is a
            // plain load.
            if hi - lo != lanes - 1 || ascending {
                continue;
            }
            let an = egraph.add(VecLang::Symbol(a));
            let base = egraph.add(VecLang::Num(lo));
            let window = egraph.add(VecLang::VecLoad([an, base]));
            let rel: Vec<i64> = idx.iter().map(|&i| i - lo).collect();
            return shuffle(egraph, eclass, window, &rel);
        }
        vec![]
    }

    fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }
}

/// The applier of the lane shuffle.
struct Lanes {
    vars: Vec<Var>,
}

impl Applier<VecLang, ()> for Lanes {
    fn apply_one(&self, egraph: &mut EGraph<VecLang, ()>, eclass: Id, subst: &Subst, _: Option<&PatternAst<VecLang>>, _: Symbol) -> Vec<Id> {
        let lanes = self.vars.len() as i64;
        for (v, _) in extracts(egraph, subst[self.vars[0]]) {
            let Some(idx) = self.vars.iter().map(|&x| extracts(egraph, subst[x]).into_iter().find(|e| e.0 == v).map(|e| e.1)).collect::<Option<Vec<i64>>>() else {
                continue;
            };
            // The identity is `v` itself, and lanes out of range are not lanes.
            if idx.iter().any(|&k| !(0..lanes).contains(&k)) {
                continue;
            }
            if idx.iter().enumerate().all(|(k, &i)| i == k as i64) {
                if egraph.union(eclass, v) {
                    return vec![v];
                }
                return vec![];
            }
            return shuffle(egraph, eclass, v, &idx);
        }
        vec![]
    }

    fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }
}

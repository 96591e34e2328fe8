//! Seed 004's example, the rules' soundness (both sides evaluated on random
//! inputs, bit for bit), the costs' source, and the limits.

use std::collections::HashMap;
use std::time::Duration;

use egg::{ENodeOrVar, Id, RecExpr, Symbol};
use proptest::prelude::*;

use crate::cost::{dag_cost, IsaCost};
use crate::eval::{eval, Inputs, Val};
use crate::lang::{Elem, VecLang};
use crate::rules::{self, Families, FloatRules, Kind};
use crate::saturate::{optimize, ExtractOpts, Limits};
use crate::target::Target;

fn ftm() -> isa_tablegen::Machine {
    isa_tablegen::Machine::load("ftm").unwrap()
}

/// `out[j] = sum_k a[k] * b[k * n + j]` (a 1×n by n×n product) as the
/// lifted scalar program: one `Vec` of the n sums, each a left-to-right sum.
fn vec_mat(n: usize) -> RecExpr<VecLang> {
    let mut e = RecExpr::default();
    let a = e.add(VecLang::Symbol("a".into()));
    let b = e.add(VecLang::Symbol("b".into()));
    let mut lanes = Vec::new();
    for j in 0..n {
        let mut sum: Option<Id> = None;
        for k in 0..n {
            let ka = e.add(VecLang::Num(k as i64));
            let kb = e.add(VecLang::Num((k * n + j) as i64));
            let x = e.add(VecLang::Get([a, ka]));
            let y = e.add(VecLang::Get([b, kb]));
            let p = e.add(VecLang::Mul([x, y]));
            sum = Some(match sum {
                None => p,
                Some(s) => e.add(VecLang::Add([s, p])),
            });
        }
        lanes.push(sum.unwrap());
    }
    let v = e.add(VecLang::Vec(lanes.into_boxed_slice()));
    e.add(VecLang::List(vec![v].into_boxed_slice()));
    e
}

fn inputs(seed: u32, len: usize, elem: Elem) -> Inputs {
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(1);
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let mut m = HashMap::new();
    for name in ["a", "b"] {
        let v: Vec<u32> = (0..len)
            .map(|_| match elem {
                Elem::I32 => next(),
                // small floats: sums stay finite
                Elem::F32 => ((next() % 2001) as f32 / 100.0 - 10.0).to_bits(),
            })
            .collect();
        m.insert(Symbol::from(name), v);
    }
    m
}

#[test]
fn seed_004_example_becomes_broadcasts_and_multiply_adds() {
    let m = ftm();
    let t = Target::new(&m, Elem::I32).unwrap();
    let cost = IsaCost::new(&t);
    let rules = rules::all(&t, FloatRules::default(), Families::default());
    let input = vec_mat(t.lanes);
    let (out, report) = optimize(&input, &rules, &cost, Limits::default(), ExtractOpts::default());
    let text = out.to_string();
    // ftm has no integer multiply-add with a scalar operand: broadcasts feed vmla.
    assert!(text.contains("(VecMAC (Broadcast (get a 15)) (VecLoad b 240)"), "{report:?}\n{text}");
    assert!(!text.contains("(Vec "), "no lane-by-lane build left: {text}");
    assert!(report.cost_after * 10.0 < report.cost_before, "{report:?}");
    assert!(report.fired.iter().any(|(r, _)| r == "broadcast") && report.fired.iter().any(|(r, _)| r.starts_with("mac-fusion")), "{report:?}");
    for seed in 0..4 {
        let inp = inputs(seed, t.lanes * t.lanes, Elem::I32);
        assert_eq!(eval(&input, Elem::I32, t.lanes, &inp), eval(&out, Elem::I32, t.lanes, &inp));
    }
}

#[test]
fn contracted_floats_use_the_scalar_operand_multiply_add() {
    let m = ftm();
    let t = Target::new(&m, Elem::F32).unwrap();
    let cost = IsaCost::new(&t);
    let rules = rules::all(&t, FloatRules { contract: true, reassociate: false }, Families::default());
    let (out, report) = optimize(&vec_mat(t.lanes), &rules, &cost, Limits::default(), ExtractOpts::default());
    let text = out.to_string();
    // vfmacs: v * s + c with the row element in a scalar register.
    assert!(text.contains("(VecMACS (VecLoad b 240) (get a 15)"), "{report:?}\n{text}");
}

#[test]
fn without_cooperation_rules_no_broadcast_is_chosen() {
    let m = ftm();
    let t = Target::new(&m, Elem::I32).unwrap();
    let cost = IsaCost::new(&t);
    let rules = rules::all(&t, FloatRules::default(), Families { cooperation: false, ..Families::default() });
    let (out, _) = optimize(&vec_mat(t.lanes), &rules, &cost, Limits::default(), ExtractOpts::default());
    let text = out.to_string();
    assert!(!text.contains("Broadcast") && !text.contains("VecMACS"), "{text}");
}

#[test]
fn costs_come_from_the_isa() {
    let m = ftm();
    let t = Target::new(&m, Elem::I32).unwrap();
    let c = IsaCost::new(&t);
    let bcast = t.find(isa_tablegen::SemOp::Broadcast, Some(crate::target::Opnd::V), &[crate::target::Opnd::S]).unwrap();
    assert_eq!(c.node(&VecLang::Broadcast(Id::from(0))), bcast.cost.max(bcast.busy) as f64);
    // A lane-by-lane build costs more than a broadcast and a load.
    let v = VecLang::Vec(vec![Id::from(0); t.lanes].into_boxed_slice());
    assert!(c.node(&v) > c.node(&VecLang::Broadcast(Id::from(0))) + c.node(&VecLang::VecLoad([Id::from(0), Id::from(0)])));
}

#[test]
fn float_multiply_add_needs_contraction() {
    let m = ftm();
    let t = Target::new(&m, Elem::F32).unwrap();
    let strict = rules::all(&t, FloatRules::default(), Families::default());
    assert!(!strict.iter().any(|r| r.name.starts_with("mac-fusion") || r.name.starts_with("assoc")));
    let fast = rules::all(&t, FloatRules { contract: true, reassociate: true }, Families { algebra: true, ..Families::default() });
    assert!(fast.iter().any(|r| r.name == "mac-fusion") && fast.iter().any(|r| r.name == "assoc-add"));
    // Strict floats still vectorize: lanes are multiplied and added in the source order.
    let cost = IsaCost::new(&t);
    let input = vec_mat(t.lanes);
    let (out, report) = optimize(&input, &strict, &cost, Limits::default(), ExtractOpts::default());
    assert!(report.cost_after < report.cost_before, "{report:?}");
    for seed in 0..3 {
        let inp = inputs(seed, t.lanes * t.lanes, Elem::F32);
        assert_eq!(eval(&input, Elem::F32, t.lanes, &inp), eval(&out, Elem::F32, t.lanes, &inp), "{out}");
    }
}

#[test]
fn limits_stop_saturation_and_the_best_so_far_is_used() {
    let m = ftm();
    let t = Target::new(&m, Elem::I32).unwrap();
    let cost = IsaCost::new(&t);
    let rules = rules::all(&t, FloatRules::default(), Families::default());
    let input = vec_mat(t.lanes);
    let tight = Limits { nodes: 2_000, iterations: 3, time: Duration::from_millis(1000) };
    let (out, report) = optimize(&input, &rules, &cost, tight, ExtractOpts { ilp_max_nodes: 0, ..ExtractOpts::default() });
    assert!(report.limit.is_some(), "{report:?}");
    assert!(report.cost_after <= report.cost_before);
    let inp = inputs(7, t.lanes * t.lanes, Elem::I32);
    assert_eq!(eval(&input, Elem::I32, t.lanes, &inp), eval(&out, Elem::I32, t.lanes, &inp));
    assert_eq!(Limits::parse("1000,5,20").unwrap(), Limits { nodes: 1000, iterations: 5, time: Duration::from_millis(20) });
    assert!(Limits::parse("1000,x,20").is_err() && Limits::parse("1,2").is_err());
}

#[test]
fn optimal_extraction_shares_nodes() {
    let m = ftm();
    let t = Target::new(&m, Elem::F32).unwrap();
    let cost = IsaCost::new(&t);
    let rules = rules::all(&t, FloatRules::default(), Families::default());
    // One row times a scalar keeps the e-graph small enough for the ILP.
    let input: RecExpr<VecLang> = {
        let mut e = RecExpr::default();
        let a = e.add(VecLang::Symbol("a".into()));
        let b = e.add(VecLang::Symbol("b".into()));
        let n = t.lanes;
        let mut lanes = Vec::new();
        for j in 0..n {
            let k0 = e.add(VecLang::Num(0));
            let kb = e.add(VecLang::Num(j as i64));
            let x = e.add(VecLang::Get([a, k0]));
            let y = e.add(VecLang::Get([b, kb]));
            lanes.push(e.add(VecLang::Mul([x, y])));
        }
        let v = e.add(VecLang::Vec(lanes.into_boxed_slice()));
        e.add(VecLang::List(vec![v].into_boxed_slice()));
        e
    };
    let (out, report) = optimize(&input, &rules, &cost, Limits::default(), ExtractOpts::default());
    assert!(matches!(report.extractor, crate::extract::Extracted::Optimal), "{report:?}");
    assert_eq!(out.to_string(), "(List (VecMulS (VecLoad b 0) (get a 0)))");
    assert_eq!(dag_cost(&cost, &out), report.cost_after);
}

/// The rule's two sides with each variable replaced by a leaf: a scalar
/// variable by an element of `a`, a vector one by a load from `b`.
fn instantiate(ast: &egg::PatternAst<VecLang>, vars: &[(String, Kind)], leaf: &HashMap<String, i64>) -> RecExpr<VecLang> {
    let mut e = RecExpr::default();
    let mut map: Vec<Id> = Vec::new();
    for n in ast.iter() {
        let id = match n {
            ENodeOrVar::Var(v) => {
                let name = v.to_string().trim_start_matches('?').to_string();
                let kind = vars.iter().find(|x| x.0 == name).map(|x| x.1).unwrap_or(Kind::Scalar);
                let i = e.add(VecLang::Num(leaf[&name]));
                let which = vars.iter().position(|x| x.0 == name).unwrap_or(0);
                match kind {
                    Kind::Scalar => {
                        let a = e.add(VecLang::Symbol(if which % 2 == 0 { "a" } else { "b" }.into()));
                        e.add(VecLang::Get([a, i]))
                    }
                    Kind::Vector => {
                        let b = e.add(VecLang::Symbol("b".into()));
                        e.add(VecLang::VecLoad([b, i]))
                    }
                }
            }
            ENodeOrVar::ENode(n) => {
                let n = n.clone();
                let n = egg::Language::map_children(n, |c| map[usize::from(c)]);
                e.add(n)
            }
        };
        map.push(id);
    }
    e
}

fn check_rules(elem: Elem, seed: u64, idx: &[i64]) {
    let m = ftm();
    let t = Target::new(&m, elem).unwrap();
    let floats = FloatRules { contract: true, reassociate: true };
    for r in rules::rules(&t, floats, Families { algebra: true, ..Families::default() }) {
        if !r.exact {
            continue;
        }
        let (Some(lhs), Some(rhs)) = (r.rewrite.searcher.get_pattern_ast(), r.rewrite.applier.get_pattern_ast()) else { continue };
        let leaf: HashMap<String, i64> = r.vars.iter().enumerate().map(|(k, v)| (v.0.clone(), idx[k % idx.len()] + k as i64)).collect();
        let (l, rr) = (instantiate(lhs, &r.vars, &leaf), instantiate(rhs, &r.vars, &leaf));
        let inp = inputs(seed as u32, 256, elem);
        let (a, b) = (eval(&l, elem, t.lanes, &inp), eval(&rr, elem, t.lanes, &inp));
        assert!(a.is_ok(), "{}: {a:?}", r.name);
        assert_eq!(a, b, "rule {} on {l} vs {rr}", r.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn every_exact_integer_rule_is_sound(seed in any::<u64>(), idx in proptest::collection::vec(0i64..200, 1..40)) {
        check_rules(Elem::I32, seed, &idx);
    }

    #[test]
    fn every_exact_float_rule_is_sound(seed in any::<u64>(), idx in proptest::collection::vec(0i64..200, 1..40)) {
        check_rules(Elem::F32, seed, &idx);
    }

    #[test]
    fn the_vector_load_rule_is_sound(start in 0i64..100, seed in any::<u32>()) {
        let m = ftm();
        let t = Target::new(&m, Elem::I32).unwrap();
        let mut e = RecExpr::default();
        let a = e.add(VecLang::Symbol("a".into()));
        let lanes: Vec<Id> = (0..t.lanes as i64).map(|k| {
            let i = e.add(VecLang::Num(start + k));
            e.add(VecLang::Get([a, i]))
        }).collect();
        let v = e.add(VecLang::Vec(lanes.into_boxed_slice()));
        e.add(VecLang::List(vec![v].into_boxed_slice()));
        let rules = rules::all(&t, FloatRules::default(), Families::default());
        let cost = IsaCost::new(&t);
        let (out, _) = optimize(&e, &rules, &cost, Limits::default(), ExtractOpts::default());
        prop_assert_eq!(out.to_string(), format!("(List (VecLoad a {start}))"));
        let inp = inputs(seed, 256, Elem::I32);
        prop_assert_eq!(eval(&e, Elem::I32, t.lanes, &inp), eval(&out, Elem::I32, t.lanes, &inp));
        let _ = Val::Num(0);
    }
}

/// A vector of elements `perm[k] + start` of `a`, through the rules for ftm.
fn permuted_window(start: i64, perm: &[i64]) -> (RecExpr<VecLang>, RecExpr<VecLang>, Target<'static>) {
    let m: &'static isa_tablegen::Machine = Box::leak(Box::new(ftm()));
    let t = Target::new(m, Elem::I32).unwrap();
    let mut e = RecExpr::default();
    let a = e.add(VecLang::Symbol("a".into()));
    let lanes: Vec<Id> = perm
        .iter()
        .map(|&k| {
            let i = e.add(VecLang::Num(start + k));
            e.add(VecLang::Get([a, i]))
        })
        .collect();
    let v = e.add(VecLang::Vec(lanes.into_boxed_slice()));
    e.add(VecLang::List(vec![v].into_boxed_slice()));
    let rules = rules::all(&t, FloatRules::default(), Families::default());
    let cost = IsaCost::new(&t);
    let (out, _) = optimize(&e, &rules, &cost, Limits::default(), ExtractOpts::default());
    (e, out, t)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Any permutation of one window of elements is one load and a shuffle
    /// (ftm's `vshuf` is cheaper than a vector built lane by lane), and
    /// means what the lanes meant.
    #[test]
    fn the_window_shuffle_rule_is_sound(start in 0i64..100, seed in any::<u32>(), swaps in proptest::collection::vec((0usize..16, 0usize..16), 1..20)) {
        let mut perm: Vec<i64> = (0..16).collect();
        for (x, y) in swaps {
            perm.swap(x, y);
        }
        prop_assume!(perm.iter().enumerate().any(|(k, &p)| p != k as i64));
        let (e, out, t) = permuted_window(start, &perm);
        let text = out.to_string();
        prop_assert!(text.starts_with(&format!("(List (Shuffle (VecLoad a {start})")), "{}", text);
        let inp = inputs(seed, 256, Elem::I32);
        prop_assert_eq!(eval(&e, Elem::I32, t.lanes, &inp), eval(&out, Elem::I32, t.lanes, &inp));
    }
}

#[test]
fn a_reversed_window_is_a_load_and_a_shuffle_and_a_sparse_one_is_not() {
    let rev: Vec<i64> = (0..16).rev().collect();
    let (_, out, _) = permuted_window(20, &rev);
    let idx: Vec<String> = rev.iter().map(|k| k.to_string()).collect();
    assert_eq!(out.to_string(), format!("(List (Shuffle (VecLoad a 20) {}))", idx.join(" ")));
    // Lanes spanning more than one window (every other element, repeated)
    // are not one load: the load would read elements no lane names.
    let sparse: Vec<i64> = (0..16).map(|k| (k / 2) * 2).collect();
    let (_, out, _) = permuted_window(0, &sparse);
    assert!(!out.to_string().contains("Shuffle"), "{out}");
}

#[test]
fn lanes_of_one_vector_are_a_shuffle_of_it() {
    let m = ftm();
    let t = Target::new(&m, Elem::I32).unwrap();
    let mut e = RecExpr::default();
    let a = e.add(VecLang::Symbol("a".into()));
    let zero = e.add(VecLang::Num(0));
    let v = e.add(VecLang::VecLoad([a, zero]));
    let lanes: Vec<Id> = (0..16i64)
        .map(|k| {
            let kk = e.add(VecLang::Num((k + 3) % 16));
            e.add(VecLang::Extract([v, kk]))
        })
        .collect();
    let w = e.add(VecLang::Vec(lanes.into_boxed_slice()));
    e.add(VecLang::List(vec![w].into_boxed_slice()));
    let rules = rules::all(&t, FloatRules::default(), Families::default());
    let cost = IsaCost::new(&t);
    let (out, _) = optimize(&e, &rules, &cost, Limits::default(), ExtractOpts::default());
    assert!(out.to_string().starts_with("(List (Shuffle (VecLoad a 0) 3 4 5"), "{out}");
    let inp = inputs(9, 64, Elem::I32);
    assert_eq!(eval(&e, Elem::I32, t.lanes, &inp), eval(&out, Elem::I32, t.lanes, &inp));
}

/// `s` continued by `lanes` products `a[k] * b[k]`, as a reduction loop
/// unrolled by the lane count lifts it.
fn running_sum(n: usize) -> RecExpr<VecLang> {
    let mut e = RecExpr::default();
    let sname = e.add(VecLang::Symbol("s".into()));
    let mut acc = e.add(VecLang::Arg(sname));
    let a = e.add(VecLang::Symbol("a".into()));
    let b = e.add(VecLang::Symbol("b".into()));
    for k in 0..n {
        let i = e.add(VecLang::Num(k as i64));
        let x = e.add(VecLang::Get([a, i]));
        let y = e.add(VecLang::Get([b, i]));
        let p = e.add(VecLang::Mul([x, y]));
        acc = e.add(VecLang::Add([acc, p]));
    }
    e.add(VecLang::List(vec![acc].into_boxed_slice()));
    e
}

#[test]
fn an_unrolled_strict_float_reduction_keeps_its_order() {
    let m = ftm();
    for elem in [Elem::I32, Elem::F32] {
        let t = Target::new(&m, elem).unwrap();
        let cost = IsaCost::new(&t);
        let rules = rules::all(&t, FloatRules::default(), Families::default());
        let input = running_sum(t.lanes);
        let (out, report) = optimize(&input, &rules, &cost, Limits::default(), ExtractOpts::default());
        let text = out.to_string();
        assert!(text.contains("ReduceAdd") && text.contains("(VecLoad a 0)"), "{elem:?} {report:?}\n{text}");
        assert!(report.cost_after * 3.0 < report.cost_before, "{report:?}");
        for seed in 0..4 {
            let mut inp = inputs(seed, 64, elem);
            inp.insert(Symbol::from("s"), vec![if elem == Elem::F32 { 1.5f32.to_bits() } else { 77 }]);
            assert_eq!(eval(&input, elem, t.lanes, &inp), eval(&out, elem, t.lanes, &inp), "{elem:?} {text}");
        }
    }
}

/// The extraction for large e-graphs (settling classes in increasing cost)
/// finds programs exactly as cheap as egg's `Extractor` (tree cost, each
/// use counted), on e-graphs the rules grow from seed 004's example for
/// integers and floats at several saturation depths.
#[test]
fn extraction_by_cost_is_as_cheap_as_eggs_extractor() {
    use egg::CostFunction;
    let m = ftm();
    for elem in [Elem::I32, Elem::F32] {
        let t = Target::new(&m, elem).unwrap();
        let cost = IsaCost::new(&t);
        let rules = rules::all(&t, FloatRules::default(), Families::default());
        let rewrites: Vec<&egg::Rewrite<VecLang, ()>> = rules.iter().map(|r| &r.rewrite).collect();
        for n in [2, 4, t.lanes] {
            for iters in [1, 2, 4, 8] {
                let mut egraph: egg::EGraph<VecLang, ()> = egg::EGraph::default();
                let root = egraph.add_expr(&vec_mat(n));
                let runner = egg::Runner::default().with_node_limit(20_000).with_iter_limit(iters).with_egraph(egraph).run(rewrites.iter().copied());
                let eg = &runner.egraph;
                let fast = crate::extract::greedy_by_cost(eg, root, &cost).expect("a program");
                let eggs = egg::Extractor::new(eg, cost.clone()).find_best(root).1;
                let (cf, ce) = (cost.clone().cost_rec(&fast), cost.clone().cost_rec(&eggs));
                assert!((cf - ce).abs() < 1e-9, "{elem:?} n={n} iterations={iters}: {cf} vs {ce}");
            }
        }
    }
}

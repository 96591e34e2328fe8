//! The rewrite rules (seed 004 §2.2, Fig. 6), as far as possible derived
//! from the `.isa`'s semantic vocabulary (Isaria's lesson): a rule that
//! introduces a DSL operation exists only when the machine has an
//! instruction doing it for the program's element type, so a new `.isa`
//! gets its rules without Rust changes.
//!
//! - Lane-wise lifting (Diospyros): `Vec` of the same scalar operation in
//!   every lane is that vector operation on the `Vec`s of the operands.
//! - Multiply-add fusion, when the machine has a vector `mac`: exact for
//!   integers; for floats only with contraction allowed (a fused
//!   multiply-add rounds once).
//! - Scalar–vector cooperation: `Vec(a, a, …, a)` is `Broadcast(a)`; a
//!   vector operation with a broadcast operand is the machine's form with a
//!   scalar register operand (`add`, `mul`, `mac` with one `r` argument);
//!   a left-to-right sum of the lanes of a `Vec` is `ReduceAdd` (the
//!   vocabulary's `reduce_add` sums in lane order, so this is exact for
//!   floats too); `Vec` of consecutive elements of one array is a vector load.
//! - Associativity and distributivity: integers only, floats only under
//!   fast math. No commutativity (seed 004: it only grows the e-graph),
//!   except that the scalar-operand forms accept the broadcast on either
//!   side of a multiplication.

use egg::{Applier, EGraph, Id, Pattern, PatternAst, Rewrite, Subst, Symbol, Var};
use isa_tablegen::SemOp;

use crate::lang::{Elem, VecLang};
use crate::target::{Opnd, Target};

/// What the pattern variables stand for (for the soundness tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    Vector,
}

/// A rule, where it comes from, and the kinds of its variables.
pub struct Rule {
    pub name: String,
    pub rewrite: Rewrite<VecLang, ()>,
    /// The instruction it was derived from (`None`: lane-wise lifting or algebra).
    pub from: Option<String>,
    pub vars: Vec<(String, Kind)>,
    /// Exact on every input (the soundness tests check it bit for bit);
    /// `false` for the float rules allowed only by fast math or contraction.
    pub exact: bool,
    /// When it runs (phased application, Isaria's lesson): 0 vectorizes
    /// (lifting, loads, broadcasts, scalar operands, fusion) in every phase;
    /// phase 1 adds the reductions, phase 2 (instead) the algebra that grows
    /// the e-graph fastest.
    pub phase: u8,
}

/// Which inexact float rewrites the user allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatRules {
    /// `-ffp-contract=fast`-like: `a * b + c` may become a fused multiply-add.
    pub contract: bool,
    /// `-ffast-math`/`-fassociative-math`: reassociation and distribution.
    pub reassociate: bool,
}

/// Which families of rules to use (the benchmark's configurations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Families {
    /// The scalar–vector cooperation rules (broadcast, scalar operands,
    /// reductions); off: a Diospyros-like rule set.
    pub cooperation: bool,
    /// Associativity and distributivity (integers; floats under fast
    /// math). Off by default: every way of bracketing a sum becomes a node,
    /// and lane-wise lifting then matches every combination of them across
    /// the lanes, which no time limit can interrupt within one search.
    pub algebra: bool,
}

impl Default for Families {
    fn default() -> Families {
        Families { cooperation: true, algebra: false }
    }
}

fn lanes_of(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| format!("?{prefix}{k}")).collect()
}

fn pattern(s: &str) -> Pattern<VecLang> {
    s.parse().unwrap_or_else(|e| panic!("internal: rule pattern '{s}': {e}"))
}

/// A rule from two pattern texts.
fn rule(name: &str, lhs: &str, rhs: &str, from: Option<&str>, vars: Vec<(String, Kind)>, exact: bool) -> Rule {
    let rewrite = Rewrite::new(name.to_string(), pattern(lhs), pattern(rhs)).unwrap_or_else(|e| panic!("internal: rule {name}: {e}"));
    let phase = if name.starts_with("reduce") {
        1
    } else if from.is_none() {
        2
    } else {
        0
    };
    Rule { name: name.into(), rewrite, from: from.map(String::from), vars, exact, phase }
}

fn kinds(names: &[String], k: Kind) -> Vec<(String, Kind)> {
    names.iter().map(|n| (n.trim_start_matches('?').to_string(), k)).collect()
}

/// The rules for `t`'s machine and element type.
pub fn rules(t: &Target, floats: FloatRules, fam: Families) -> Vec<Rule> {
    use Opnd::*;
    let n = t.lanes;
    let float = t.elem == Elem::F32;
    let mut out = Vec::new();
    let vv = |op: SemOp| t.find(op, Some(V), &[V, V]);
    // Lane-wise lifting of the binary and unary scalar operations.
    // (The bit operations exist for integers only: a float machine has none.)
    let lanewise = [("+", "VecAdd", SemOp::Add), ("-", "VecSub", SemOp::Sub), ("*", "VecMul", SemOp::Mul), ("&", "VecAnd", SemOp::And), ("|", "VecOr", SemOp::Or), ("^", "VecXor", SemOp::Xor)];
    for (sym, vop, sem) in lanewise.into_iter().filter(|&(s, _, _)| !float || matches!(s, "+" | "-" | "*")) {
        let Some(ins) = vv(sem) else { continue };
        let (a, b) = (lanes_of("a", n), lanes_of("b", n));
        let lhs = format!("(Vec {})", a.iter().zip(&b).map(|(x, y)| format!("({sym} {x} {y})")).collect::<Vec<_>>().join(" "));
        let rhs = format!("({vop} (Vec {}) (Vec {}))", a.join(" "), b.join(" "));
        let mut vars = kinds(&a, Kind::Scalar);
        vars.extend(kinds(&b, Kind::Scalar));
        out.push(rule(&format!("lift-{vop}"), &lhs, &rhs, Some(&ins.mnemonic), vars, true));
    }
    // Shifts (integers) by the same amount in every lane: the vector shift
    // by a scalar.
    if !float {
        let ops = crate::cost::bit_ops(t, V);
        for (k, (sym, vop)) in [("<<", "VecShlS"), (">>", "VecAShrS"), (">>>", "VecLShrS")].into_iter().enumerate() {
            let Some(ins) = ops[3 + k] else { continue };
            let a = lanes_of("a", n);
            let lhs = format!("(Vec {})", a.iter().map(|x| format!("({sym} {x} ?s)")).collect::<Vec<_>>().join(" "));
            let rhs = format!("({vop} (Vec {}) ?s)", a.join(" "));
            let mut vars = kinds(&a, Kind::Scalar);
            vars.push(("s".into(), Kind::Scalar));
            out.push(rule(&format!("lift-{vop}"), &lhs, &rhs, Some(&ins.mnemonic), vars, true));
        }
    }
    if let Some(ins) = t.find(SemOp::Neg, Some(V), &[V]) {
        let a = lanes_of("a", n);
        let lhs = format!("(Vec {})", a.iter().map(|x| format!("(neg {x})")).collect::<Vec<_>>().join(" "));
        out.push(rule("lift-VecNeg", &lhs, &format!("(VecNeg (Vec {}))", a.join(" ")), Some(&ins.mnemonic), kinds(&a, Kind::Scalar), true));
    }
    // A fused multiply-add in every lane is the vector one (exact: both fused).
    if let Some(ins) = t.find(SemOp::Mac, Some(V), &[V, V, V]) {
        let (a, b, c) = (lanes_of("a", n), lanes_of("b", n), lanes_of("c", n));
        let lhs = format!("(Vec {})", (0..n).map(|k| format!("(mac {} {} {})", a[k], b[k], c[k])).collect::<Vec<_>>().join(" "));
        let rhs = format!("(VecMAC (Vec {}) (Vec {}) (Vec {}))", a.join(" "), b.join(" "), c.join(" "));
        let mut vars = kinds(&a, Kind::Scalar);
        vars.extend(kinds(&b, Kind::Scalar));
        vars.extend(kinds(&c, Kind::Scalar));
        out.push(rule("lift-VecMAC", &lhs, &rhs, Some(&ins.mnemonic), vars, true));
    }
    // Multiply-add.
    if let Some(ins) = t.find(SemOp::Mac, Some(V), &[V, V, V]) {
        if !float || floats.contract {
            let vars = vec![("a".into(), Kind::Vector), ("b".into(), Kind::Vector), ("c".into(), Kind::Vector)];
            out.push(rule("mac-fusion", "(VecAdd (VecMul ?a ?b) ?c)", "(VecMAC ?a ?b ?c)", Some(&ins.mnemonic), vars.clone(), !float));
            out.push(rule("mac-fusion-left", "(VecAdd ?c (VecMul ?a ?b))", "(VecMAC ?a ?b ?c)", Some(&ins.mnemonic), vars, !float));
        }
    }
    if fam.cooperation {
        // Broadcast.
        if let Some(ins) = t.find(SemOp::Broadcast, Some(V), &[S]) {
            let lhs = format!("(Vec {})", vec!["?a"; n].join(" "));
            out.push(rule("broadcast", &lhs, "(Broadcast ?a)", Some(&ins.mnemonic), vec![("a".into(), Kind::Scalar)], true));
        }
        // Scalar operands.
        let vs = |op: SemOp| t.find(op, Some(V), &[V, S]);
        let sv = vec![("v".into(), Kind::Vector), ("s".into(), Kind::Scalar)];
        if let Some(ins) = vs(SemOp::Add) {
            out.push(rule("scalar-add", "(VecAdd ?v (Broadcast ?s))", "(VecAddS ?v ?s)", Some(&ins.mnemonic), sv.clone(), true));
            out.push(rule("scalar-add-left", "(VecAdd (Broadcast ?s) ?v)", "(VecAddS ?v ?s)", Some(&ins.mnemonic), sv.clone(), true));
        }
        if let Some(ins) = vs(SemOp::Mul) {
            out.push(rule("scalar-mul", "(VecMul ?v (Broadcast ?s))", "(VecMulS ?v ?s)", Some(&ins.mnemonic), sv.clone(), true));
            out.push(rule("scalar-mul-left", "(VecMul (Broadcast ?s) ?v)", "(VecMulS ?v ?s)", Some(&ins.mnemonic), sv.clone(), true));
        }
        if let Some(ins) = t.find(SemOp::Mac, Some(V), &[V, S, V]) {
            let mut vars = sv.clone();
            vars.push(("c".into(), Kind::Vector));
            out.push(rule("scalar-mac", "(VecMAC ?v (Broadcast ?s) ?c)", "(VecMACS ?v ?s ?c)", Some(&ins.mnemonic), vars.clone(), true));
            out.push(rule("scalar-mac-left", "(VecMAC (Broadcast ?s) ?v ?c)", "(VecMACS ?v ?s ?c)", Some(&ins.mnemonic), vars, true));
        }
        // Reductions: a left-to-right sum of lanes scalars.
        if let Some(ins) = t.find(SemOp::ReduceAdd, Some(S), &[V]) {
            let a = lanes_of("a", n);
            let mut lhs = a[0].clone();
            for x in &a[1..] {
                lhs = format!("(+ {lhs} {x})");
            }
            out.push(rule("reduce-add", &lhs, &format!("(ReduceAdd (Vec {}))", a.join(" ")), Some(&ins.mnemonic), kinds(&a, Kind::Scalar), true));
            // A running sum continued by `lanes` terms (a reduction loop
            // unrolled): lane 0 starts from the sum, the others from the
            // additive identity (-0.0 for floats: -0.0 + x is x for every x),
            // so the lane-order sum is exactly the source's order.
            let zero = if float { (0x8000_0000u32 as i64).to_string() } else { "0".into() };
            let mut lhs = format!("(+ ?s {})", a[0]);
            for x in &a[1..] {
                lhs = format!("(+ {lhs} {x})");
            }
            let rhs = format!("(ReduceAdd (VecAdd (Vec ?s {}) (Vec {})))", vec![zero.as_str(); n - 1].join(" "), a.join(" "));
            let mut vars = vec![("s".to_string(), Kind::Scalar)];
            vars.extend(kinds(&a, Kind::Scalar));
            out.push(rule("reduce-add-carried", &lhs, &rhs, Some(&ins.mnemonic), vars.clone(), true));
            // The same sum written with the running sum on the right of each
            // addition (`s = p + s`, as LLVM leaves many reductions): each
            // step is the left form's with its operands swapped, which
            // changes nothing (integer and IEEE addition commute).
            let mut lhs = format!("(+ {} ?s)", a[0]);
            for x in &a[1..] {
                lhs = format!("(+ {x} {lhs})");
            }
            out.push(rule("reduce-add-carried-right", &lhs, &rhs, Some(&ins.mnemonic), vars.clone(), true));
            // Integers: the running sum plus the sum of the lanes (exact on
            // wrapping integers; the lowering keeps such a sum in a vector
            // accumulator and reduces it once, after the loop).
            if !float {
                let int_rhs = format!("(+ ?s (ReduceAdd (Vec {})))", a.join(" "));
                let mut left = format!("(+ ?s {})", a[0]);
                for x in &a[1..] {
                    left = format!("(+ {left} {x})");
                }
                out.push(rule("reduce-add-carried-int", &left, &int_rhs, Some(&ins.mnemonic), vars.clone(), true));
                out.push(rule("reduce-add-carried-int-right", &lhs, &int_rhs, Some(&ins.mnemonic), vars, true));
            }
        }
        // One lane different: an insert into a broadcast.
        if let (Some(ins), true) = (t.find(SemOp::Insert, Some(V), &[V, S, S]), t.has(SemOp::Broadcast, Some(V), &[S])) {
            let lhs = format!("(Vec ?s {})", vec!["?c"; n - 1].join(" "));
            out.push(rule("insert-lane0", &lhs, "(Insert (Broadcast ?c) ?s 0)", Some(&ins.mnemonic), vec![("s".into(), Kind::Scalar), ("c".into(), Kind::Scalar)], true));
        }
    }
    // Algebra: exact on wrapping integers; floats only under fast math.
    if fam.algebra && (!float || floats.reassociate) {
        let abc = vec![("a".into(), Kind::Scalar), ("b".into(), Kind::Scalar), ("c".into(), Kind::Scalar)];
        out.push(rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)", None, abc.clone(), !float));
        out.push(rule("assoc-add-rev", "(+ (+ ?a ?b) ?c)", "(+ ?a (+ ?b ?c))", None, abc.clone(), !float));
        out.push(rule("assoc-mul", "(* ?a (* ?b ?c))", "(* (* ?a ?b) ?c)", None, abc.clone(), !float));
        out.push(rule("distribute", "(* ?a (+ ?b ?c))", "(+ (* ?a ?b) (* ?a ?c))", None, abc.clone(), !float));
        out.push(rule("factor", "(+ (* ?a ?b) (* ?a ?c))", "(* ?a (+ ?b ?c))", None, abc, !float));
    }
    out
}

/// The vector-load rule: `Vec` of elements `i, i+1, …` of one array is
/// `VecLoad(A, i)` when the machine has an (unaligned) vector load. Its
/// left side is not a pattern egg can state (consecutive constants), so it
/// is a searcher on `Vec` and an applier that checks the lanes.
pub fn load_rule(t: &Target, strided: &[Symbol]) -> Option<Rule> {
    let ins = t.find(SemOp::VLoadU, Some(Opnd::V), &[Opnd::S, Opnd::Imm]).or_else(|| t.find(SemOp::VLoad, Some(Opnd::V), &[Opnd::S, Opnd::Imm]))?;
    // Strided arrays need a strided load, or a gather.
    let strided_ok = t.has(SemOp::VLoadS, Some(Opnd::V), &[Opnd::S, Opnd::S]) || t.has(SemOp::Gather, Some(Opnd::V), &[Opnd::S, Opnd::V]);
    let strided = if strided_ok { strided.to_vec() } else { Vec::new() };
    let xs = lanes_of("x", t.lanes);
    let lhs = pattern(&format!("(Vec {})", xs.join(" ")));
    let vars: Vec<Var> = xs.iter().map(|x| x.parse().expect("a variable")).collect();
    let rewrite = Rewrite::new("vector-load", lhs, Consecutive { vars, strided }).expect("internal: the load rule");
    Some(Rule { name: "vector-load".into(), rewrite, from: Some(ins.mnemonic.clone()), vars: kinds(&xs, Kind::Scalar), exact: true, phase: 0 })
}

/// The applier of [`load_rule`].
struct Consecutive {
    vars: Vec<Var>,
    /// Arrays whose elements are a stride apart: `VecLoadS`.
    strided: Vec<Symbol>,
}

/// `(get A i)` in class `c`: the array and the index.
pub(crate) fn get_in(egraph: &EGraph<VecLang, ()>, c: Id) -> Vec<(Symbol, i64)> {
    let mut out = Vec::new();
    for n in &egraph[c].nodes {
        if let VecLang::Get([a, i]) = n {
            let name = egraph[*a].nodes.iter().find_map(|x| if let VecLang::Symbol(s) = x { Some(*s) } else { None });
            let idx = egraph[*i].nodes.iter().find_map(|x| if let VecLang::Num(k) = x { Some(*k) } else { None });
            if let (Some(s), Some(k)) = (name, idx) {
                out.push((s, k));
            }
        }
    }
    out
}

impl Applier<VecLang, ()> for Consecutive {
    fn apply_one(&self, egraph: &mut EGraph<VecLang, ()>, eclass: Id, subst: &Subst, _: Option<&PatternAst<VecLang>>, _: Symbol) -> Vec<Id> {
        let first = get_in(egraph, subst[self.vars[0]]);
        for (a, i) in first {
            let ok = self.vars.iter().enumerate().skip(1).all(|(k, &v)| get_in(egraph, subst[v]).contains(&(a, i + k as i64)));
            if ok {
                let an = egraph.add(VecLang::Symbol(a));
                let inum = egraph.add(VecLang::Num(i));
                let load = egraph.add(if self.strided.contains(&a) { VecLang::VecLoadS([an, inum]) } else { VecLang::VecLoad([an, inum]) });
                if egraph.union(eclass, load) {
                    return vec![load];
                }
                return vec![];
            }
        }
        vec![]
    }

    fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }
}

/// Every rule for `t` (the load and shuffle rules included).
pub fn all(t: &Target, floats: FloatRules, fam: Families) -> Vec<Rule> {
    all_with(t, floats, fam, &[])
}

/// Every rule for `t`, for a program whose arrays `strided` are strided.
pub fn all_with(t: &Target, floats: FloatRules, fam: Families, strided: &[Symbol]) -> Vec<Rule> {
    let mut r = rules(t, floats, fam);
    r.extend(load_rule(t, strided));
    r.extend(crate::shuffle::rules(t, strided));
    r
}

/// Whether a rule's left side matches anywhere in `egraph` (for reports).
pub fn matches(r: &Rule, egraph: &EGraph<VecLang, ()>) -> usize {
    r.rewrite.search(egraph).iter().map(|m| m.substs.len()).sum()
}

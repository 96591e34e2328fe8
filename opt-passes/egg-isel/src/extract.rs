//! Extraction: the cheapest program an e-graph holds.
//!
//! - Greedy bottom-up (egg's `Extractor`): each class's cheapest node by
//!   tree cost. Fast, but a value used twice counts twice, so it can miss a
//!   shared subterm (a broadcast reused by four multiply-adds). On e-graphs
//!   of more than [`LARGE_EGRAPH`] nodes the same costs are found by
//!   settling classes in increasing cost ([`greedy_by_cost`]): egg's
//!   repeated passes over every node grow with the depth at which costs
//!   keep falling.
//! - Optimal (an integer program solved by CBC through good_lp, for small
//!   e-graphs under a time cap): one node per used class, a chosen node's
//!   children used, an order on the classes that forbids cycles, and the sum
//!   of the chosen nodes' costs (each shared node once) minimal. At the cap
//!   CBC's best solution so far is used if it is one; else the greedy one.

use std::collections::HashMap;
use std::time::Duration;

use egg::{EGraph, Extractor, Id, Language, RecExpr};
use good_lp::{constraint, variable, Expression, ProblemVariables, Solution, SolverModel, Variable};

use crate::cost::IsaCost;
use crate::lang::VecLang;

/// Which extractor produced a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extracted {
    Greedy,
    /// The integer program's optimum.
    Optimal,
    /// The integer program's best solution at its time cap (better than greedy).
    OptimalCapped,
}

impl Extracted {
    pub fn name(self) -> &'static str {
        match self {
            Extracted::Greedy => "greedy",
            Extracted::Optimal => "optimal (ILP)",
            Extracted::OptimalCapped => "ILP at its time cap",
        }
    }
}

/// Past this many e-nodes the greedy extraction is [`greedy_by_cost`]:
/// egg's extractor repeats a pass over every node until no class gets
/// cheaper, and on a 171,776-node e-graph whose costs fell 17 times per
/// class that took 2.9 s, more than the saturation it follows.
pub const LARGE_EGRAPH: usize = 10_000;

/// The greedy extraction of `root`: egg's `Extractor`, or on e-graphs of
/// more than [`LARGE_EGRAPH`] nodes [`greedy_by_cost`] (the same cost; where
/// two programs tie, possibly the other one).
pub fn greedy(egraph: &EGraph<VecLang, ()>, root: Id, cost: &IsaCost) -> RecExpr<VecLang> {
    if egraph.total_number_of_nodes() > LARGE_EGRAPH {
        if let Some(e) = greedy_by_cost(egraph, root, cost) {
            return e;
        }
    }
    Extractor::new(egraph, cost.clone()).find_best(root).1
}

/// Each class's cheapest tree, found the way Dijkstra finds shortest paths
/// (Knuth's generalization to sums over children, "A generalization of
/// Dijkstra's algorithm", 1977): classes are settled in increasing cost, and
/// a node is priced once, when its last child is settled. A node's cost is
/// its own plus its children's, never less than any child's, which is what
/// the order needs. Of a class's equally cheap nodes the first in its list
/// is kept. `None` when `root` has no finite program.
pub fn greedy_by_cost(egraph: &EGraph<VecLang, ()>, root: Id, cost: &IsaCost) -> Option<RecExpr<VecLang>> {
    use egg::CostFunction;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let classes: Vec<&egg::EClass<VecLang, ()>> = egraph.classes().collect();
    let n = classes.len();
    let index: HashMap<Id, usize> = classes.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let at = |id: Id| index[&egraph.find(id)];
    // Distinct children per node, and the nodes that read each class.
    let kids: Vec<Vec<Vec<usize>>> = classes
        .iter()
        .map(|c| {
            c.iter()
                .map(|node| {
                    let mut k: Vec<usize> = node.children().iter().map(|&ch| at(ch)).collect();
                    k.sort_unstable();
                    k.dedup();
                    k
                })
                .collect()
        })
        .collect();
    let mut readers: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut waiting: Vec<Vec<usize>> = Vec::with_capacity(n);
    for (i, nodes) in kids.iter().enumerate() {
        waiting.push(nodes.iter().map(|k| k.len()).collect());
        for (k, ch) in nodes.iter().enumerate() {
            for &j in ch {
                readers[j].push((i, k));
            }
        }
    }
    let mut cf = cost.clone();
    let mut tentative: Vec<Option<(f64, usize)>> = vec![None; n];
    let mut settled: Vec<Option<(f64, usize)>> = vec![None; n];
    // Costs are finite and non-negative: their bits order like the numbers.
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut offer = |i: usize, k: usize, tentative: &mut Vec<Option<(f64, usize)>>, settled: &Vec<Option<(f64, usize)>>, heap: &mut BinaryHeap<Reverse<(u64, usize)>>| {
        let node = &classes[i].nodes[k];
        let c = cf.cost(node, |ch| settled[at(ch)].map_or(f64::INFINITY, |s| s.0));
        if !c.is_finite() || c < 0.0 {
            return;
        }
        if tentative[i].is_none_or(|(t, tk)| c < t || (c == t && k < tk)) {
            tentative[i] = Some((c, k));
            heap.push(Reverse((c.to_bits(), i)));
        }
    };
    for i in 0..n {
        for k in 0..kids[i].len() {
            if waiting[i][k] == 0 {
                offer(i, k, &mut tentative, &settled, &mut heap);
            }
        }
    }
    while let Some(Reverse((bits, i))) = heap.pop() {
        let Some((c, k)) = tentative[i] else { continue };
        if settled[i].is_some() || c.to_bits() != bits {
            continue;
        }
        settled[i] = Some((c, k));
        for r in 0..readers[i].len() {
            let (p, pk) = readers[i][r];
            waiting[p][pk] -= 1;
            if waiting[p][pk] == 0 && settled[p].is_none() {
                offer(p, pk, &mut tentative, &settled, &mut heap);
            }
        }
    }
    let node = |id: Id| settled[at(id)].map(|(_, k)| classes[at(id)].nodes[k].clone());
    let r = node(root)?;
    let mut missing = false;
    let e = r.build_recexpr(|id| {
        node(id).unwrap_or_else(|| {
            missing = true;
            r.clone()
        })
    });
    (!missing).then_some(e)
}

/// The integer program's extraction of `root`, or `None` (too large, no
/// solution in time, or the solver failed); with whether it is proven optimal.
pub fn optimal(egraph: &EGraph<VecLang, ()>, root: Id, cost: &IsaCost, cap: Duration, max_nodes: usize) -> Option<(RecExpr<VecLang>, bool)> {
    let root = egraph.find(root);
    let classes: Vec<Id> = egraph.classes().map(|c| c.id).collect();
    let nodes: usize = egraph.classes().map(|c| c.nodes.len()).sum();
    if nodes > max_nodes {
        return None;
    }
    let ci: HashMap<Id, usize> = classes.iter().enumerate().map(|(k, &c)| (c, k)).collect();
    let mut vars = ProblemVariables::new();
    let used: Vec<Variable> = classes.iter().map(|_| vars.add(variable().binary())).collect();
    let order: Vec<Variable> = classes.iter().map(|_| vars.add(variable().min(0.0).max(classes.len() as f64))).collect();
    // (class, node, variable) for every node of finite cost.
    let mut pick: Vec<(usize, VecLang, Variable)> = Vec::new();
    for (k, &c) in classes.iter().enumerate() {
        for n in &egraph[c].nodes {
            if cost.node(n).is_finite() {
                pick.push((k, n.clone(), vars.add(variable().binary())));
            }
        }
    }
    let mut objective = Expression::from(0.0);
    for (_, n, x) in &pick {
        objective += cost.node(n) * *x;
    }
    let mut model = vars.minimise(objective).using(good_lp::solvers::coin_cbc::coin_cbc);
    model.set_parameter("log", "0");
    model.set_parameter("seconds", &format!("{:.3}", cap.as_secs_f64()));
    model.set_parameter("threads", "1");
    model.add_constraint(constraint!(used[ci[&root]] == 1.0));
    let big = classes.len() as f64 + 1.0;
    for (k, _) in classes.iter().enumerate() {
        let mut sum = Expression::from(0.0);
        for (kk, _, x) in &pick {
            if *kk == k {
                sum += *x;
            }
        }
        model.add_constraint(constraint!(sum == used[k]));
    }
    for (k, n, x) in &pick {
        for child in n.children() {
            let d = ci[&egraph.find(*child)];
            model.add_constraint(constraint!(*x <= used[d]));
            // No cycles: a chosen node's class comes after its children's.
            model.add_constraint(constraint!(order[*k] - order[d] + big * (1.0 - *x) >= 1.0));
        }
    }
    let solution = model.solve().ok()?;
    let proven = matches!(solution.status(), good_lp::SolutionStatus::Optimal);
    // Rebuild the program from the chosen nodes.
    let chosen: HashMap<usize, VecLang> = pick.iter().filter(|(_, _, x)| solution.value(*x) > 0.5).map(|(k, n, _)| (*k, n.clone())).collect();
    let mut out = RecExpr::default();
    let mut made: HashMap<usize, Id> = HashMap::new();
    build(egraph, &ci, &chosen, ci[&root], &mut out, &mut made, 0)?;
    Some((out, proven))
}

fn build(
    egraph: &EGraph<VecLang, ()>,
    ci: &HashMap<Id, usize>,
    chosen: &HashMap<usize, VecLang>,
    k: usize,
    out: &mut RecExpr<VecLang>,
    made: &mut HashMap<usize, Id>,
    depth: usize,
) -> Option<Id> {
    if let Some(&id) = made.get(&k) {
        return Some(id);
    }
    if depth > ci.len() {
        return None; // a cycle: not a solution
    }
    let n = chosen.get(&k)?.clone();
    let mut failed = false;
    let node = n.map_children(|c| {
        let d = ci[&egraph.find(c)];
        build(egraph, ci, chosen, d, out, made, depth + 1).unwrap_or_else(|| {
            failed = true;
            c
        })
    });
    if failed {
        return None;
    }
    let id = out.add(node);
    made.insert(k, id);
    Some(id)
}

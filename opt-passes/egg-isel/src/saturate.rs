//! Bounded equality saturation (seed 004 §2.2, with Cranelift's lesson:
//! bounded rewriting inside a production compiler): the rules run until
//! the e-graph saturates or a node, iteration or time limit stops them, and
//! the best program found so far is extracted either way; the report says
//! which limit was hit, which rules fired, and the cost before and after.

use std::time::{Duration, Instant};

use egg::{RecExpr, Runner, StopReason};


use crate::cost::{dag_cost, IsaCost};
use crate::extract::{self, Extracted};
use crate::lang::VecLang;
use crate::rules::Rule;

/// The limits of one saturation (`--egg-limits=nodes,iterations,ms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub nodes: usize,
    pub iterations: usize,
    pub time: Duration,
}

impl Default for Limits {
    /// At most one second (issue 11); the node limit keeps memory well under 1 GiB.
    fn default() -> Limits {
        Limits { nodes: 200_000, iterations: 100, time: Duration::from_millis(1000) }
    }
}

impl Limits {
    /// Parses `nodes,iterations,ms`.
    pub fn parse(s: &str) -> Result<Limits, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [n, i, ms] = parts[..] else { return Err(format!("'{s}': expected NODES,ITERATIONS,MS")) };
        let num = |x: &str, what: &str| x.parse::<u64>().ok().filter(|&v| v > 0).ok_or_else(|| format!("'{s}': {what} '{x}' is not a positive number"));
        Ok(Limits { nodes: num(n, "node limit")? as usize, iterations: num(i, "iteration limit")? as usize, time: Duration::from_millis(num(ms, "time limit")?) })
    }
}

/// How extraction is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtractOpts {
    /// Try the optimal extractor on e-graphs of at most this many nodes (0: never).
    pub ilp_max_nodes: usize,
    /// Its time cap.
    pub ilp_cap: Duration,
}

impl Default for ExtractOpts {
    fn default() -> ExtractOpts {
        ExtractOpts { ilp_max_nodes: 2_000, ilp_cap: Duration::from_millis(500) }
    }
}

/// What one optimization did.
#[derive(Clone, Debug)]
pub struct Report {
    /// Cost (each distinct node once) of the input and of the result.
    pub cost_before: f64,
    pub cost_after: f64,
    /// Why saturation stopped; `None`: it saturated.
    pub limit: Option<String>,
    pub iterations: usize,
    pub nodes: usize,
    pub classes: usize,
    /// Rules that fired, with how many times.
    pub fired: Vec<(String, usize)>,
    pub extractor: Extracted,
    /// Time spent saturating, and in all.
    pub saturation: Duration,
    pub time: Duration,
}

/// Saturates `expr` with `rules` within `limits` and extracts the cheapest
/// program (never costlier than `expr`).
pub fn optimize(expr: &RecExpr<VecLang>, rules: &[Rule], cost: &IsaCost, limits: Limits, ex: ExtractOpts) -> (RecExpr<VecLang>, Report) {
    let start = Instant::now();
    // Phase by phase, each with what is left of the limits.
    let mut egraph: egg::EGraph<VecLang, ()> = egg::EGraph::default();
    let mut root = egraph.add_expr(expr);
    let mut limit = None;
    let mut iterations: Vec<egg::Iteration<()>> = Vec::new();
    let phases: Vec<u8> = {
        let mut p: Vec<u8> = rules.iter().map(|r| r.phase).collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    for &phase in &phases {
        // Each phase adds its own rules to the vectorizing ones: the deep
        // reduction patterns never search an e-graph the algebra has grown
        // (their e-matching explodes there, and a search cannot be stopped
        // half-way).
        let rewrites: Vec<&egg::Rewrite<VecLang, ()>> = rules.iter().filter(|r| r.phase == 0 || r.phase == phase).map(|r| &r.rewrite).collect();
        // Later phases get half of what is left: an iteration cannot be
        // stopped half-way, and the half kept back absorbs the last one.
        let left = limits.time.saturating_sub(start.elapsed());
        let left = if phase == phases[0] { left } else { left / 2 };
        let iters_left = limits.iterations.saturating_sub(iterations.len());
        if left.is_zero() || iters_left == 0 {
            break;
        }
        let runner = Runner::default()
            .with_node_limit(limits.nodes)
            .with_iter_limit(iters_left)
            .with_time_limit(left)
            .with_egraph(egraph)
            .run(rewrites);
        limit = match &runner.stop_reason {
            Some(StopReason::Saturated) | None => None,
            Some(StopReason::NodeLimit(n)) => Some(format!("node limit ({n})")),
            Some(StopReason::IterationLimit(_)) => Some(format!("iteration limit ({})", limits.iterations)),
            Some(StopReason::TimeLimit(_)) => Some(format!("time limit ({} ms)", limits.time.as_millis())),
            Some(StopReason::Other(s)) => Some(s.clone()),
        };
        iterations.extend(runner.iterations);
        egraph = runner.egraph;
        root = egraph.find(root);
        if limit.is_some() {
            break;
        }
    }
    let mut fired: Vec<(String, usize)> = Vec::new();
    for it in &iterations {
        for (name, n) in &it.applied {
            match fired.iter_mut().find(|f| f.0 == name.as_str()) {
                Some(f) => f.1 += n,
                None => fired.push((name.to_string(), *n)),
            }
        }
    }
    fired.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let saturation = start.elapsed();
    let mut best = extract::greedy(&egraph, root, cost);
    let mut how = Extracted::Greedy;
    if ex.ilp_max_nodes > 0 {
        if let Some((opt, proven)) = extract::optimal(&egraph, root, cost, ex.ilp_cap, ex.ilp_max_nodes) {
            if dag_cost(cost, &opt) < dag_cost(cost, &best) {
                best = opt;
                how = if proven { Extracted::Optimal } else { Extracted::OptimalCapped };
            } else if proven {
                how = Extracted::Optimal;
            }
        }
    }
    let before = dag_cost(cost, expr);
    if dag_cost(cost, &best) > before {
        best = expr.clone();
    }
    let report = Report {
        cost_before: before,
        cost_after: dag_cost(cost, &best),
        limit,
        iterations: iterations.len(),
        nodes: egraph.total_number_of_nodes(),
        classes: egraph.number_of_classes(),
        fired,
        extractor: how,
        saturation,
        time: start.elapsed(),
    };
    (best, report)
}

//! The node functions of seed 000 §4.1 that SMS orders and places by:
//! ASAP, ALAP, mobility (MOB = ALAP − ASAP), depth D and height H.
//!
//! As the seed says, they are computed on the graph without its
//! loop-carried edges (distance > 0), so the term `−distance·MII` of its
//! formulas is always zero here; `mii` is kept in the signature for that
//! term. Delays are the edges' own (the producer's latency for flow edges,
//! anything — zero or negative — for the others, §6.2):
//!
//! - ASAP_u = 0 without predecessors, else max over preds v (ASAP_v + delay(v,u));
//! - ALAP_u = max ASAP without successors, else min over succs v (ALAP_v − delay(u,v));
//! - D_u = 0 without predecessors, else max over preds v (D_v + delay(v,u));
//! - H_u = 0 without successors, else max over succs v (H_v + delay(u,v)).
//!
//! With zero and negative delays the distance-0 graph may still have
//! circuits (of non-positive delay); the functions are then the fixpoints of
//! these equations, found by Bellman-Ford-style relaxation. Nodes whose
//! every predecessor (successor) lies on such a circuit and that no
//! source (sink) reaches start from the base value, lowest index first.

use crate::graph::LoopGraph;

/// The node functions, indexed by node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeTimes {
    pub asap: Vec<i64>,
    pub alap: Vec<i64>,
    pub mob: Vec<i64>,
    pub depth: Vec<i64>,
    pub height: Vec<i64>,
}

/// ASAP, ALAP, MOB, D and H of every node (seed 000 §4.1).
pub fn node_times(g: &LoopGraph, mii: u32) -> NodeTimes {
    let n = g.nodes.len();
    // Edges within an iteration, as (from, to, weight).
    let fwd: Vec<(usize, usize, i64)> = g
        .edges
        .iter()
        .filter(|e| e.distance == 0 && e.from < n && e.to < n)
        .map(|e| (e.from, e.to, e.delay as i64 - e.distance as i64 * mii as i64))
        .collect();
    let rev: Vec<(usize, usize, i64)> = fwd.iter().map(|&(a, b, w)| (b, a, w)).collect();
    let asap = longest(n, &fwd, |_| 0);
    let depth = asap.clone();
    let height = longest(n, &rev, |_| 0);
    let max_asap = asap.iter().copied().max().unwrap_or(0);
    // ALAP is a shortest path backwards from the sinks: negate to reuse
    // `longest` on the reversed graph (−ALAP_u = max(−ALAP_v + delay)).
    let neg_alap = longest(n, &rev, |_| -max_asap);
    let alap: Vec<i64> = neg_alap.iter().map(|x| -x).collect();
    let mob = alap.iter().zip(&asap).map(|(l, s)| l - s).collect();
    NodeTimes { asap, alap, mob, depth, height }
}

/// `x_u = base(u)` for nodes without incoming edges, else max over incoming
/// edges (x_from + w): the greatest-path fixpoint.
fn longest(n: usize, edges: &[(usize, usize, i64)], base: impl Fn(usize) -> i64) -> Vec<i64> {
    const UNSET: i64 = i64::MIN;
    let mut has_in = vec![false; n];
    for &(_, b, _) in edges {
        has_in[b] = true;
    }
    let mut x: Vec<i64> = (0..n).map(|u| if has_in[u] { UNSET } else { base(u) }).collect();
    loop {
        relax(&mut x, edges, n);
        match x.iter().position(|&v| v == UNSET) {
            Some(u) => x[u] = base(u),
            None => return x,
        }
    }
}

/// Relaxes to the fixpoint, at most n + 1 rounds (a positive circuit of
/// distance 0, which [`crate::mii::rec_mii`] reports as an error, would not
/// converge).
fn relax(x: &mut [i64], edges: &[(usize, usize, i64)], n: usize) {
    for _ in 0..=n {
        let mut changed = false;
        for &(a, b, w) in edges {
            if x[a] == i64::MIN {
                continue;
            }
            let d = x[a].saturating_add(w);
            if x[b] == i64::MIN || d > x[b] {
                x[b] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{DepKind, Node};
    use isa_tablegen::InstrId;

    fn graph(n: usize, edges: &[(usize, usize, i32, u32)]) -> LoopGraph {
        let mut g = LoopGraph::new();
        for i in 0..n {
            g.add_node(Node { instr: InstrId(0), reads: vec![], writes: None, name: format!("n{i}"), pinned_row: None });
        }
        for &(a, b, d, k) in edges {
            g.add_edge(a, b, d, k, DepKind::Flow);
        }
        g
    }

    #[test]
    fn diamond() {
        // 0 -> 1 (2) -> 3 (1); 0 -> 2 (1) -> 3 (1); loop-carried 3 -> 0 ignored.
        let g = graph(4, &[(0, 1, 2, 0), (0, 2, 1, 0), (1, 3, 1, 0), (2, 3, 1, 0), (3, 0, 1, 1)]);
        let t = node_times(&g, 2);
        assert_eq!(t.asap, vec![0, 2, 1, 3]);
        assert_eq!(t.alap, vec![0, 2, 2, 3]);
        assert_eq!(t.mob, vec![0, 0, 1, 0]);
        assert_eq!(t.depth, vec![0, 2, 1, 3]);
        assert_eq!(t.height, vec![3, 1, 1, 0]);
    }

    #[test]
    fn zero_and_negative_delays() {
        // 0 -> 1 delay 0, 1 -> 0 delay -1 (a distance-0 circuit of weight -1),
        // 1 -> 2 delay 3.
        let g = graph(3, &[(0, 1, 0, 0), (1, 0, -1, 0), (1, 2, 3, 0)]);
        let t = node_times(&g, 1);
        assert_eq!(t.asap, vec![0, 0, 3]);
        assert_eq!(t.height, vec![3, 3, 0]);
        assert_eq!(t.alap, vec![0, 0, 3]);
        assert!(t.mob.iter().all(|&m| m >= 0));
    }
}

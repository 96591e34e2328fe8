//! The node functions of seed 000 §4.1 that SMS orders and places by:
//! ASAP, ALAP, mobility (MOB = ALAP − ASAP), depth D and height H.
//!
//! As the seed says, they are computed on the graph without its back edges
//! ("为了避免循环,执行这些计算都会把每个迭代的回边忽略掉"): the
//! loop-carried edges (distance > 0) that close a circuit, i.e. whose two
//! ends lie in one strongly connected component. A loop-carried edge between
//! two components (a value or address carried from one iteration into a
//! later one without a recurrence) closes no circuit and stays, weighted
//! `delay − distance·MII` as in the seed's formulas; without such edges this
//! is exactly the graph of the edges of distance 0. Delays are the edges'
//! own (zero or negative ones included, §6.2):
//!
//! - ASAP_u = 0 without predecessors, else max over preds v (ASAP_v + w(v,u));
//! - ALAP_u = max ASAP without successors, else min over succs v (ALAP_v − w(u,v));
//! - D_u = 0 without predecessors, else max over preds v (D_v + w(v,u));
//! - H_u = 0 without successors, else max over succs v (H_v + w(u,v));
//!
//! with `w = delay − distance·MII`, every value clamped to its base (ASAP,
//! D, H ≥ 0, ALAP ≤ max ASAP) as LLVM's `computeNodeFunctions` does: the
//! same as the seed's formulas when delays are positive, and well defined
//! when negative weights would pull a value below its base. With zero and
//! negative delays the remaining graph may still have circuits (of
//! non-positive delay, distance 0); the functions are then the fixpoints of
//! these equations, found by Bellman-Ford-style relaxation.
//! [`acyclic_edges`] is the same edge set for the ordering's sweeps.

use crate::graph::{LoopGraph, NodeId};

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
    let fwd: Vec<(usize, usize, i64)> = acyclic_edges(g)
        .into_iter()
        .map(|i| {
            let e = &g.edges[i];
            (e.from, e.to, e.delay as i64 - e.distance as i64 * mii as i64)
        })
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

/// Indices of the edges that are not back edges: every edge of distance 0
/// and every loop-carried edge between two strongly connected components.
pub fn acyclic_edges(g: &LoopGraph) -> Vec<usize> {
    let n = g.nodes.len();
    let mut comp = vec![usize::MAX; n];
    for (c, members) in sccs(g).iter().enumerate() {
        for &v in members {
            comp[v] = c;
        }
    }
    (0..g.edges.len())
        .filter(|&i| {
            let e = &g.edges[i];
            e.from < n && e.to < n && (e.distance == 0 || comp[e.from] != comp[e.to])
        })
        .collect()
}

/// Strongly connected components over all edges (Tarjan, iterative), each
/// sorted, in order of their smallest node.
pub fn sccs(g: &LoopGraph) -> Vec<Vec<NodeId>> {
    let n = g.nodes.len();
    let mut succ: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for e in &g.edges {
        if e.from < n && e.to < n {
            succ[e.from].push(e.to);
        }
    }
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, position in its successor list)
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if *pos < succ[v].len() {
                let w = succ[v][*pos];
                *pos += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(p, _)) = work.last() {
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    out.push(comp);
                }
            }
        }
    }
    out.sort_by_key(|c| c[0]);
    out
}

/// `x_u = max(base(u), max over incoming edges (x_from + w))`: the
/// greatest-path fixpoint, every value at least its base.
fn longest(n: usize, edges: &[(usize, usize, i64)], base: impl Fn(usize) -> i64) -> Vec<i64> {
    let mut x: Vec<i64> = (0..n).map(base).collect();
    // At most n + 1 rounds: a positive circuit of distance 0, which
    // [`crate::mii::rec_mii`] reports as an error, would not converge.
    for _ in 0..=n {
        let mut changed = false;
        for &(a, b, w) in edges {
            let d = x[a].saturating_add(w);
            if d > x[b] {
                x[b] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    x
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
    fn loop_carried_edges_between_components_stay() {
        // 0 -> 0 <1,1> (a recurrence: its back edge goes), 0 -> 1 <1,1>
        // (carried into the next iteration, no circuit: stays, 1 − 1·MII),
        // 1 -> 2 <3,0>.
        let g = graph(3, &[(0, 0, 1, 1), (0, 1, 1, 1), (1, 2, 3, 0)]);
        assert_eq!(acyclic_edges(&g), vec![1, 2]);
        let t = node_times(&g, 3);
        assert_eq!(t.asap, vec![0, 0, 3]);
        assert_eq!(t.height, vec![1, 3, 0]);
        assert_eq!(t.alap, vec![2, 0, 3]);
        assert_eq!(sccs(&g), vec![vec![0], vec![1], vec![2]]);
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

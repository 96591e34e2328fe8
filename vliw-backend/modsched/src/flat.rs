//! The period of a loop left unpipelined (our addition; the pipeliner's
//! profitability test, in the spirit of GCC's SMS, which gives up on a loop
//! whose II would not beat its list schedule): one iteration list-scheduled
//! alone — every node in a topological order at the first cycle its
//! same-iteration predecessors and the `.isa`'s resources allow, in a
//! reservation table too long to wrap — and the loop-carried edges then
//! decide how soon the next iteration may start. A modulo schedule runs an
//! iteration every II ≥ MII cycles; when this period is already no more
//! than MII, software pipelining cannot make the loop faster, only larger.

use isa_tablegen::Machine;

use crate::analysis::{acyclic_edges, node_times};
use crate::graph::LoopGraph;
use crate::mrt::Mrt;
use crate::sms::topological_order;

/// Cycles per iteration of the loop run without overlap: the issue length
/// of one iteration list-scheduled alone, or more where a loop-carried
/// edge needs it. None when the graph has no such schedule within its
/// table (zero- or negative-delay circuits within an iteration, or an
/// operation no cycle takes).
pub fn period(m: &Machine, g: &LoopGraph) -> Option<u32> {
    let n = g.nodes.len();
    if n == 0 {
        return Some(0);
    }
    // Long enough for every node one after another, with every busy cycle.
    let horizon: u64 = g
        .nodes
        .iter()
        .map(|nd| {
            let i = m.instr(nd.instr);
            u64::from(i.latency.max(1)) + u64::from(i.busy.max(1))
        })
        .sum::<u64>()
        + g.edges.iter().map(|e| e.delay.max(0) as u64).sum::<u64>()
        + 1;
    let horizon = u32::try_from(horizon).ok()?;
    let times = node_times(g, 1);
    let order = topological_order(g, &times);
    let inner: Vec<usize> = acyclic_edges(g).into_iter().filter(|&i| g.edges[i].distance == 0).collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &i in &inner {
        preds[g.edges[i].to].push(i);
    }
    let mut t: Vec<Option<i64>> = vec![None; n];
    let mut mrt = Mrt::new(m, g, horizon);
    for &v in &order {
        let earliest = preds[v]
            .iter()
            .filter_map(|&i| t[g.edges[i].from].map(|tu| tu + i64::from(g.edges[i].delay)))
            .max()
            .unwrap_or(0)
            .max(0);
        let at = (earliest..i64::from(horizon)).find(|&c| mrt.fits(v, c as u32))?;
        mrt.place(v, at as u32);
        t[v] = Some(at);
    }
    let t: Vec<i64> = t.into_iter().collect::<Option<_>>()?;
    // Every same-iteration edge must hold (an order that entered a circuit
    // could break one): otherwise there is no estimate.
    if g.edges.iter().any(|e| e.distance == 0 && t[e.to] < t[e.from] + i64::from(e.delay)) {
        return None;
    }
    let mut period = t.iter().copied().max().unwrap_or(0) + 1;
    for e in g.edges.iter().filter(|e| e.distance > 0) {
        // t_next(v) = t(v) + distance·period ≥ t(u) + delay.
        let need = (t[e.from] + i64::from(e.delay) - t[e.to] + i64::from(e.distance) - 1) / i64::from(e.distance);
        period = period.max(need);
    }
    u32::try_from(period).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{DepKind, Node};
    use crate::test_machines::tiny;

    fn node(m: &Machine, mnemonic: &str, i: usize) -> Node {
        let r = m.regfile_by_name("r").unwrap();
        Node {
            instr: m.instr_by_mnemonic(mnemonic).unwrap(),
            reads: vec![],
            writes: Some(r),
            name: format!("n{i}"),
            pinned_row: None,
        }
    }

    /// A chain of three adds: one after another (latency 1 each), and a
    /// carried edge from the last to the first that adds nothing.
    #[test]
    fn a_chain_takes_its_length() {
        let m = tiny();
        let mut g = LoopGraph::new();
        for i in 0..3 {
            g.add_node(node(&m, "add", i));
        }
        g.add_edge(0, 1, 1, 0, DepKind::Flow);
        g.add_edge(1, 2, 1, 0, DepKind::Flow);
        g.add_edge(2, 0, 1, 1, DepKind::Flow);
        assert_eq!(period(&m, &g), Some(3));
    }

    /// A carried edge longer than the iteration sets the period.
    #[test]
    fn a_long_carried_edge_sets_the_period() {
        let m = tiny();
        let mut g = LoopGraph::new();
        for i in 0..2 {
            g.add_node(node(&m, "add", i));
        }
        g.add_edge(0, 1, 1, 0, DepKind::Flow);
        g.add_edge(1, 0, 7, 1, DepKind::Flow);
        assert_eq!(period(&m, &g), Some(8));
    }
}

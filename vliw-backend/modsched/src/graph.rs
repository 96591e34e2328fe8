//! The loop dependence graph a modulo scheduler works on (seed 000 §4.1):
//! one node per operation of the loop body, edges `u → v` annotated
//! ⟨delay, distance⟩ meaning "v of iteration i+distance issues at least
//! `delay` cycles after u of iteration i": `t(v) + distance·II ≥ t(u) + delay`.
//!
//! Delays may be zero or negative (seed 000 §6.2): zero for a write after a
//! read in one bundle, negative for constraints such as "no earlier than one
//! II before". Nodes carry what the modulo reservation table needs to know
//! about their resources (their `.isa` instruction, register-file reads and
//! the file their result lands in); latencies and busy cycles come from the
//! `.isa` through the instruction, never from the graph's builder.

use isa_tablegen::{InstrId, Machine, RegFileId};

/// Index of a node in [`LoopGraph::nodes`].
pub type NodeId = usize;

/// What kind of dependence an edge stands for (for reports and tests; the
/// schedulers only look at delay and distance).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepKind {
    /// Read after write of a register.
    Flow,
    /// Write after read of a register.
    Anti,
    /// Write after write of a register.
    Output,
    /// Two memory accesses that may touch the same bytes (at least one a store).
    Memory,
    /// Loop control: the counter, its test and the loop branch.
    Control,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    /// Cycles from the issue of `from` to the earliest issue of `to` in the
    /// same iteration (may be ≤ 0).
    pub delay: i32,
    /// Iterations between them (0: same iteration).
    pub distance: u32,
    pub kind: DepKind,
}

/// One operation of the loop body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The `.isa` instruction: units, slots, latency and busy cycles.
    pub instr: InstrId,
    /// Registers read per register file (for the read ports), not counting
    /// registers with fixed values.
    pub reads: Vec<(RegFileId, u32)>,
    /// The file the result lands in, if any (for the write ports, and for
    /// register pressure: MaxLive counts values per file).
    pub writes: Option<RegFileId>,
    /// A name for reports and tests (`n12`, `ld r3`, ...).
    pub name: String,
    /// Where the operation must issue modulo II, if anywhere: the loop
    /// branch is pinned so that its delay slots close the kernel.
    pub pinned_row: Option<PinnedRow>,
}

/// A fixed position modulo II, counted back from the end of the kernel:
/// `from_end = k` means row `(II - 1 - k) mod II` (the loop branch with `k`
/// delay slots: the kernel, unrolled to at least `k + 1` cycles, ends with
/// the branch's delay slots). Every II has such a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PinnedRow {
    pub from_end: u32,
}

impl PinnedRow {
    /// The row for a given II (always `Some`; kept an Option for callers
    /// written against an earlier version).
    pub fn row(&self, ii: u32) -> Option<u32> {
        let ii = ii.max(1);
        Some(ii - 1 - self.from_end % ii)
    }
}

/// A loop body's dependence graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopGraph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

impl LoopGraph {
    pub fn new() -> LoopGraph {
        LoopGraph::default()
    }

    pub fn add_node(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    pub fn add_edge(&mut self, from: NodeId, to: NodeId, delay: i32, distance: u32, kind: DepKind) {
        self.edges.push(Edge { from, to, delay, distance, kind });
    }

    /// A flow edge with the producer's `.isa` latency as its delay.
    pub fn add_flow(&mut self, m: &Machine, from: NodeId, to: NodeId, distance: u32) {
        let delay = m.instr(self.nodes[from].instr).latency as i32;
        self.add_edge(from, to, delay, distance, DepKind::Flow);
    }

    /// Latency of a node's result (from the `.isa`).
    pub fn latency(&self, m: &Machine, n: NodeId) -> u32 {
        m.instr(self.nodes[n].instr).latency
    }

    /// Cycles a node keeps its unit (1 = fully pipelined).
    pub fn busy(&self, m: &Machine, n: NodeId) -> u32 {
        m.instr(self.nodes[n].instr).busy.max(1)
    }

    /// Indices of the edges leaving / entering each node.
    pub fn adjacency(&self) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let mut succ = vec![Vec::new(); self.nodes.len()];
        let mut pred = vec![Vec::new(); self.nodes.len()];
        for (i, e) in self.edges.iter().enumerate() {
            succ[e.from].push(i);
            pred[e.to].push(i);
        }
        (succ, pred)
    }
}

//! Swing Modulo Scheduling's node ordering (seed 000 §4.2 and its Fig. 7,
//! the published algorithm of Llosa et al., "Swing Modulo Scheduling: A
//! Lifetime-Sensitive Approach", PACT'96), with the production changes of
//! §6.2.
//!
//! **Partial order.** A node pinned to a row (the loop branch, whose
//! delay slots close the kernel) forms the first set, alone: it has one
//! row at every II, so it goes before anything can take that row (our
//! addition, in the spirit of §6.2's sets for chains on a unique resource).
//! Recurrences are the elementary circuits of the graph
//! (Johnson's algorithm, capped; an SCC with more circuits than the cap is
//! taken as one recurrence), each with its RecMII `⌈delay/distance⌉`;
//! circuits of equal RecMII that share a node form one recurrence (as LLVM's
//! `fuseRecs`; seed 000's Fig. 8 set {A, C, D, F} is two 3-node circuits).
//! Recurrences of RecMII 0 do not constrain II and are not sets. By
//! decreasing RecMII, each recurrence gives a set: its nodes not already in
//! a set, plus the nodes on paths between the earlier sets and it (over the
//! same edges as the sweeps, below). The remaining nodes form one set per
//! connected component of the graph, components that touch earlier sets
//! first.
//!
//! **Ordering** (Fig. 7): per set `S`, if `Pred_L(O) ∩ S` is not empty the
//! sweep starts bottom-up from it, else if `Succ_L(O) ∩ S` is not empty
//! top-down from it, else bottom-up from the node of `S` with the highest
//! ASAP. A top-down sweep repeatedly takes the node of `R` with the highest
//! height (ties: lowest mobility) and adds its successors in `S`; a
//! bottom-up sweep takes the highest depth (ties: lowest mobility) and adds
//! its predecessors; when `R` runs dry the direction swings and `R` becomes
//! `Pred_L(O) ∩ S` or `Succ_L(O) ∩ S`. Successors and predecessors are over
//! the graph without its back edges, as the seed says
//! ([`crate::analysis::acyclic_edges`]: loop-carried edges that close a
//! circuit are ignored, loop-carried edges between components are kept, so
//! that a node fed by another iteration's value is still ordered next to
//! its producer). If a set still has unordered nodes when both are empty (a
//! recurrence whose distance-0 edges fall apart), the set starts again with
//! its remaining nodes.
//!
//! **§6.2 changes.** (1) Zero and negative delays: among candidates of
//! equal height (depth), the graph structure decides — the node with the
//! longest chain of delay-≤0 edges (distance 0) below it in a top-down
//! sweep (above it, bottom-up) goes first, so a node is not taken before a
//! predecessor (successor) that ties with it (as LLVM's zero-latency
//! height and depth). (2) Resource-aware choice among still-equal candidates
//! (and for the starting node): the node whose resources are scarcer first —
//! non-pipelined (more busy cycles), higher utilisation of its units, fewer
//! alternative units, heavier use of read/write ports — then the lowest
//! index. (3) The symmetric start (top-down first: `Succ_L` before `Pred_L`,
//! else the node with the lowest ALAP, top-down), used by
//! [`crate::sms::schedule`] as a second attempt.

use std::cmp::Ordering as Cmp;
use std::collections::BTreeSet;

use isa_tablegen::Machine;

use crate::analysis::{acyclic_edges, sccs, NodeTimes};
use crate::graph::{LoopGraph, NodeId};
use crate::mii;

/// Largest number of elementary circuits enumerated per strongly connected
/// component before the component is taken as one recurrence…
pub const MAX_CIRCUITS: usize = 4096;
/// …and the most edges the enumeration may follow for one component (a
/// component rich in circuits can take far longer to search than its
/// circuits number; past this it is one recurrence too).
pub const MAX_CIRCUIT_STEPS: usize = 1_000_000;

/// A recurrence: the nodes of one or more circuits of equal RecMII.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recurrence {
    pub nodes: Vec<NodeId>,
    pub rec_mii: u32,
}

/// One set of the partial order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSet {
    /// Sorted node ids.
    pub nodes: Vec<NodeId>,
    /// RecMII of its recurrence; None for a set of remaining nodes (or of
    /// a pinned node).
    pub rec_mii: Option<u32>,
    /// A set of one node pinned to a row (see [`partial_order`]).
    pub pinned: bool,
}

/// The ordering's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ordering {
    pub sets: Vec<NodeSet>,
    pub order: Vec<NodeId>,
}

/// Sweep direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    TopDown,
    BottomUp,
}

/// The partial order and the node order (`symmetric`: §6.2's top-down-first
/// variant).
pub fn compute(m: &Machine, g: &LoopGraph, times: &NodeTimes, symmetric: bool) -> Ordering {
    let recs = recurrences(g);
    let sets = partial_order(g, &recs);
    let order = order_nodes(m, g, times, &sets, symmetric);
    Ordering { sets, order }
}

// ---------------------------------------------------------------------------
// Recurrences.

/// RecMII of the sub-graph made of `nodes` and the edges among them that
/// `keep` accepts (0 if acyclic or on error).
fn sub_rec_mii(g: &LoopGraph, nodes: &[NodeId], keep: impl Fn(usize, usize) -> bool) -> u32 {
    let mut pos = vec![usize::MAX; g.nodes.len()];
    let mut sub = LoopGraph::new();
    for (i, &v) in nodes.iter().enumerate() {
        pos[v] = i;
        sub.add_node(g.nodes[v].clone());
    }
    for e in &g.edges {
        if pos[e.from] != usize::MAX && pos[e.to] != usize::MAX && keep(e.from, e.to) {
            sub.add_edge(pos[e.from], pos[e.to], e.delay, e.distance, e.kind);
        }
    }
    positive_rec_mii(&sub)
}

/// The RecMII of one elementary circuit, given the edges (delay,
/// distance) from each of its nodes to the next: what [`sub_rec_mii`] finds
/// on the subgraph of those edges, whose only cycle is the circuit (one
/// edge per step), so that a cycle is positive at II exactly when the sum
/// over the steps of each step's best `delay − II·distance` is. That sum
/// costs one look at the circuit's edges per II tried, where Bellman–Ford
/// cost the circuit's length times that (thousands of circuits of a
/// 100-node loop took 5 s).
fn ring_rec_mii(ring: &[&[(i64, i64)]]) -> u32 {
    if ring.iter().any(|step| step.is_empty()) {
        return 0;
    }
    let positive = |ii: i64| -> bool {
        ring.iter().map(|step| step.iter().map(|&(d, dist)| d - ii * dist).max().unwrap_or(i64::MIN / 4)).sum::<i64>() > 0
    };
    if !positive(0) {
        return 0;
    }
    let mut lo = 0i64;
    let mut hi: i64 = ring.iter().flat_map(|step| step.iter()).map(|&(d, _)| d.max(0)).sum::<i64>() + 1;
    if positive(hi) {
        return 0;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if positive(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi.min(u32::MAX as i64) as u32
}

fn positive_rec_mii(g: &LoopGraph) -> u32 {
    if mii::positive_cycle(g, 0).is_none() {
        return 0;
    }
    let mut lo = 0i64;
    let mut hi: i64 = g.edges.iter().map(|e| e.delay.max(0) as i64).sum::<i64>() + 1;
    if mii::positive_cycle(g, hi).is_some() {
        return 0;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mii::positive_cycle(g, mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi.min(u32::MAX as i64) as u32
}

/// Elementary circuits of one SCC (node lists), or None past the cap.
fn circuits_of(g: &LoopGraph, comp: &[NodeId]) -> Option<Vec<Vec<NodeId>>> {
    let n = g.nodes.len();
    let mut in_comp = vec![false; n];
    for &v in comp {
        in_comp[v] = true;
    }
    // Adjacency inside the component, without duplicates.
    let mut adj: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for e in &g.edges {
        if in_comp[e.from] && in_comp[e.to] && !adj[e.from].contains(&e.to) {
            adj[e.from].push(e.to);
        }
    }
    for a in adj.iter_mut() {
        a.sort_unstable();
    }
    let mut out = Vec::new();
    let mut blocked = vec![false; n];
    let mut bset: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    let mut stack = Vec::new();
    let mut steps = 0usize;
    for &s in comp {
        for &v in comp {
            blocked[v] = false;
            bset[v].clear();
        }
        let mut search = Search { adj: &adj, blocked: &mut blocked, bset: &mut bset, stack: &mut stack, out: &mut out, steps: &mut steps };
        search.johnson(s, s);
        if out.len() > MAX_CIRCUITS || steps > MAX_CIRCUIT_STEPS {
            return None;
        }
    }
    Some(out)
}

/// The state of Johnson's circuit search from one start node.
struct Search<'a> {
    adj: &'a [Vec<NodeId>],
    blocked: &'a mut [bool],
    bset: &'a mut [Vec<NodeId>],
    stack: &'a mut Vec<NodeId>,
    out: &'a mut Vec<Vec<NodeId>>,
    /// Edges followed so far (bounded by [`MAX_CIRCUIT_STEPS`]).
    steps: &'a mut usize,
}

impl Search<'_> {
    fn johnson(&mut self, v: NodeId, s: NodeId) -> bool {
        let mut found = false;
        self.stack.push(v);
        self.blocked[v] = true;
        for &w in &self.adj[v] {
            *self.steps += 1;
            if self.out.len() > MAX_CIRCUITS || *self.steps > MAX_CIRCUIT_STEPS {
                break;
            }
            if w < s {
                continue;
            }
            if w == s {
                self.out.push(self.stack.clone());
                found = true;
            } else if !self.blocked[w] && self.johnson(w, s) {
                found = true;
            }
        }
        if found {
            unblock(v, self.blocked, self.bset);
        } else {
            for &w in &self.adj[v] {
                if w >= s && !self.bset[w].contains(&v) {
                    self.bset[w].push(v);
                }
            }
        }
        self.stack.pop();
        found
    }
}

fn unblock(u: NodeId, blocked: &mut [bool], bset: &mut [Vec<NodeId>]) {
    let mut work = vec![u];
    while let Some(x) = work.pop() {
        if !blocked[x] {
            continue;
        }
        blocked[x] = false;
        work.extend(std::mem::take(&mut bset[x]));
    }
}

/// The recurrences of a graph by decreasing RecMII (ties: more nodes first,
/// then smallest node).
pub fn recurrences(g: &LoopGraph) -> Vec<Recurrence> {
    let mut found: Vec<Recurrence> = Vec::new();
    // The edges between each ordered pair of nodes: a circuit's own edges.
    let mut between: std::collections::HashMap<(NodeId, NodeId), Vec<(i64, i64)>> = std::collections::HashMap::new();
    for e in &g.edges {
        between.entry((e.from, e.to)).or_default().push((e.delay as i64, e.distance as i64));
    }
    for comp in sccs(g) {
        let self_loop = comp.len() == 1 && g.edges.iter().any(|e| e.from == comp[0] && e.to == comp[0]);
        if comp.len() == 1 && !self_loop {
            continue;
        }
        match circuits_of(g, &comp) {
            Some(circuits) => {
                for c in circuits {
                    // Only the circuit's own edges (consecutive nodes).
                    let k = c.len();
                    let ring: Vec<&[(i64, i64)]> =
                        (0..k).map(|i| between.get(&(c[i], c[(i + 1) % k])).map_or(&[][..], |v| v.as_slice())).collect();
                    let r = ring_rec_mii(&ring);
                    if r > 0 {
                        let mut nodes = c;
                        nodes.sort_unstable();
                        found.push(Recurrence { nodes, rec_mii: r });
                    }
                }
            }
            None => {
                let r = sub_rec_mii(g, &comp, |_, _| true);
                if r > 0 {
                    found.push(Recurrence { nodes: comp, rec_mii: r });
                }
            }
        }
    }
    // Fuse circuits of equal RecMII that share a node.
    found.sort_by(|a, b| b.rec_mii.cmp(&a.rec_mii).then(a.nodes.cmp(&b.nodes)));
    let mut fused: Vec<Recurrence> = Vec::new();
    for r in found {
        let mut merged: Recurrence = r;
        loop {
            let hit = fused
                .iter()
                .position(|f| f.rec_mii == merged.rec_mii && f.nodes.iter().any(|v| merged.nodes.contains(v)));
            match hit {
                Some(i) => {
                    let f = fused.remove(i);
                    let set: BTreeSet<NodeId> = f.nodes.into_iter().chain(merged.nodes).collect();
                    merged.nodes = set.into_iter().collect();
                }
                None => break,
            }
        }
        fused.push(merged);
    }
    fused.sort_by(|a, b| {
        b.rec_mii.cmp(&a.rec_mii).then(b.nodes.len().cmp(&a.nodes.len())).then(a.nodes[0].cmp(&b.nodes[0]))
    });
    fused
}

// ---------------------------------------------------------------------------
// Partial order.

/// Successor and predecessor lists over the edges that are not back edges
/// ([`acyclic_edges`]; node ids, deduplicated).
fn local_adjacency(g: &LoopGraph) -> (Vec<Vec<NodeId>>, Vec<Vec<NodeId>>) {
    let n = g.nodes.len();
    let mut succ = vec![Vec::new(); n];
    let mut pred = vec![Vec::new(); n];
    for i in acyclic_edges(g) {
        let e = &g.edges[i];
        if e.from != e.to {
            if !succ[e.from].contains(&e.to) {
                succ[e.from].push(e.to);
            }
            if !pred[e.to].contains(&e.from) {
                pred[e.to].push(e.from);
            }
        }
    }
    (succ, pred)
}

/// Nodes reachable from `from` over `adj`, not expanding through nodes in
/// `stop` (they are reported when reached but not walked through).
fn reach(adj: &[Vec<NodeId>], from: &[bool], stop: &[bool]) -> Vec<bool> {
    let n = adj.len();
    let mut seen = vec![false; n];
    let mut work: Vec<NodeId> = (0..n).filter(|&v| from[v]).collect();
    while let Some(v) = work.pop() {
        for &w in &adj[v] {
            if !seen[w] {
                seen[w] = true;
                if !stop[w] && !from[w] {
                    work.push(w);
                }
            }
        }
    }
    seen
}

/// The ordered list of node sets (seed 000 §4.2, first level).
pub fn partial_order(g: &LoopGraph, recs: &[Recurrence]) -> Vec<NodeSet> {
    let n = g.nodes.len();
    let (succ, pred) = local_adjacency(g);
    let mut assigned = vec![false; n];
    let mut sets = Vec::new();
    // A node pinned to one row (the loop branch) can go nowhere else: it
    // comes first, a set of its own (as the seed's §6.2 puts the chains of
    // operations on a unique resource before the recurrences).
    for (v, nd) in g.nodes.iter().enumerate() {
        if nd.pinned_row.is_some() {
            assigned[v] = true;
            sets.push(NodeSet { nodes: vec![v], rec_mii: None, pinned: true });
        }
    }
    for r in recs {
        let mut in_rec = vec![false; n];
        for &v in &r.nodes {
            in_rec[v] = true;
        }
        let mut nodes: Vec<NodeId> = r.nodes.iter().copied().filter(|&v| !assigned[v]).collect();
        if assigned.iter().any(|&a| a) {
            let boundary: Vec<bool> = (0..n).map(|v| assigned[v] || in_rec[v]).collect();
            // prev → x → rec and rec → x → prev, through other nodes only.
            let from_prev = reach(&succ, &assigned, &boundary);
            let to_rec = reach(&pred, &in_rec, &boundary);
            let from_rec = reach(&succ, &in_rec, &boundary);
            let to_prev = reach(&pred, &assigned, &boundary);
            for v in 0..n {
                if !boundary[v] && ((from_prev[v] && to_rec[v]) || (from_rec[v] && to_prev[v])) {
                    nodes.push(v);
                }
            }
        }
        if nodes.is_empty() {
            continue;
        }
        nodes.sort_unstable();
        nodes.dedup();
        for &v in &nodes {
            assigned[v] = true;
        }
        sets.push(NodeSet { nodes, rec_mii: Some(r.rec_mii), pinned: false });
    }
    // Remaining nodes: one set per connected component of the whole graph.
    let mut comp = vec![usize::MAX; n];
    let mut undirected = vec![Vec::new(); n];
    for e in &g.edges {
        undirected[e.from].push(e.to);
        undirected[e.to].push(e.from);
    }
    let mut comps: Vec<Vec<NodeId>> = Vec::new();
    for s in 0..n {
        if comp[s] != usize::MAX {
            continue;
        }
        let id = comps.len();
        let mut members = vec![s];
        comp[s] = id;
        let mut i = 0;
        while i < members.len() {
            let v = members[i];
            i += 1;
            for &w in &undirected[v] {
                if comp[w] == usize::MAX {
                    comp[w] = id;
                    members.push(w);
                }
            }
        }
        members.sort_unstable();
        comps.push(members);
    }
    let mut rest: Vec<(bool, NodeId, Vec<NodeId>)> = comps
        .into_iter()
        .filter_map(|c| {
            let touches = c.iter().any(|&v| assigned[v]);
            let left: Vec<NodeId> = c.into_iter().filter(|&v| !assigned[v]).collect();
            (!left.is_empty()).then(|| (!touches, left[0], left))
        })
        .collect();
    rest.sort();
    sets.extend(rest.into_iter().map(|(_, _, nodes)| NodeSet { nodes, rec_mii: None, pinned: false }));
    sets
}

// ---------------------------------------------------------------------------
// Ordering.

/// How scarce a node's resources are (§6.2): compared so that `Greater`
/// means scarcer.
#[derive(Clone, Debug)]
struct Scarcity {
    busy: u32,
    /// Utilisation of its alternative units: (demand, capacity).
    util: (u64, u64),
    alternatives: usize,
    /// Heaviest share of a file's read or write ports: (used, ports).
    ports: (u64, u64),
}

fn cmp_ratio(a: (u64, u64), b: (u64, u64)) -> Cmp {
    // a.0/a.1 vs b.0/b.1 with zero capacities largest.
    match (a.1, b.1) {
        (0, 0) => Cmp::Equal,
        (0, _) => Cmp::Greater,
        (_, 0) => Cmp::Less,
        _ => (a.0 as u128 * b.1 as u128).cmp(&(b.0 as u128 * a.1 as u128)),
    }
}

impl Scarcity {
    fn cmp(&self, o: &Scarcity) -> Cmp {
        self.busy
            .cmp(&o.busy)
            .then_with(|| cmp_ratio(self.util, o.util))
            .then_with(|| o.alternatives.cmp(&self.alternatives))
            .then_with(|| cmp_ratio(self.ports, o.ports))
    }
}

fn scarcity(m: &Machine, g: &LoopGraph) -> Vec<Scarcity> {
    let n = g.nodes.len();
    let mask = |v: NodeId| -> Vec<u16> {
        let mut u: Vec<u16> = m.instr(g.nodes[v].instr).units.iter().map(|u| u.0).collect();
        u.sort_unstable();
        u.dedup();
        u
    };
    let masks: Vec<Vec<u16>> = (0..n).map(mask).collect();
    let mut reads_per_file = vec![0u64; m.regfiles.len()];
    let mut writes_per_file = vec![0u64; m.regfiles.len()];
    for nd in &g.nodes {
        for &(f, k) in &nd.reads {
            reads_per_file[f.0 as usize] += k as u64;
        }
        if let Some(f) = nd.writes {
            writes_per_file[f.0 as usize] += 1;
        }
    }
    (0..n)
        .map(|v| {
            let t = &masks[v];
            let demand: u64 = (0..n)
                .filter(|&w| masks[w].iter().all(|u| t.contains(u)))
                .map(|w| g.busy(m, w) as u64)
                .sum();
            let cap: u64 = t.iter().map(|&u| m.units[u as usize].count as u64).sum();
            let nd = &g.nodes[v];
            let mut ports = (0u64, 1u64);
            for &(f, _) in &nd.reads {
                let r = (reads_per_file[f.0 as usize], m.regfile(f).read_ports as u64);
                if cmp_ratio(r, ports) == Cmp::Greater {
                    ports = r;
                }
            }
            if let Some(f) = nd.writes {
                let w = (writes_per_file[f.0 as usize], m.regfile(f).write_ports as u64);
                if cmp_ratio(w, ports) == Cmp::Greater {
                    ports = w;
                }
            }
            Scarcity { busy: g.busy(m, v), util: (demand, cap), alternatives: t.len(), ports }
        })
        .collect()
}

/// Longest chains of edges of delay ≤ 0 within an iteration, below
/// (`down`) and above (`up`) each node, capped at n (circuits of such edges
/// do not diverge).
fn zero_chains(g: &LoopGraph) -> (Vec<u32>, Vec<u32>) {
    let n = g.nodes.len();
    let edges: Vec<(usize, usize)> = g
        .edges
        .iter()
        .filter(|e| e.distance == 0 && e.delay <= 0 && e.from != e.to)
        .map(|e| (e.from, e.to))
        .collect();
    let mut down = vec![0u32; n];
    let mut up = vec![0u32; n];
    for _ in 0..n {
        let mut changed = false;
        for &(a, b) in &edges {
            if down[b] + 1 > down[a] && (down[b] as usize) < n {
                down[a] = down[b] + 1;
                changed = true;
            }
            if up[a] + 1 > up[b] && (up[a] as usize) < n {
                up[b] = up[a] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (down, up)
}

struct Ctx<'a> {
    g: &'a LoopGraph,
    t: &'a NodeTimes,
    succ: Vec<Vec<NodeId>>,
    pred: Vec<Vec<NodeId>>,
    scarce: Vec<Scarcity>,
    /// Edge count of the longest delay-≤0 chain below / above a node.
    zero_down: Vec<u32>,
    zero_up: Vec<u32>,
}

impl Ctx<'_> {
    /// The node to take from `r` in a sweep (Fig. 7 lines 16 and 24 with the
    /// §6.2 changes).
    fn pick(&self, r: &BTreeSet<NodeId>, dir: Direction) -> NodeId {
        let key = |v: NodeId| match dir {
            Direction::TopDown => self.t.height[v],
            Direction::BottomUp => self.t.depth[v],
        };
        let best = r.iter().map(|&v| key(v)).max().unwrap_or(0);
        let mut cands: Vec<NodeId> = r.iter().copied().filter(|&v| key(v) == best).collect();
        // (1) Graph structure: a node with a longer chain of delay-≤0 edges
        // ahead of it in the sweep direction goes first (its successors
        // cannot precede it top-down, its predecessors bottom-up).
        let chain = |v: NodeId| match dir {
            Direction::TopDown => self.zero_down[v],
            Direction::BottomUp => self.zero_up[v],
        };
        let top = cands.iter().map(|&v| chain(v)).max().unwrap_or(0);
        cands.retain(|&v| chain(v) == top);
        // Then the lowest mobility, then (2) scarcer resources, then index.
        let mob = cands.iter().map(|&v| self.t.mob[v]).min().unwrap_or(0);
        cands.retain(|&v| self.t.mob[v] == mob);
        self.scarcest(&cands)
    }

    fn scarcest(&self, cands: &[NodeId]) -> NodeId {
        let mut best = cands[0];
        for &v in &cands[1..] {
            if self.scarce[v].cmp(&self.scarce[best]) == Cmp::Greater {
                best = v;
            }
        }
        best
    }

    /// Pred_L(O) ∩ S or Succ_L(O) ∩ S.
    fn frontier(&self, placed: &[bool], in_set: &[bool], dir: Direction) -> BTreeSet<NodeId> {
        let adj = match dir {
            Direction::BottomUp => &self.pred,
            Direction::TopDown => &self.succ,
        };
        let mut out = BTreeSet::new();
        for (v, &p) in placed.iter().enumerate() {
            if p {
                for &w in &adj[v] {
                    if in_set[w] && !placed[w] {
                        out.insert(w);
                    }
                }
            }
        }
        out
    }
}

/// The node order of Fig. 7 over the partial order `sets`.
pub fn order_nodes(m: &Machine, g: &LoopGraph, t: &NodeTimes, sets: &[NodeSet], symmetric: bool) -> Vec<NodeId> {
    let n = g.nodes.len();
    let (succ, pred) = local_adjacency(g);
    let (zero_down, zero_up) = zero_chains(g);
    let cx = Ctx { g, t, succ, pred, scarce: scarcity(m, g), zero_down, zero_up };
    let _ = cx.g;
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for set in sets {
        let mut in_set = vec![false; n];
        for &v in &set.nodes {
            in_set[v] = true;
        }
        loop {
            let left: Vec<NodeId> = set.nodes.iter().copied().filter(|&v| !placed[v]).collect();
            if left.is_empty() {
                break;
            }
            let pl = cx.frontier(&placed, &in_set, Direction::BottomUp);
            let sl = cx.frontier(&placed, &in_set, Direction::TopDown);
            let (mut r, mut dir) = if !symmetric {
                if !pl.is_empty() {
                    (pl, Direction::BottomUp)
                } else if !sl.is_empty() {
                    (sl, Direction::TopDown)
                } else {
                    let hi = left.iter().map(|&v| t.asap[v]).max().unwrap_or(0);
                    let c: Vec<NodeId> = left.iter().copied().filter(|&v| t.asap[v] == hi).collect();
                    (BTreeSet::from([cx.scarcest(&c)]), Direction::BottomUp)
                }
            } else if !sl.is_empty() {
                (sl, Direction::TopDown)
            } else if !pl.is_empty() {
                (pl, Direction::BottomUp)
            } else {
                let lo = left.iter().map(|&v| t.alap[v]).min().unwrap_or(0);
                let c: Vec<NodeId> = left.iter().copied().filter(|&v| t.alap[v] == lo).collect();
                (BTreeSet::from([cx.scarcest(&c)]), Direction::TopDown)
            };
            while !r.is_empty() {
                while !r.is_empty() {
                    let v = cx.pick(&r, dir);
                    r.remove(&v);
                    placed[v] = true;
                    order.push(v);
                    let next = match dir {
                        Direction::TopDown => &cx.succ[v],
                        Direction::BottomUp => &cx.pred[v],
                    };
                    for &w in next {
                        if in_set[w] && !placed[w] {
                            r.insert(w);
                        }
                    }
                }
                dir = match dir {
                    Direction::TopDown => Direction::BottomUp,
                    Direction::BottomUp => Direction::TopDown,
                };
                r = cx.frontier(&placed, &in_set, dir);
            }
        }
    }
    // Nodes in no set cannot exist (the remaining sets cover the graph),
    // but keep the order a permutation whatever happens.
    for (v, &p) in placed.iter().enumerate() {
        if !p {
            order.push(v);
        }
    }
    order
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
    fn sccs_and_circuits() {
        let g = graph(5, &[(0, 1, 1, 0), (1, 2, 1, 0), (2, 0, 1, 1), (1, 0, 1, 1), (3, 3, 1, 1), (2, 4, 1, 0)]);
        assert_eq!(sccs(&g), vec![vec![0, 1, 2], vec![3], vec![4]]);
        let recs = recurrences(&g);
        // 0→1→2→0: 3/1 = 3; 0→1→0: 2/1 = 2; 3→3: 1.
        assert_eq!(recs[0], Recurrence { nodes: vec![0, 1, 2], rec_mii: 3 });
        assert_eq!(recs[1], Recurrence { nodes: vec![0, 1], rec_mii: 2 });
        assert_eq!(recs[2], Recurrence { nodes: vec![3], rec_mii: 1 });
    }

    /// A circuit's RecMII from its steps' edges equals Bellman–Ford's on
    /// the subgraph of its own edges, on every circuit of random dense
    /// graphs with parallel edges, negative delays and zero distances.
    #[test]
    fn ring_rec_mii_equals_the_subgraph_search() {
        let mut s = 0x9e37_79b9u32;
        let mut next = |m: u32| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s % m
        };
        for _ in 0..40 {
            let n = 3 + next(5) as usize;
            let mut edges = Vec::new();
            for _ in 0..(n * 3) {
                let (a, b) = (next(n as u32) as usize, next(n as u32) as usize);
                edges.push((a, b, next(9) as i32 - 2, next(3)));
            }
            let g = graph(n, &edges);
            for comp in sccs(&g) {
                let Some(circuits) = circuits_of(&g, &comp) else { continue };
                for c in circuits {
                    let k = c.len();
                    let next_pairs: Vec<(NodeId, NodeId)> = (0..k).map(|i| (c[i], c[(i + 1) % k])).collect();
                    let steps: Vec<Vec<(i64, i64)>> = next_pairs
                        .iter()
                        .map(|&(a, b)| g.edges.iter().filter(|e| e.from == a && e.to == b).map(|e| (e.delay as i64, e.distance as i64)).collect())
                        .collect();
                    let ring: Vec<&[(i64, i64)]> = steps.iter().map(|v| v.as_slice()).collect();
                    assert_eq!(ring_rec_mii(&ring), sub_rec_mii(&g, &c, |a, b| next_pairs.contains(&(a, b))), "{c:?} in {edges:?}");
                }
            }
        }
    }

    #[test]
    fn path_nodes_join_the_later_set() {
        // Recurrence {0,1} (RecMII 4), recurrence {4} (RecMII 1), 1 → 2 → 3 → 4
        // on the way, 5 hanging off 4.
        let g = graph(
            6,
            &[(0, 1, 2, 0), (1, 0, 2, 1), (4, 4, 1, 1), (1, 2, 1, 0), (2, 3, 1, 0), (3, 4, 1, 0), (4, 5, 1, 0)],
        );
        let sets = partial_order(&g, &recurrences(&g));
        let nodes: Vec<Vec<NodeId>> = sets.iter().map(|s| s.nodes.clone()).collect();
        assert_eq!(nodes, vec![vec![0, 1], vec![2, 3, 4], vec![5]]);
    }
}

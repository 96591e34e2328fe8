//! The minimum initiation interval, `MII = max(ResMII, RecMII)` (seed 003,
//! "Minimum initiation interval", "ResMII", "RecMII"; seed 000 §2).
//!
//! **ResMII** is computed exactly, as the smallest II for which the loop
//! body's operations can be laid out in II rows of the modulo reservation
//! table when dependences are ignored — not as `uses / count`, which is
//! wrong as soon as an operation has alternative units, slots feed several
//! units, units are not pipelined or register ports are short. Three steps:
//!
//! 1. Lower bounds, each named after the resource it counts (the name is the
//!    report's "bottleneck"): for every set `T` of units, the busy cycles of
//!    the operations that can only run on units of `T` over the instances
//!    of `T` (Hall's condition: with alternatives this is the exact bound of
//!    the fractional assignment); the operations that can only run on `T`
//!    over the slots that feed `T`; all operations over the issue width;
//!    register reads and written results per file over its read and write
//!    ports. (A pinned operation, the loop branch, has a row at every II:
//!    [`crate::graph::PinnedRow`]; it constrains the packing of step 3.)
//! 2. A max-flow check of operations onto units and slots (source →
//!    operation class → unit, capacity `count·II` → slot feeding it,
//!    capacity `II` → sink): for fully pipelined operations this is exact
//!    (an integral flow decomposes into II legal bundles, by König's
//!    edge-colouring theorem and the issue-width bound).
//! 3. From that bound upward, a search for an actual row assignment in
//!    [`Mrt`] (the same table every scheduler and [`crate::schedule::verify`]
//!    use), which also accounts for non-pipelined operations holding their
//!    unit instance over consecutive rows, register ports per row and
//!    pinned rows. The search is bounded; if it gives up, the bound of step
//!    2 stands and [`MiiReport::res_exact`] is false.
//!
//! **RecMII** is exact over all circuits: the smallest integer II ≥ 0 such
//! that the graph weighted `delay − II·distance` has no positive cycle
//! (binary search with Bellman-Ford), with a circuit that sets it taken from
//! the positive cycle found at `RecMII − 1`. A circuit of distance 0 and
//! positive delay admits no II at all: that is an error.

use isa_tablegen::Machine;

use crate::graph::{LoopGraph, NodeId};
use crate::mrt::Mrt;

/// The MII and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiiReport {
    pub res_mii: u32,
    pub rec_mii: u32,
    /// `max(res_mii, rec_mii, 1)`.
    pub mii: u32,
    /// The resource that sets ResMII: a unit name (`smul`), alternative units
    /// together (`salu|smul`), `slots`, `issue width`, `read ports of file
    /// 'r'`, `write ports of file 'v'`, or `units and
    /// slots together` / `packing of units, slots and ports` when only the
    /// exact check raised it above every single count.
    pub bottleneck: String,
    /// A circuit that sets RecMII, in edge order (`n1 → n3 → n1` is
    /// `[n1, n3]`); empty when there is no recurrence with positive delay.
    pub recurrence: Vec<NodeId>,
    /// False when the ResMII packing search gave up (ResMII is then a lower
    /// bound, the best counting and flow bound).
    pub res_exact: bool,
}

impl MiiReport {
    /// "n1 → n3 → n1" for reports.
    pub fn recurrence_text(&self, g: &LoopGraph) -> String {
        let mut names: Vec<&str> = self.recurrence.iter().map(|&n| g.nodes[n].name.as_str()).collect();
        if let Some(&first) = names.first() {
            names.push(first);
        }
        names.join(" → ")
    }
}

/// ResMII, RecMII and MII of a loop graph.
pub fn compute(m: &Machine, g: &LoopGraph) -> Result<MiiReport, String> {
    let (res_mii, bottleneck, res_exact) = res_mii_exact(m, g)?;
    let (rec_mii, recurrence) = rec_mii(g, m)?;
    Ok(MiiReport { res_mii, rec_mii, mii: res_mii.max(rec_mii).max(1), bottleneck, recurrence, res_exact })
}

/// ResMII and the resource that sets it. An operation that fits no bundle
/// at all gives `u32::MAX` and the reason (see [`compute`], which reports it
/// as an error).
pub fn res_mii(m: &Machine, g: &LoopGraph) -> (u32, String) {
    match res_mii_exact(m, g) {
        Ok((ii, name, _)) => (ii, name),
        Err(e) => (u32::MAX, e),
    }
}

/// Bound on the packing search's work per II (placements tried).
const SEARCH_BUDGET: u64 = 200_000;

/// ResMII, its bottleneck and whether the packing search settled it.
pub fn res_mii_exact(m: &Machine, g: &LoopGraph) -> Result<(u32, String, bool), String> {
    let n = g.nodes.len();
    if n == 0 {
        return Ok((0, "no operations".to_string(), true));
    }
    check_single_ops(m, g)?;
    let bounds = named_bounds(m, g);
    let (mut ii, mut name) = bounds
        .iter()
        .fold((1u32, String::from("issue width")), |acc, (b, nm)| if *b > acc.0 { (*b, nm.clone()) } else { acc });
    // Step 2: units and slots together.
    let counted = ii;
    while !flow_fits(m, g, ii) {
        ii += 1;
    }
    if ii > counted {
        name = "units and slots together".to_string();
    }
    // Step 3: an actual row assignment in the reservation table.
    let flowed = ii;
    let limit = flowed.saturating_add(n as u32 * max_busy(m, g) + 64);
    loop {
        match pack(m, g, ii) {
            Some(true) => break,
            Some(false) => ii += 1,
            None => return Ok((flowed, name, false)),
        }
        if ii > limit {
            return Err(format!("no resource assignment up to II={limit}: {name}"));
        }
    }
    if ii > flowed {
        name = "packing of units, slots and ports".to_string();
    }
    Ok((ii, name, true))
}

fn max_busy(m: &Machine, g: &LoopGraph) -> u32 {
    (0..g.nodes.len()).map(|v| g.busy(m, v)).max().unwrap_or(1)
}

/// Every operation must fit an empty bundle on its own.
fn check_single_ops(m: &Machine, g: &LoopGraph) -> Result<(), String> {
    for node in &g.nodes {
        let instr = m.instr(node.instr);
        if let Err(e) = m.place_bundle(&[node.instr], &|_, _| false) {
            return Err(format!("{} ('{}') fits no bundle: {e}", node.name, instr.mnemonic));
        }
        for &(f, k) in &node.reads {
            let file = m.regfile(f);
            if k > file.read_ports {
                return Err(format!(
                    "{} reads {k} registers of file '{}', which has {} read ports",
                    node.name, file.name, file.read_ports
                ));
            }
        }
        if let Some(f) = node.writes {
            if m.regfile(f).write_ports == 0 {
                return Err(format!("{} writes file '{}', which has no write ports", node.name, m.regfile(f).name));
            }
        }
    }
    Ok(())
}

fn ceil_div(a: u64, b: u64) -> u32 {
    if b == 0 {
        return u32::MAX;
    }
    a.div_ceil(b).min(u32::MAX as u64) as u32
}

/// Step 1: every counting bound with the name of its resource, in the order
/// their names are preferred when several give the same II.
pub fn named_bounds(m: &Machine, g: &LoopGraph) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let nu = m.units.len();
    // Unit sets: all subsets when there are few units, else singletons, the
    // operations' alternative sets and all units.
    let mut sets: Vec<u64> = Vec::new();
    if nu <= 14 {
        sets.extend(1..(1u64 << nu));
    } else {
        let nu = nu.min(64);
        sets.extend((0..nu).map(|u| 1u64 << u));
        for node in &g.nodes {
            sets.push(unit_mask(m, node.instr));
        }
        sets.push(if nu == 64 { u64::MAX } else { (1u64 << nu) - 1 });
        sets.sort_unstable();
        sets.dedup();
    }
    sets.sort_by_key(|s| (s.count_ones(), *s));
    let masks: Vec<u64> = g.nodes.iter().map(|nd| unit_mask(m, nd.instr)).collect();
    let busy: Vec<u64> = (0..g.nodes.len()).map(|v| g.busy(m, v) as u64).collect();
    let mut slot_bounds = Vec::new();
    for &t in &sets {
        let inside: Vec<usize> = (0..g.nodes.len()).filter(|&v| masks[v] & !t == 0).collect();
        if inside.is_empty() {
            continue;
        }
        let cycles: u64 = inside.iter().map(|&v| busy[v]).sum();
        let count: u64 = (0..nu).filter(|&u| t >> u & 1 == 1).map(|u| m.units[u].count as u64).sum();
        let names: Vec<&str> = (0..nu).filter(|&u| t >> u & 1 == 1).map(|u| m.units[u].name.as_str()).collect();
        out.push((ceil_div(cycles, count), names.join("|")));
        let slots = m
            .slots
            .iter()
            .filter(|s| s.feeds.iter().any(|u| (u.0 as usize) < 64 && t >> u.0 & 1 == 1))
            .count() as u64;
        slot_bounds.push((ceil_div(inside.len() as u64, slots), "slots".to_string()));
    }
    out.extend(slot_bounds);
    out.push((ceil_div(g.nodes.len() as u64, m.bundle.max_ops as u64), "issue width".to_string()));
    for (f, file) in m.regfiles.iter().enumerate() {
        let reads: u64 = g
            .nodes
            .iter()
            .flat_map(|nd| nd.reads.iter())
            .filter(|(rf, _)| rf.0 as usize == f)
            .map(|&(_, k)| k as u64)
            .sum();
        if reads > 0 {
            out.push((ceil_div(reads, file.read_ports as u64), format!("read ports of file '{}'", file.name)));
        }
        let writes = g.nodes.iter().filter(|nd| nd.writes.map(|w| w.0 as usize) == Some(f)).count() as u64;
        if writes > 0 {
            out.push((ceil_div(writes, file.write_ports as u64), format!("write ports of file '{}'", file.name)));
        }
    }
    out
}

fn unit_mask(m: &Machine, instr: isa_tablegen::InstrId) -> u64 {
    m.instr(instr).units.iter().filter(|u| u.0 < 64).fold(0u64, |acc, u| acc | 1u64 << u.0)
}

/// Step 2: can the operations be assigned (unit, slot) pairs with at most
/// `count·II` issues per unit and `II` per slot? (Busy cycles are counted by
/// the unit bounds of step 1.)
pub fn flow_fits(m: &Machine, g: &LoopGraph, ii: u32) -> bool {
    if g.nodes.len() as u64 > m.bundle.max_ops as u64 * ii as u64 {
        return false;
    }
    // Operation classes by their alternative units.
    let mut classes: Vec<(Vec<usize>, i64)> = Vec::new();
    for nd in &g.nodes {
        let mut units: Vec<usize> = m.instr(nd.instr).units.iter().map(|u| u.0 as usize).collect();
        units.sort_unstable();
        units.dedup();
        match classes.iter_mut().find(|(u, _)| *u == units) {
            Some(c) => c.1 += 1,
            None => classes.push((units, 1)),
        }
    }
    let (nc, nu, ns) = (classes.len(), m.units.len(), m.slots.len());
    // Vertices: source, classes, unit-in, unit-out, slots, sink.
    let src = 0;
    let cls = 1;
    let uin = cls + nc;
    let uout = uin + nu;
    let slot = uout + nu;
    let sink = slot + ns;
    let mut f = MaxFlow::new(sink + 1);
    let inf = i64::MAX / 4;
    for (c, (units, k)) in classes.iter().enumerate() {
        f.add(src, cls + c, *k);
        for &u in units {
            f.add(cls + c, uin + u, inf);
        }
    }
    for (u, unit) in m.units.iter().enumerate() {
        f.add(uin + u, uout + u, unit.count as i64 * ii as i64);
    }
    for (s, sl) in m.slots.iter().enumerate() {
        for u in &sl.feeds {
            f.add(uout + u.0 as usize, slot + s, inf);
        }
        f.add(slot + s, sink, ii as i64);
    }
    f.run(src, sink) == g.nodes.len() as i64
}

/// Dinic's maximum flow on a small graph.
struct MaxFlow {
    adj: Vec<Vec<usize>>,
    to: Vec<usize>,
    cap: Vec<i64>,
}

impl MaxFlow {
    fn new(n: usize) -> MaxFlow {
        MaxFlow { adj: vec![Vec::new(); n], to: Vec::new(), cap: Vec::new() }
    }
    fn add(&mut self, a: usize, b: usize, c: i64) {
        self.adj[a].push(self.to.len());
        self.to.push(b);
        self.cap.push(c);
        self.adj[b].push(self.to.len());
        self.to.push(a);
        self.cap.push(0);
    }
    fn run(&mut self, s: usize, t: usize) -> i64 {
        let n = self.adj.len();
        let mut total = 0;
        loop {
            let mut level = vec![usize::MAX; n];
            level[s] = 0;
            let mut queue = std::collections::VecDeque::from([s]);
            while let Some(v) = queue.pop_front() {
                for &e in &self.adj[v] {
                    if self.cap[e] > 0 && level[self.to[e]] == usize::MAX {
                        level[self.to[e]] = level[v] + 1;
                        queue.push_back(self.to[e]);
                    }
                }
            }
            if level[t] == usize::MAX {
                return total;
            }
            let mut it = vec![0usize; n];
            loop {
                let pushed = self.dfs(s, t, i64::MAX, &level, &mut it);
                if pushed == 0 {
                    break;
                }
                total += pushed;
            }
        }
    }
    fn dfs(&mut self, v: usize, t: usize, f: i64, level: &[usize], it: &mut [usize]) -> i64 {
        if v == t {
            return f;
        }
        while it[v] < self.adj[v].len() {
            let e = self.adj[v][it[v]];
            let w = self.to[e];
            if self.cap[e] > 0 && level[w] == level[v] + 1 {
                let d = self.dfs(w, t, f.min(self.cap[e]), level, it);
                if d > 0 {
                    self.cap[e] -= d;
                    self.cap[e ^ 1] += d;
                    return d;
                }
            }
            it[v] += 1;
        }
        0
    }
}

/// Step 3: a row for every operation in an II-row reservation table,
/// dependences ignored. Some(true): found; Some(false): proved impossible;
/// None: the search gave up.
pub fn pack(m: &Machine, g: &LoopGraph, ii: u32) -> Option<bool> {
    let n = g.nodes.len();
    if g.nodes.iter().any(|nd| nd.pinned_row.is_some_and(|p| p.row(ii).is_none())) {
        return Some(false);
    }
    // Most constrained first: pinned, non-pipelined, few alternatives,
    // many register reads.
    let mut order: Vec<NodeId> = (0..n).collect();
    let key = |v: NodeId| {
        let nd = &g.nodes[v];
        let instr = m.instr(nd.instr);
        let reads: u32 = nd.reads.iter().map(|r| r.1).sum();
        (
            nd.pinned_row.is_none(),
            std::cmp::Reverse(instr.busy.max(1)),
            instr.units.len(),
            std::cmp::Reverse(reads),
            nd.instr,
            nd.writes,
            nd.reads.clone(),
        )
    };
    order.sort_by_key(|&v| (key(v), v));
    // Interchangeable operations (same instruction, reads and result file,
    // not pinned) take non-decreasing rows: a symmetry cut.
    let same_as_prev: Vec<bool> = (0..n)
        .map(|i| {
            i > 0 && {
                let (a, b) = (&g.nodes[order[i - 1]], &g.nodes[order[i]]);
                a.pinned_row.is_none()
                    && b.pinned_row.is_none()
                    && a.instr == b.instr
                    && a.reads == b.reads
                    && a.writes == b.writes
            }
        })
        .collect();
    // Without pins every rotation of a packing is a packing: the first
    // operation goes to row 0.
    let rotate = g.nodes.iter().all(|nd| nd.pinned_row.is_none());
    let mut mrt = Mrt::new(m, g, ii);
    let mut budget = SEARCH_BUDGET;
    let mut rows = vec![0u32; n];
    pack_from(&mut mrt, g, &order, &same_as_prev, rotate, 0, &mut rows, &mut budget)
}

#[allow(clippy::too_many_arguments)]
fn pack_from(
    mrt: &mut Mrt,
    g: &LoopGraph,
    order: &[NodeId],
    same_as_prev: &[bool],
    rotate: bool,
    i: usize,
    rows: &mut [u32],
    budget: &mut u64,
) -> Option<bool> {
    if i == order.len() {
        return Some(true);
    }
    let v = order[i];
    let ii = mrt.ii();
    let candidates: Vec<u32> = match g.nodes[v].pinned_row.and_then(|p| p.row(ii)) {
        Some(r) => vec![r],
        None if i == 0 && rotate => vec![0],
        None => {
            let from = if same_as_prev[i] { rows[i - 1] } else { 0 };
            (from..ii).collect()
        }
    };
    let mut gave_up = false;
    for r in candidates {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if mrt.place(v, r) {
            rows[i] = r;
            let res = pack_from(mrt, g, order, same_as_prev, rotate, i + 1, rows, budget);
            mrt.remove(v);
            match res {
                Some(true) => return Some(true),
                Some(false) => {}
                None => gave_up = true,
            }
            if gave_up {
                return None;
            }
        }
    }
    Some(false)
}

/// RecMII and a circuit that sets it. Err: a circuit of distance 0 and
/// positive delay (no II satisfies it).
pub fn rec_mii(g: &LoopGraph, _m: &Machine) -> Result<(u32, Vec<NodeId>), String> {
    if positive_cycle(g, 0).is_none() {
        return Ok((0, Vec::new()));
    }
    let hi: i64 = g.edges.iter().map(|e| e.delay.max(0) as i64).sum::<i64>() + 1;
    if let Some(c) = positive_cycle(g, hi) {
        let names: Vec<&str> = c.iter().map(|&n| g.nodes[n].name.as_str()).collect();
        return Err(format!(
            "dependence circuit {} -> {} has positive delay and distance 0: no II satisfies it",
            names.join(" -> "),
            names[0]
        ));
    }
    // Invariant: positive cycle at lo, none at hi.
    let mut lo = 0i64;
    let mut hi = hi;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if positive_cycle(g, mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let circuit = positive_cycle(g, lo).unwrap_or_default();
    Ok((hi.min(u32::MAX as i64) as u32, circuit))
}

/// A cycle of positive weight under `delay − ii·distance`, as its nodes in
/// edge order, if there is one (Bellman-Ford for longest paths from a
/// virtual source joined to every node).
pub fn positive_cycle(g: &LoopGraph, ii: i64) -> Option<Vec<NodeId>> {
    let n = g.nodes.len();
    if n == 0 {
        return None;
    }
    let w: Vec<i64> = g.edges.iter().map(|e| e.delay as i64 - ii * e.distance as i64).collect();
    let mut dist = vec![0i64; n];
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut last = None;
    for _ in 0..n {
        last = None;
        for (i, e) in g.edges.iter().enumerate() {
            let d = dist[e.from].saturating_add(w[i]);
            if d > dist[e.to] {
                dist[e.to] = d;
                parent[e.to] = Some(i);
                last = Some(e.to);
            }
        }
        last?;
    }
    // Still relaxing after n rounds: walk back n steps to land on the cycle.
    let mut v = last?;
    for _ in 0..n {
        v = g.edges[parent[v]?].from;
    }
    let start = v;
    let mut cycle = vec![start];
    let mut u = g.edges[parent[start]?].from;
    while u != start {
        cycle.push(u);
        u = g.edges[parent[u]?].from;
        if cycle.len() > n {
            return None;
        }
    }
    cycle.reverse();
    Some(cycle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_machines::tiny;
    use crate::graph::{DepKind, Node};
    use isa_tablegen::InstrId;

    fn node(name: &str) -> Node {
        Node { instr: InstrId(0), reads: vec![], writes: None, name: name.into(), pinned_row: None }
    }

    fn graph(n: usize, edges: &[(usize, usize, i32, u32)]) -> LoopGraph {
        let mut g = LoopGraph::new();
        for i in 0..n {
            g.add_node(node(&format!("n{i}")));
        }
        for &(a, b, d, k) in edges {
            g.add_edge(a, b, d, k, DepKind::Flow);
        }
        g
    }

    #[test]
    fn rec_mii_of_circuits() {
        let m = tiny();
        // n0 -> n1 -> n0 with delays 1 + 3 over distance 1: RecMII 4.
        let g = graph(3, &[(0, 1, 1, 0), (1, 0, 3, 1), (2, 2, 1, 1)]);
        let (r, c) = rec_mii(&g, &m).unwrap();
        assert_eq!(r, 4);
        let mut c = c;
        c.sort();
        assert_eq!(c, vec![0, 1]);
        // delay 5 over distance 2: ceil(5/2) = 3.
        let g = graph(2, &[(0, 1, 2, 0), (1, 0, 3, 2)]);
        assert_eq!(rec_mii(&g, &m).unwrap().0, 3);
        // Acyclic: 0.
        let g = graph(2, &[(0, 1, 2, 0)]);
        assert_eq!(rec_mii(&g, &m).unwrap(), (0, vec![]));
        // Zero-distance circuit with non-positive delay is fine.
        let g = graph(2, &[(0, 1, 0, 0), (1, 0, 0, 0)]);
        assert_eq!(rec_mii(&g, &m).unwrap().0, 0);
        // Zero-distance circuit with positive delay is an error.
        let g = graph(2, &[(0, 1, 1, 0), (1, 0, 0, 0)]);
        assert!(rec_mii(&g, &m).is_err());
    }

    fn alt() -> Machine {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/machines/sms_alt.isa");
        Machine::load(path).expect("sms_alt.isa")
    }

    fn ops(m: &Machine, list: &[(&str, u32)]) -> LoopGraph {
        let r = m.regfile_by_name("r").unwrap();
        let mut g = LoopGraph::new();
        for (i, &(k, reads)) in list.iter().enumerate() {
            let instr = m.instr_by_mnemonic(k).unwrap();
            let reads = if reads > 0 { vec![(r, reads)] } else { vec![] };
            g.add_node(Node { instr, reads, writes: None, name: format!("n{i}"), pinned_row: None });
        }
        g
    }

    #[test]
    fn res_mii_alternatives_busy_and_ports() {
        let m = alt();
        // Two dividers' worth of work on one non-pipelined divider (busy 3).
        let g = ops(&m, &[("div", 0), ("div", 0)]);
        assert_eq!(res_mii(&m, &g), (6, "div".to_string()));
        // Five multiplies may run on mul or either ALU: 5 / 3 → 2, not 5.
        let g = ops(&m, &[("mul", 0); 5]);
        assert_eq!(res_mii(&m, &g).0, 2);
        // A mac only runs on mul: with four muls, mul|alu carries 5 → 2.
        let g = ops(&m, &[("mac", 0), ("mul", 0), ("mul", 0), ("mul", 0), ("mul", 0)]);
        assert_eq!(res_mii(&m, &g).0, 2);
        // Two adds reading three registers each: 6 reads on 4 ports → 2
        // (the two ALUs alone would allow 1).
        let g = ops(&m, &[("add", 3), ("add", 3)]);
        assert_eq!(res_mii(&m, &g), (2, "read ports of file 'r'".to_string()));
        // rem (div or mul, busy 2) with two divs: the divs alone hold the
        // divider 6 cycles; rem goes to mul.
        let g = ops(&m, &[("div", 0), ("div", 0), ("rem", 0)]);
        let r = compute(&m, &g).unwrap();
        assert_eq!((r.res_mii, r.res_exact), (6, true), "{r:?}");
    }

    #[test]
    fn res_mii_tiny() {
        let m = tiny();
        let add = m.instr_by_mnemonic("add").unwrap();
        let ld = m.instr_by_mnemonic("ld").unwrap();
        let mut g = LoopGraph::new();
        for (i, ins) in [add, add, add, ld].into_iter().enumerate() {
            g.add_node(Node { instr: ins, reads: vec![], writes: None, name: format!("n{i}"), pinned_row: None });
        }
        let r = compute(&m, &g).unwrap();
        assert_eq!((r.res_mii, r.bottleneck.as_str()), (3, "alu"));
        assert!(r.res_exact);
        assert_eq!(r.mii, 3);
    }
}

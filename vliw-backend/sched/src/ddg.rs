//! The dependence graph of a region: nodes are the region's operations in
//! program order, plus one node for its control transfer (if any); an edge
//! `a → b` with distance `d` means `b` must issue at least `d` cycles after
//! `a` (`d = 0`: the same bundle is allowed, `b` written after `a`).
//!
//! The distances follow the machine's timing rules (no interlocks; a result
//! lands exactly `latency` cycles after issue; `dsp-sim --strict` rejects a
//! read of a register whose write is pending and a write landing no later
//! than an earlier-issued pending write of the same register):
//! - read after write: the writer's latency;
//! - write after read: 0 (reads in a bundle happen before its writes issue;
//!   the reader comes first in the bundle);
//! - write after write: the second result must land strictly after the first,
//!   `max(0, lat(first) - lat(second) + 1)`;
//! - memory: a store before a load 1 (stores take effect at the end of their
//!   bundle), a load or store before a store 0, unless both accesses use the
//!   same base register (unchanged in between) with disjoint constant ranges,
//!   or reach different identified objects (`noalias` arguments, globals,
//!   stack objects, the compiler's own slots: [`MemAccess::object`]);
//! - a system call waits for every earlier result and every later operation
//!   waits one cycle for it.
//!
//! Calls and branches end regions (see `lower`), so they are barriers by
//! construction: nothing after them is in the graph.
//!
//! Building takes time linear in the region (times the window below), so
//! that blocks of 100,000 operations compile: edges are deduplicated in
//! constant time (every edge into node `i` is added while `i` is visited, so
//! an existing one is the last successor of its source); a system call
//! depends on the operations since the previous system call only (earlier
//! ones reach it through that one); a memory access gets no edge from an
//! older access that conflicts with a newer one it already depends on (one
//! of the first `COVERS` it found, newest first) when the path through
//! that one is at least as long, so a store through an unknown pointer does
//! not collect an edge from every earlier access; and memory accesses are
//! compared pairwise only within a window of the last `MEM_WINDOW`
//! accesses. When the window is full its older half is retired behind a
//! barrier (as LLVM's `ScheduleDAGInstrs` does with its huge-region chain):
//! the newest retired access waits for every other retired one and for the
//! previous barrier (1 cycle after a store, 0 after a load) and every later
//! access waits for it (1 cycle for a load after a store barrier, else 0),
//! which implies every ordering the retired accesses could need. Only
//! regions with more than `MEM_WINDOW` accesses lose freedom, and only
//! against accesses that far back. Edges left out this way are implied by
//! paths at least as long, so they change neither the priorities (longest
//! paths) nor when an operation becomes ready.

use std::collections::HashMap;

use isa_tablegen::{Machine, Reg as PReg};

use crate::lower::{LOp, MemAccess, OpClass};

#[derive(Clone, Debug, Default)]
pub struct Ddg {
    /// Predecessors of each node: (node, distance); node numbers are u32
    /// to halve the graph of a huge region.
    pub preds: Vec<Vec<(u32, i32)>>,
    pub succs: Vec<Vec<(u32, i32)>>,
}

impl Ddg {
    fn new(n: usize) -> Ddg {
        Ddg {
            preds: vec![Vec::new(); n],
            succs: vec![Vec::new(); n],
        }
    }

    /// Adds (or lengthens) the edge `from → to`. Edges into `to` must all be
    /// added before any edge into a later node: then an existing edge is
    /// the last successor of `from`, and `pred_at[from]` is its place among
    /// `to`'s predecessors.
    fn add(&mut self, pred_at: &mut [usize], from: usize, to: usize, d: i32) {
        debug_assert!(from < to);
        if let Some(e) = self.succs[from].last_mut().filter(|e| e.0 as usize == to) {
            if e.1 < d {
                e.1 = d;
                self.preds[to][pred_at[from]].1 = d;
            }
            return;
        }
        pred_at[from] = self.preds[to].len();
        self.succs[from].push((to as u32, d));
        self.preds[to].push((from as u32, d));
    }

    /// Adds (or lengthens) an edge into a node visited earlier.
    fn add_late(&mut self, from: usize, to: usize, d: i32) {
        debug_assert!(from < to);
        match self.succs[from].iter_mut().find(|e| e.0 as usize == to) {
            Some(e) if e.1 >= d => {}
            Some(e) => {
                e.1 = d;
                if let Some(p) = self.preds[to].iter_mut().find(|p| p.0 as usize == from) {
                    p.1 = d;
                }
            }
            None => {
                self.succs[from].push((to as u32, d));
                self.preds[to].push((from as u32, d));
            }
        }
    }

    pub fn len(&self) -> usize {
        self.preds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.preds.is_empty()
    }
}

#[derive(Default)]
struct RegState {
    writer: Option<usize>,
    readers: Vec<usize>,
    version: u32,
}

/// A node of the graph: its registers, latency and memory access.
struct Node<'a> {
    uses: &'a [PReg],
    defs: Vec<PReg>,
    latency: u32,
    mem: Option<&'a MemAccess>,
    syscall: bool,
}

fn disjoint(a: &(&MemAccess, u32), b: &(&MemAccess, u32)) -> bool {
    let ((a, va), (b, vb)) = (a, b);
    if a.distinct_objects(b) {
        return true;
    }
    match (a.base, b.base, a.offset, b.offset, a.size, b.size) {
        (Some(ra), Some(rb), Some(oa), Some(ob), Some(sa), Some(sb)) => {
            ra == rb && va == vb && (oa + sa as i64 <= ob || ob + sb as i64 <= oa)
        }
        _ => false,
    }
}

/// Whether two accesses must keep their order: one writes and they may overlap.
fn conflict(a: &(&MemAccess, u32), b: &(&MemAccess, u32)) -> bool {
    (a.0.writes || b.0.writes) && !disjoint(a, b)
}

/// The distance of a memory edge from `a` to a later `b`: a store before a
/// load 1, else 0.
fn distance(a: &MemAccess, b: &MemAccess) -> i32 {
    (a.writes && b.reads) as i32
}

/// Builds the graph of `body` followed by the control transfer `control`
/// (several operations issued in consecutive bundles, merged into one node).
pub fn build(m: &Machine, body: &[LOp], control: &[LOp]) -> Ddg {
    let mut nodes: Vec<Node> = body
        .iter()
        .map(|op| Node {
            uses: &op.uses,
            defs: op.defs.clone(),
            latency: m.instr(op.instr).latency,
            mem: op.mem.as_ref(),
            syscall: op.class == OpClass::Syscall,
        })
        .collect();
    if let Some(first) = control.first() {
        let mut defs: Vec<PReg> = Vec::new();
        for op in control {
            for d in &op.defs {
                if !defs.contains(d) {
                    defs.push(*d);
                }
            }
        }
        nodes.push(Node {
            uses: &first.uses,
            defs,
            latency: m.instr(first.instr).latency,
            mem: None,
            syscall: false,
        });
        // The second branch of a pair reads the same condition as the first.
    }
    let mut g = Ddg::new(nodes.len());
    let mut pred_at = vec![0usize; nodes.len()];
    let mut regs: HashMap<PReg, RegState> = HashMap::new();
    let mut mem = MemWindow::default();
    let mut last_syscall: Option<usize> = None;
    for (i, node) in nodes.iter().enumerate() {
        let mut add = |g: &mut Ddg, from: usize, d: i32| g.add(&mut pred_at, from, i, d);
        if node.syscall {
            // Operations before the previous system call reach this one through it.
            let since = last_syscall.map_or(0, |s| s + 1);
            for (p, pn) in nodes.iter().enumerate().take(i).skip(since) {
                add(&mut g, p, pn.latency as i32);
            }
        }
        if let Some(s) = last_syscall {
            add(&mut g, s, 1);
        }
        for r in node.uses {
            let st = regs.entry(*r).or_default();
            if let Some(w) = st.writer {
                add(&mut g, w, nodes[w].latency as i32);
            }
        }
        if let Some(acc) = node.mem {
            let base_version = acc
                .base
                .map(|b| regs.get(&b).map_or(0, |s| s.version))
                .unwrap_or(0);
            for (p, d) in mem.access(i, (acc, base_version)) {
                add(&mut g, p, d);
            }
        }
        for r in node.uses {
            let st = regs.entry(*r).or_default();
            // Readers are pushed in node order: a repeat is the last one.
            if st.readers.last() != Some(&i) {
                st.readers.push(i);
            }
        }
        for r in &node.defs {
            let st = regs.entry(*r).or_default();
            for &rd in &st.readers {
                if rd != i {
                    add(&mut g, rd, 0);
                }
            }
            if let Some(w) = st.writer {
                let d = nodes[w].latency as i32 - node.latency as i32 + 1;
                add(&mut g, w, d.max(0));
            }
            st.readers.clear();
            st.writer = Some(i);
            st.version += 1;
        }
        if node.syscall {
            last_syscall = Some(i);
        }
    }
    for (from, to, d) in mem.late {
        g.add_late(from, to, d);
    }
    g
}

/// Memory accesses compared pairwise (the window); see the module comment.
const MEM_WINDOW: usize = 1024;

/// Accesses with an edge into the current one that later (older) ones are
/// tested against for an implied edge.
const COVERS: usize = 4;

/// The memory accesses of a region seen so far: the window of recent ones
/// (node, access, base register version), the barrier the older ones were
/// retired behind, and the edges into barriers, added once the graph is
/// otherwise complete (they end at earlier nodes than the one visited).
#[derive(Default)]
struct MemWindow<'a> {
    recent: Vec<(usize, (&'a MemAccess, u32))>,
    /// The newest retired access, and whether it writes.
    barrier: Option<(usize, bool)>,
    late: Vec<(usize, usize, i32)>,
}

impl<'a> MemWindow<'a> {
    /// Records access `here` of node `i`; returns the edges into `i` it needs
    /// (source node, distance).
    fn access(&mut self, i: usize, here: (&'a MemAccess, u32)) -> Vec<(usize, i32)> {
        let acc = here.0;
        let mut edges = Vec::new();
        if let Some((b, writes)) = self.barrier {
            edges.push((b, (writes && acc.reads) as i32));
        }
        // Newest first: an older access `p` needs no edge of its own when it
        // conflicts with a newer one `c` that has an edge here, since the
        // edge p → c (added when c was, or implied) and c → here are at
        // least as long.
        let mut covers: Vec<((&MemAccess, u32), i32)> = Vec::new();
        let start = edges.len();
        for (p, prev) in self.recent.iter().rev() {
            if !conflict(prev, &here) {
                continue;
            }
            let d = distance(prev.0, acc);
            if covers.iter().any(|(c, dc)| conflict(prev, c) && distance(prev.0, c.0) + dc >= d) {
                continue;
            }
            edges.push((*p, d));
            if covers.len() < COVERS {
                covers.push((*prev, d));
            }
        }
        edges[start..].reverse();
        if self.recent.len() >= MEM_WINDOW {
            self.retire();
        }
        self.recent.push((i, here));
        edges
    }

    /// Retires the older half of the window (and the previous barrier)
    /// behind its newest access, which each of them must precede by one
    /// cycle if it writes, else by none.
    fn retire(&mut self) {
        let old: Vec<(usize, bool)> = self
            .recent
            .drain(..MEM_WINDOW / 2)
            .map(|(p, (a, _))| (p, a.writes))
            .collect();
        let Some(&(b, writes)) = old.last() else {
            return;
        };
        for &(p, w) in self.barrier.iter().chain(&old[..old.len() - 1]) {
            self.late.push((p, b, w as i32));
        }
        self.barrier = Some((b, writes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::LOperand;
    use isa_tablegen::{RegFileId, SemOp};

    fn op(m: &Machine, mnemonic: &str, regs: &[(u16, u16)], imm: Option<i64>) -> LOp {
        let instr = m.instr_by_mnemonic(mnemonic).unwrap();
        let ins = m.instr(instr);
        let mut it = regs.iter();
        let operands: Vec<LOperand> = ins
            .operands
            .iter()
            .map(|o| match o.kind {
                isa_tablegen::OperandKind::Reg(_) => {
                    let (f, i) = *it.next().unwrap();
                    LOperand::Reg(PReg {
                        file: RegFileId(f),
                        index: i,
                    })
                }
                _ => LOperand::Imm(imm.unwrap_or(0)),
            })
            .collect();
        let sem = &ins.sem;
        let reg = |k: usize| match &operands[k] {
            LOperand::Reg(r) => Some(*r),
            _ => None,
        };
        let uses = sem.sources().filter_map(reg).collect();
        let defs = sem.dst.and_then(|d| reg(d.0)).into_iter().collect();
        let mem = (sem.reads_memory() || sem.writes_memory()).then(|| MemAccess {
            reads: sem.reads_memory(),
            writes: sem.writes_memory(),
            base: reg(sem.args[0].0),
            offset: imm,
            size: Some(4),
            object: None,
        });
        assert_ne!(sem.op, SemOp::Syscall);
        LOp {
            instr,
            guard: None,
            operands,
            uses,
            defs,
            port_writes: vec![],
            class: OpClass::Plain,
            mem,
            loc: None,
        }
    }

    #[test]
    fn register_and_memory_distances() {
        // Written in ftm's mnemonics for readability; distances come from its latencies.
        let m = Machine::load("ftm").unwrap();
        let lat = |s: &str| m.instr(m.instr_by_mnemonic(s).unwrap()).latency as i32;
        let body = vec![
            op(&m, "ldw", &[(0, 5), (0, 2)], Some(0)), // 0: r5 = [r2]
            op(&m, "add", &[(0, 6), (0, 5), (0, 5)], None), // 1: r6 = r5 + r5 (RAW on 0)
            op(&m, "addi", &[(0, 5), (0, 7)], Some(1)), // 2: r5 = r7 + 1 (WAR on 1, WAW on 0)
            op(&m, "stw", &[(0, 6), (0, 2)], Some(4)), // 3: [r2+4] = r6 (disjoint from 0)
            op(&m, "ldw", &[(0, 8), (0, 2)], Some(4)), // 4: r8 = [r2+4] (after store 3)
            op(&m, "stw", &[(0, 8), (0, 3)], Some(0)), // 5: [r3] = r8 (unknown base: after 3 and 4)
        ];
        let g = build(&m, &body, &[]);
        let d = |a: usize, b: usize| g.succs[a].iter().find(|e| e.0 as usize == b).map(|e| e.1);
        assert_eq!(d(0, 1), Some(lat("ldw")));
        assert_eq!(d(1, 2), Some(0));
        assert_eq!(d(0, 2), Some((lat("ldw") - lat("addi") + 1).max(0)));
        assert_eq!(d(0, 3), None, "same base, disjoint offsets");
        assert_eq!(d(3, 4), Some(1));
        assert_eq!(d(3, 5), None, "implied by 3 -> 4 -> 5");
        assert_eq!(d(4, 5), Some(lat("ldw")));
        assert_eq!(d(0, 5), Some(0), "load then store through another base");
    }

    #[test]
    fn accesses_of_different_objects_are_not_ordered() {
        let m = Machine::load("ftm").unwrap();
        let with = |mut o: LOp, object: Option<u32>| {
            o.mem.as_mut().unwrap().object = object.map(dsp_mir::MemObject);
            o
        };
        let body = vec![
            with(op(&m, "stw", &[(0, 6), (0, 2)], Some(0)), Some(1)), // 0: [r2] = r6, object 1
            with(op(&m, "ldw", &[(0, 8), (0, 3)], Some(0)), Some(2)), // 1: r8 = [r3], object 2
            with(op(&m, "ldw", &[(0, 9), (0, 4)], Some(0)), Some(1)), // 2: r9 = [r4], object 1 again
            with(op(&m, "ldw", &[(0, 10), (0, 5)], Some(0)), None), // 3: unknown object
            with(op(&m, "ldw", &[(0, 11), (0, 1)], Some(0)), Some(dsp_mir::MemObject::PRIVATE + 1)), // 4: a spill slot
        ];
        let g = build(&m, &body, &[]);
        let d = |a: usize, b: usize| g.succs[a].iter().find(|e| e.0 as usize == b).map(|e| e.1);
        assert_eq!(d(0, 1), None, "different objects");
        assert_eq!(d(0, 2), Some(1), "the same object through another base");
        assert_eq!(d(0, 3), Some(1), "an unknown object may be any");
        assert_eq!(d(0, 4), None, "the compiler's own slot is no pointer's");
    }

    #[test]
    fn memory_window_keeps_every_ordering() {
        // More accesses than the window, through bases the graph cannot tell
        // apart: every conflicting pair must stay ordered by a path at least
        // as long as its own distance, through the barriers.
        let m = Machine::load("ftm").unwrap();
        let n = MEM_WINDOW * 3 + 17;
        let body: Vec<LOp> = (0..n)
            .map(|k| {
                let base = 2 + (k % 5) as u16;
                if k % 3 == 0 {
                    op(&m, "ldw", &[(0, 10 + (k % 7) as u16), (0, base)], Some(0))
                } else {
                    op(&m, "stw", &[(0, 20 + (k % 7) as u16), (0, base)], Some(0))
                }
            })
            .collect();
        let g = build(&m, &body, &[]);
        let pairs_with_edges = g.succs.iter().map(|s| s.len()).sum::<usize>();
        assert!(pairs_with_edges < n * MEM_WINDOW * 2, "the window bounds the edges");
        for a in 0..n {
            // Longest path from a to every later node.
            let mut dist = vec![i64::MIN; n];
            dist[a] = 0;
            for x in a..n {
                if dist[x] == i64::MIN {
                    continue;
                }
                for &(s, d) in &g.succs[x] {
                    dist[s as usize] = dist[s as usize].max(dist[x] + d as i64);
                }
            }
            let ma = body[a].mem.as_ref().unwrap();
            for b in a + 1..n {
                let mb = body[b].mem.as_ref().unwrap();
                if ma.writes || mb.writes {
                    let need = (ma.writes && mb.reads) as i64;
                    assert!(dist[b] >= need, "{a} -> {b}: path {} < {need}", dist[b]);
                }
            }
        }
    }
}

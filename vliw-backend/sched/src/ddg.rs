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
//!   same base register (unchanged in between) with disjoint constant ranges;
//! - a system call waits for every earlier result and every later operation
//!   waits one cycle for it.
//!
//! Calls and branches end regions (see `lower`), so they are barriers by
//! construction: nothing after them is in the graph.

use std::collections::HashMap;

use isa_tablegen::{Machine, Reg as PReg};

use crate::lower::{LOp, MemAccess, OpClass};

#[derive(Clone, Debug, Default)]
pub struct Ddg {
    /// Predecessors of each node: (node, distance).
    pub preds: Vec<Vec<(usize, i32)>>,
    pub succs: Vec<Vec<(usize, i32)>>,
}

impl Ddg {
    fn new(n: usize) -> Ddg {
        Ddg {
            preds: vec![Vec::new(); n],
            succs: vec![Vec::new(); n],
        }
    }

    fn add(&mut self, from: usize, to: usize, d: i32) {
        debug_assert!(from < to);
        if let Some(e) = self.succs[from].iter_mut().find(|e| e.0 == to) {
            if e.1 < d {
                e.1 = d;
                if let Some(p) = self.preds[to].iter_mut().find(|p| p.0 == from) {
                    p.1 = d;
                }
            }
            return;
        }
        self.succs[from].push((to, d));
        self.preds[to].push((from, d));
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
    match (a.base, b.base, a.offset, b.offset, a.size, b.size) {
        (Some(ra), Some(rb), Some(oa), Some(ob), Some(sa), Some(sb)) => {
            ra == rb && va == vb && (oa + sa as i64 <= ob || ob + sb as i64 <= oa)
        }
        _ => false,
    }
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
    let mut regs: HashMap<PReg, RegState> = HashMap::new();
    let mut mems: Vec<(usize, (&MemAccess, u32))> = Vec::new();
    let mut last_syscall: Option<usize> = None;
    for (i, node) in nodes.iter().enumerate() {
        if node.syscall {
            for (p, pn) in nodes.iter().enumerate().take(i) {
                g.add(p, i, pn.latency as i32);
            }
        }
        if let Some(s) = last_syscall {
            g.add(s, i, 1);
        }
        for r in node.uses {
            let st = regs.entry(*r).or_default();
            if let Some(w) = st.writer {
                g.add(w, i, nodes[w].latency as i32);
            }
        }
        if let Some(acc) = node.mem {
            let base_version = acc
                .base
                .map(|b| regs.get(&b).map_or(0, |s| s.version))
                .unwrap_or(0);
            let here = (acc, base_version);
            for (p, prev) in &mems {
                if (prev.0.writes || acc.writes) && !disjoint(prev, &here) {
                    g.add(*p, i, if prev.0.writes && acc.reads { 1 } else { 0 });
                }
            }
            mems.push((i, here));
        }
        for r in node.uses {
            let st = regs.entry(*r).or_default();
            if !st.readers.contains(&i) {
                st.readers.push(i);
            }
        }
        for r in &node.defs {
            let st = regs.entry(*r).or_default();
            for &rd in &st.readers {
                if rd != i {
                    g.add(rd, i, 0);
                }
            }
            if let Some(w) = st.writer {
                let d = nodes[w].latency as i32 - node.latency as i32 + 1;
                g.add(w, i, d.max(0));
            }
            st.readers.clear();
            st.writer = Some(i);
            st.version += 1;
        }
        if node.syscall {
            last_syscall = Some(i);
        }
    }
    g
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
        let d = |a: usize, b: usize| g.succs[a].iter().find(|e| e.0 == b).map(|e| e.1);
        assert_eq!(d(0, 1), Some(lat("ldw")));
        assert_eq!(d(1, 2), Some(0));
        assert_eq!(d(0, 2), Some((lat("ldw") - lat("addi") + 1).max(0)));
        assert_eq!(d(0, 3), None, "same base, disjoint offsets");
        assert_eq!(d(3, 4), Some(1));
        assert_eq!(d(3, 5), Some(0));
        assert_eq!(d(4, 5), Some(lat("ldw")));
        assert_eq!(d(0, 5), Some(0), "load then store through another base");
    }
}

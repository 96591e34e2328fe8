//! Register pressure of a modulo schedule (seed 000 §3 and §5: MaxLive;
//! §6.3: kernel copies for modulo variable expansion).
//!
//! Definitions (the seed's and LLVM's: a value is live from its producer's
//! issue to its last consumer's issue):
//!
//! - A value is the result of a node that `writes` a register file. Its
//!   uses are the node's outgoing [`DepKind::Flow`] edges; a use by `w` at
//!   distance `d` happens at `t(w) + d·II`. The value's **lifetime** is the
//!   half-open interval `[t(v), last use)`, of length `last use − t(v)`,
//!   at least 1 (a value with no use in the loop, or used in the cycle it
//!   issues, still takes a register while its result lands: it counts 1).
//! - **MaxLive** of a file: the kernel row (cycle modulo II) where the most
//!   values of that file are live, each value counted once for every cycle
//!   of its lifetime that falls in that row (so a value living longer than
//!   II counts several times in a row, once per overlapping iteration).
//!   [`Pressure::max_live`] is the largest total over all files in one row
//!   (registers needed at once, whatever their file); `per_file` gives each
//!   file's own maximum (rows may differ between files).
//! - **Kernel copies** (modulo variable expansion without rotating
//!   registers): a value whose lifetime is `L` needs `⌈L / II⌉` registers
//!   renamed across that many consecutive kernel copies;
//!   [`Pressure::kernel_copies`] is the maximum over values (the unroll of
//!   the kernel), 1 when nothing lives longer than II.

use isa_tablegen::{Machine, RegFileId};

use crate::graph::{DepKind, LoopGraph};
use crate::schedule::Schedule;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pressure {
    /// Registers live at once in the worst kernel row, all files together.
    pub max_live: u32,
    /// Per register file with values: its own MaxLive.
    pub per_file: Vec<(RegFileId, u32)>,
    /// Kernel copies needed by modulo variable expansion.
    pub kernel_copies: u32,
    /// Lifetime in cycles of each node's value (None: writes no register).
    pub lifetimes: Vec<Option<u32>>,
}

/// Lifetimes, MaxLive and kernel copies of a schedule.
pub fn pressure(m: &Machine, g: &LoopGraph, s: &Schedule) -> Pressure {
    let n = g.nodes.len();
    let ii = s.ii.max(1) as u64;
    let mut last_use: Vec<Option<u64>> = vec![None; n];
    for e in &g.edges {
        if e.kind != DepKind::Flow || e.from >= n || e.to >= n {
            continue;
        }
        if let (Some(&tu), Some(&tw)) = (s.time.get(e.from), s.time.get(e.to)) {
            let at = (tw as u64 + e.distance as u64 * ii).max(tu as u64);
            let slot = &mut last_use[e.from];
            *slot = Some(slot.map_or(at, |x| x.max(at)));
        }
    }
    let lifetimes: Vec<Option<u32>> = (0..n)
        .map(|v| {
            g.nodes[v].writes?;
            let t = *s.time.get(v)? as u64;
            let len = last_use[v].map_or(0, |u| u.saturating_sub(t)).max(1);
            Some(len.min(u32::MAX as u64) as u32)
        })
        .collect();
    // Live count per (file, row).
    let files = m.regfiles.len();
    let mut live = vec![vec![0u64; ii as usize]; files];
    let mut copies = 1u64;
    for (v, lifetime) in lifetimes.iter().enumerate() {
        let (Some(f), Some(len)) = (g.nodes[v].writes, *lifetime) else { continue };
        let (t, len) = (s.time[v] as u64, len as u64);
        copies = copies.max(len.div_ceil(ii));
        let row = &mut live[f.0 as usize];
        // Every full II of the lifetime covers every row once.
        let full = len / ii;
        for x in row.iter_mut() {
            *x += full;
        }
        for k in 0..len % ii {
            row[((t + full * ii + k) % ii) as usize] += 1;
        }
    }
    let per_file: Vec<(RegFileId, u32)> = (0..files)
        .filter(|&f| g.nodes.iter().any(|nd| nd.writes.map(|w| w.0 as usize) == Some(f)))
        .map(|f| (RegFileId(f as u16), live[f].iter().copied().max().unwrap_or(0).min(u32::MAX as u64) as u32))
        .collect();
    let max_live = (0..ii as usize).map(|r| live.iter().map(|row| row[r]).sum::<u64>()).max().unwrap_or(0);
    Pressure {
        max_live: max_live.min(u32::MAX as u64) as u32,
        per_file,
        kernel_copies: copies.min(u32::MAX as u64) as u32,
        lifetimes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_machines::tiny;
    use crate::graph::Node;

    #[test]
    fn lifetimes_and_copies() {
        let m = tiny();
        let r = m.regfile_by_name("r").unwrap();
        let add = m.instr_by_mnemonic("add").unwrap();
        let mut g = LoopGraph::new();
        for i in 0..3 {
            g.add_node(Node { instr: add, reads: vec![], writes: Some(r), name: format!("n{i}"), pinned_row: None });
        }
        // n0 used by n1 (same iteration) and by n2 one iteration later.
        g.add_edge(0, 1, 1, 0, DepKind::Flow);
        g.add_edge(0, 2, 1, 1, DepKind::Flow);
        let s = Schedule { ii: 2, time: vec![0, 1, 3] };
        let p = pressure(&m, &g, &s);
        // n0: [0, 3+2) = 5 cycles → 3 copies; n1, n2: no use, 1 cycle each.
        assert_eq!(p.lifetimes, vec![Some(5), Some(1), Some(1)]);
        assert_eq!(p.kernel_copies, 3);
        // Rows: n0 covers cycles 0..5 → row 0: 3, row 1: 2; n1 at 1 → row 1;
        // n2 at 3 → row 1.
        assert_eq!(p.per_file, vec![(r, 4)]);
        assert_eq!(p.max_live, 4);
    }
}

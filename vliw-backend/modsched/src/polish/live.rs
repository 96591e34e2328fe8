//! The register rows lifetime polishing keeps up to date as it moves
//! nodes: per kernel row, the values live in it (MaxLive is their peak),
//! and each value's interval — MaxLive and lifetimes as [`crate::regs`]
//! defines them.

use crate::graph::{LoopGraph, NodeId};

/// Register rows of a schedule, kept up to date move by move: per kernel
/// row, the values live in it over all files (MaxLive is their peak).
pub(super) struct Live {
    pub(super) ii: i64,
    /// Values live in each row.
    pub(super) rows: Vec<i64>,
    /// Per node with a value: (file, start, length).
    pub(super) interval: Vec<Option<(usize, i64, i64)>>,
    pub(super) lifetime_sum: i64,
}

impl Live {
    pub(super) fn new(ii: u32, n: usize) -> Live {
        Live { ii: ii as i64, rows: vec![0; ii as usize], interval: vec![None; n], lifetime_sum: 0 }
    }

    pub(super) fn add(&mut self, v: NodeId, file: usize, start: i64, len: i64, sign: i64) {
        let row = &mut self.rows;
        let full = len / self.ii;
        if full > 0 {
            for x in row.iter_mut() {
                *x += sign * full;
            }
        }
        let ii = self.ii as usize;
        let first = (start + full * self.ii).rem_euclid(self.ii) as usize;
        let rest = (len % self.ii) as usize;
        // The rows first .. first + rest (mod II), in at most two runs.
        let end = (first + rest).min(ii);
        for x in &mut row[first..end] {
            *x += sign;
        }
        for x in &mut row[..first + rest - end] {
            *x += sign;
        }
        self.lifetime_sum += sign * len;
        self.interval[v] = if sign > 0 { Some((file, start, len)) } else { None };
    }

    pub(super) fn max_live(&self) -> i64 {
        self.peak().0
    }

    /// MaxLive and the number of rows that reach it.
    pub(super) fn peak(&self) -> (i64, i64) {
        let mut best = (0, 0);
        for &x in &self.rows {
            if x > best.0 {
                best = (x, 1);
            } else if x == best.0 {
                best.1 += 1;
            }
        }
        best
    }
}

/// The value of `v` under times `t`: (file, start, length), as
/// [`crate::regs::pressure`] measures it.
pub(super) fn interval(g: &LoopGraph, flow_out: &[Vec<usize>], t: &[i64], ii: i64, v: NodeId) -> Option<(usize, i64, i64)> {
    let file = g.nodes[v].writes?.0 as usize;
    let mut last = t[v];
    for &e in &flow_out[v] {
        let e = &g.edges[e];
        last = last.max(t[e.to] + e.distance as i64 * ii);
    }
    Some((file, t[v], (last - t[v]).max(1)))
}


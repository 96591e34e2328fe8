//! Live intervals with holes (Wimmer and Mössenböck, "Optimized Interval
//! Splitting in a Linear Scan Register Allocator", VEE 2005, §4 "Building
//! intervals"; Traub et al.'s lifetime holes): for every register, the sorted
//! list of half-open position ranges where it is live, built from block
//! liveness in one backward pass per block. Definitions that are never read
//! still occupy their write position, so the written register is never one
//! that holds a live value. Physical registers get "fixed" intervals (their
//! own uses and definitions, and every call's clobbers). In blocks with a
//! fixed schedule, writes also cover every position issued before they land
//! ([`crate::fixed::extend_to_landing`]).

use dsp_mir::Function;

use crate::liveset::ScratchSet;
use crate::liveness::{Liveness, Numbering};
use crate::operands::{inst_regs, term_uses};
use crate::target::{RegKeys, Target};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Interval {
    /// Sorted, disjoint, non-adjacent half-open ranges.
    pub ranges: Vec<(u32, u32)>,
    /// Sum of the execution frequencies of the references.
    pub ref_weight: f32,
    pub nrefs: u32,
}

impl Interval {
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
    pub fn start(&self) -> u32 {
        self.ranges.first().map_or(0, |r| r.0)
    }
    pub fn end(&self) -> u32 {
        self.ranges.last().map_or(0, |r| r.1)
    }
    /// Positions covered.
    pub fn size(&self) -> u32 {
        self.ranges.iter().map(|r| r.1 - r.0).sum()
    }
    pub fn covers(&self, pos: u32) -> bool {
        let i = self.ranges.partition_point(|r| r.1 <= pos);
        self.ranges.get(i).is_some_and(|r| r.0 <= pos)
    }
    /// Whether some position is covered by both.
    pub fn intersects(&self, other: &Interval) -> bool {
        if self.is_empty() || other.is_empty() || self.end() <= other.start() || other.end() <= self.start() {
            return false;
        }
        let (mut i, mut j) = (0, 0);
        // Skip to the first ranges that can overlap.
        i = i.max(self.ranges.partition_point(|r| r.1 <= other.start()));
        j = j.max(other.ranges.partition_point(|r| r.1 <= self.start()));
        while i < self.ranges.len() && j < other.ranges.len() {
            let (a, b) = (self.ranges[i], other.ranges[j]);
            if a.0 < b.1 && b.0 < a.1 {
                return true;
            }
            if a.1 <= b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        false
    }
    pub fn add_range(&mut self, s: u32, e: u32) {
        if s < e {
            self.ranges.push((s, e));
        }
    }
    /// Sorts and merges ranges.
    pub fn normalize(&mut self) {
        self.ranges.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for &(s, e) in &self.ranges {
            match out.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => out.push((s, e)),
            }
        }
        self.ranges = out;
    }
}

pub struct Intervals {
    /// By virtual register number.
    pub virt: Vec<Interval>,
    /// By physical register key (`RegKeys::pkey - nvregs`).
    pub fixed: Vec<Interval>,
    pub numbering: Numbering,
}

impl Intervals {
    pub fn fixed_of(&self, keys: &RegKeys, p: dsp_mir::PReg) -> &Interval {
        &self.fixed[keys.pkey(p) - keys.nvregs]
    }
}

pub fn build(t: &Target, keys: &RegKeys, f: &Function, live: &Liveness, freq: &[f32]) -> Intervals {
    let numbering = Numbering::new(f);
    let mut all = vec![Interval::default(); keys.total];
    let mut end = vec![0u32; keys.total];
    let mut cur = ScratchSet::new(keys.total);
    for (b, data) in f.blocks.iter().enumerate() {
        let w = freq.get(b).copied().unwrap_or(1.0);
        let n = data.insts.len();
        let bend = numbering.block_end(b, n);
        cur.load(&live.live_out[b]);
        for k in cur.iter() {
            end[k] = bend;
        }
        let use_reg = |k: usize, pos: u32, cur: &mut ScratchSet, all: &mut Vec<Interval>, end: &mut Vec<u32>| {
            all[k].ref_weight += w;
            all[k].nrefs += 1;
            if cur.insert(k) {
                end[k] = pos + 1;
            }
        };
        for r in term_uses(&data.term) {
            if t.tracked(r) {
                use_reg(keys.key(r), numbering.use_pos(b, n), &mut cur, &mut all, &mut end);
            }
        }
        for i in (0..n).rev() {
            let regs = inst_regs(t.m, &data.insts[i], &t.clobbers);
            let dpos = numbering.def_pos(b, i);
            for (r, role) in &regs {
                if role.is_def() && t.tracked(*r) {
                    let k = keys.key(*r);
                    if cur.contains(k) {
                        all[k].add_range(dpos, end[k]);
                        cur.remove(k);
                    } else {
                        all[k].add_range(dpos, dpos + 1);
                    }
                    if !role.is_use() {
                        all[k].ref_weight += w;
                        all[k].nrefs += 1;
                    }
                }
            }
            for (r, role) in &regs {
                if role.is_use() && t.tracked(*r) {
                    use_reg(keys.key(*r), numbering.use_pos(b, i), &mut cur, &mut all, &mut end);
                }
            }
        }
        let bstart = numbering.block_start(b);
        for k in cur.iter() {
            all[k].add_range(bstart, end[k]);
        }
    }
    if crate::fixed::any(f) {
        crate::fixed::extend_to_landing(t, keys, f, &numbering, &mut all);
    }
    for iv in &mut all {
        iv.normalize();
    }
    let fixed = all.split_off(keys.nvregs);
    Intervals { virt: all, fixed, numbering }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(r: &[(u32, u32)]) -> Interval {
        let mut i = Interval::default();
        for &(s, e) in r {
            i.add_range(s, e);
        }
        i.normalize();
        i
    }

    #[test]
    fn ranges_merge_and_intersect() {
        let a = iv(&[(10, 12), (0, 4), (4, 6)]);
        assert_eq!(a.ranges, vec![(0, 6), (10, 12)]);
        assert!(a.covers(5) && !a.covers(6) && a.covers(10) && !a.covers(12));
        assert!(!a.intersects(&iv(&[(6, 10)])));
        assert!(a.intersects(&iv(&[(6, 11)])));
        assert!(!a.intersects(&iv(&[(12, 20)])));
        assert!(a.intersects(&iv(&[(1, 2), (30, 40)])));
        assert!(!a.intersects(&Interval::default()));
        assert_eq!(a.size(), 8);
    }
}

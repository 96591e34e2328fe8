//! Per-block liveness over virtual registers and allocatable physical
//! registers (the classic backward data-flow problem: live-in = uses before
//! definitions ∪ (live-out − definitions), live-out = ∪ live-in of the
//! successors, solved by a worklist), and the linear numbering of
//! instructions that live intervals are built on: instruction k of the
//! function (terminators included) reads at position 2k and writes at 2k+1.
//! The sets are [`LiveSet`]s, sized by their members, so that the time and
//! memory grow with what is live rather than with blocks × values.

use std::collections::VecDeque;

use dsp_mir::Function;

use crate::liveset::{LiveSet, ScratchSet};
use crate::operands::{inst_regs, term_uses};
use crate::target::{RegKeys, Target};

pub struct Liveness {
    pub live_in: Vec<LiveSet>,
    pub live_out: Vec<LiveSet>,
}

/// Upward-exposed uses and definitions of one block; `kill` is scratch
/// space (left holding the definitions).
fn gen_kill(t: &Target, keys: &RegKeys, f: &Function, b: usize, kill: &mut ScratchSet) -> (LiveSet, LiveSet) {
    let mut gen: Vec<u32> = Vec::new();
    kill.clear();
    let data = &f.blocks[b];
    for inst in &data.insts {
        let regs = inst_regs(t.m, inst, &t.clobbers);
        for (r, role) in &regs {
            if role.is_use() && t.tracked(*r) {
                let k = keys.key(*r);
                if !kill.contains(k) {
                    gen.push(k as u32);
                }
            }
        }
        for (r, role) in &regs {
            if role.is_def() && t.tracked(*r) {
                kill.insert(keys.key(*r));
            }
        }
    }
    for r in term_uses(&data.term) {
        if t.tracked(r) {
            let k = keys.key(r);
            if !kill.contains(k) {
                gen.push(k as u32);
            }
        }
    }
    (LiveSet::from_unsorted(gen), kill.to_live_set())
}

/// Live-in and live-out sets of every block: a worklist over the blocks
/// (postorder first, so successors come before their predecessors), a block
/// revisited only when the live-in set of a successor grew.
pub fn compute(t: &Target, keys: &RegKeys, f: &Function) -> Liveness {
    let n = f.blocks.len();
    let mut scratch = ScratchSet::new(keys.total);
    let gk: Vec<(LiveSet, LiveSet)> = (0..n).map(|b| gen_kill(t, keys, f, b, &mut scratch)).collect();
    let succs: Vec<Vec<usize>> = f
        .blocks
        .iter()
        .map(|d| {
            let mut s: Vec<usize> = d.term.successors().iter().map(|b| b.0 as usize).filter(|&b| b < n).collect();
            s.sort();
            s.dedup();
            s
        })
        .collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    let mut live_in: Vec<LiveSet> = gk.iter().map(|(g, _)| g.clone()).collect();
    let mut live_out = vec![LiveSet::default(); n];
    let mut order: Vec<usize> = crate::cfg::reverse_postorder(f).iter().map(|b| b.0 as usize).collect();
    order.reverse();
    let mut queued = vec![false; n];
    order.iter().for_each(|&b| queued[b] = true);
    order.extend((0..n).filter(|&b| !queued[b]));
    queued.iter_mut().for_each(|q| *q = true);
    let mut work: VecDeque<usize> = order.into();
    while let Some(b) = work.pop_front() {
        queued[b] = false;
        let out = LiveSet::union_of(succs[b].iter().map(|&s| &live_in[s]));
        if out == live_out[b] {
            continue;
        }
        let (gen, kill) = &gk[b];
        let inn = out.transfer(gen, kill);
        live_out[b] = out;
        if inn != live_in[b] {
            live_in[b] = inn;
            for &p in &preds[b] {
                if !queued[p] {
                    queued[p] = true;
                    work.push_back(p);
                }
            }
        }
    }
    Liveness { live_in, live_out }
}

/// Linear positions of blocks and instructions.
#[derive(Clone, Debug)]
pub struct Numbering {
    /// Index of the first instruction of each block (its terminator is at
    /// `first[b] + insts.len()`).
    pub first: Vec<u32>,
}

impl Numbering {
    pub fn new(f: &Function) -> Numbering {
        let mut first = Vec::with_capacity(f.blocks.len());
        let mut k = 0u32;
        for b in &f.blocks {
            first.push(k);
            k += b.insts.len() as u32 + 1;
        }
        Numbering { first }
    }
    /// Position where instruction `i` of block `b` reads.
    pub fn use_pos(&self, b: usize, i: usize) -> u32 {
        2 * (self.first[b] + i as u32)
    }
    /// Position where instruction `i` of block `b` writes.
    pub fn def_pos(&self, b: usize, i: usize) -> u32 {
        self.use_pos(b, i) + 1
    }
    pub fn block_start(&self, b: usize) -> u32 {
        2 * self.first[b]
    }
    /// End (exclusive) of block `b` with `ninsts` instructions.
    pub fn block_end(&self, b: usize, ninsts: usize) -> u32 {
        2 * (self.first[b] + ninsts as u32) + 2
    }
}

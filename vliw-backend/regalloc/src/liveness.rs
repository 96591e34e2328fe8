//! Per-block liveness over virtual registers and allocatable physical
//! registers (the classic backward data-flow problem: live-in = uses before
//! definitions ∪ (live-out − definitions), live-out = ∪ live-in of the
//! successors), and the linear numbering of instructions that live
//! intervals are built on: instruction k of the function (terminators
//! included) reads at position 2k and writes at 2k+1.

use dsp_mir::Function;

use crate::bitset::BitSet;
use crate::operands::{inst_regs, term_uses};
use crate::target::{RegKeys, Target};

pub struct Liveness {
    pub live_in: Vec<BitSet>,
    pub live_out: Vec<BitSet>,
}

/// Upward-exposed uses and definitions of one block.
fn gen_kill(t: &Target, keys: &RegKeys, f: &Function, b: usize) -> (BitSet, BitSet) {
    let mut gen = BitSet::new(keys.total);
    let mut kill = BitSet::new(keys.total);
    let data = &f.blocks[b];
    for inst in &data.insts {
        let regs = inst_regs(t.m, inst, &t.clobbers);
        for (r, role) in &regs {
            if role.is_use() && t.tracked(*r) {
                let k = keys.key(*r);
                if !kill.contains(k) {
                    gen.insert(k);
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
                gen.insert(k);
            }
        }
    }
    (gen, kill)
}

pub fn compute(t: &Target, keys: &RegKeys, f: &Function) -> Liveness {
    let n = f.blocks.len();
    let gk: Vec<(BitSet, BitSet)> = (0..n).map(|b| gen_kill(t, keys, f, b)).collect();
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
    let mut live_in: Vec<BitSet> = gk.iter().map(|(g, _)| g.clone()).collect();
    let mut live_out = vec![BitSet::new(keys.total); n];
    // Postorder visits successors first: few iterations.
    let mut order: Vec<usize> = crate::cfg::reverse_postorder(f).iter().map(|b| b.0 as usize).collect();
    order.reverse();
    let mut seen = vec![false; n];
    order.iter().for_each(|&b| seen[b] = true);
    order.extend((0..n).filter(|&b| !seen[b]));
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            let mut out = BitSet::new(keys.total);
            for &s in &succs[b] {
                out.union_with(&live_in[s]);
            }
            if out != live_out[b] {
                let (gen, kill) = &gk[b];
                let mut inn = out.clone();
                for k in kill.iter() {
                    inn.remove(k);
                }
                inn.union_with(gen);
                live_out[b] = out;
                if inn != live_in[b] {
                    live_in[b] = inn;
                    changed = true;
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

//! Liveness of physical registers over a lowered function (backward
//! data flow to a fixed point over the blocks' threaded successors), giving
//! each region the registers live after its body: what `rename` must not
//! disturb.
//!
//! Implicit reads and writes count: a call reads its argument registers and
//! the stack pointer and writes its results, the link register and every
//! register it clobbers; a return reads the results, the callee-saved
//! registers and the stack pointer; a system call reads the argument and
//! writes the result registers (all recorded by `lower`). A guarded write
//! also reads its destination, so it never ends a live range.

use std::collections::{BTreeSet, HashMap};

use dsp_mir::Block;
use isa_tablegen::Reg as PReg;

use crate::lower::{LBlock, Region};

type Set = BTreeSet<PReg>;

/// Registers live before a region, given those live after it; fills
/// `live_out` of the region when `record`.
fn through_region(r: &mut Region, mut live: Set, record: bool) -> Set {
    if let Some(c) = &r.control {
        for d in &c.live_defs {
            live.remove(d);
        }
        live.extend(c.live_uses.iter().copied());
    }
    if record {
        r.live_out = live.iter().copied().collect();
    }
    for op in r.body.iter().rev() {
        for d in &op.defs {
            live.remove(d);
        }
        live.extend(op.uses.iter().copied());
    }
    live
}

fn through_block(b: &mut LBlock, live_out: Set, record: bool) -> Set {
    let mut live = live_out;
    for r in b.regions.iter_mut().rev() {
        live = through_region(r, live, record);
    }
    live
}

/// Computes `live_out` of every region of `blocks`; returns the registers
/// live into each block (in the order of `blocks`).
pub fn compute(blocks: &mut [LBlock]) -> Vec<Vec<PReg>> {
    let index: HashMap<Block, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.block, i))
        .collect();
    let mut live_in: Vec<Set> = vec![Set::new(); blocks.len()];
    let out_of = |i: usize, blocks: &[LBlock], live_in: &[Set]| -> Set {
        let mut s = Set::new();
        for succ in &blocks[i].succs {
            if let Some(&j) = index.get(succ) {
                s.extend(live_in[j].iter().copied());
            }
        }
        s
    };
    // A worklist, seeded in reverse order: a block is visited again only
    // when a successor's live-in set changed (round-robin passes over all
    // blocks grew with the number of blocks times the passes).
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    for (i, b) in blocks.iter().enumerate() {
        for s in &b.succs {
            if let Some(&j) = index.get(s) {
                if preds[j].last() != Some(&i) {
                    preds[j].push(i);
                }
            }
        }
    }
    let mut queued = vec![true; blocks.len()];
    let mut work: std::collections::VecDeque<usize> = (0..blocks.len()).rev().collect();
    while let Some(i) = work.pop_front() {
        queued[i] = false;
        let out = out_of(i, blocks, &live_in);
        let inn = through_block(&mut blocks[i], out, false);
        if inn != live_in[i] {
            live_in[i] = inn;
            for &p in &preds[i] {
                if !queued[p] {
                    queued[p] = true;
                    work.push_back(p);
                }
            }
        }
    }
    for i in 0..blocks.len() {
        let out = out_of(i, blocks, &live_in);
        through_block(&mut blocks[i], out, true);
    }
    live_in.into_iter().map(|s| s.into_iter().collect()).collect()
}

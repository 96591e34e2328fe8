//! Live-range splitting around blocks with a fixed schedule. A value read
//! or written in a fixed block may not be spilled (its spill code would land
//! inside the block), so its whole interval is unspillable — also where it
//! lives in ordinary code before or after the fixed blocks (a loop
//! invariant, a pipelined loop's result). When the allocator runs out of
//! registers for such values, [`split`] gives the value a new register
//! inside the fixed blocks that read or write it (and the fixed blocks it
//! flows through between them: a prologue before the kernel that reads a
//! loop invariant) and copies it on the edges between them and ordinary
//! code (`v' = v` where ordinary code enters them with `v` live, `v = v'`
//! where they leave for ordinary code with `v` live), in the ordinary block at
//! the edge's end when it is the only one there, else in a new block on the
//! edge; the part in ordinary code is then spillable like any other value
//! (the classic splitting of a live range at region boundaries, as around
//! loops in Wimmer and Mössenböck's linear scan, VEE 2005 §5). Only when the
//! values that remain do not fit is fixed code itself too crowded.

use dsp_mir::{Block, Function, Inst, InstKind, Reg, Terminator, VReg};

use crate::intervals::Interval;
use crate::liveness::Liveness;
use crate::operands::{for_each_reg_mut, for_each_term_reg_mut, inst_regs, term_uses};
use crate::target::Target;

/// For every value: whether it lives or is referenced in some ordinary
/// block ([`outside`] for all values in one pass over the function).
pub(crate) fn outside_all(t: &Target, f: &Function, live: &Liveness) -> Vec<bool> {
    let n = f.vregs.len();
    let mut out = vec![false; n];
    fn mark(out: &mut [bool], r: &Reg) {
        if let Reg::Virt(VReg(v)) = r {
            if let Some(x) = out.get_mut(*v as usize) {
                *x = true;
            }
        }
    }
    for (b, data) in f.blocks.iter().enumerate() {
        if data.fixed.is_some() {
            continue;
        }
        for i in &data.insts {
            for (r, _) in inst_regs(t.m, i, &[]) {
                mark(&mut out, &r);
            }
        }
        for r in term_uses(&data.term) {
            mark(&mut out, &r);
        }
        for v in live.live_in[b].iter().chain(live.live_out[b].iter()) {
            if let Some(x) = out.get_mut(v) {
                *x = true;
            }
        }
    }
    out
}

/// Whether `v` lives or is referenced in some ordinary block (something to gain by splitting).
pub(crate) fn outside(t: &Target, f: &Function, live: &Liveness, v: usize) -> bool {
    f.blocks.iter().enumerate().any(|(b, data)| {
        data.fixed.is_none()
            && (live.live_in[b].contains(v)
                || live.live_out[b].contains(v)
                || data.insts.iter().any(|i| inst_regs(t.m, i, &[]).iter().any(|(r, _)| *r == Reg::Virt(VReg(v as u32))))
                || term_uses(&data.term).contains(&Reg::Virt(VReg(v as u32))))
    })
}

/// The values worth splitting when no register is left for virtual
/// register `v` at position `pos`: the values of fixed code that also live
/// in ordinary code among `v` and the values of its file live at `pos`.
/// `done`: values split before (never split twice).
#[allow(clippy::too_many_arguments)]
pub fn candidates(
    t: &Target,
    f: &Function,
    live: &Liveness,
    virt: &[Interval],
    in_fixed: &[bool],
    done: &[bool],
    v: usize,
    pos: u32,
) -> Vec<VReg> {
    let ok = |w: usize| {
        in_fixed.get(w).copied().unwrap_or(false) && !done.get(w).copied().unwrap_or(false) && outside(t, f, live, w)
    };
    let file = f.vregs[v];
    (0..virt.len().min(f.vregs.len()))
        .filter(|&w| w == v || (f.vregs[w] == file && virt[w].covers(pos)))
        .filter(|&w| ok(w))
        .map(|w| VReg(w as u32))
        .collect()
}

fn retarget(term: &mut Terminator, from: Block, to: Block) {
    let fix = |x: &mut Block| {
        if *x == from {
            *x = to;
        }
    };
    match term {
        Terminator::Jump(x) => fix(x),
        Terminator::Branch { taken, not_taken, .. } => {
            fix(taken);
            fix(not_taken);
        }
        _ => {}
    }
}

fn distinct_successors(f: &Function, b: usize) -> Vec<Block> {
    let mut s = f.blocks[b].term.successors();
    s.sort();
    s.dedup();
    s
}

/// Puts `copy` on the edge `p → s` (one of them ordinary): at the end of
/// `p` if `s` is its only successor and `p` is ordinary, at the top of `s`
/// if `p` is its only predecessor and `s` is ordinary, else in a new block.
fn on_edge(f: &mut Function, preds: &[Vec<Block>], p: Block, s: Block, copy: Inst) -> Result<(), String> {
    let (pu, su) = (p.0 as usize, s.0 as usize);
    if f.blocks[pu].fixed.is_none() && distinct_successors(f, pu) == [s] {
        f.blocks[pu].insts.push(copy);
        return Ok(());
    }
    if f.blocks[su].fixed.is_none() && preds[su] == [p] {
        f.blocks[su].insts.insert(0, copy);
        return Ok(());
    }
    if matches!(f.blocks[pu].term, Terminator::IndirectJump { .. }) {
        return Err(format!("cannot split the edge from bb{pu} (an indirect jump) into fixed code"));
    }
    let name = format!("{}.{}.split", f.blocks[pu].name, f.blocks[su].name);
    let n = f.new_block(name);
    f.block_mut(n).insts.push(copy);
    f.block_mut(n).term = Terminator::Jump(s);
    retarget(&mut f.blocks[pu].term, s, n);
    Ok(())
}

/// For every virtual register, the fixed blocks that read or write it (in
/// block order), from one pass over the fixed code: what [`split_with`]
/// needs for several values in a row (splitting one leaves the others'
/// entries as they are).
pub fn fixed_refs(t: &Target, f: &Function) -> Vec<Vec<Block>> {
    let mut refs: Vec<Vec<Block>> = vec![Vec::new(); f.vregs.len()];
    for (b, d) in f.blocks.iter().enumerate().filter(|(_, d)| d.fixed.is_some()) {
        let mut add = |r: &Reg| {
            if let Reg::Virt(VReg(v)) = r {
                if let Some(list) = refs.get_mut(*v as usize) {
                    if list.last() != Some(&Block(b as u32)) {
                        list.push(Block(b as u32));
                    }
                }
            }
        };
        for i in &d.insts {
            for (r, _) in inst_regs(t.m, i, &[]) {
                add(&r);
            }
        }
        for r in term_uses(&d.term) {
            add(&r);
        }
    }
    refs
}

/// Gives the blocks added to `f` since `live` was computed (the blocks
/// [`split`] puts on edges: copies, then a jump) the live sets of their
/// successors, so that `live` serves the next split of another value
/// without a new data-flow pass over the function (the copies concern only
/// values already split).
pub fn extend_liveness(f: &Function, live: &mut Liveness) {
    while live.live_in.len() < f.blocks.len() {
        let b = live.live_in.len();
        let succ = f.blocks[b].term.successors();
        let out = crate::liveset::LiveSet::union_of(succ.iter().filter_map(|s| live.live_in.get(s.0 as usize)));
        live.live_in.push(out.clone());
        live.live_out.push(out);
    }
}

/// Splits `v` around fixed code (see the module documentation); returns
/// the new register that stands for it inside fixed blocks.
pub fn split(t: &Target, f: &mut Function, live: &Liveness, v: VReg) -> Result<VReg, String> {
    let refs = fixed_refs(t, f);
    split_with(t, f, live, v, refs.get(v.0 as usize).map_or(&[], |r| r.as_slice()))
}

/// The values chosen for spilling that only pass through fixed code: live
/// into a fixed block, never read or written in one, and living in
/// ordinary code too (an outer loop's counter or pointer across a
/// pipelined inner loop). Spilled whole, such a value is reloaded at every
/// use and stored at every definition in the outer loop, though the
/// pressure that pushed it out is the kernel's; split around the fixed
/// blocks ([`split_passing`]), only the part inside them goes to the stack
/// (a store before the pipeline, a reload after it), and the outer loop
/// keeps it in a register when it has one. Only where that is cheaper by
/// the blocks' estimated frequencies `freq`: the references in ordinary
/// code (what spilling costs) against the edges into and out of the fixed
/// blocks it is live across (what splitting costs) — a value read once per
/// outer-outer iteration stays spilled (the spill placement trade-off of
/// LLVM's greedy allocator, by a simpler measure).
pub fn passing_through(
    t: &Target,
    f: &Function,
    live: &Liveness,
    freq: &[f32],
    in_fixed: &[bool],
    done: &[bool],
    spilled: &[VReg],
) -> Vec<VReg> {
    let n = f.blocks.len().min(live.live_in.len());
    if !f.blocks.iter().any(|b| b.fixed.is_some()) {
        return Vec::new();
    }
    let cands: Vec<usize> = spilled
        .iter()
        .map(|w| w.0 as usize)
        .filter(|&k| {
            !in_fixed.get(k).copied().unwrap_or(false)
                && !done.get(k).copied().unwrap_or(false)
                && (0..n).any(|b| f.blocks[b].fixed.is_some() && live.live_in[b].contains(k))
        })
        .collect();
    if cands.is_empty() {
        return Vec::new();
    }
    let index: std::collections::HashMap<usize, usize> = cands.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let mut spill_cost = vec![0f32; cands.len()];
    let mut split_cost = vec![0f32; cands.len()];
    for (b, data) in f.blocks.iter().enumerate().take(n) {
        let fb = freq.get(b).copied().unwrap_or(1.0);
        if data.fixed.is_none() {
            let mut count = |r: &Reg| {
                if let Reg::Virt(VReg(v)) = r {
                    if let Some(&i) = index.get(&(*v as usize)) {
                        spill_cost[i] += fb;
                    }
                }
            };
            for i in &data.insts {
                for (r, _) in inst_regs(t.m, i, &[]) {
                    count(&r);
                }
            }
            for r in term_uses(&data.term) {
                count(&r);
            }
        }
        // Edges between ordinary and fixed code the value is live across:
        // a copy (and, spilled inside, a store or a reload) each.
        for s in distinct_successors(f, b) {
            let su = s.0 as usize;
            if su >= n || data.fixed.is_some() == f.blocks[su].fixed.is_some() {
                continue;
            }
            let fe = fb.min(freq.get(su).copied().unwrap_or(1.0));
            for (i, &k) in cands.iter().enumerate() {
                if live.live_in[su].contains(k) {
                    split_cost[i] += fe;
                }
            }
        }
    }
    cands
        .iter()
        .enumerate()
        .filter(|&(i, &k)| split_cost[i] < spill_cost[i] && outside(t, f, live, k))
        .map(|(_, &k)| VReg(k as u32))
        .collect()
}

/// Splits `v`, which passes through fixed code without a reference there
/// ([`passing_through`]): the region is the fixed blocks `v` is live into.
pub fn split_passing(t: &Target, f: &mut Function, live: &Liveness, v: VReg) -> Result<VReg, String> {
    let key = v.0 as usize;
    let n = f.blocks.len().min(live.live_in.len());
    let through: Vec<Block> = (0..n).filter(|&b| f.blocks[b].fixed.is_some() && live.live_in[b].contains(key)).map(|b| Block(b as u32)).collect();
    split_with(t, f, live, v, &through)
}

/// [`split`] given the fixed blocks that reference `v` ([`fixed_refs`]).
pub fn split_with(t: &Target, f: &mut Function, live: &Liveness, v: VReg, refs: &[Block]) -> Result<VReg, String> {
    let preds = crate::cfg::predecessors(f);
    let inner = f.new_vreg(f.vreg_file(v));
    let key = v.0 as usize;
    let n = f.blocks.len().min(live.live_in.len());
    // The region: fixed blocks referencing v, closed over the fixed-to-fixed
    // edges v is live across.
    let mut region: Vec<bool> = vec![false; f.blocks.len()];
    for b in refs {
        if let Some(x) = region.get_mut(b.0 as usize) {
            *x = true;
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..n {
            for s in distinct_successors(f, b) {
                let su = s.0 as usize;
                let both_fixed = f.blocks[b].fixed.is_some() && f.blocks[su].fixed.is_some();
                if both_fixed && region[b] != region[su] && su < n && live.live_in[su].contains(key) {
                    region[b] = true;
                    region[su] = true;
                    changed = true;
                }
            }
        }
    }
    let mut entries = Vec::new();
    let mut exits = Vec::new();
    for b in 0..n {
        for s in distinct_successors(f, b) {
            let su = s.0 as usize;
            if su < n && region[b] != region[su] && live.live_in[su].contains(key) {
                if region[su] {
                    entries.push((Block(b as u32), s));
                } else {
                    exits.push((Block(b as u32), s));
                }
            }
        }
    }
    for (b, data) in f.blocks.iter_mut().enumerate() {
        if !region[b] {
            continue;
        }
        let rename = |r: &mut Reg| {
            if *r == Reg::Virt(v) {
                *r = Reg::Virt(inner);
            }
        };
        for inst in &mut data.insts {
            for_each_reg_mut(t.m, inst, |r, _| rename(r));
        }
        for_each_term_reg_mut(&mut data.term, rename);
    }
    for (p, s) in entries {
        let copy = Inst::new(InstKind::Copy { dst: Reg::Virt(inner), src: Reg::Virt(v) });
        on_edge(f, &preds, p, s, copy)?;
    }
    for (p, s) in exits {
        let copy = Inst::new(InstKind::Copy { dst: Reg::Virt(v), src: Reg::Virt(inner) });
        on_edge(f, &preds, p, s, copy)?;
    }
    Ok(inner)
}

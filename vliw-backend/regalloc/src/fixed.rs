//! Blocks with a fixed schedule (`dsp_mir::FixedBlock`: the software
//! pipeliner's prologue, kernel and epilogue). Allocation may rename their
//! registers and delete their dead instructions, nothing else: no spill,
//! reload or rematerialization code, no phi copies, no split edges, no
//! prologue or epilogue code in them. This module holds what the other
//! stages need for that:
//!
//! - [`referenced`]: the virtual registers a fixed block reads or writes
//!   (its terminator included), which the allocator treats as unspillable
//!   (infinite spill weight; spill code for them would land inside the block);
//! - [`extend_to_landing`]: live intervals that cover every write until it
//!   lands. Liveness numbers a fixed block's instructions in list order,
//!   which is cycle order, but a result lands `latency` cycles after issue
//!   (vliw-backend/ABI.md). A value that is read is live from its write to
//!   its reads, which come after it lands, so list order is safe for it. A
//!   write whose value is never read (a dead definition, or a result in
//!   flight out of the block into a successor where it is dead) would
//!   otherwise end its interval at the write: another value could take the
//!   register, be read while the dead write is pending, or be overwritten
//!   when it lands (`dsp-sim --strict` rejects both). So every write in a
//!   fixed block also covers the positions of every instruction issued
//!   before it lands — to the end of the block and into the fixed
//!   successors when it lands after the block's last bundle;
//! - [`pressure_block`]: which fixed block to blame when the allocator runs
//!   out of registers for values it may not spill
//!   ([`crate::RaErrorKind::FixedBlockPressure`]).

use dsp_mir::{Block, Function, InstKind, Reg};

use crate::intervals::Interval;
use crate::liveness::Numbering;
use crate::operands::{inst_regs, term_uses};
use crate::target::{RegKeys, Target};

/// Whether each virtual register is read or written in a fixed block.
pub fn referenced(t: &Target, f: &Function) -> Vec<bool> {
    let mut out = vec![false; f.vregs.len()];
    let mut mark = |r: Reg| {
        if let Reg::Virt(v) = r {
            if let Some(x) = out.get_mut(v.0 as usize) {
                *x = true;
            }
        }
    };
    for b in f.blocks.iter().filter(|b| b.fixed.is_some()) {
        for inst in &b.insts {
            for (r, _) in inst_regs(t.m, inst, &[]) {
                mark(r);
            }
        }
        for r in term_uses(&b.term) {
            mark(r);
        }
    }
    out
}

/// Whether `f` has any block with a fixed schedule.
pub fn any(f: &Function) -> bool {
    f.blocks.iter().any(|b| b.fixed.is_some())
}

/// Whether block `b` (fixed) reads or writes `v`.
fn references(t: &Target, f: &Function, b: usize, v: usize) -> bool {
    let hit = |r: Reg| matches!(r, Reg::Virt(x) if x.0 as usize == v);
    let data = &f.blocks[b];
    data.fixed.is_some()
        && (data.insts.iter().any(|i| inst_regs(t.m, i, &[]).iter().any(|(r, _)| hit(*r)))
            || term_uses(&data.term).into_iter().any(hit))
}

/// The fixed block at `at` if it reads or writes `v`, else the first one that does.
fn referencing(t: &Target, f: &Function, at: Option<usize>, v: usize) -> Option<Block> {
    at.filter(|&b| references(t, f, b, v))
        .or_else(|| (0..f.blocks.len()).find(|&b| references(t, f, b, v)))
        .map(|b| Block(b as u32))
}

/// The block whose positions contain `pos`.
fn block_at(f: &Function, n: &Numbering, pos: u32) -> Option<usize> {
    (0..f.blocks.len()).find(|&b| n.block_start(b) <= pos && pos < n.block_end(b, f.blocks[b].insts.len()))
}

/// The fixed block to blame when no register of its file is left for
/// virtual register `v` (which may not be spilled) at position `pos`: the
/// fixed block at `pos` if it reads or writes `v`, else the first that
/// does; or, when `v` is not referenced in fixed code itself (a reload
/// temporary), the same for a value of its file live at `pos` that is.
/// `None`: fixed code is not the cause.
pub fn pressure_block(
    t: &Target,
    f: &Function,
    n: &Numbering,
    virt: &[Interval],
    in_fixed: &[bool],
    v: usize,
    pos: u32,
) -> Option<Block> {
    let at = block_at(f, n, pos);
    if in_fixed.get(v).copied().unwrap_or(false) {
        return referencing(t, f, at, v);
    }
    let file = f.vregs[v];
    let culprit = (0..virt.len().min(f.vregs.len()))
        .find(|&w| in_fixed.get(w).copied().unwrap_or(false) && f.vregs[w] == file && virt[w].covers(pos))?;
    referencing(t, f, at, culprit)
}

/// Extends the interval of every register written in a fixed block over
/// the positions of the instructions issued before the write lands (see
/// the module documentation). Intervals are normalized afterwards by the caller.
pub fn extend_to_landing(t: &Target, keys: &RegKeys, f: &Function, n: &Numbering, all: &mut [Interval]) {
    for (b, data) in f.blocks.iter().enumerate() {
        let Some(fx) = &data.fixed else { continue };
        for (i, inst) in data.insts.iter().enumerate() {
            let InstKind::Machine { instr, .. } = &inst.kind else { continue };
            let issue = inst.cycle.unwrap_or(0);
            let land = issue + t.m.instr(*instr).latency.max(1);
            let regs: Vec<usize> = inst_regs(t.m, inst, &[])
                .into_iter()
                .filter(|(r, role)| role.is_def() && t.tracked(*r))
                .map(|(r, _)| keys.key(r))
                .collect();
            if regs.is_empty() {
                continue;
            }
            let start = n.def_pos(b, i);
            let end = if land > fx.len {
                n.block_end(b, data.insts.len())
            } else {
                // The last instruction issued before the write lands (cycle order).
                let j = data.insts.partition_point(|x| x.cycle.unwrap_or(0) < land);
                n.def_pos(b, j.max(i + 1) - 1) + 1
            };
            let mut ranges = vec![(start, end)];
            if land > fx.len {
                into_successors(f, n, b, land - fx.len, 0, &mut ranges);
            }
            for k in regs {
                for &(s, e) in &ranges {
                    all[k].add_range(s, e);
                }
            }
        }
    }
}

/// Ranges of the fixed successors of block `b` entered while a write is
/// still `rem` cycles from landing.
fn into_successors(f: &Function, n: &Numbering, b: usize, rem: u32, depth: u32, out: &mut Vec<(u32, u32)>) {
    if depth > f.blocks.len() as u32 {
        return;
    }
    let mut succ = f.blocks[b].term.successors();
    succ.sort();
    succ.dedup();
    for s in succ {
        let s = s.0 as usize;
        let Some(data) = f.blocks.get(s) else { continue };
        // An ordinary successor: the block must drain (checked by the scheduler).
        let Some(fx) = &data.fixed else { continue };
        let start = n.block_start(s);
        if rem > fx.len {
            out.push((start, n.block_end(s, data.insts.len())));
            into_successors(f, n, s, rem - fx.len, depth + 1, out);
        } else {
            let j = data.insts.partition_point(|x| x.cycle.unwrap_or(0) < rem);
            if j > 0 {
                out.push((start, n.def_pos(s, j - 1) + 1));
            }
        }
    }
}

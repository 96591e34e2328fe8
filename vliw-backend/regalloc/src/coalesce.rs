//! Copy coalescing. Before allocation, virtual registers joined by a copy
//! are merged into one when their live intervals do not intersect, or when
//! both are single-definition values (so they are equal wherever both are
//! live) — aggressive coalescing, processed by decreasing execution
//! frequency of the copy; the copy disappears. A class's ranges are a
//! [`RangeSet`], so merging a long chain of copies stays near-linear. During allocation, the remaining copy
//! partners are preferred registers ([`copy_partners`]); after allocation,
//! copies whose two ends got the same register are removed
//! ([`remove_identity_copies`]).

use dsp_mir::{Function, InstKind, Reg, VReg};

use crate::intervals::Intervals;
use crate::rangeset::RangeSet;
use crate::operands::{for_each_reg_mut, for_each_term_reg_mut, inst_regs};

fn find(parent: &mut [u32], v: u32) -> u32 {
    let mut r = v;
    while parent[r as usize] != r {
        r = parent[r as usize];
    }
    let mut x = v;
    while parent[x as usize] != r {
        let next = parent[x as usize];
        parent[x as usize] = r;
        x = next;
    }
    r
}

/// Merges copy-related virtual registers; returns the number of copies
/// removed (0: the function is unchanged). `entry_live[v]`: `v` may be read
/// before it is written (live into the entry block).
///
/// Two registers joined by a copy `d = s` are merged when their intervals do
/// not intersect, or when both are written exactly once and neither may be
/// read undefined: then `s`'s definition dominates the copy, which
/// dominates every read of `d`, so both hold the same value wherever both
/// are live (copy propagation).
pub fn merge(
    m: &dsp_mir::Machine,
    f: &mut Function,
    ivs: &Intervals,
    freq: &[f32],
    pinned: &[bool],
    entry_live: &[bool],
) -> u32 {
    let n = f.vregs.len();
    let mut copies: Vec<(f32, u32, u32)> = Vec::new();
    let mut defs = vec![0u32; n];
    for (b, data) in f.blocks.iter().enumerate() {
        for inst in &data.insts {
            if let InstKind::Copy { dst: Reg::Virt(d), src: Reg::Virt(s) } = inst.kind {
                let pin = |v: VReg| pinned.get(v.0 as usize).copied().unwrap_or(false);
                if d != s && f.vreg_file(d) == f.vreg_file(s) && !pin(d) && !pin(s) {
                    copies.push((freq.get(b).copied().unwrap_or(1.0), d.0, s.0));
                }
            }
            for (r, role) in inst_regs(m, inst, &[]) {
                if let (Reg::Virt(v), true) = (r, role.is_def()) {
                    defs[v.0 as usize] += 1;
                }
            }
        }
    }
    if copies.is_empty() {
        return 0;
    }
    copies.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut class: Vec<Option<RangeSet>> = vec![None; n];
    let mut undef: Vec<bool> = (0..n).map(|v| entry_live.get(v).copied().unwrap_or(true)).collect();
    let mut merged = false;
    for (_, d, s) in copies {
        let (rd, rs) = (find(&mut parent, d), find(&mut parent, s));
        if rd == rs {
            continue;
        }
        let (di, si) = (rd as usize, rs as usize);
        let ivd = class[di].take().unwrap_or_else(|| RangeSet::of(&ivs.virt[di]));
        let ivs_ = class[si].take().unwrap_or_else(|| RangeSet::of(&ivs.virt[si]));
        let same_value = defs[di] == 1 && defs[si] == 1 && !undef[di] && !undef[si];
        if !same_value && ivd.intersects(&ivs_) {
            class[di] = Some(ivd);
            class[si] = Some(ivs_);
            continue;
        }
        let mut u = ivd;
        u.absorb(ivs_);
        parent[si] = rd;
        class[di] = Some(u);
        // The copy (a definition of d) disappears.
        defs[di] = defs[di] + defs[si] - 1;
        undef[di] |= undef[si];
        merged = true;
    }
    if !merged {
        return 0;
    }
    let mut removed = 0;
    for b in 0..f.blocks.len() {
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        for inst in &mut insts {
            for_each_reg_mut(m, inst, |r, _| {
                if let Reg::Virt(v) = *r {
                    *r = Reg::Virt(VReg(find(&mut parent, v.0)));
                }
            });
        }
        let before = insts.len();
        insts.retain(|i| !matches!(i.kind, InstKind::Copy { dst, src } if dst == src));
        removed += (before - insts.len()) as u32;
        f.blocks[b].insts = insts;
        for_each_term_reg_mut(&mut f.blocks[b].term, |r| {
            if let Reg::Virt(v) = *r {
                *r = Reg::Virt(VReg(find(&mut parent, v.0)));
            }
        });
    }
    removed
}

/// For every virtual register, the registers it is copied to or from.
pub fn copy_partners(f: &Function) -> Vec<Vec<Reg>> {
    let mut p = vec![Vec::new(); f.vregs.len()];
    for data in &f.blocks {
        for inst in &data.insts {
            if let InstKind::Copy { dst, src } = inst.kind {
                if let Reg::Virt(d) = dst {
                    p[d.0 as usize].push(src);
                }
                if let Reg::Virt(s) = src {
                    p[s.0 as usize].push(dst);
                }
            }
        }
    }
    p
}

/// Removes copies of a register to itself; returns how many.
pub fn remove_identity_copies(f: &mut Function) -> u32 {
    let mut n = 0;
    for b in &mut f.blocks {
        let before = b.insts.len();
        b.insts.retain(|i| !matches!(i.kind, InstKind::Copy { dst, src } if dst == src));
        n += (before - b.insts.len()) as u32;
    }
    n
}

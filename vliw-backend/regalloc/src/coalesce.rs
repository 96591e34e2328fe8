//! Copy coalescing. Before allocation, virtual registers joined by a copy
//! whose live intervals do not intersect are merged into one (aggressive
//! coalescing on intervals, processed by decreasing execution frequency of
//! the copy; the copy disappears). During allocation, the remaining copy
//! partners are preferred registers ([`copy_partners`]); after allocation,
//! copies whose two ends got the same register are removed
//! ([`remove_identity_copies`]).

use dsp_mir::{Function, InstKind, Reg, VReg};

use crate::intervals::{Interval, Intervals};
use crate::operands::{for_each_reg_mut, for_each_term_reg_mut};

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

/// Merges copy-related virtual registers with disjoint intervals; returns the
/// number of copies removed (0: the function is unchanged).
pub fn merge(m: &dsp_mir::Machine, f: &mut Function, ivs: &Intervals, freq: &[f32], unspillable: &mut [bool]) -> u32 {
    let n = f.vregs.len();
    let mut copies: Vec<(f32, u32, u32)> = Vec::new();
    for (b, data) in f.blocks.iter().enumerate() {
        for inst in &data.insts {
            if let InstKind::Copy { dst: Reg::Virt(d), src: Reg::Virt(s) } = inst.kind {
                if d != s && f.vreg_file(d) == f.vreg_file(s) {
                    copies.push((freq.get(b).copied().unwrap_or(1.0), d.0, s.0));
                }
            }
        }
    }
    if copies.is_empty() {
        return 0;
    }
    copies.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut class: Vec<Option<Interval>> = vec![None; n];
    let mut merged = false;
    for (_, d, s) in copies {
        let (rd, rs) = (find(&mut parent, d), find(&mut parent, s));
        if rd == rs {
            continue;
        }
        let ivd = class[rd as usize].take().unwrap_or_else(|| ivs.virt[rd as usize].clone());
        let ivs_ = class[rs as usize].take().unwrap_or_else(|| ivs.virt[rs as usize].clone());
        if ivd.intersects(&ivs_) {
            class[rd as usize] = Some(ivd);
            class[rs as usize] = Some(ivs_);
            continue;
        }
        let mut u = ivd;
        u.merge(&ivs_);
        parent[rs as usize] = rd;
        class[rd as usize] = Some(u);
        if unspillable.get(rs as usize).copied().unwrap_or(false) {
            if let Some(x) = unspillable.get_mut(rd as usize) {
                *x = true;
            }
        }
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

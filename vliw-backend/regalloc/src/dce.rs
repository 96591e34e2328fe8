//! Dead-copy elimination: copies (and, through them, eliminated phis) whose
//! virtual destination is never read are removed, by a backward walk of
//! every block from its live-out set; repeated while copies die, since a
//! removed copy may leave its source dead in turn.

use dsp_mir::{Function, InstKind, Reg};

use crate::liveness::{self, Liveness};
use crate::operands::{inst_regs, term_uses};
use crate::target::{RegKeys, Target};

/// Removes dead copies; returns how many.
pub fn remove_dead_copies(t: &Target, keys: &RegKeys, f: &mut Function, live: &Liveness) -> u32 {
    let mut total = 0;
    let mut owned: Option<Liveness> = None;
    loop {
        let lv = owned.as_ref().unwrap_or(live);
        let mut removed = 0;
        for b in 0..f.blocks.len() {
            let mut cur = lv.live_out[b].clone();
            for r in term_uses(&f.blocks[b].term) {
                if t.tracked(r) {
                    cur.insert(keys.key(r));
                }
            }
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut keep = vec![true; insts.len()];
            for (i, inst) in insts.iter().enumerate().rev() {
                if let InstKind::Copy { dst: Reg::Virt(v), .. } = inst.kind {
                    if !cur.contains(v.0 as usize) {
                        keep[i] = false;
                        removed += 1;
                        continue;
                    }
                }
                let regs = inst_regs(t.m, inst, &t.clobbers);
                for (r, role) in &regs {
                    if role.is_def() && !role.is_use() && t.tracked(*r) {
                        cur.remove(keys.key(*r));
                    }
                }
                for (r, role) in &regs {
                    if role.is_use() && t.tracked(*r) {
                        cur.insert(keys.key(*r));
                    }
                }
            }
            f.blocks[b].insts = insts.into_iter().zip(keep).filter(|(_, k)| *k).map(|(i, _)| i).collect();
        }
        total += removed;
        if removed == 0 {
            return total;
        }
        owned = Some(liveness::compute(t, keys, f));
    }
}

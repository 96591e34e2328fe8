//! Dead-code elimination: copies (and, through them, eliminated phis) and
//! side-effect-free machine instructions (arithmetic and cross-unit
//! operations, by their `.isa` semantics; never memory accesses or control)
//! whose virtual destination is never read are removed, by a backward walk
//! of every block from its live-out set; repeated while code dies, since a
//! removed instruction may leave its sources dead in turn.

use dsp_mir::{Function, InstKind, Reg};
use isa_tablegen::SemClass;

use crate::liveness::{self, Liveness};
use crate::liveset::ScratchSet;
use crate::operands::{inst_regs, term_uses};
use crate::target::{RegKeys, Target};

/// Whether an instruction does nothing but write its destination.
fn removable(t: &Target, inst: &dsp_mir::Inst) -> bool {
    match &inst.kind {
        InstKind::Copy { .. } => true,
        InstKind::Machine { instr, .. } => {
            let sem = &t.m.instr(*instr).sem;
            sem.dst.is_some()
                && matches!(sem.op.class(), SemClass::Alu | SemClass::Cross)
                && !sem.reads_memory()
                && !sem.writes_memory()
        }
        _ => false,
    }
}

/// Removes dead copies and dead side-effect-free instructions; returns how many.
pub fn remove_dead_code(t: &Target, keys: &RegKeys, f: &mut Function, live: &Liveness) -> u32 {
    let mut total = 0;
    let mut owned: Option<Liveness> = None;
    let mut cur = ScratchSet::new(keys.total);
    loop {
        let lv = owned.as_ref().unwrap_or(live);
        let mut removed = 0;
        for b in 0..f.blocks.len() {
            cur.load(&lv.live_out[b]);
            for r in term_uses(&f.blocks[b].term) {
                if t.tracked(r) {
                    cur.insert(keys.key(r));
                }
            }
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut keep = vec![true; insts.len()];
            for (i, inst) in insts.iter().enumerate().rev() {
                let regs = inst_regs(t.m, inst, &t.clobbers);
                if removable(t, inst) {
                    let dead = regs.iter().filter(|(_, role)| role.is_def()).all(|(r, _)| match r {
                        Reg::Virt(v) => !cur.contains(v.0 as usize),
                        Reg::Phys(_) => false,
                    });
                    if dead {
                        keep[i] = false;
                        removed += 1;
                        continue;
                    }
                }
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

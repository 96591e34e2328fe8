//! Prologue and epilogue. The prologue (top of the entry block) lowers `sp`
//! by the frame size and saves the link register (when the function calls)
//! and every callee-saved register the function writes; in
//! [`FrameMode::Fp`] it first allocates the save area, saves, sets
//! `fp = sp + save area` (the frame's top) and then allocates the body,
//! realigning `sp` when locals need it (and setting the base register when
//! it also allocates dynamically). Before every return the epilogue
//! restores the saved registers and `sp` (from `fp` in Fp mode, which also
//! releases dynamic allocations).

use dsp_mir::builder::sem_inst;
use dsp_mir::{Block, Function, Inst, MemObject, Operand, PReg, Reg, Terminator};

use crate::frame::Layout;
use crate::liveness;
use crate::operands::{inst_regs, term_uses};
use crate::target::{Access, FrameMode, RegKeys, Target};

/// `dst = src + imm`, through `scratch` when no add takes the immediate.
pub fn add_const(t: &Target, dst: PReg, src: PReg, imm: i64, scratch: Option<PReg>) -> Result<Vec<Inst>, String> {
    let m = t.m;
    if imm == 0 && dst == src {
        return Ok(vec![]);
    }
    let r = |p: PReg| Operand::Reg(Reg::Phys(p));
    if imm == 0 {
        return Ok(vec![Inst::new(dsp_mir::InstKind::Copy { dst: Reg::Phys(dst), src: Reg::Phys(src) })]);
    }
    if let Some(add) = t.add_imm_instr(imm) {
        return Ok(vec![sem_inst(m, add, Some(r(dst)), &[r(src), Operand::Imm(imm)], None)]);
    }
    let s = scratch.filter(|&s| s != src).ok_or_else(|| format!("no add takes the immediate {imm} and no scratch register is free"))?;
    let mov = t.mov_imm_instr(imm).ok_or_else(|| format!("no move takes the immediate {imm}"))?;
    let add = t.add_reg_instr().ok_or("no register add in the integer file")?;
    Ok(vec![
        sem_inst(m, mov, Some(r(s)), &[Operand::Imm(imm)], None),
        sem_inst(m, add, Some(r(dst)), &[r(src), r(s)], None),
    ])
}

/// A caller-saved integer register that holds nothing live just before
/// instruction `i` of block `b` (`i == insts.len()`: before the terminator)
/// and that instruction `i` does not name.
pub fn scratch_at(t: &Target, f: &Function, b: usize, i: usize) -> Option<PReg> {
    let keys = RegKeys::new(t.m, f.vregs.len());
    scratch_in(t, f, &liveness::compute(t, &keys, f), b, i)
}

/// [`scratch_at`] with the function's liveness computed by the caller
/// (still valid after inserting code that defines and then reads a scratch
/// register within one block: no block's live-in or live-out set changes).
pub fn scratch_in(t: &Target, f: &Function, live: &liveness::Liveness, b: usize, i: usize) -> Option<PReg> {
    let keys = RegKeys::new(t.m, f.vregs.len());
    let data = &f.blocks[b];
    let mut busy = crate::liveset::ScratchSet::new(keys.total);
    busy.load(&live.live_out[b]);
    for r in term_uses(&data.term) {
        if t.tracked(r) {
            busy.insert(keys.key(r));
        }
    }
    let i = i.min(data.insts.len());
    for (k, inst) in data.insts.iter().enumerate().skip(i).rev() {
        let regs = inst_regs(t.m, inst, &t.clobbers);
        for (r, role) in &regs {
            if role.is_def() && !role.is_use() && t.tracked(*r) && k != i {
                busy.remove(keys.key(*r));
            }
        }
        for (r, role) in &regs {
            if (role.is_use() || k == i) && t.tracked(*r) {
                busy.insert(keys.key(*r));
            }
        }
    }
    t.order[t.int_file.0 as usize]
        .iter()
        .copied()
        .find(|&r| !t.callee_saved.contains(&r) && !busy.contains(keys.pkey(r)))
}

fn save(t: &Target, r: PReg, base: PReg, off: i64, a: &Access) -> Result<Inst, String> {
    let Access::Direct { store, .. } = a else {
        return Err(format!("callee-saved register {} has no store", t.m.reg_name(r)));
    };
    fits(t, *store, off)?;
    Ok(Inst { object: Some(MemObject::SAVE_AREA), ..t.store(*store, Reg::Phys(r), base, Operand::Imm(off)) })
}

fn restore(t: &Target, r: PReg, base: PReg, off: i64, a: &Access) -> Result<Inst, String> {
    let Access::Direct { load, .. } = a else {
        return Err(format!("callee-saved register {} has no load", t.m.reg_name(r)));
    };
    fits(t, *load, off)?;
    Ok(Inst { object: Some(MemObject::SAVE_AREA), ..t.load(*load, Reg::Phys(r), base, Operand::Imm(off)) })
}

fn fits(t: &Target, instr: isa_tablegen::InstrId, off: i64) -> Result<(), String> {
    let ins = t.m.instr(instr);
    let ok = ins.sem.args.get(1).and_then(|a| ins.operands[a.0].kind.imm_range()).is_some_and(|(lo, hi)| lo <= off && off <= hi);
    if ok {
        Ok(())
    } else {
        Err(format!("save slot offset {off} does not fit '{}'", ins.mnemonic))
    }
}

/// Inserts the prologue and the epilogues.
pub fn insert(t: &Target, f: &mut Function, l: &Layout) -> Result<(), String> {
    let sp = t.sp;
    let mut pro = Vec::new();
    // Scratch registers are only needed for huge frames (liveness is costly).
    let need_scratch = |n: u32| t.add_imm_instr(n as i64).is_none() || t.add_imm_instr(-(n as i64)).is_none();
    let huge = need_scratch(l.frame_size) || need_scratch(l.save_size) || need_scratch(l.body_size);
    let live = huge.then(|| liveness::compute(t, &RegKeys::new(t.m, f.vregs.len()), f));
    let entry_scratch = live.as_ref().and_then(|lv| scratch_in(t, f, lv, 0, 0));
    let mut epi_scratch = Vec::new();
    for (b, data) in f.blocks.iter().enumerate() {
        if matches!(data.term, Terminator::Return { .. }) {
            epi_scratch.push((b, live.as_ref().and_then(|lv| scratch_in(t, f, lv, b, data.insts.len()))));
        }
    }
    match l.mode {
        FrameMode::Sp if l.split => {
            pro.extend(add_const(t, sp, sp, -(l.save_size as i64), entry_scratch)?);
            for (r, off, a) in &l.saves {
                pro.push(save(t, *r, sp, *off, a)?);
            }
            pro.extend(add_const(t, sp, sp, -(l.body_size as i64), entry_scratch)?);
        }
        FrameMode::Sp => {
            if l.frame_size > 0 {
                pro.extend(add_const(t, sp, sp, -(l.frame_size as i64), entry_scratch)?);
            }
            for (r, off, a) in &l.saves {
                pro.push(save(t, *r, sp, *off, a)?);
            }
        }
        FrameMode::Fp { realign, .. } => {
            let fp = t.fp.ok_or("no frame pointer")?;
            pro.extend(add_const(t, sp, sp, -(l.save_size as i64), entry_scratch)?);
            for (r, off, a) in &l.saves {
                pro.push(save(t, *r, sp, *off, a)?);
            }
            pro.extend(add_const(t, fp, sp, l.save_size as i64, entry_scratch)?);
            if l.body_size > 0 {
                pro.extend(add_const(t, sp, sp, -(l.body_size as i64), entry_scratch)?);
            }
            if realign > t.m.abi.stack_align {
                let and = t.and_imm_instr(-(realign as i64)).ok_or("no and with an immediate to realign the stack")?;
                let r = Operand::Reg(Reg::Phys(sp));
                pro.push(sem_inst(t.m, and, Some(r.clone()), &[r, Operand::Imm(-(realign as i64))], None));
            }
            if let Some(bp) = t.bp {
                pro.extend(add_const(t, bp, sp, 0, None)?);
                if bp == sp {
                    return Err("the base register is the stack pointer".into());
                }
            }
        }
    }
    f.block_mut(Block(0)).insts.splice(0..0, pro);
    for (b, scratch) in epi_scratch {
        let mut epi = Vec::new();
        match l.mode {
            FrameMode::Sp if l.split => {
                epi.extend(add_const(t, sp, sp, l.body_size as i64, scratch)?);
                for (r, off, a) in &l.saves {
                    epi.push(restore(t, *r, sp, *off, a)?);
                }
                epi.extend(add_const(t, sp, sp, l.save_size as i64, scratch)?);
            }
            FrameMode::Sp => {
                for (r, off, a) in &l.saves {
                    epi.push(restore(t, *r, sp, *off, a)?);
                }
                if l.frame_size > 0 {
                    epi.extend(add_const(t, sp, sp, l.frame_size as i64, scratch)?);
                }
            }
            FrameMode::Fp { .. } => {
                let fp = t.fp.ok_or("no frame pointer")?;
                epi.extend(add_const(t, sp, fp, -(l.save_size as i64), scratch)?);
                for (r, off, a) in &l.saves {
                    epi.push(restore(t, *r, sp, *off, a)?);
                }
                epi.extend(add_const(t, sp, sp, l.save_size as i64, scratch)?);
            }
        }
        f.blocks[b].insts.extend(epi);
    }
    Ok(())
}

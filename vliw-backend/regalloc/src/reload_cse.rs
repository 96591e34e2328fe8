//! Redundant reloads, removed after allocation. Spill code serves reads per
//! block ([`crate::spill`]): a spilled value read on both sides of a branch
//! is reloaded in each block, and allocation often gives both reloads the
//! same register. A reload is deleted when its register already holds the
//! slot's contents: an earlier reload of the same slot into it, or a store
//! of it into the slot, with neither the register written nor the slot
//! stored to since, in the same block or — for a block whose only
//! predecessor comes before it — at the end of that predecessor (Cooper and
//! Torczon, "Engineering a Compiler", §13.5: spill code clean-up over
//! extended basic blocks). A reload into another register of the same file
//! that holds the slot since earlier in the same block becomes a copy from
//! it (an ALU cycle instead of a load's latency).
//!
//! Across a block boundary only a register the earlier block did not touch
//! before its reload (or store) counts: keeping it live into the next block
//! then takes nothing from the scheduler, which could otherwise rename the
//! reload's register to hoist it above the register's earlier reads (a
//! deleted reload there cost a 2D convolution's loop latch 2.7%).
//!
//! Only spill slots ([`FrameKind::Spill`]) are tracked: nothing but spill
//! code reads or writes them (their addresses are never taken), so program
//! stores cannot change them. A call forgets everything (it may clobber
//! caller-saved registers). Blocks with a fixed schedule are left alone.

use std::collections::{HashMap, HashSet};

use dsp_mir::{Block, FrameKind, Function, Inst, InstKind, InstrId, Machine, Operand, PReg, Reg};

/// A spill slot access: the slot (frame object and offset), the
/// instruction (its width and type) and the register loaded or stored.
struct SlotAccess {
    slot: (u32, i64),
    instr: InstrId,
    reg: PReg,
    load: bool,
}

fn slot_access(m: &Machine, f: &Function, inst: &Inst) -> Option<SlotAccess> {
    let InstKind::Machine { instr, guard: None, ops } = &inst.kind else { return None };
    let sem = &m.instr(*instr).sem;
    let load = sem.reads_memory() && !sem.writes_memory();
    if !load && !(sem.writes_memory() && !sem.reads_memory()) {
        return None;
    }
    let Some(Operand::Frame { index, offset }) = sem.args.get(1).and_then(|a| ops.get(a.0)) else { return None };
    if f.frame.get(index.0 as usize).is_none_or(|o| o.kind != FrameKind::Spill) {
        return None;
    }
    let data = if load { sem.dst.map(|d| d.0) } else { sem.args.get(2).map(|a| a.0) };
    let Some(Operand::Reg(Reg::Phys(reg))) = data.and_then(|d| ops.get(d)) else { return None };
    Some(SlotAccess { slot: (index.0, *offset), instr: *instr, reg: *reg, load })
}

/// What registers hold which slots: slot → (register, the instruction that
/// last moved it, whether no earlier instruction of its block touched the
/// register: only such entries pass to the next block).
type Held = HashMap<(u32, i64), (PReg, InstrId, bool)>;

/// Whether a load by `load` of a slot last moved by `by` reads back exactly
/// the register's value: the same instruction, or a store and a load of the
/// same type.
fn same_value(m: &Machine, load: InstrId, by: InstrId) -> bool {
    load == by || {
        let (l, s) = (&m.instr(load).sem, &m.instr(by).sem);
        s.writes_memory() && l.ty == s.ty && l.op.class() == s.op.class()
    }
}

/// Deletes the redundant reloads of `f` or turns them into copies (see the
/// module documentation); returns how many.
pub fn remove_redundant_reloads(m: &Machine, f: &mut Function) -> u32 {
    let n = f.blocks.len();
    let preds = crate::cfg::predecessors(f);
    let mut at_end: Vec<Option<Held>> = vec![None; n];
    let mut removed = 0;
    for b in 0..n {
        if f.blocks[b].fixed.is_some() {
            continue;
        }
        let mut held: Held = match preds[b][..] {
            [p] if (p.0 as usize) < b => at_end[p.0 as usize].clone().unwrap_or_default(),
            _ => Held::new(),
        };
        // Registers read or written so far in this block.
        let mut touched: HashSet<PReg> = HashSet::new();
        // Slots stored or reloaded in this block (not carried in).
        let mut local: HashSet<(u32, i64)> = HashSet::new();
        let insts = std::mem::take(&mut f.block_mut(Block(b as u32)).insts);
        let mut kept = Vec::with_capacity(insts.len());
        for mut inst in insts {
            if let Some(a) = slot_access(m, f, &inst) {
                if a.load {
                    if held.get(&a.slot).is_some_and(|&(r, by, _)| r == a.reg && same_value(m, a.instr, by)) {
                        removed += 1;
                        continue;
                    }
                    // Another register of the file holds it since earlier in
                    // this block: a copy (one ALU cycle) instead of a load.
                    let other = held.get(&a.slot).filter(|&&(q, by, _)| q.file == a.reg.file && local.contains(&a.slot) && same_value(m, a.instr, by));
                    if let Some(&(q, _, _)) = other {
                        removed += 1;
                        touched.insert(q);
                        inst = Inst { loc: inst.loc.clone(), ..Inst::new(InstKind::Copy { dst: Reg::Phys(a.reg), src: Reg::Phys(q) }) };
                    }
                } else {
                    // A store to a slot changes what every other offset of its object holds too.
                    held.retain(|&(obj, _), _| obj != a.slot.0);
                }
                held.retain(|_, (r, _, _)| *r != a.reg);
                held.insert(a.slot, (a.reg, a.instr, !touched.contains(&a.reg)));
                touched.insert(a.reg);
                local.insert(a.slot);
                kept.push(inst);
                continue;
            }
            let (uses, defs) = dsp_mir::uses_defs(m, &inst);
            touched.extend(uses.iter().chain(&defs).filter_map(|r| match r {
                Reg::Phys(p) => Some(*p),
                Reg::Virt(_) => None,
            }));
            if matches!(inst.kind, InstKind::Call { .. }) {
                held.clear();
            } else {
                for r in defs {
                    if let Reg::Phys(p) = r {
                        held.retain(|_, (h, _, _)| *h != p);
                    }
                }
                if let InstKind::Machine { instr, ops, .. } = &inst.kind {
                    // A store into a spill slot by other means (not expected): forget the object.
                    if m.instr(*instr).sem.writes_memory() {
                        for o in ops {
                            if let Operand::Frame { index, .. } = o {
                                held.retain(|&(obj, _), _| obj != index.0);
                            }
                        }
                    }
                }
            }
            kept.push(inst);
        }
        f.block_mut(Block(b as u32)).insts = kept;
        held.retain(|_, (_, _, clean)| *clean);
        at_end[b] = Some(held);
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::builder::sem_inst;
    use dsp_mir::Terminator;
    use isa_tablegen::{ArgPat, SemOp, Ty, Want};

    /// entry: store r5 → slot; r5 = r5 + 1 (written); reload slot → r6;
    /// branch to next (its only predecessor): reload slot → r6 (redundant),
    /// reload slot → r7 (another register, from before the block: kept); r6 =
    /// …; reload → r6 (a copy from r7); store r11 → slot3, reload → r12 (a copy);
/// a reload into r9, read earlier in entry, is not carried into next.
    #[test]
    fn reloads_into_a_register_holding_the_slot_are_deleted() {
        let m = Machine::load("ftm").unwrap();
        let r = m.scalar_file(Ty::I32).unwrap();
        let sp = m.abi.sp.unwrap();
        let reg = |n: u16| PReg { file: r, index: n };
        let want = |op, dst: Option<_>, args: &[ArgPat]| m.find_instr(&Want { op, ty: Some(Ty::I32), ty2: None, dst, args }).unwrap();
        let ld = want(SemOp::Load, Some(r), &[ArgPat::Reg(r), ArgPat::Imm(0)]);
        let st = want(SemOp::Store, None, &[ArgPat::Reg(r), ArgPat::Imm(0), ArgPat::Reg(r)]);
        let addi = want(SemOp::Add, Some(r), &[ArgPat::Reg(r), ArgPat::Imm(1)]);
        let mut f = Function::new("t");
        let entry = f.new_block("entry");
        let next = f.new_block("next");
        let slot = f.new_frame_object(4, 4, FrameKind::Spill);
        let local = f.new_frame_object(4, 4, FrameKind::Local);
        let fr = |i| Operand::Frame { index: i, offset: 0 };
        let p = |n| Operand::Reg(Reg::Phys(reg(n)));
        let spo = Operand::Reg(Reg::Phys(sp));
        let load = |to: u16, i| sem_inst(&m, ld, Some(p(to)), &[spo.clone(), fr(i)], None);
        let e = &mut f.block_mut(entry).insts;
        e.push(sem_inst(&m, st, None, &[spo.clone(), fr(slot), p(5)], None));
        e.push(load(5, slot)); // r5 holds the slot already: deleted
        e.push(sem_inst(&m, addi, Some(p(5)), &[p(5), Operand::Imm(1)], None));
        e.push(load(6, slot));
        e.push(load(8, local)); // not a spill slot: kept
        e.push(load(8, local));
        let slot2 = f.new_frame_object(4, 4, FrameKind::Spill);
        let e = &mut f.block_mut(entry).insts;
        e.push(sem_inst(&m, addi, Some(p(10)), &[p(9), Operand::Imm(1)], None));
        e.push(load(9, slot2)); // r9 was read before in its block
        // A reload into r12 of a slot r11 was just stored from: a copy.
        let slot3 = f.new_frame_object(4, 4, FrameKind::Spill);
        let e = &mut f.block_mut(entry).insts;
        e.push(sem_inst(&m, st, None, &[spo.clone(), fr(slot3), p(11)], None));
        e.push(load(12, slot3));
        f.block_mut(entry).term = Terminator::Jump(next);
        let x = &mut f.block_mut(next).insts;
        x.push(load(9, slot2)); // kept: r9 was not clean in entry
        x.push(load(6, slot)); // redundant
        x.push(load(7, slot)); // another register: kept
        x.push(sem_inst(&m, addi, Some(p(6)), &[p(6), Operand::Imm(1)], None));
        x.push(load(6, slot)); // r6 was written, r7 holds it since this block: a copy
        f.block_mut(next).term = Terminator::Return { rets: vec![] };

        let n = remove_redundant_reloads(&m, &mut f);
        assert_eq!(n, 4, "{}", dsp_mir::print::function(&m, &f));
        assert_eq!(f.block(entry).insts.len(), 9);
        assert_eq!(f.block(entry).insts[8].kind, InstKind::Copy { dst: Reg::Phys(reg(12)), src: Reg::Phys(reg(11)) });
        assert_eq!(f.block(next).insts.len(), 4);
        let dst = |i: &Inst| dsp_mir::uses_defs(&m, i).1[0];
        let regs: Vec<Reg> = [9, 7, 6, 6].iter().map(|&n| Reg::Phys(reg(n))).collect();
        assert_eq!(f.block(next).insts.iter().map(dst).collect::<Vec<_>>(), regs);
        assert_eq!(f.block(next).insts[3].kind, InstKind::Copy { dst: Reg::Phys(reg(6)), src: Reg::Phys(reg(7)) });
    }
}

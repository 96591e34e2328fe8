//! Structural checks of MIR, run between stages in debug builds and tests:
//! operands fit their instruction (register files, immediate ranges), blocks
//! and frame indices exist, copies stay within one file. A failure is a
//! compiler bug, reported with the function, block and instruction.

use isa_tablegen::{Machine, OperandKind};

use crate::{Function, InstKind, Operand, Reg, Terminator};

/// What the stage after allocation may still contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// After selection: virtual registers, phis, frame operands allowed.
    Selected,
    /// After allocation and frame layout: only physical registers and immediates.
    Allocated,
}

pub fn verify(m: &Machine, f: &Function, stage: Stage) -> Result<(), String> {
    let nblocks = f.blocks.len() as u32;
    let err = |b: usize, i: usize, msg: String| Err(format!("{}: bb{b} inst {i}: {msg}", f.name));
    let check_reg = |r: Reg| -> Result<(), String> {
        match r {
            Reg::Virt(v) if stage == Stage::Allocated => Err(format!("virtual register %{} after allocation", v.0)),
            Reg::Virt(v) if v.0 as usize >= f.vregs.len() => Err(format!("undeclared virtual register %{}", v.0)),
            _ => Ok(()),
        }
    };
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Machine { instr, guard, ops } => {
                    let ins = m.instr(*instr);
                    if ops.len() != ins.operands.len() {
                        return err(b, i, format!("'{}' has {} operands, not {}", ins.mnemonic, ops.len(), ins.operands.len()));
                    }
                    if let Some(g) = guard {
                        if let Err(e) = check_reg(g.reg) {
                            return err(b, i, e);
                        }
                        if Some(f.reg_file(g.reg)) != m.predicate_file() {
                            return err(b, i, "guard is not a predicate register".into());
                        }
                    }
                    for (k, (o, decl)) in ops.iter().zip(&ins.operands).enumerate() {
                        match (o, decl.kind) {
                            (Operand::Reg(r), OperandKind::Reg(file)) => {
                                if let Err(e) = check_reg(*r) {
                                    return err(b, i, e);
                                }
                                if f.reg_file(*r) != file {
                                    return err(b, i, format!("operand {k} of '{}' is in the wrong register file", ins.mnemonic));
                                }
                            }
                            (Operand::Imm(v), kind @ OperandKind::Imm(..)) => {
                                let (lo, hi) = kind.imm_range().unwrap_or((0, 0));
                                if *v < lo || *v > hi {
                                    return err(b, i, format!("operand {k} of '{}': {v} out of range", ins.mnemonic));
                                }
                            }
                            (Operand::Sym { .. }, OperandKind::Imm(..) | OperandKind::PcRel(_)) => {}
                            (Operand::Frame { index, .. }, OperandKind::Imm(..)) => {
                                if stage == Stage::Allocated {
                                    return err(b, i, "frame operand after frame layout".into());
                                }
                                if index.0 as usize >= f.frame.len() {
                                    return err(b, i, format!("unknown frame object {}", index.0));
                                }
                            }
                            _ => return err(b, i, format!("operand {k} of '{}' has the wrong kind", ins.mnemonic)),
                        }
                    }
                }
                InstKind::Copy { dst, src } => {
                    for r in [*dst, *src] {
                        if let Err(e) = check_reg(r) {
                            return err(b, i, e);
                        }
                    }
                    if f.reg_file(*dst) != f.reg_file(*src) {
                        return err(b, i, "copy between register files".into());
                    }
                }
                InstKind::Phi { incoming, .. } => {
                    if stage == Stage::Allocated {
                        return err(b, i, "phi after allocation".into());
                    }
                    if incoming.iter().any(|(blk, _)| blk.0 >= nblocks) {
                        return err(b, i, "phi names a block that does not exist".into());
                    }
                }
                InstKind::Call { callee: crate::Callee::Reg(r), .. } => {
                    if let Err(e) = check_reg(*r) {
                        return err(b, i, e);
                    }
                }
                InstKind::Call { .. } => {}
            }
        }
        for s in block.term.successors() {
            if s.0 >= nblocks {
                return err(b, block.insts.len(), format!("branch to missing block bb{}", s.0));
            }
        }
        if let Terminator::Branch { cond, .. } = &block.term {
            if Some(f.reg_file(*cond)) != m.predicate_file() {
                return err(b, block.insts.len(), "branch condition is not a predicate register".into());
            }
        }
    }
    Ok(())
}

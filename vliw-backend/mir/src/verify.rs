//! Structural checks of MIR, run between stages in debug builds and tests:
//! operands fit their instruction (register files, immediate ranges), blocks
//! and frame indices exist, copies stay within one file; blocks with a fixed
//! schedule ([`crate::FixedBlock`]) keep its rules (see [`verify_fixed`]). A
//! failure is a compiler bug, reported with the function, block and instruction.

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
            if inst.cycle.is_some() && block.fixed.is_none() {
                return err(b, i, "a cycle outside a block with a fixed schedule".into());
            }
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
        if let Terminator::Branch { cond, negate, .. } = &block.term {
            // A predicate, or a register the machine can branch on being
            // nonzero / zero (`brnz` / `brz`).
            let file = f.reg_file(*cond);
            let op = if *negate { isa_tablegen::SemOp::BrZ } else { isa_tablegen::SemOp::BrNz };
            let on_reg = m
                .find_instr(&isa_tablegen::Want {
                    op,
                    ty: None,
                    ty2: None,
                    dst: None,
                    args: &[isa_tablegen::ArgPat::Reg(file), isa_tablegen::ArgPat::PcRel],
                })
                .is_some();
            if Some(file) != m.predicate_file() && !on_reg {
                return err(b, block.insts.len(), "branch condition is neither a predicate register nor one the machine can branch on".into());
            }
        }
    }
    verify_fixed(m, f)
}

/// The rules of blocks with a fixed schedule: the entry block is not one;
/// every instruction has a cycle below the block's length, listed in cycle
/// order; no phis, copies, calls, system calls or control transfers among
/// them; the terminator is a `Jump` (`branch_cycle: None`) or a `Branch`
/// whose `branch_cycle` leaves exactly the machine's delay slots as the
/// block's last bundles (`branch_cycle + delay_slots = len - 1`); a block
/// that does not drain has only fixed successors (values in flight must
/// land in fixed code).
pub fn verify_fixed(m: &Machine, f: &Function) -> Result<(), String> {
    let nblocks = f.blocks.len();
    let delay = m.control.delay_slots;
    for (b, block) in f.blocks.iter().enumerate() {
        let Some(fx) = &block.fixed else { continue };
        let err = |msg: String| Err(format!("{}: bb{b} (fixed schedule): {msg}", f.name));
        if b == 0 {
            return err("the entry block cannot have a fixed schedule".into());
        }
        let mut last = 0u32;
        for (i, inst) in block.insts.iter().enumerate() {
            let Some(c) = inst.cycle else {
                return err(format!("inst {i} has no cycle"));
            };
            if c >= fx.len {
                return err(format!("inst {i} issues in cycle {c}, past the block's {} bundles", fx.len));
            }
            if c < last {
                return err(format!("inst {i} (cycle {c}) is listed after an instruction of cycle {last}: instructions must be in cycle order"));
            }
            last = c;
            match &inst.kind {
                InstKind::Phi { .. } => return err(format!("inst {i} is a phi")),
                InstKind::Copy { .. } => return err(format!("inst {i} is a copy")),
                InstKind::Call { .. } => return err(format!("inst {i} is a call")),
                InstKind::Machine { instr, .. } => {
                    let ins = m.instr(*instr);
                    if ins.sem.is_branch() || ins.sem.op == isa_tablegen::SemOp::Syscall {
                        return err(format!("inst {i}: '{}' transfers control", ins.mnemonic));
                    }
                }
            }
        }
        match (&block.term, fx.branch_cycle) {
            (Terminator::Jump(_), None) => {}
            (Terminator::Branch { .. }, Some(bc)) => {
                if bc + delay + 1 != fx.len {
                    return err(format!(
                        "the branch in cycle {bc} with {delay} delay slots ends in cycle {}, but the block is {} bundles long (branch_cycle must be len - 1 - {delay})",
                        bc + delay,
                        fx.len
                    ));
                }
            }
            (Terminator::Branch { .. }, None) => return err("a conditional branch needs a branch_cycle".into()),
            (Terminator::Jump(_), Some(_)) => return err("branch_cycle is only for a conditional branch".into()),
            _ => return err("a fixed block ends in a jump or a conditional branch".into()),
        }
        if !fx.drains {
            for s in block.term.successors() {
                let fixed = (s.0 as usize) < nblocks && f.block(s).fixed.is_some();
                if !fixed {
                    return err(format!("successor bb{} is an ordinary block, so this block must drain", s.0));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::sem_inst;
    use crate::{FixedBlock, Inst, Reg, VReg};
    use isa_tablegen::{ArgPat, SemOp, Ty, Want};

    /// entry → bb1 (fixed kernel: `v = v + 1` in cycle 0, branch) → bb2 (fixed, drains) → bb3 (return).
    fn kernel(m: &Machine) -> Function {
        let int = m.scalar_file(Ty::I32).unwrap();
        let pred = m.predicate_file().unwrap();
        let mut f = Function::new("k");
        for name in ["entry", "kernel", "epilogue", "exit"] {
            f.new_block(name);
        }
        let v = Reg::Virt(f.new_vreg(int));
        let p = Reg::Virt(f.new_vreg(pred));
        let add = m
            .find_instr(&Want { op: SemOp::Add, ty: Some(Ty::I32), ty2: None, dst: Some(int), args: &[ArgPat::Reg(int), ArgPat::Imm(1)] })
            .unwrap();
        let mut i = sem_inst(m, add, Some(Operand::Reg(v)), &[Operand::Reg(v), Operand::Imm(1)], None);
        i.cycle = Some(0);
        let delay = m.control.delay_slots;
        let b1 = f.block_mut(crate::Block(1));
        b1.insts.push(i);
        b1.fixed = Some(FixedBlock { len: delay + 1, branch_cycle: Some(0), drains: false });
        b1.term = Terminator::Branch { cond: p, negate: false, taken: crate::Block(1), not_taken: crate::Block(2) };
        f.block_mut(crate::Block(0)).term = Terminator::Jump(crate::Block(1));
        let b2 = f.block_mut(crate::Block(2));
        b2.fixed = Some(FixedBlock { len: 1, branch_cycle: None, drains: true });
        b2.term = Terminator::Jump(crate::Block(3));
        f.block_mut(crate::Block(3)).term = Terminator::Return { rets: vec![] };
        f
    }

    fn expect(m: &Machine, f: &Function, what: &str) {
        let e = verify(m, f, Stage::Selected).unwrap_err();
        assert!(e.contains(what), "{}: expected '{what}' in: {e}", m.name);
    }

    #[test]
    fn fixed_blocks() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            let good = kernel(&m);
            verify(&m, &good, Stage::Selected).unwrap();
            let delay = m.control.delay_slots;

            let mut f = good.clone();
            f.blocks[1].fixed.as_mut().unwrap().len = delay + 2;
            expect(&m, &f, "branch_cycle must be len - 1");
            let mut f = good.clone();
            f.blocks[1].fixed.as_mut().unwrap().branch_cycle = None;
            expect(&m, &f, "needs a branch_cycle");
            let mut f = good.clone();
            f.blocks[2].fixed.as_mut().unwrap().branch_cycle = Some(0);
            expect(&m, &f, "only for a conditional branch");
            let mut f = good.clone();
            f.blocks[1].insts[0].cycle = Some(delay + 1);
            expect(&m, &f, "past the block's");
            let mut f = good.clone();
            f.blocks[1].insts[0].cycle = None;
            expect(&m, &f, "has no cycle");
            let mut f = good.clone();
            f.blocks[0].insts.push(good.blocks[1].insts[0].clone());
            expect(&m, &f, "a cycle outside");
            let mut f = good.clone();
            let mut c = Inst::new(InstKind::Copy { dst: Reg::Virt(VReg(0)), src: Reg::Virt(VReg(0)) });
            c.cycle = Some(0);
            f.blocks[1].insts.push(c);
            expect(&m, &f, "is a copy");
            let mut f = good.clone();
            let mut i2 = good.blocks[1].insts[0].clone();
            i2.cycle = Some(0);
            f.blocks[1].insts[0].cycle = Some(1.min(delay));
            f.blocks[1].insts.push(i2);
            if delay >= 1 {
                expect(&m, &f, "cycle order");
            }
            // A kernel going to an ordinary block must drain.
            let mut f = good.clone();
            f.blocks[2].fixed = None;
            expect(&m, &f, "must drain");
            f.blocks[1].fixed.as_mut().unwrap().drains = true;
            verify(&m, &f, Stage::Selected).unwrap();
            // Returns and the entry block.
            let mut f = good.clone();
            f.blocks[2].term = Terminator::Return { rets: vec![] };
            expect(&m, &f, "ends in a jump or a conditional branch");
            let mut f = good.clone();
            f.blocks[0].fixed = Some(FixedBlock { len: 1, branch_cycle: None, drains: true });
            expect(&m, &f, "entry block");
        }
    }
}

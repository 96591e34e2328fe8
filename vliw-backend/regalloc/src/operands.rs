//! The register operands of an instruction or terminator with their role
//! (read, written, or both), from the `.isa` semantics — the same rules as
//! `dsp_mir::uses_defs` (a guarded definition also reads its destination,
//! unless [`dsp_mir::Guard::undef_when_false`]),
//! plus call clobbers, and mutable access to the rewritable register slots.

use dsp_mir::{Callee, Inst, InstKind, Machine, PReg, Reg, Terminator};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Use,
    Def,
    UseDef,
}

impl Role {
    pub fn is_use(self) -> bool {
        matches!(self, Role::Use | Role::UseDef)
    }
    pub fn is_def(self) -> bool {
        matches!(self, Role::Def | Role::UseDef)
    }
}

fn machine_role(m: &Machine, instr: isa_tablegen::InstrId, j: usize, guarded: bool) -> Role {
    let sem = &m.instr(instr).sem;
    let used = sem.args.iter().any(|a| a.0 == j);
    let def = sem.dst.is_some_and(|d| d.0 == j);
    match (used, def) {
        (_, true) if used || guarded => Role::UseDef,
        (_, true) => Role::Def,
        // A register operand outside the semantics is treated as read.
        _ => Role::Use,
    }
}

/// Every register an instruction reads or writes, with its role. Calls list
/// their argument registers, result registers and (as definitions) every
/// register in `clobbers`.
pub fn inst_regs(m: &Machine, inst: &Inst, clobbers: &[PReg]) -> Vec<(Reg, Role)> {
    let mut out = Vec::new();
    match &inst.kind {
        InstKind::Machine { instr, guard, ops } => {
            if let Some(g) = guard {
                out.push((g.reg, Role::Use));
            }
            for (j, o) in ops.iter().enumerate() {
                if let dsp_mir::Operand::Reg(r) = o {
                    out.push((*r, machine_role(m, *instr, j, guard.is_some_and(|g| g.keeps_old_value()))));
                }
            }
        }
        InstKind::Copy { dst, src } => {
            out.push((*src, Role::Use));
            out.push((*dst, Role::Def));
        }
        InstKind::Phi { dst, incoming } => {
            out.extend(incoming.iter().map(|(_, r)| (*r, Role::Use)));
            out.push((Reg::Virt(*dst), Role::Def));
        }
        InstKind::Call { callee, args, rets } => {
            if let Callee::Reg(r) = callee {
                out.push((*r, Role::Use));
            }
            out.extend(args.iter().map(|&p| (Reg::Phys(p), Role::Use)));
            out.extend(rets.iter().map(|&p| (Reg::Phys(p), Role::Def)));
            out.extend(clobbers.iter().filter(|c| !rets.contains(c)).map(|&p| (Reg::Phys(p), Role::Def)));
        }
    }
    out
}

/// Registers a terminator reads.
pub fn term_uses(t: &Terminator) -> Vec<Reg> {
    match t {
        Terminator::Branch { cond, .. } => vec![*cond],
        Terminator::IndirectJump { target, .. } => vec![*target],
        Terminator::Return { rets } => rets.iter().map(|&p| Reg::Phys(p)).collect(),
        Terminator::Jump(_) | Terminator::Unreachable => vec![],
    }
}

/// Calls `f` on every rewritable register slot of an instruction (not the
/// fixed argument/result lists of calls), with its role.
pub fn for_each_reg_mut(m: &Machine, inst: &mut Inst, mut f: impl FnMut(&mut Reg, Role)) {
    match &mut inst.kind {
        InstKind::Machine { instr, guard, ops } => {
            let guarded = guard.is_some_and(|g| g.keeps_old_value());
            if let Some(g) = guard {
                f(&mut g.reg, Role::Use);
            }
            for (j, o) in ops.iter_mut().enumerate() {
                if let dsp_mir::Operand::Reg(r) = o {
                    f(r, machine_role(m, *instr, j, guarded));
                }
            }
        }
        InstKind::Copy { dst, src } => {
            f(src, Role::Use);
            f(dst, Role::Def);
        }
        InstKind::Phi { dst, incoming } => {
            for (_, r) in incoming.iter_mut() {
                f(r, Role::Use);
            }
            let mut d = Reg::Virt(*dst);
            f(&mut d, Role::Def);
            if let Reg::Virt(v) = d {
                *dst = v;
            }
        }
        InstKind::Call { callee, .. } => {
            if let Callee::Reg(r) = callee {
                f(r, Role::Use);
            }
        }
    }
}

/// Calls `f` on every register slot a terminator reads.
pub fn for_each_term_reg_mut(t: &mut Terminator, mut f: impl FnMut(&mut Reg)) {
    match t {
        Terminator::Branch { cond, .. } => f(cond),
        Terminator::IndirectJump { target, .. } => f(target),
        _ => {}
    }
}

//! Machine queries the scheduler needs beyond `isa_tablegen::query`: the
//! instruction that copies a register of a file, and the branch, jump and
//! call instructions, all found by their semantics (never by mnemonic).

use isa_tablegen::{ArgPat, InstrId, Machine, OperandKind, RegFileId, SemOp, Want};

/// The cheapest instruction that copies a register of `file` into another
/// register of the same file: a `mov` (`d = mov(a)`), or else a bitwise
/// `or`/`and` of the source with itself. Ties prefer the lower latency, then
/// `mov`, then the first in the file.
pub fn copy_instr(m: &Machine, file: RegFileId) -> Option<InstrId> {
    let rf = m.regfile(file);
    let elem_bits = rf.lanes.map(|l| l.elem_bits).unwrap_or(rf.width);
    let mut best: Option<((u32, u32, bool, usize), InstrId)> = None;
    for (i, ins) in m.instrs.iter().enumerate() {
        let sem = &ins.sem;
        let shape_ok = match sem.op {
            SemOp::Mov => sem.args.len() == 1,
            SemOp::Or | SemOp::And => sem.args.len() == 2 && !sem.ty.is_some_and(|t| t.is_float()),
            _ => false,
        };
        if !shape_ok || sem.ty2.is_some() || sem.ty.is_some_and(|t| t.bits() < elem_bits) {
            continue;
        }
        let Some(d) = sem.dst else { continue };
        if ins.operands[d.0].kind != OperandKind::Reg(file) {
            continue;
        }
        // Every argument a register of the file, none of them the destination.
        if !sem
            .args
            .iter()
            .all(|a| a.0 != d.0 && ins.operands[a.0].kind == OperandKind::Reg(file))
        {
            continue;
        }
        let key = (ins.cost, ins.latency, sem.op != SemOp::Mov, i);
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, InstrId(i as u16)));
        }
    }
    best.map(|(_, id)| id)
}

fn control(m: &Machine, op: SemOp, arg: ArgPat) -> Option<InstrId> {
    m.find_instr(&Want {
        op,
        ty: None,
        ty2: None,
        dst: None,
        args: &[arg],
    })
}

/// The pc-relative branch (`br(target)`).
pub fn branch_instr(m: &Machine) -> Option<InstrId> {
    control(m, SemOp::Br, ArgPat::PcRel)
}

/// The branch on a register of `file` being nonzero (`brnz(ra, target)`),
/// or zero when `zero`.
pub fn branch_on_reg_instr(m: &Machine, file: RegFileId, zero: bool) -> Option<InstrId> {
    m.find_instr(&Want {
        op: if zero { SemOp::BrZ } else { SemOp::BrNz },
        ty: None,
        ty2: None,
        dst: None,
        args: &[ArgPat::Reg(file), ArgPat::PcRel],
    })
}

/// The jump through a register of `file` (`jmp(ra)`).
pub fn jump_reg_instr(m: &Machine, file: RegFileId) -> Option<InstrId> {
    control(m, SemOp::Jmp, ArgPat::Reg(file))
}

/// The pc-relative call (`call(target)`).
pub fn call_instr(m: &Machine) -> Option<InstrId> {
    control(m, SemOp::Call, ArgPat::PcRel)
}

/// The call through a register of `file` (`callr(ra)`).
pub fn call_reg_instr(m: &Machine, file: RegFileId) -> Option<InstrId> {
    control(m, SemOp::CallR, ArgPat::Reg(file))
}

/// Cycles a unit stays occupied after an instruction issues (1 = pipelined).
pub fn busy(m: &Machine, id: InstrId) -> u32 {
    m.instr(id).busy.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_copies_and_control_on_every_machine() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            for (f, file) in m.regfiles.iter().enumerate() {
                let id = copy_instr(&m, RegFileId(f as u16))
                    .unwrap_or_else(|| panic!("{name}: no copy for file {}", file.name));
                let sem = &m.instr(id).sem;
                assert!(
                    matches!(sem.op, SemOp::Mov | SemOp::Or | SemOp::And),
                    "{name}: {}",
                    m.instr(id).mnemonic
                );
            }
            let r = m.scalar_file(isa_tablegen::Ty::I32).unwrap();
            let copy = copy_instr(&m, r).unwrap();
            assert_eq!(m.instr(copy).sem.op, SemOp::Mov);
            assert!(branch_instr(&m).is_some());
            assert!(call_instr(&m).is_some());
            let link = m.control.link.unwrap();
            assert!(jump_reg_instr(&m, link.file).is_some());
            assert!(call_reg_instr(&m, link.file).is_some());
        }
    }
}

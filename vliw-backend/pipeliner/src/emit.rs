//! Building the few ordinary instructions the pipeliner adds (the trip-count
//! guard, the run-time overlap checks, the kernel's pass count), each found
//! in the `.isa` by its semantics.

use dsp_mir::builder::sem_inst;
use dsp_mir::{Guard, Inst, Machine, Operand, Reg, RegFileId};
use isa_tablegen::{ArgPat, InstrId, SemOp, Ty, Want};

pub struct Emit<'a> {
    pub m: &'a Machine,
    pub int: RegFileId,
    pub pred: RegFileId,
}

fn pat(o: &Operand, f: &dyn Fn(&Reg) -> RegFileId) -> ArgPat {
    match o {
        Operand::Reg(r) => ArgPat::Reg(f(r)),
        Operand::Imm(v) => ArgPat::Imm(*v),
        _ => ArgPat::SymImm,
    }
}

impl<'a> Emit<'a> {
    /// The instruction for `dst = op.ty(args)`; immediates that do not fit are
    /// the caller's to avoid (see [`Emit::op`]).
    fn find(&self, op: SemOp, tys: &[Ty], dst: RegFileId, args: &[ArgPat]) -> Option<InstrId> {
        tys.iter().find_map(|&ty| {
            self.m.find_instr(&Want { op, ty: Some(ty), ty2: None, dst: Some(dst), args })
        })
    }

    /// `dst = op(a, b)` over 32-bit values: registers, or immediates
    /// (loaded with `li` first when no immediate form takes them).
    pub fn op(
        &self,
        out: &mut Vec<Inst>,
        new_vreg: &mut dyn FnMut(RegFileId) -> Reg,
        file_of: &dyn Fn(&Reg) -> RegFileId,
        op: SemOp,
        tys: &[Ty],
        dst_file: RegFileId,
        args: &[Operand],
    ) -> Result<Reg, String> {
        let pats: Vec<ArgPat> = args.iter().map(|a| pat(a, file_of)).collect();
        let dst = new_vreg(dst_file);
        if let Some(id) = self.find(op, tys, dst_file, &pats) {
            out.push(sem_inst(self.m, id, Some(Operand::Reg(dst)), args, None));
            return Ok(dst);
        }
        // Registers for the immediates.
        let mut regs = Vec::new();
        for a in args {
            match a {
                Operand::Imm(v) => regs.push(Operand::Reg(self.li(out, new_vreg, *v)?)),
                o => regs.push(o.clone()),
            }
        }
        let pats: Vec<ArgPat> = regs.iter().map(|a| pat(a, file_of)).collect();
        let id = self
            .find(op, tys, dst_file, &pats)
            .ok_or_else(|| format!("the machine has no '{}' instruction for the loop guard", op.name()))?;
        out.push(sem_inst(self.m, id, Some(Operand::Reg(dst)), &regs, None));
        Ok(dst)
    }

    /// `dst = v` (a 32-bit constant).
    pub fn li(&self, out: &mut Vec<Inst>, new_vreg: &mut dyn FnMut(RegFileId) -> Reg, v: i64) -> Result<Reg, String> {
        let dst = new_vreg(self.int);
        let id = [Ty::I32, Ty::U32]
            .iter()
            .find_map(|&ty| self.m.find_instr(&Want { op: SemOp::Mov, ty: Some(ty), ty2: None, dst: Some(self.int), args: &[ArgPat::Imm(v)] }))
            .ok_or("the machine has no load-immediate")?;
        out.push(sem_inst(self.m, id, Some(Operand::Reg(dst)), &[Operand::Imm(v)], None));
        Ok(dst)
    }

    #[allow(dead_code)]
    pub fn guard(reg: Reg) -> Guard {
        Guard::new(reg, false)
    }
}

//! The machine as the DSL sees it: which of its instructions implement a
//! DSL operation for the program's element type, found by their semantics
//! in the `.isa` (never by mnemonic), so that the rules and the costs of a
//! new machine come from its file.

use isa_tablegen::{ArgPat, Instr, Machine, RegFileId, SemOp, Ty, Want};

use crate::lang::Elem;

/// An operand's place: a vector register, a scalar register, or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    V,
    S,
    Imm,
}

/// A machine, a lane count and an element type.
pub struct Target<'m> {
    pub m: &'m Machine,
    pub lanes: usize,
    pub elem: Elem,
    vfile: RegFileId,
    sfile: RegFileId,
    afile: RegFileId,
}

impl<'m> Target<'m> {
    /// The machine's 32-bit vectors for `elem`, or why there are none.
    pub fn new(m: &'m Machine, elem: Elem) -> Result<Target<'m>, String> {
        let lanes = m.vector_lanes(32).ok_or("the machine has no 32-bit vector registers")?;
        let vfile = m.vector_file(lanes, 32).ok_or("the machine has no 32-bit vector registers")?;
        let sfile = m.scalar_file(ty(elem)).ok_or("the machine has no scalar registers for the element type")?;
        let afile = m.scalar_file(Ty::I32).ok_or("the machine has no 32-bit scalar registers")?;
        Ok(Target { m, lanes: lanes as usize, elem, vfile, sfile, afile })
    }

    /// The cheapest instruction doing `op` on the element type (memory
    /// operations: also on 32-bit integers, the same bits) with a
    /// destination and arguments of these places.
    pub fn find(&self, op: SemOp, dst: Option<Opnd>, args: &[Opnd]) -> Option<&'m Instr> {
        let file = |o: Opnd, addr: bool| match o {
            Opnd::V => ArgPat::Reg(self.vfile),
            Opnd::S if addr => ArgPat::Reg(self.afile),
            Opnd::S => ArgPat::Reg(self.sfile),
            Opnd::Imm => ArgPat::Imm(0),
        };
        let memory = matches!(op, SemOp::Load | SemOp::VLoad | SemOp::VLoadU | SemOp::VLoadS | SemOp::Gather | SemOp::Store | SemOp::VStore | SemOp::VStoreU | SemOp::VStoreS);
        let strided = matches!(op, SemOp::VLoadS | SemOp::VStoreS);
        // Memory operations: the first argument is an address (and a
        // strided one's second its byte stride); a lane index (extract) is an integer.
        let pats: Vec<ArgPat> =
            args.iter().enumerate().map(|(k, &o)| file(o, (memory && k == 0) || (strided && k == 1) || (op == SemOp::Extract && k == 1))).collect();
        let dst = dst.map(|d| match file(d, false) {
            ArgPat::Reg(f) => f,
            _ => self.sfile,
        });
        let tys: &[Ty] = if memory || matches!(op, SemOp::Broadcast | SemOp::Extract | SemOp::Insert | SemOp::Shuffle | SemOp::Select) { &[ty(self.elem), Ty::I32] } else { &[ty(self.elem)] };
        tys.iter().find_map(|&t| self.m.find_instr(&Want { op, ty: Some(t), ty2: None, dst, args: &pats }).map(|id| self.m.instr(id)))
    }

    /// The instruction doing `op` on exactly `ty` (`shr` on `u32` is the
    /// logical shift, on `i32` the arithmetic one).
    pub fn find_ty(&self, op: SemOp, ty: Ty, dst: Option<Opnd>, args: &[Opnd]) -> Option<&'m Instr> {
        let file = |o: Opnd| match o {
            Opnd::V => ArgPat::Reg(self.vfile),
            Opnd::S => ArgPat::Reg(self.afile),
            Opnd::Imm => ArgPat::Imm(0),
        };
        let pats: Vec<ArgPat> = args.iter().map(|&o| file(o)).collect();
        let dst = dst.map(|d| match file(d) {
            ArgPat::Reg(f) => f,
            _ => self.afile,
        });
        self.m.find_instr(&Want { op, ty: Some(ty), ty2: None, dst, args: &pats }).map(|id| self.m.instr(id))
    }

    /// Whether the machine has such an instruction.
    pub fn has(&self, op: SemOp, dst: Option<Opnd>, args: &[Opnd]) -> bool {
        self.find(op, dst, args).is_some()
    }
}

/// The `.isa` type of an element type.
pub fn ty(e: Elem) -> Ty {
    match e {
        Elem::I32 => Ty::I32,
        Elem::F32 => Ty::F32,
    }
}

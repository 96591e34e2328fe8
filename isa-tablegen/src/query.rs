//! Finding instructions by what they do: the compiler asks for "an `add.i32`
//! writing file `r` from two `r` registers" or "an `add.i32` with an immediate
//! that fits 100", never for a mnemonic. This keeps every instruction choice
//! driven by the `.isa` file: a machine without the instruction answers
//! `None`, and the backend falls back (a sequence, a library call, or an
//! error naming what is missing).

use crate::model::{InstrId, Machine, OperandKind, RegFileId};
use crate::sem::{SemOp, Ty};

/// What a semantic argument must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgPat {
    /// A register of this file.
    Reg(RegFileId),
    /// An immediate operand able to hold this value.
    Imm(i64),
    /// An immediate operand that takes a relocated symbol address (32 bits).
    SymImm,
    /// A pc-relative target.
    PcRel,
}

/// A request for an instruction: the operation, its types, the destination
/// file and the semantic arguments in the order of the vocabulary (`sem.args`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Want<'a> {
    pub op: SemOp,
    pub ty: Option<Ty>,
    pub ty2: Option<Ty>,
    pub dst: Option<RegFileId>,
    pub args: &'a [ArgPat],
}

impl Machine {
    /// The cheapest instruction matching a request (ties: the first in the file).
    pub fn find_instr(&self, want: &Want) -> Option<InstrId> {
        let mut best: Option<(u32, usize)> = None;
        for (i, ins) in self.instrs.iter().enumerate() {
            let sem = &ins.sem;
            if sem.op != want.op || sem.ty != want.ty || sem.ty2 != want.ty2 || sem.args.len() != want.args.len() {
                continue;
            }
            let dst_ok = match (sem.dst, want.dst) {
                (Some(d), Some(f)) => ins.operands[d.0].kind == OperandKind::Reg(f),
                (None, None) => true,
                _ => false,
            };
            if !dst_ok {
                continue;
            }
            let args_ok = sem.args.iter().zip(want.args).all(|(a, pat)| {
                let kind = ins.operands[a.0].kind;
                match *pat {
                    ArgPat::Reg(f) => kind == OperandKind::Reg(f),
                    ArgPat::Imm(v) => match kind.imm_range() {
                        Some((lo, hi)) if !matches!(kind, OperandKind::PcRel(_)) => lo <= v && v <= hi,
                        _ => false,
                    },
                    ArgPat::SymImm => matches!(kind, OperandKind::Imm(_, bits) if bits >= 32),
                    ArgPat::PcRel => matches!(kind, OperandKind::PcRel(_)),
                }
            });
            // An argument that is also the destination (insert) must be the same operand.
            if args_ok && best.is_none_or(|(c, _)| ins.cost < c) {
                best = Some((ins.cost, i));
            }
        }
        best.map(|(_, i)| InstrId(i as u16))
    }

    /// The register file that holds scalar values of a type: the destination
    /// file of the machine's `add` (or `mov`) of that type. Integer types
    /// narrower than the narrowest such file live in it, extended.
    pub fn scalar_file(&self, ty: Ty) -> Option<RegFileId> {
        let by_op = |op: SemOp, t: Ty| {
            self.instrs.iter().find_map(|ins| {
                let d = ins.sem.dst?;
                match ins.operands[d.0].kind {
                    OperandKind::Reg(f)
                        if ins.sem.op == op
                            && ins.sem.ty == Some(t)
                            && self.regfile(f).lanes.is_none()
                            && self.regfile(f).width >= t.bits()
                            && self.regfile(f).mask_of.is_none() =>
                    {
                        Some(f)
                    }
                    _ => None,
                }
            })
        };
        by_op(SemOp::Add, ty).or_else(|| by_op(SemOp::Mov, ty)).or_else(|| {
            // i8/i16: the file that holds i32.
            (ty.bits() < 32 && !ty.is_float()).then(|| self.scalar_file(Ty::I32)).flatten()
        })
    }

    /// The file of 1-bit predicates that guards and compares use.
    pub fn predicate_file(&self) -> Option<RegFileId> {
        self.encoding.guard.map(|g| g.file)
    }

    /// The vector file with `lanes` lanes of `elem_bits` bits, if any.
    pub fn vector_file(&self, lanes: u32, elem_bits: u32) -> Option<RegFileId> {
        self.regfiles
            .iter()
            .position(|f| f.lanes.is_some_and(|l| l.count == lanes && l.elem_bits == elem_bits))
            .map(|i| RegFileId(i as u16))
    }

    /// The widest vector file's lane count for elements of `elem_bits` bits.
    pub fn vector_lanes(&self, elem_bits: u32) -> Option<u32> {
        self.regfiles.iter().filter_map(|f| f.lanes).filter(|l| l.elem_bits == elem_bits).map(|l| l.count).max()
    }

    /// Bytes of the widest vector register (0 when the machine has no vector
    /// file): what one full-width vector store writes. The linker aligns
    /// `.bss` to it and `dsp-as` names it `__dsp_vector_bytes` (`crt0.s`).
    pub fn vector_bytes(&self) -> u32 {
        self.regfiles.iter().filter(|f| f.lanes.is_some()).map(|f| f.width / 8).max().unwrap_or(0)
    }

    /// The lane-mask file of a vector file.
    pub fn mask_file(&self, vector: RegFileId) -> Option<RegFileId> {
        self.regfiles.iter().position(|f| f.mask_of == Some(vector)).map(|i| RegFileId(i as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_instructions_by_semantics_on_every_machine() {
        for name in crate::builtin::names() {
            let m = Machine::load(name).unwrap();
            let r = m.scalar_file(Ty::I32).unwrap();
            let d = m.scalar_file(Ty::I64).unwrap();
            assert_ne!(r, d);
            assert_eq!(m.scalar_file(Ty::F32), Some(r));
            assert_eq!(m.scalar_file(Ty::F64), Some(d));
            assert_eq!(m.scalar_file(Ty::I8), Some(r));
            let add = m
                .find_instr(&Want { op: SemOp::Add, ty: Some(Ty::I32), ty2: None, dst: Some(r), args: &[ArgPat::Reg(r), ArgPat::Reg(r)] })
                .unwrap();
            assert_eq!(m.instr(add).sem.op, SemOp::Add);
            let addi = m
                .find_instr(&Want { op: SemOp::Add, ty: Some(Ty::I32), ty2: None, dst: Some(r), args: &[ArgPat::Reg(r), ArgPat::Imm(100)] })
                .unwrap();
            assert_ne!(add, addi);
            assert!(m
                .find_instr(&Want { op: SemOp::Add, ty: Some(Ty::I32), ty2: None, dst: Some(r), args: &[ArgPat::Reg(r), ArgPat::Imm(1 << 40)] })
                .is_none());
            let lanes = m.vector_lanes(32).unwrap();
            let v = m.vector_file(lanes, 32).unwrap();
            assert!(m.mask_file(v).is_some());
            assert_eq!(m.vector_bytes(), lanes * 4, "{name}");
            assert!(m.predicate_file().is_some());
            let br = m.find_instr(&Want { op: SemOp::Br, ty: None, ty2: None, dst: None, args: &[ArgPat::PcRel] });
            assert!(br.is_some());
        }
    }
}

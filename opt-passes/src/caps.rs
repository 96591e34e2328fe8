//! What the selected machine can do directly, asked of its `.isa` by
//! semantics (never by mnemonic): "is there a `min.i32` reading `r`
//! registers?", "a `popcnt.i64` reading `d`?", "a lane-wise `min.i32` on the
//! vector file?". The expansion passes keep an intrinsic when the answer is
//! yes and rewrite it into plain IR when it is no.

use isa_tablegen::{Machine, OperandKind, RegFileId, SemOp, Ty};

use crate::ir::Shape;

/// Signedness wanted of an operation's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    Signed,
    Unsigned,
    /// Either (bit operations: `clz.i32` and `clz.u32` do the same).
    Any,
}

/// The machine's capabilities, as the passes ask for them.
pub struct Caps<'a> {
    pub m: &'a Machine,
}

impl<'a> Caps<'a> {
    pub fn new(m: &'a Machine) -> Caps<'a> {
        Caps { m }
    }

    /// The register file values of `shape` live in: scalar integers of up to
    /// 32 bits in the file of `i32`, 64-bit ones in the file of `i64`, floats
    /// in theirs, vectors in the machine's vector file of that element width.
    pub fn file_of(&self, shape: Shape) -> Option<RegFileId> {
        match shape.lanes {
            Some(lanes) => {
                let exact = self.m.vector_file(lanes, shape.bits);
                exact.or_else(|| {
                    let widest = self.m.vector_lanes(shape.bits)?;
                    self.m.vector_file(widest, shape.bits)
                })
            }
            None => self.m.scalar_file(self.elem_ty(shape, Sign::Signed)?),
        }
    }

    /// The vocabulary type of `shape`'s elements (integers of up to 32 bits are
    /// computed as 32-bit values).
    fn elem_ty(&self, shape: Shape, sign: Sign) -> Option<Ty> {
        let signed = sign != Sign::Unsigned;
        Some(match (shape.float, shape.bits, signed) {
            (true, 32, _) => Ty::F32,
            (true, 64, _) => Ty::F64,
            (false, 1..=32, true) if shape.lanes.is_none() => Ty::I32,
            (false, 1..=32, false) if shape.lanes.is_none() => Ty::U32,
            (false, 8, true) => Ty::I8,
            (false, 8, false) => Ty::U8,
            (false, 16, true) => Ty::I16,
            (false, 16, false) => Ty::U16,
            (false, 32, true) => Ty::I32,
            (false, 32, false) => Ty::U32,
            (false, 64, true) => Ty::I64,
            (false, 64, false) => Ty::U64,
            _ => return None,
        })
    }

    /// Whether the machine has `op` on values of `shape` (all arguments in
    /// the shape's register file; the result may go to any file).
    pub fn has(&self, op: SemOp, shape: Shape, sign: Sign) -> bool {
        let Some(file) = self.file_of(shape) else {
            return false;
        };
        let tys: Vec<Ty> = match sign {
            Sign::Any => [Sign::Signed, Sign::Unsigned]
                .iter()
                .filter_map(|s| self.elem_ty(shape, *s))
                .collect(),
            s => self.elem_ty(shape, s).into_iter().collect(),
        };
        self.m.instrs.iter().any(|ins| {
            ins.sem.op == op
                && ins.sem.ty.is_some_and(|t| tys.contains(&t))
                && ins.sem.ty2.is_none()
                && ins.sem.args.len() == op.arity()
                && ins
                    .sem
                    .args
                    .iter()
                    .all(|a| ins.operands[a.0].kind == OperandKind::Reg(file))
        })
    }

    /// Whether the machine has any instruction with semantics `op.ty`
    /// (whatever its register files: e.g. a gather's base and indices).
    pub fn has_any(&self, op: SemOp, ty: Ty) -> bool {
        self.m.instrs.iter().any(|ins| ins.sem.op == op && ins.sem.ty == Some(ty))
    }

    /// The machine's natural scalar integer width: the widest `add` on a scalar file.
    pub fn has_scalar_i64(&self) -> bool {
        self.m.scalar_file(Ty::I64).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u32, lanes: Option<u32>) -> Shape {
        Shape {
            bits,
            lanes,
            float: false,
        }
    }

    #[test]
    fn shipped_machines_have_scalar_and_vector_minmax_but_no_i64_minmax() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            let c = Caps::new(&m);
            let lanes = m.vector_lanes(32).unwrap();
            assert!(c.has(SemOp::Min, int(32, None), Sign::Signed), "{name}");
            assert!(c.has(SemOp::Min, int(8, None), Sign::Unsigned), "{name}");
            assert!(
                c.has(SemOp::Max, int(32, Some(lanes)), Sign::Signed),
                "{name}"
            );
            assert!(!c.has(SemOp::Min, int(64, None), Sign::Signed), "{name}");
            assert!(c.has(SemOp::Popcnt, int(64, None), Sign::Any), "{name}");
            assert!(
                !c.has(SemOp::Popcnt, int(32, Some(lanes)), Sign::Any),
                "{name}"
            );
            assert!(
                c.has(
                    SemOp::Abs,
                    Shape {
                        bits: 32,
                        lanes: None,
                        float: true
                    },
                    Sign::Any
                ),
                "{name}"
            );
            assert!(!c.has(SemOp::Min, int(16, Some(8)), Sign::Signed), "{name}");
        }
    }
}

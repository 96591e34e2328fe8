//! Building machine instructions from their semantics: callers give the
//! destination and the semantic arguments (in the vocabulary's order, as in
//! `isa_tablegen::Want`), and get the operands in the instruction's own
//! operand order.

use isa_tablegen::{InstrId, Machine};

use crate::{Guard, Inst, InstKind, Operand};

/// A machine instruction `dst = op(args…)` for `instr`.
///
/// Panics only on a caller bug: an argument count that differs from the
/// instruction's semantics (the selector found `instr` for exactly this shape).
pub fn sem_inst(m: &Machine, instr: InstrId, dst: Option<Operand>, args: &[Operand], guard: Option<Guard>) -> Inst {
    let ins = m.instr(instr);
    assert_eq!(args.len(), ins.sem.args.len(), "'{}' takes {} arguments", ins.mnemonic, ins.sem.args.len());
    let mut ops: Vec<Option<Operand>> = vec![None; ins.operands.len()];
    if let (Some(d), Some(dst)) = (ins.sem.dst, dst) {
        ops[d.0] = Some(dst);
    }
    for (a, v) in ins.sem.args.iter().zip(args) {
        // An operand both read and written (insert) keeps the destination.
        if ops[a.0].is_none() {
            ops[a.0] = Some(v.clone());
        }
    }
    let ops = ops
        .into_iter()
        .enumerate()
        .map(|(i, o)| o.unwrap_or_else(|| panic!("'{}': operand {i} not given", ins.mnemonic)))
        .collect();
    Inst::new(InstKind::Machine { instr, guard, ops })
}

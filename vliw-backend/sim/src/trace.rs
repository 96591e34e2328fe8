//! Rendering operations and bundles as text, with the machine's mnemonics and
//! register names (for `--trace` and error messages).

use isa_tablegen::{Machine, Op, OperandKind, Reg};

/// One operation in assembly syntax, e.g. `(!p1) addi r5, r5, -1`; a
/// pc-relative operand is shown as its absolute target address.
pub fn format_op(m: &Machine, op: &Op, pc: u32) -> String {
    let instr = m.instr(op.instr);
    let mut s = String::new();
    if let (Some(g), Some(gf)) = (op.guard, m.encoding.guard.as_ref()) {
        s.push('(');
        if g.negate {
            s.push('!');
        }
        s.push_str(&m.reg_name(Reg { file: gf.file, index: g.reg }));
        s.push_str(") ");
    }
    s.push_str(&instr.mnemonic);
    for (i, (operand, &v)) in instr.operands.iter().zip(&op.args).enumerate() {
        s.push_str(if i == 0 { " " } else { ", " });
        match operand.kind {
            OperandKind::Reg(file) => s.push_str(&m.reg_name(Reg { file, index: v as u16 })),
            OperandKind::Imm(..) => s.push_str(&v.to_string()),
            OperandKind::PcRel(_) => {
                let target = (pc as i64).wrapping_add(v.wrapping_mul(m.op_bytes() as i64)) as u32;
                s.push_str(&format!("{target:#x}"));
            }
        }
    }
    s
}

/// A bundle as `{ op ; op }` (a single operation without braces).
pub fn format_bundle(m: &Machine, ops: &[Op], pcs: &[u32]) -> String {
    let parts: Vec<String> = ops.iter().zip(pcs).map(|(o, &pc)| format_op(m, o, pc)).collect();
    if parts.len() == 1 {
        parts.into_iter().next().unwrap_or_default()
    } else {
        format!("{{ {} }}", parts.join(" ; "))
    }
}

/// One trace line: cycle, pc, function+offset, the bundle.
pub fn trace_line(cycle: u64, pc: u32, location: &str, bundle: &str) -> String {
    format!("{cycle:>10}  {pc:#010x}  {location:<24} {bundle}\n")
}

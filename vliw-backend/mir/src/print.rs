//! A readable dump of MIR (`dsp-llc --print-mir`, test failures).

use std::fmt::Write;

use isa_tablegen::Machine;

use crate::{Callee, Function, InstKind, Operand, Reg, Terminator};

pub fn reg(m: &Machine, f: &Function, r: Reg) -> String {
    match r {
        Reg::Virt(v) => format!("%{}{}", m.regfile(f.vreg_file(v)).name, v.0),
        Reg::Phys(p) => m.reg_name(p),
    }
}

pub fn operand(m: &Machine, f: &Function, o: &Operand) -> String {
    match o {
        Operand::Reg(r) => reg(m, f, *r),
        Operand::Imm(v) => v.to_string(),
        Operand::Sym { name, offset: 0 } => name.clone(),
        Operand::Sym { name, offset } => format!("{name}{offset:+}"),
        Operand::Frame { index, offset } => format!("fi#{}{offset:+}", index.0),
    }
}

pub fn function(m: &Machine, f: &Function) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "function {}{}:", f.name, if f.variadic { " (variadic)" } else { "" });
    for (i, o) in f.frame.iter().enumerate() {
        let _ = writeln!(s, "  fi#{i}: {} bytes align {} {:?}", o.size, o.align, o.kind);
    }
    for (b, data) in f.blocks.iter().enumerate() {
        let _ = writeln!(s, "bb{b} ({}):", data.name);
        for inst in &data.insts {
            let text = match &inst.kind {
                InstKind::Machine { instr, guard, ops } => {
                    let g = guard
                        .map(|g| format!("({}{}) ", if g.negate { "!" } else { "" }, reg(m, f, g.reg)))
                        .unwrap_or_default();
                    let ops: Vec<String> = ops.iter().map(|o| operand(m, f, o)).collect();
                    format!("{g}{} {}", m.instr(*instr).mnemonic, ops.join(", "))
                }
                InstKind::Copy { dst, src } => format!("{} = copy {}", reg(m, f, *dst), reg(m, f, *src)),
                InstKind::Phi { dst, incoming } => {
                    let inc: Vec<String> =
                        incoming.iter().map(|(b, r)| format!("[bb{}: {}]", b.0, reg(m, f, *r))).collect();
                    format!("{} = phi {}", reg(m, f, Reg::Virt(*dst)), inc.join(" "))
                }
                InstKind::Call { callee, args, rets } => {
                    let c = match callee {
                        Callee::Sym(n) => n.clone(),
                        Callee::Reg(r) => reg(m, f, *r),
                    };
                    let a: Vec<String> = args.iter().map(|&p| m.reg_name(p)).collect();
                    let r: Vec<String> = rets.iter().map(|&p| m.reg_name(p)).collect();
                    format!("call {c} uses({}) defs({})", a.join(" "), r.join(" "))
                }
            };
            let _ = writeln!(s, "    {text}");
        }
        let t = match &data.term {
            Terminator::Jump(b) => format!("jump bb{}", b.0),
            Terminator::Branch { cond, negate, taken, not_taken } => format!(
                "branch {}{} bb{} else bb{}",
                if *negate { "!" } else { "" },
                reg(m, f, *cond),
                taken.0,
                not_taken.0
            ),
            Terminator::IndirectJump { target, targets } => {
                let t: Vec<String> = targets.iter().map(|b| format!("bb{}", b.0)).collect();
                format!("jump {} [{}]", reg(m, f, *target), t.join(" "))
            }
            Terminator::Return { rets } => {
                let r: Vec<String> = rets.iter().map(|&p| m.reg_name(p)).collect();
                format!("return {}", r.join(" "))
            }
            Terminator::Unreachable => "unreachable".into(),
        };
        let _ = writeln!(s, "    {t}");
    }
    s
}

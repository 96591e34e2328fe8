//! Branches on a register: a block that ends in a branch on `p = ne(x, 0)`
//! or `p = eq(x, 0)`, where `p` is computed for that branch alone, branches
//! on `x` itself with the machine's branch on a register being nonzero or
//! zero (`brnz`/`brz`, when the `.isa` has one for `x`'s file), and the
//! compare goes: one operation and one latency fewer on the way to the
//! branch (a `while (x)` loop's test, a `j & bit` in FFT's bit reversal).
//!
//! Machine IR to machine IR, before register allocation and after software
//! pipelining (whose recognition of counted loops reads the compare).
//! Blocks with a fixed schedule are left alone.

use std::collections::HashMap;

use dsp_mir::{uses_defs, Function, InstKind, Machine, Operand, Reg, Terminator};
use isa_tablegen::{SemOp, SpecialKind};

/// Times each register is read in `f` (instructions and terminators).
fn reads(m: &Machine, f: &Function) -> HashMap<Reg, usize> {
    let mut n: HashMap<Reg, usize> = HashMap::new();
    for b in &f.blocks {
        for i in &b.insts {
            for u in uses_defs(m, i).0 {
                *n.entry(u).or_default() += 1;
            }
        }
        match &b.term {
            Terminator::Branch { cond: r, .. } | Terminator::IndirectJump { target: r, .. } => {
                *n.entry(*r).or_default() += 1
            }
            _ => {}
        }
    }
    n
}

/// Rewrites every such branch of `f`; returns how many.
pub fn run(m: &Machine, f: &mut Function) -> usize {
    let mut done = 0;
    let mut read = reads(m, f);
    for b in 0..f.blocks.len() {
        let data = &f.blocks[b];
        if data.fixed.is_some() {
            continue;
        }
        let Terminator::Branch { cond, negate, taken, not_taken } = data.term.clone() else { continue };
        let Reg::Virt(_) = cond else { continue };
        let Some(ci) = data.insts.iter().rposition(|i| uses_defs(m, i).1.contains(&cond)) else { continue };
        let InstKind::Machine { instr, guard: None, ops } = &data.insts[ci].kind else { continue };
        let sem = &m.instr(*instr).sem;
        if !matches!(sem.op, SemOp::Eq | SemOp::Ne) || sem.args.len() != 2 {
            continue;
        }
        let zero = |o: &Operand| match o {
            Operand::Imm(0) => true,
            Operand::Reg(Reg::Phys(p)) => m.special(*p) == Some(SpecialKind::Zero),
            _ => false,
        };
        let (a, c) = (&ops[sem.args[0].0], &ops[sem.args[1].0]);
        let x = match (a, c) {
            (Operand::Reg(x), z) if zero(z) => *x,
            (z, Operand::Reg(x)) if zero(z) => *x,
            _ => continue,
        };
        // The compare reads the whole register: its type is the file's width.
        let file = f.reg_file(x);
        if sem.ty.map(|t| t.bits()) != Some(m.regfile(file).width) {
            continue;
        }
        let zero_test = sem.op == SemOp::Eq;
        let negate = negate != zero_test;
        if dsp_sched::query::branch_on_reg_instr(m, file, negate).is_none()
            || dsp_sched::query::branch_on_reg_instr(m, file, !negate).is_none()
        {
            continue;
        }
        // x keeps the compared value to the end of the block; p feeds only the branch.
        if data.insts[ci + 1..].iter().any(|i| uses_defs(m, i).1.contains(&x)) || read.get(&cond) != Some(&1) {
            continue;
        }
        let data = &mut f.blocks[b];
        data.insts.remove(ci);
        data.term = Terminator::Branch { cond: x, negate, taken, not_taken };
        *read.entry(x).or_default() += 1;
        done += 1;
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::builder::sem_inst;
    use dsp_mir::{Block, Inst, VReg};
    use isa_tablegen::{ArgPat, Ty, Want};

    fn inst(m: &Machine, op: SemOp, ty: Ty, dst: Reg, dst_file: dsp_mir::RegFileId, args: &[Operand]) -> Inst {
        let pats: Vec<ArgPat> = args
            .iter()
            .map(|a| match a {
                Operand::Imm(v) => ArgPat::Imm(*v),
                _ => ArgPat::Reg(m.scalar_file(Ty::I32).unwrap()),
            })
            .collect();
        let id = m
            .find_instr(&Want { op, ty: Some(ty), ty2: None, dst: Some(dst_file), args: &pats })
            .unwrap_or_else(|| panic!("{}: no {op:?}.{ty:?}", m.name));
        sem_inst(m, id, Some(Operand::Reg(dst)), args, None)
    }

    /// bb0: x = a + 1; [extra]; p = op(x, 0); branch p ? bb1 : bb2.
    fn function(m: &Machine, op: SemOp, ty: Ty, extra: impl Fn(&mut Function, Reg, Reg) -> Vec<Inst>) -> (Function, Reg, Reg) {
        let int = m.scalar_file(Ty::I32).unwrap();
        let pred = m.predicate_file().unwrap();
        let mut f = Function::new("f");
        for name in ["entry", "a", "b"] {
            f.new_block(name);
        }
        let a = Reg::Virt(f.new_vreg(int));
        let x = Reg::Virt(f.new_vreg(int));
        let p = Reg::Virt(f.new_vreg(pred));
        let mut insts = vec![inst(m, SemOp::Add, Ty::I32, x, int, &[Operand::Reg(a), Operand::Imm(1)])];
        insts.extend(extra(&mut f, x, p));
        insts.push(inst(m, op, ty, p, pred, &[Operand::Reg(x), Operand::Imm(0)]));
        f.block_mut(Block(0)).insts = insts;
        f.block_mut(Block(0)).term = Terminator::Branch { cond: p, negate: false, taken: Block(1), not_taken: Block(2) };
        (f, x, p)
    }

    fn machines() -> Vec<Machine> {
        isa_tablegen::builtin::names().map(|n| Machine::load(n).unwrap()).collect()
    }

    #[test]
    fn a_compare_with_zero_made_for_the_branch_becomes_a_branch_on_the_register() {
        for m in machines() {
            if dsp_sched::query::branch_on_reg_instr(&m, m.scalar_file(Ty::I32).unwrap(), false).is_none() {
                continue;
            }
            for (op, negate) in [(SemOp::Ne, false), (SemOp::Eq, true)] {
                let (mut f, x, _) = function(&m, op, Ty::I32, |_, _, _| vec![]);
                assert_eq!(run(&m, &mut f), 1, "{}", m.name);
                assert_eq!(f.block(Block(0)).insts.len(), 1, "{}: the compare goes", m.name);
                assert_eq!(
                    f.block(Block(0)).term,
                    Terminator::Branch { cond: x, negate, taken: Block(1), not_taken: Block(2) },
                    "{} {op:?}",
                    m.name
                );
            }
        }
    }

    #[test]
    fn other_readers_of_the_predicate_or_a_later_write_of_the_register_keep_the_compare() {
        for m in machines() {
            let int = m.scalar_file(Ty::I32).unwrap();
            // The predicate is read by something else too (a guard).
            let (mut f, _, p) = function(&m, SemOp::Ne, Ty::I32, |_, _, _| vec![]);
            let Reg::Virt(pv) = p else { unreachable!() };
            let y = Reg::Virt(f.new_vreg(int));
            let mut guarded = inst(&m, SemOp::Mov, Ty::I32, y, int, &[Operand::Imm(3)]);
            if let InstKind::Machine { guard, .. } = &mut guarded.kind {
                *guard = Some(dsp_mir::Guard::new(Reg::Virt(VReg(pv.0)), false));
            }
            f.block_mut(Block(1)).insts.push(guarded);
            assert_eq!(run(&m, &mut f), 0, "{}", m.name);
            // x is written again between the compare and the branch.
            let (mut f, _, _) = function(&m, SemOp::Ne, Ty::I32, |_, _, _| vec![]);
            let x = match &f.block(Block(0)).insts[0].kind {
                InstKind::Machine { ops, .. } => ops[0].clone(),
                _ => unreachable!(),
            };
            let Operand::Reg(x) = x else { unreachable!() };
            let again = inst(&m, SemOp::Mov, Ty::I32, x, int, &[Operand::Imm(5)]);
            f.block_mut(Block(0)).insts.push(again);
            assert_eq!(run(&m, &mut f), 0, "{}", m.name);
            // A compare of a narrower type tests only the low bits.
            if m.find_instr(&Want { op: SemOp::Ne, ty: Some(Ty::I16), ty2: None, dst: m.predicate_file(), args: &[ArgPat::Reg(int), ArgPat::Imm(0)] }).is_some() {
                let (mut f, _, _) = function(&m, SemOp::Ne, Ty::I16, |_, _, _| vec![]);
                assert_eq!(run(&m, &mut f), 0, "{}", m.name);
            }
        }
    }
}

//! Clean-up of SSA machine IR before loops are pipelined, so that a kernel
//! holds only the work of an iteration:
//!
//! - local value numbering: a side-effect-free instruction that repeats an
//!   earlier one of its block (same instruction, same operands) is dropped
//!   and its result's readers read the earlier result (selection emits an
//!   address computation per access, LLVM's loop strength reduction leaves
//!   one per use);
//! - dead-code elimination: side-effect-free instructions whose result is
//!   never read are removed (addresses whose offset selection folded into
//!   the memory instruction);
//! - loop-invariant code motion out of innermost single-block loops:
//!   side-effect-free instructions whose operands are all defined outside the
//!   loop (constants, broadcasts of invariants, invariant addresses, stack
//!   addresses when the loop does not move the stack pointer) move to
//!   the loop's preheader instead of being recomputed every iteration.
//!
//! "Side-effect free" is read from the `.isa` semantics: arithmetic and
//! cross-unit operations with a destination, no memory access, no control,
//! and nothing that can fault (integer division and remainder stay where
//! they are, since hoisting would run them when the loop does not).

use std::collections::{HashMap, HashSet};

use dsp_mir::{Block, Function, InstKind, Machine, Operand, Reg, Terminator, VReg};
use isa_tablegen::{SemClass, SemOp};

use crate::candidate::def_of;

/// Whether `inst` only computes its destination and cannot fault.
pub(crate) fn pure(m: &Machine, inst: &dsp_mir::Inst) -> bool {
    match &inst.kind {
        InstKind::Machine { instr, guard: None, .. } => {
            let sem = &m.instr(*instr).sem;
            sem.dst.is_some()
                && matches!(sem.op.class(), SemClass::Alu | SemClass::Cross)
                && !sem.reads_memory()
                && !sem.writes_memory()
                && !matches!(sem.op, SemOp::Div | SemOp::Rem)
                && !sem.sources().any(|a| Some(a) == sem.dst.map(|d| d.0))
        }
        _ => false,
    }
}

/// Every register read anywhere in `f` (instructions and terminators).
fn read_counts(m: &Machine, f: &Function) -> HashMap<VReg, usize> {
    let mut n: HashMap<VReg, usize> = HashMap::new();
    for b in &f.blocks {
        for inst in &b.insts {
            for r in dsp_mir::uses_defs(m, inst).0 {
                if let Reg::Virt(v) = r {
                    *n.entry(v).or_insert(0) += 1;
                }
            }
            if let InstKind::Phi { incoming, .. } = &inst.kind {
                for (_, r) in incoming {
                    if let Reg::Virt(v) = r {
                        *n.entry(*v).or_insert(0) += 1;
                    }
                }
            }
        }
        match &b.term {
            Terminator::Branch { cond: Reg::Virt(v), .. } | Terminator::IndirectJump { target: Reg::Virt(v), .. } => {
                *n.entry(*v).or_insert(0) += 1;
            }
            _ => {}
        }
    }
    n
}

/// Replaces every register `inst` reads (not those it writes) that is a key
/// of `map` by its value: sources, guard, copy source, phi inputs.
pub(crate) fn rename_inst_reads(m: &Machine, inst: &mut dsp_mir::Inst, map: &HashMap<VReg, VReg>) {
    let swap = |r: &mut Reg| {
        if let Reg::Virt(v) = r {
            if let Some(&nv) = map.get(v) {
                *v = nv;
            }
        }
    };
    match &mut inst.kind {
        InstKind::Machine { instr, guard, ops } => {
            let sem = &m.instr(*instr).sem;
            for a in sem.sources() {
                if let Some(Operand::Reg(r)) = ops.get_mut(a) {
                    swap(r);
                }
            }
            if let Some(g) = guard {
                swap(&mut g.reg);
            }
        }
        InstKind::Copy { src, .. } => swap(src),
        InstKind::Phi { incoming, .. } => incoming.iter_mut().for_each(|(_, r)| swap(r)),
        InstKind::Call { .. } => {}
    }
}

/// Replaces every read of a key of `map` by its value.
fn rename_reads(m: &Machine, f: &mut Function, map: &HashMap<VReg, VReg>) {
    if map.is_empty() {
        return;
    }
    for b in &mut f.blocks {
        for inst in &mut b.insts {
            rename_inst_reads(m, inst, map);
        }
        match &mut b.term {
            Terminator::Branch { cond: Reg::Virt(v), .. } | Terminator::IndirectJump { target: Reg::Virt(v), .. } => {
                if let Some(&nv) = map.get(v) {
                    *v = nv;
                }
            }
            _ => {}
        }
    }
}

/// Local value numbering in every block; returns the instructions dropped.
pub fn value_number(m: &Machine, f: &mut Function) -> usize {
    let mut map: HashMap<VReg, VReg> = HashMap::new();
    let mut dropped = 0;
    for b in 0..f.blocks.len() {
        let mut seen: HashMap<(dsp_mir::InstrId, Vec<Operand>), VReg> = HashMap::new();
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut kept = Vec::with_capacity(insts.len());
        for mut inst in insts {
            // Earlier duplicates of this block already renamed.
            if matches!(inst.kind, InstKind::Machine { .. }) {
                rename_inst_reads(m, &mut inst, &map);
            }
            if pure(m, &inst) {
                let InstKind::Machine { instr, ops, .. } = &inst.kind else { unreachable!() };
                let d = m.instr(*instr).sem.dst.map(|d| d.0).unwrap_or(usize::MAX);
                let key_ops: Vec<Operand> =
                    ops.iter().enumerate().map(|(i, o)| if i == d { Operand::Imm(0) } else { o.clone() }).collect();
                if let Some(dst) = def_of(m, &inst.kind) {
                    if let Some(&first) = seen.get(&(*instr, key_ops.clone())) {
                        if f.vreg_file(first) == f.vreg_file(dst) {
                            map.insert(dst, first);
                            dropped += 1;
                            continue;
                        }
                    }
                    seen.insert((*instr, key_ops), dst);
                }
            }
            kept.push(inst);
        }
        f.blocks[b].insts = kept;
    }
    rename_reads(m, f, &map);
    dropped
}

/// Removes pure instructions whose result nobody reads; returns how many.
pub fn remove_dead(m: &Machine, f: &mut Function) -> usize {
    let mut total = 0;
    loop {
        let reads = read_counts(m, f);
        let mut removed = 0;
        for b in &mut f.blocks {
            b.insts.retain(|inst| {
                let dead = pure(m, inst) && def_of(m, &inst.kind).is_some_and(|v| !reads.contains_key(&v));
                removed += usize::from(dead);
                !dead
            });
        }
        if removed == 0 {
            return total;
        }
        total += removed;
    }
}

/// Moves loop-invariant pure instructions of every innermost single-block
/// loop with one outside predecessor to the end of that predecessor;
/// returns how many moved.
pub fn hoist_invariants(m: &Machine, f: &mut Function) -> usize {
    let preds = crate::candidate::predecessors(f);
    let mut moved = 0;
    for (l, lpreds) in preds.iter().enumerate() {
        let lb = Block(l as u32);
        if !f.blocks[l].term.successors().contains(&lb) || f.blocks[l].fixed.is_some() {
            continue;
        }
        let outside: Vec<Block> = lpreds.iter().copied().filter(|&p| p != lb).collect();
        let [pre] = outside[..] else { continue };
        if f.block(pre).fixed.is_some() {
            continue;
        }
        let mut defined: HashSet<VReg> = f.blocks[l].insts.iter().filter_map(|i| def_of(m, &i.kind)).collect();
        // A register defined twice in the loop (a copy, then an instruction
        // that reads and writes it, as `vins`) stays: hoisting its first
        // definition would carry the second one's value into the next iteration.
        let mut ndefs: HashMap<VReg, usize> = HashMap::new();
        for i in &f.blocks[l].insts {
            if let Some(v) = def_of(m, &i.kind) {
                *ndefs.entry(v).or_insert(0) += 1;
            }
        }
        // Physical registers the loop writes (a dynamic alloca moves the
        // stack pointer); the others hold their value through the loop.
        let written: HashSet<dsp_mir::PReg> = f.blocks[l]
            .insts
            .iter()
            .flat_map(|i| dsp_mir::uses_defs(m, i).1)
            .filter_map(|r| match r {
                Reg::Phys(p) => Some(p),
                Reg::Virt(_) => None,
            })
            .collect();
        let insts = std::mem::take(&mut f.blocks[l].insts);
        let mut kept = Vec::with_capacity(insts.len());
        let mut out = Vec::new();
        for inst in insts {
            let invariant = pure(m, &inst)
                && def_of(m, &inst.kind).is_none_or(|v| ndefs.get(&v) == Some(&1))
                && dsp_mir::uses_defs(m, &inst).0.iter().all(|r| match r {
                    Reg::Virt(v) => !defined.contains(v),
                    Reg::Phys(p) => m.special(*p).is_some() || (m.abi.sp == Some(*p) && !written.contains(p)),
                });
            if invariant {
                if let Some(v) = def_of(m, &inst.kind) {
                    defined.remove(&v);
                }
                out.push(inst);
            } else {
                kept.push(inst);
            }
        }
        moved += out.len();
        f.blocks[l].insts = kept;
        f.block_mut(pre).insts.extend(out);
    }
    moved
}

/// The three clean-ups, in the order that lets each help the next.
pub fn clean_loops(m: &Machine, f: &mut Function) {
    value_number(m, f);
    remove_dead(m, f);
    hoist_invariants(m, f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::builder::sem_inst;
    use isa_tablegen::{ArgPat, Ty, Want};

    fn find(m: &Machine, op: SemOp, args: &[ArgPat]) -> dsp_mir::InstrId {
        let r = m.scalar_file(Ty::I32).unwrap();
        m.find_instr(&Want { op, ty: Some(Ty::I32), ty2: None, dst: Some(r), args }).unwrap()
    }

    /// entry: a = arg; loop: k = li 5 (invariant); x = add(a, p); y = add(a, p)
    /// (a duplicate); dead = addi(x, 4); p' = add(x, k); back to loop.
    #[test]
    fn duplicates_dead_code_and_invariants() {
        let m = Machine::load("ftm").unwrap();
        let r = m.scalar_file(Ty::I32).unwrap();
        let li = find(&m, SemOp::Mov, &[ArgPat::Imm(5)]);
        let add = find(&m, SemOp::Add, &[ArgPat::Reg(r), ArgPat::Reg(r)]);
        let addi = find(&m, SemOp::Add, &[ArgPat::Reg(r), ArgPat::Imm(4)]);
        let mut f = Function::new("t");
        let entry = f.new_block("entry");
        let l = f.new_block("loop");
        let exit = f.new_block("exit");
        let [a, p, k, x, y, dead, p2] = [(); 7].map(|_| f.new_vreg(r));
        let reg = |v: VReg| Operand::Reg(Reg::Virt(v));
        f.block_mut(entry).insts.push(sem_inst(&m, li, Some(reg(a)), &[Operand::Imm(5)], None));
        f.block_mut(entry).term = Terminator::Jump(l);
        let body = vec![
            dsp_mir::Inst::new(InstKind::Phi { dst: p, incoming: vec![(entry, Reg::Virt(a)), (l, Reg::Virt(p2))] }),
            sem_inst(&m, li, Some(reg(k)), &[Operand::Imm(5)], None),
            sem_inst(&m, add, Some(reg(x)), &[reg(a), reg(p)], None),
            sem_inst(&m, add, Some(reg(y)), &[reg(a), reg(p)], None),
            sem_inst(&m, addi, Some(reg(dead)), &[reg(x), Operand::Imm(4)], None),
            sem_inst(&m, add, Some(reg(p2)), &[reg(y), reg(k)], None),
        ];
        f.block_mut(l).insts = body;
        // Loop while p2 (as a predicate stand-in: any register read by the terminator).
        f.block_mut(l).term = Terminator::IndirectJump { target: Reg::Virt(p2), targets: vec![l, exit] };
        f.block_mut(exit).term = Terminator::Return { rets: vec![] };

        assert_eq!(value_number(&m, &mut f), 1, "y repeats x");
        assert_eq!(remove_dead(&m, &mut f), 1, "dead is never read");
        assert_eq!(hoist_invariants(&m, &mut f), 1, "k is a constant");
        let body = &f.block(l).insts;
        assert_eq!(body.len(), 3, "phi, x, p2: {body:?}");
        let (uses, _) = dsp_mir::uses_defs(&m, &body[2]);
        assert_eq!(uses, vec![Reg::Virt(x), Reg::Virt(k)]);
        assert_eq!(f.block(entry).insts.len(), 2, "k moved to the preheader");
    }
}

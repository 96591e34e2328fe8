//! Loop-invariant reloads: when the values a loop computes do not fit in
//! the registers its invariants leave free (the modulo schedule's MaxLive
//! exceeds them), some invariants are stored once into stack slots where
//! they are defined and loaded again in the loop body, next to their uses.
//! A reloaded invariant then holds a register only from its load to its last
//! use instead of through the whole loop, at the cost of one load per
//! iteration — in a kernel whose load/store units have idle rows, nothing.
//! This is the spill-and-reload of a register allocator done before modulo
//! scheduling, where the scheduler can still place the loads (LLVM's
//! MachinePipeliner gives up on such loops instead).
//!
//! The slots are spill slots ([`FrameKind::Spill`]): private to the
//! function, never address-taken, never written in the loop, so the
//! dependence graph gives their loads no memory dependences (see
//! [`is_private_slot_load`]).

use std::collections::HashMap;

use dsp_mir::builder::sem_inst;
use dsp_mir::{Block, FrameKind, Function, InstKind, Machine, Operand, Reg, RegFileId, VReg};
use isa_tablegen::{ArgPat, InstrId, SemOp, Ty, Want};

use crate::candidate::{def_of, def_sites};

/// The load and store moving a whole register of `file` to and from memory,
/// and the bytes a slot needs.
fn slot_instrs(m: &Machine, file: RegFileId) -> Option<(InstrId, InstrId, u32)> {
    let rf = m.regfile(file);
    let addr = m.scalar_file(Ty::I32)?;
    let (ops, tys): ([SemOp; 2], &[Ty]) = match (rf.lanes, rf.width) {
        (Some(_), _) => ([SemOp::VLoad, SemOp::VStore], &[Ty::I32, Ty::U32, Ty::F32]),
        (None, 64) => ([SemOp::Load, SemOp::Store], &[Ty::I64, Ty::U64, Ty::F64]),
        (None, 32) => ([SemOp::Load, SemOp::Store], &[Ty::I32, Ty::U32, Ty::F32]),
        _ => return None,
    };
    let load = tys.iter().find_map(|&ty| {
        m.find_instr(&Want { op: ops[0], ty: Some(ty), ty2: None, dst: Some(file), args: &[ArgPat::Reg(addr), ArgPat::Imm(0)] })
    })?;
    let store = tys.iter().find_map(|&ty| {
        m.find_instr(&Want {
            op: ops[1],
            ty: Some(ty),
            ty2: None,
            dst: None,
            args: &[ArgPat::Reg(addr), ArgPat::Imm(0), ArgPat::Reg(file)],
        })
    })?;
    Some((load, store, rf.width / 8))
}

/// Whether `ops` of `instr` load from a spill slot (a private stack object
/// that only reloads read inside a loop).
pub fn is_private_slot_load(m: &Machine, f: &Function, instr: InstrId, ops: &[Operand]) -> bool {
    let sem = &m.instr(instr).sem;
    if !sem.reads_memory() || sem.writes_memory() {
        return false;
    }
    let Some(off) = sem.args.get(1).and_then(|a| ops.get(a.0)) else { return false };
    matches!(off, Operand::Frame { index, .. } if f.frame.get(index.0 as usize).is_some_and(|o| o.kind == FrameKind::Spill))
}

/// The invariants of loop block `l` in `file` that can be reloaded, fewest
/// uses in the loop first: registers defined outside the loop (not in a
/// fixed-schedule block), read by its non-phi instructions.
fn reloadable(m: &Machine, f: &Function, l: Block, file: RegFileId) -> Vec<VReg> {
    let body = &f.block(l).insts;
    let defined_here: std::collections::HashSet<VReg> = body.iter().filter_map(|i| def_of(m, &i.kind)).collect();
    let sites = def_sites(m, f);
    let mut uses: HashMap<VReg, usize> = HashMap::new();
    let mut order = Vec::new();
    for inst in body {
        if matches!(inst.kind, InstKind::Phi { .. }) {
            continue;
        }
        for r in dsp_mir::uses_defs(m, inst).0 {
            let Reg::Virt(v) = r else { continue };
            if defined_here.contains(&v) || f.vreg_file(v) != file {
                continue;
            }
            let Some((b, _)) = sites.get(v.0 as usize).copied().flatten() else { continue };
            if f.block(b).fixed.is_some() {
                continue;
            }
            let n = uses.entry(v).or_insert(0);
            if *n == 0 {
                order.push(v);
            }
            *n += 1;
        }
    }
    // Fewest uses first (a single-use invariant's reload lives shortest);
    // ties in order of first use.
    order.sort_by_key(|v| uses[v]);
    order
}

/// Stores up to `count` invariants of `file` that loop block `l` reads into
/// new stack slots after their definitions and reloads them in the loop
/// body, once before each instruction that reads them. Returns how many
/// invariants were reloaded (0 when the machine cannot load and store the
/// file).
pub fn reload_invariants(m: &Machine, f: &mut Function, l: Block, file: RegFileId, count: usize) -> usize {
    let Some((load, store, bytes)) = slot_instrs(m, file) else { return 0 };
    let Some(sp) = m.abi.sp else { return 0 };
    let chosen: Vec<VReg> = reloadable(m, f, l, file).into_iter().take(count).collect();
    if chosen.is_empty() {
        return 0;
    }
    let sites = def_sites(m, f);
    // Stores after the definitions, the last insertion point first so that
    // earlier indices stay valid.
    let mut stores: Vec<(Block, usize, VReg, dsp_mir::FrameIndex)> = Vec::new();
    for &v in &chosen {
        let (b, i) = sites[v.0 as usize].expect("reloadable invariants have a definition");
        let slot = f.new_frame_object(bytes, bytes, FrameKind::Spill);
        // After the definition, and after every phi of its block.
        let data = f.block(b);
        let first_non_phi = data.insts.iter().position(|x| !matches!(x.kind, InstKind::Phi { .. })).unwrap_or(data.insts.len());
        stores.push((b, (i + 1).max(first_non_phi), v, slot));
    }
    stores.sort_by_key(|&(b, at, _, _)| std::cmp::Reverse((b, at)));
    // Each slot is an identified object of its own: nothing else reaches
    // it, so the loop's other accesses need no dependence on (or run-time
    // overlap check against) its reloads.
    let mut slot_of: HashMap<VReg, dsp_mir::FrameIndex> = HashMap::new();
    for &(b, at, v, slot) in &stores {
        let object = dsp_mir::MemObject::slot(slot);
        let mut st = sem_inst(
            m,
            store,
            None,
            &[Operand::Reg(Reg::Phys(sp)), Operand::Frame { index: slot, offset: 0 }, Operand::Reg(Reg::Virt(v))],
            None,
        );
        st.object = Some(object);
        f.block_mut(b).insts.insert(at, st);
        slot_of.insert(v, slot);
    }
    // One reload before each instruction that reads a chosen invariant, so
    // that every reloaded value lives only from its load to that one use.
    let old = std::mem::take(&mut f.block_mut(l).insts);
    let mut body = Vec::with_capacity(old.len() + chosen.len());
    for mut inst in old {
        if !matches!(inst.kind, InstKind::Phi { .. }) {
            let mut here: HashMap<VReg, VReg> = HashMap::new();
            for r in dsp_mir::uses_defs(m, &inst).0 {
                let Reg::Virt(v) = r else { continue };
                let Some(&slot) = slot_of.get(&v) else { continue };
                if here.contains_key(&v) {
                    continue;
                }
                let nv = f.new_vreg(file);
                here.insert(v, nv);
                let mut ld = sem_inst(
                    m,
                    load,
                    Some(Operand::Reg(Reg::Virt(nv))),
                    &[Operand::Reg(Reg::Phys(sp)), Operand::Frame { index: slot, offset: 0 }],
                    None,
                );
                ld.object = Some(dsp_mir::MemObject::slot(slot));
                body.push(ld);
            }
            crate::licm::rename_inst_reads(m, &mut inst, &here);
        }
        body.push(inst);
    }
    f.block_mut(l).insts = body;
    chosen.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::{Inst, Terminator};

    fn machine() -> Machine {
        Machine::load("ftm").unwrap()
    }

    fn find(m: &Machine, op: SemOp, args: &[ArgPat]) -> InstrId {
        let r = m.scalar_file(Ty::I32).unwrap();
        m.find_instr(&Want { op, ty: Some(Ty::I32), ty2: None, dst: Some(r), args }).unwrap()
    }

    /// entry: a = li 7; b = li 9; loop: x = add(a, b) twice → both reloaded.
    #[test]
    fn invariants_are_stored_once_and_reloaded_in_the_loop() {
        let m = machine();
        let r = m.scalar_file(Ty::I32).unwrap();
        let li = find(&m, SemOp::Mov, &[ArgPat::Imm(7)]);
        let add = find(&m, SemOp::Add, &[ArgPat::Reg(r), ArgPat::Reg(r)]);
        let mut f = Function::new("t");
        let entry = f.new_block("entry");
        let l = f.new_block("loop");
        let exit = f.new_block("exit");
        let a = f.new_vreg(r);
        let b = f.new_vreg(r);
        let x = f.new_vreg(r);
        let y = f.new_vreg(r);
        f.block_mut(entry).insts.push(sem_inst(&m, li, Some(Operand::Reg(a.into())), &[Operand::Imm(7)], None));
        f.block_mut(entry).insts.push(sem_inst(&m, li, Some(Operand::Reg(b.into())), &[Operand::Imm(9)], None));
        f.block_mut(entry).term = Terminator::Jump(l);
        let ops = [Operand::Reg(a.into()), Operand::Reg(b.into())];
        f.block_mut(l).insts.push(sem_inst(&m, add, Some(Operand::Reg(x.into())), &ops, None));
        let ops = [Operand::Reg(x.into()), Operand::Reg(a.into())];
        f.block_mut(l).insts.push(sem_inst(&m, add, Some(Operand::Reg(y.into())), &ops, None));
        f.block_mut(l).term = Terminator::Jump(exit);
        f.block_mut(exit).term = Terminator::Return { rets: vec![] };

        // b has one use, a two: b comes first.
        assert_eq!(reloadable(&m, &f, l, r), vec![b, a]);
        assert_eq!(reload_invariants(&m, &mut f, l, r, 1), 1);
        let entry_insts: &Vec<Inst> = &f.block(entry).insts;
        assert_eq!(entry_insts.len(), 3, "one store after b's definition");
        assert!(m.instr(match &entry_insts[2].kind {
            InstKind::Machine { instr, .. } => *instr,
            _ => panic!("a store"),
        })
        .sem
        .writes_memory());
        let body = &f.block(l).insts;
        assert_eq!(body.len(), 3, "a reload before b's one use");
        let InstKind::Machine { instr, ops, .. } = &body[0].kind else { panic!("a load") };
        assert!(is_private_slot_load(&m, &f, *instr, ops));
        // The add reads the reloaded value, not b.
        let (uses, _) = dsp_mir::uses_defs(&m, &body[1]);
        assert!(!uses.contains(&Reg::Virt(b)), "{uses:?}");
        assert!(uses.contains(&Reg::Virt(a)));
    }
}

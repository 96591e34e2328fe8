//! Spill code ("spill everywhere", with live ranges split per block and
//! reloads hoisted out of loops that only read the value). Every
//! spilled virtual register gets a `FrameKind::Spill` slot and each write
//! is followed by a store. Reads are served per block: the first read in a
//! block reloads into a new register, and later reads of the block share it
//! until the next write; after a write, the written register is copied to a
//! new register that serves the block's later reads (the copy usually
//! coalesces away). These block-local registers always equal the slot's
//! contents, which [`SpillState`] remembers: when one of them is spilled in
//! a later round it needs no slot of its own — its definitions disappear and
//! every read reloads from the slot (rematerialization). Registers that an
//! instruction writes, or that are reloaded for one instruction only, are
//! unspillable; the allocation runs again after spill code is inserted.
//! Copies to or from a spilled register become the store or load itself.
//! Values defined once by a constant move are rematerialized (the move is
//! repeated before each read) instead of stored. Registers of files without
//! loads and stores (predicates, masks) are spilled into an integer
//! register instead (moved there after each write and back before each
//! read, see [`crate::target::Access`]); that register is allocated like
//! any other (a callee-saved one across calls) and may be spilled in turn.

use std::collections::{HashMap, HashSet};

use dsp_mir::{FrameIndex, FrameKind, Function, Inst, InstKind, Operand, Reg, RegFileId, VReg};
use isa_tablegen::SemOp;

use crate::operands::{for_each_reg_mut, for_each_term_reg_mut, inst_regs};
use crate::target::{Access, Target};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpillStats {
    pub values: u32,
    pub stores: u32,
    pub reloads: u32,
    pub remats: u32,
}

/// What spilling knows across allocation rounds.
#[derive(Clone, Debug, Default)]
pub struct SpillState {
    /// Registers that must not be spilled (reload and store temporaries).
    pub unspillable: Vec<bool>,
    /// Registers that always hold the contents of a slot (true: made by a
    /// block's first read; false: made after a write).
    slot_of: HashMap<VReg, (FrameIndex, Access, bool)>,
    pub stats: SpillStats,
}

impl SpillState {
    pub fn new(nvregs: usize) -> SpillState {
        SpillState { unspillable: vec![false; nvregs], ..SpillState::default() }
    }
    /// Registers coalescing must leave alone: unspillable temporaries and
    /// registers that stand for a slot.
    pub fn pinned(&self, nvregs: usize) -> Vec<bool> {
        let mut p = self.unspillable.clone();
        p.resize(nvregs, false);
        for v in self.slot_of.keys() {
            if let Some(x) = p.get_mut(v.0 as usize) {
                *x = true;
            }
        }
        p
    }
}

#[derive(Clone)]
enum Home {
    /// Stored after every write.
    Slot { slot: FrameIndex, access: Access },
    /// Equal to the slot: writes disappear, reads reload (sharing one reload
    /// per block unless `first_read`: then one reload per read).
    Reload { slot: FrameIndex, access: Access, first_read: bool },
    /// Recomputed by this instruction (a move of a constant).
    Remat(Inst),
    /// Kept in an integer register (predicates, masks): moved there after
    /// every write, moved back before every read.
    InInt { home: Reg, to_int: isa_tablegen::InstrId, from_int: crate::target::FromInt },
}

struct Spiller<'a, 'm> {
    t: &'a Target<'m>,
    homes: HashMap<VReg, Home>,
    st: &'a mut SpillState,
}

impl Spiller<'_, '_> {
    fn home(&self, r: Reg) -> Option<&Home> {
        match r {
            Reg::Virt(v) => self.homes.get(&v),
            Reg::Phys(_) => None,
        }
    }

    fn new_reg(&mut self, f: &mut Function, file: RegFileId, spillable: bool) -> Reg {
        let v = f.new_vreg(file);
        self.st.unspillable.resize(f.vregs.len(), false);
        self.st.unspillable[v.0 as usize] = !spillable;
        Reg::Virt(v)
    }

    /// A register standing for `v`'s slot for the rest of a block: made by
    /// the block's first read of `v` (`first_read`) or after a write.
    fn block_reg(&mut self, f: &mut Function, v: VReg, first_read: bool) -> Option<Reg> {
        let (slot, access) = match self.homes.get(&v).cloned() {
            Some(Home::Slot { slot, access }) => (slot, access),
            Some(Home::Reload { slot, access, first_read: false }) if first_read => (slot, access),
            _ => return None,
        };
        let r = self.new_reg(f, f.vreg_file(v), true);
        if let Reg::Virt(x) = r {
            self.st.slot_of.insert(x, (slot, access, first_read));
        }
        Some(r)
    }

    fn reload(&mut self, f: &mut Function, v: VReg, dst: Reg, out: &mut Vec<Inst>) {
        let (slot, access) = match self.homes[&v].clone() {
            Home::Remat(inst) => {
                let mut i = inst;
                for_each_reg_mut(self.t.m, &mut i, |r, role| {
                    if role.is_def() {
                        *r = dst;
                    }
                });
                self.st.stats.remats += 1;
                out.push(i);
                return;
            }
            Home::InInt { home, from_int, .. } => {
                self.st.stats.reloads += 1;
                out.push(self.t.from_int(&from_int, dst, home));
                return;
            }
            Home::Slot { slot, access } | Home::Reload { slot, access, .. } => (slot, access),
        };
        let base = self.t.frame_base(FrameKind::Spill);
        let off = Operand::Frame { index: slot, offset: 0 };
        self.st.stats.reloads += 1;
        let object = Some(dsp_mir::MemObject::slot(slot));
        match access {
            Access::Direct { load, .. } => out.push(Inst { object, ..self.t.load(load, dst, base, off) }),
            Access::ViaInt { from_int, int_file, int, .. } => {
                let i = self.new_reg(f, int_file, false);
                if let Access::Direct { load, .. } = *int {
                    out.push(Inst { object, ..self.t.load(load, i, base, off) });
                }
                out.push(self.t.from_int(&from_int, dst, i));
            }
        }
    }

    fn store(&mut self, f: &mut Function, v: VReg, src: Reg, out: &mut Vec<Inst>) {
        if let Some(Home::InInt { home, to_int, .. }) = self.homes.get(&v).cloned() {
            self.st.stats.stores += 1;
            out.push(self.t.to_int(to_int, home, src));
            return;
        }
        let Some(Home::Slot { slot, access }) = self.homes.get(&v).cloned() else { return };
        let base = self.t.frame_base(FrameKind::Spill);
        let off = Operand::Frame { index: slot, offset: 0 };
        self.st.stats.stores += 1;
        let object = Some(dsp_mir::MemObject::slot(slot));
        match access {
            Access::Direct { store, .. } => out.push(Inst { object, ..self.t.store(store, src, base, off) }),
            Access::ViaInt { to_int, int_file, int, .. } => {
                let i = self.new_reg(f, int_file, false);
                out.push(self.t.to_int(to_int, i, src));
                if let Access::Direct { store, .. } = *int {
                    out.push(Inst { object, ..self.t.store(store, i, base, off) });
                }
            }
        }
    }
}

/// The defining instruction of every register written exactly once.
fn single_defs(t: &Target, f: &Function) -> HashMap<VReg, Inst> {
    let mut count: HashMap<VReg, (u32, Option<&Inst>)> = HashMap::new();
    for b in &f.blocks {
        for inst in &b.insts {
            for (r, role) in inst_regs(t.m, inst, &[]) {
                if let (Reg::Virt(v), true) = (r, role.is_def()) {
                    let e = count.entry(v).or_insert((0, None));
                    e.0 += 1;
                    e.1 = Some(inst);
                }
            }
        }
    }
    count.into_iter().filter_map(|(v, (n, i))| (n == 1).then(|| i.map(|i| (v, i.clone()))).flatten()).collect()
}

/// An unguarded move of a constant (immediate or symbol address).
fn constant_move(t: &Target, inst: &Inst) -> bool {
    let InstKind::Machine { instr, guard: None, ops } = &inst.kind else { return false };
    let sem = &t.m.instr(*instr).sem;
    sem.op == SemOp::Mov && sem.args.iter().all(|a| matches!(ops.get(a.0), Some(Operand::Imm(_) | Operand::Sym { .. })))
}

/// Inserts spill code for `spilled`.
pub fn insert(t: &Target, f: &mut Function, spilled: &[VReg], st: &mut SpillState) -> Result<(), String> {
    // The allocator never spills values of fixed blocks (their code must not change).
    let in_fixed = crate::fixed::referenced(t, f);
    if let Some(v) = spilled.iter().find(|v| in_fixed.get(v.0 as usize).copied().unwrap_or(false)) {
        return Err(format!("internal: %{} of a fixed-schedule block was chosen for spilling", v.0));
    }
    let mut homes = HashMap::new();
    let defs = single_defs(t, f);
    for &v in spilled {
        if let Some((slot, access, first_read)) = st.slot_of.get(&v).cloned() {
            homes.insert(v, Home::Reload { slot, access, first_read });
            continue;
        }
        if let Some(inst) = defs.get(&v).filter(|i| constant_move(t, i)) {
            homes.insert(v, Home::Remat(inst.clone()));
            continue;
        }
        let access = t.access(f.vreg_file(v), t.spill_base_align())?;
        if let Access::ViaInt { to_int, from_int, int_file, .. } = access {
            let home = Reg::Virt(f.new_vreg(int_file));
            homes.insert(v, Home::InInt { home, to_int, from_int });
            continue;
        }
        let (size, align) = access.slot();
        let slot = f.new_frame_object(size, align, FrameKind::Spill);
        homes.insert(v, Home::Slot { slot, access });
    }
    st.stats.values += spilled.len() as u32;
    let mut sp = Spiller { t, homes, st };
    hoist_loop_reloads(&mut sp, f);
    for b in 0..f.blocks.len() {
        spill_block(&mut sp, f, b);
    }
    Ok(())
}

/// Reloads out of loops: a spilled value that a loop reads but never writes
/// is reloaded once, at the end of the loop's preheader, into a register
/// that serves every read in the loop (each loop's reads go to the
/// innermost such loop). The register stands for the slot, so that if it
/// is spilled in turn (the loop has no register to spare), its definition
/// disappears and its reads reload per block as before: the classic
/// splitting of a spilled live range at loop boundaries (Wimmer and
/// Mössenböck, VEE 2005 §5), here where the spill code is placed.
fn hoist_loop_reloads(sp: &mut Spiller, f: &mut Function) {
    let slots: HashSet<VReg> = sp.homes.iter().filter(|(_, h)| matches!(h, Home::Slot { .. })).map(|(v, _)| *v).collect();
    if slots.is_empty() {
        return;
    }
    let loops = crate::cfg::natural_loops(f);
    if loops.is_empty() {
        return;
    }
    let preds = crate::cfg::predecessors(f);
    let n = f.blocks.len();
    // Per block: the spilled values it reads, and those it writes or reads in a phi.
    let mut reads: Vec<HashSet<VReg>> = vec![HashSet::new(); n];
    let mut blocked: Vec<HashSet<VReg>> = vec![HashSet::new(); n];
    for (b, data) in f.blocks.iter().enumerate() {
        for inst in &data.insts {
            let phi = matches!(inst.kind, InstKind::Phi { .. });
            for (r, role) in inst_regs(sp.t.m, inst, &[]) {
                let Reg::Virt(v) = r else { continue };
                if !slots.contains(&v) {
                    continue;
                }
                if role.is_def() || phi {
                    blocked[b].insert(v);
                } else if role.is_use() {
                    reads[b].insert(v);
                }
            }
        }
        for r in crate::operands::term_uses(&data.term) {
            if let Reg::Virt(v) = r {
                if slots.contains(&v) {
                    reads[b].insert(v);
                }
            }
        }
    }
    let mut done: HashSet<(usize, VReg)> = HashSet::new();
    for l in &loops {
        let inside = |x: usize| l.blocks.binary_search(&x).is_ok();
        let outside: Vec<usize> = preds[l.header].iter().map(|p| p.0 as usize).filter(|&p| !inside(p)).collect();
        let [pre] = outside[..] else { continue };
        if f.blocks[pre].fixed.is_some() || l.blocks.iter().any(|&b| f.blocks[b].fixed.is_some()) {
            continue;
        }
        let mut vs: Vec<VReg> = l.blocks.iter().flat_map(|&b| reads[b].iter().copied()).collect();
        vs.sort_by_key(|v| v.0);
        vs.dedup();
        // Not written in the loop, and read in a block no inner loop serves.
        vs.retain(|v| !l.blocks.iter().any(|&b| blocked[b].contains(v)) && l.blocks.iter().any(|&b| reads[b].contains(v) && !done.contains(&(b, *v))));
        for v in vs {
            let Some(r) = sp.block_reg(f, v, false) else { continue };
            let mut load = Vec::new();
            sp.reload(f, v, r, &mut load);
            f.blocks[pre].insts.extend(load);
            for &b in &l.blocks {
                if !reads[b].contains(&v) || done.contains(&(b, v)) {
                    continue;
                }
                done.insert((b, v));
                let rename = |x: &mut Reg| {
                    if *x == Reg::Virt(v) {
                        *x = r;
                    }
                };
                for inst in &mut f.blocks[b].insts {
                    for_each_reg_mut(sp.t.m, inst, |x, role| {
                        if role.is_use() {
                            rename(x);
                        }
                    });
                }
                for_each_term_reg_mut(&mut f.blocks[b].term, rename);
            }
        }
    }
}

fn spill_block(sp: &mut Spiller, f: &mut Function, b: usize) {
    let t = sp.t;
    let insts = std::mem::take(&mut f.blocks[b].insts);
    let mut out: Vec<Inst> = Vec::with_capacity(insts.len());
    // Block-local registers holding a spilled value's slot contents.
    let mut avail: HashMap<VReg, Reg> = HashMap::new();
    let mut used: HashSet<Reg> = HashSet::new();
    // Copies made after writes, with their position (removed if never read).
    let mut after_def: Vec<(usize, Reg)> = Vec::new();
    let serve_after_def = |sp: &mut Spiller, f: &mut Function, v: VReg, src: Reg, out: &mut Vec<Inst>, avail: &mut HashMap<VReg, Reg>, after_def: &mut Vec<(usize, Reg)>| {
        avail.remove(&v);
        if let Some(r) = sp.block_reg(f, v, false) {
            after_def.push((out.len(), r));
            out.push(Inst::new(InstKind::Copy { dst: r, src }));
            avail.insert(v, r);
        }
    };
    for mut inst in insts {
        if let InstKind::Copy { dst, src } = inst.kind {
            let dh = sp.home(dst).cloned();
            let sh = sp.home(src).cloned();
            match (dst, src, dh, sh) {
                // Writes of slot-equal or constant registers disappear.
                (_, _, Some(Home::Reload { .. } | Home::Remat(_)), _) => continue,
                // Between two integer homes: an integer copy.
                (_, _, Some(Home::InInt { home: hd, .. }), Some(Home::InInt { home: hs, .. })) => {
                    if hd != hs {
                        out.push(Inst::new(InstKind::Copy { dst: hd, src: hs }));
                    }
                    continue;
                }
                (Reg::Virt(d), Reg::Virt(s), Some(Home::Slot { .. } | Home::InInt { .. }), Some(_)) => {
                    if d != s {
                        let x = match avail.get(&s) {
                            Some(&x) => x,
                            None => {
                                let x = sp.new_reg(f, f.vreg_file(s), false);
                                sp.reload(f, s, x, &mut out);
                                x
                            }
                        };
                        used.insert(x);
                        sp.store(f, d, x, &mut out);
                        serve_after_def(sp, f, d, x, &mut out, &mut avail, &mut after_def);
                    }
                    continue;
                }
                (Reg::Virt(d), _, Some(Home::Slot { .. } | Home::InInt { .. }), None) => {
                    sp.store(f, d, src, &mut out);
                    serve_after_def(sp, f, d, src, &mut out, &mut avail, &mut after_def);
                    continue;
                }
                (_, Reg::Virt(s), None, Some(_)) => {
                    match avail.get(&s) {
                        Some(&x) => {
                            used.insert(x);
                            out.push(Inst::new(InstKind::Copy { dst, src: x }));
                        }
                        None => sp.reload(f, s, dst, &mut out),
                    }
                    continue;
                }
                _ => {}
            }
        }
        let regs = inst_regs(t.m, &inst, &[]);
        // Writes of slot-equal or constant registers disappear.
        if regs.iter().any(|(r, role)| role.is_def() && matches!(sp.home(*r), Some(Home::Reload { .. } | Home::Remat(_)))) {
            continue;
        }
        // (value, register, reload before, store after)
        let mut temps: Vec<(VReg, Reg, bool, bool)> = Vec::new();
        for (r, role) in &regs {
            let Reg::Virt(v) = *r else { continue };
            if sp.home(*r).is_none() {
                continue;
            }
            match temps.iter_mut().find(|e| e.0 == v) {
                Some(e) => {
                    e.2 |= role.is_use();
                    e.3 |= role.is_def();
                }
                None => temps.push((v, *r, role.is_use(), role.is_def())),
            }
        }
        if temps.is_empty() {
            out.push(inst);
            continue;
        }
        for e in &mut temps {
            let (v, reads, writes) = (e.0, e.2, e.3);
            if reads && !writes {
                if let Some(&x) = avail.get(&v) {
                    e.1 = x;
                    e.2 = false;
                } else if let Some(x) = sp.block_reg(f, v, true) {
                    e.1 = x;
                    avail.insert(v, x);
                } else {
                    e.1 = sp.new_reg(f, f.vreg_file(v), false);
                }
                used.insert(e.1);
            } else {
                e.1 = sp.new_reg(f, f.vreg_file(v), false);
            }
        }
        for_each_reg_mut(t.m, &mut inst, |r, _| {
            if let Reg::Virt(v) = *r {
                if let Some(e) = temps.iter().find(|e| e.0 == v) {
                    *r = e.1;
                }
            }
        });
        for &(v, x, reload, _) in &temps {
            if reload {
                sp.reload(f, v, x, &mut out);
            }
        }
        out.push(inst);
        for &(v, x, _, writes) in &temps {
            if writes {
                sp.store(f, v, x, &mut out);
                serve_after_def(sp, f, v, x, &mut out, &mut avail, &mut after_def);
            }
        }
    }
    // The terminator's reads.
    let mut term = f.blocks[b].term.clone();
    let mut need: Vec<VReg> = Vec::new();
    for_each_term_reg_mut(&mut term, |r| {
        if let Reg::Virt(v) = *r {
            if sp.homes.contains_key(&v) && !need.contains(&v) {
                need.push(v);
            }
        }
    });
    let mut tmap: Vec<(VReg, Reg)> = Vec::new();
    for v in need {
        let x = match avail.get(&v) {
            Some(&x) => x,
            None => {
                let x = sp.new_reg(f, f.vreg_file(v), false);
                sp.reload(f, v, x, &mut out);
                x
            }
        };
        used.insert(x);
        tmap.push((v, x));
    }
    for_each_term_reg_mut(&mut term, |r| {
        if let Reg::Virt(v) = *r {
            if let Some((_, x)) = tmap.iter().find(|(y, _)| *y == v) {
                *r = *x;
            }
        }
    });
    // Copies after writes that no read used.
    let dead: HashSet<usize> = after_def.iter().filter(|(_, r)| !used.contains(r)).map(|(i, _)| *i).collect();
    if !dead.is_empty() {
        out = out.into_iter().enumerate().filter(|(i, _)| !dead.contains(i)).map(|(_, x)| x).collect();
    }
    f.blocks[b].term = term;
    f.blocks[b].insts = out;
}

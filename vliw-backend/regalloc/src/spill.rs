//! Spill code: every spilled virtual register gets a `FrameKind::Spill` slot;
//! each write is followed by a store, and reads are served by reloads
//! ("spill everywhere", with the live range split per block): the first
//! read in a block reloads into a new register that later reads of the same
//! block share until the next write. That block-local register may itself
//! be spilled in a later round; it is then rematerialized (reloaded again
//! before each read). Registers written by an instruction, or reloaded for
//! one instruction only, are unspillable; the allocation runs again after
//! spill code is inserted. Copies to or from a spilled register become the
//! store or load itself. Values defined once by a constant move are
//! rematerialized (the move is repeated before each use) instead of stored.
//! Registers of files without loads and stores (predicates, masks) go
//! through an integer temporary (see [`crate::target::Access`]).

use std::collections::HashMap;

use dsp_mir::{FrameIndex, FrameKind, Function, Inst, InstKind, Operand, Reg, VReg};
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

enum Home {
    Slot { slot: FrameIndex, access: Access },
    /// Recomputed by this instruction (a move of a constant) into the temporary.
    Remat(Inst),
}

struct Spiller<'a, 'm> {
    t: &'a Target<'m>,
    homes: HashMap<VReg, Home>,
    unspillable: &'a mut Vec<bool>,
    stats: &'a mut SpillStats,
}

impl Spiller<'_, '_> {
    fn temp(&mut self, f: &mut Function, file: dsp_mir::RegFileId) -> Reg {
        let v = f.new_vreg(file);
        self.unspillable.resize(f.vregs.len(), false);
        self.unspillable[v.0 as usize] = true;
        Reg::Virt(v)
    }

    /// A block-local reload register: spillable (it is rematerializable).
    fn temp_spillable(&mut self, f: &mut Function, file: dsp_mir::RegFileId) -> Reg {
        let v = f.new_vreg(file);
        self.unspillable.resize(f.vregs.len(), false);
        Reg::Virt(v)
    }

    /// Whether reads of `v` may share one reload per block.
    fn shareable(&self, v: VReg) -> bool {
        matches!(self.homes.get(&v), Some(Home::Slot { access: Access::Direct { .. }, .. }))
    }

    fn reload(&mut self, f: &mut Function, v: VReg, dst: Reg, out: &mut Vec<Inst>) {
        match &self.homes[&v] {
            Home::Remat(inst) => {
                let mut i = inst.clone();
                for_each_reg_mut(self.t.m, &mut i, |r, role| {
                    if role.is_def() {
                        *r = dst;
                    }
                });
                self.stats.remats += 1;
                out.push(i);
            }
            Home::Slot { slot, access } => {
                let base = self.t.frame_base(FrameKind::Spill);
                let off = Operand::Frame { index: *slot, offset: 0 };
                self.stats.reloads += 1;
                match access.clone() {
                    Access::Direct { load, .. } => out.push(self.t.load(load, dst, base, off)),
                    Access::ViaInt { from_int, int_file, int, .. } => {
                        let i = self.temp(f, int_file);
                        if let Access::Direct { load, .. } = *int {
                            out.push(self.t.load(load, i, base, off));
                        }
                        out.push(self.t.from_int(&from_int, dst, i));
                    }
                }
            }
        }
    }

    fn store(&mut self, f: &mut Function, v: VReg, src: Reg, out: &mut Vec<Inst>) {
        let Home::Slot { slot, access } = &self.homes[&v] else { return };
        let base = self.t.frame_base(FrameKind::Spill);
        let off = Operand::Frame { index: *slot, offset: 0 };
        self.stats.stores += 1;
        match access.clone() {
            Access::Direct { store, .. } => out.push(self.t.store(store, src, base, off)),
            Access::ViaInt { to_int, int_file, int, .. } => {
                let i = self.temp(f, int_file);
                out.push(self.t.to_int(to_int, i, src));
                if let Access::Direct { store, .. } = *int {
                    out.push(self.t.store(store, i, base, off));
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

/// Whether `v`, written only by `inst`, can be recomputed by repeating
/// `inst`: an unguarded move of a constant (immediate or symbol address), or
/// a reload from a spill slot (a block-local reload register: its slot is
/// not written while it is live).
fn rematerializable(t: &Target, f: &Function, inst: &Inst) -> bool {
    let InstKind::Machine { instr, guard: None, ops } = &inst.kind else { return false };
    let sem = &t.m.instr(*instr).sem;
    let constant =
        sem.op == SemOp::Mov && sem.args.iter().all(|a| matches!(ops.get(a.0), Some(Operand::Imm(_) | Operand::Sym { .. })));
    let reload = matches!(sem.op, SemOp::Load | SemOp::VLoad | SemOp::VLoadU)
        && ops.iter().any(|o| {
            matches!(o, Operand::Frame { index, .. } if f.frame.get(index.0 as usize).is_some_and(|x| x.kind == FrameKind::Spill))
        });
    constant || reload
}

/// Inserts spill code for `spilled`; new temporaries are marked in `unspillable`.
pub fn insert(
    t: &Target,
    f: &mut Function,
    spilled: &[VReg],
    unspillable: &mut Vec<bool>,
    stats: &mut SpillStats,
) -> Result<(), String> {
    let mut homes = HashMap::new();
    let defs = single_defs(t, f);
    for &v in spilled {
        if let Some(inst) = defs.get(&v).filter(|i| rematerializable(t, f, i)) {
            homes.insert(v, Home::Remat(inst.clone()));
            continue;
        }
        let file = f.vreg_file(v);
        let access = t.access(file, t.spill_base_align())?;
        let (size, align) = access.slot();
        let slot = f.new_frame_object(size, align, FrameKind::Spill);
        homes.insert(v, Home::Slot { slot, access });
    }
    stats.values += spilled.len() as u32;
    let mut sp = Spiller { t, homes, unspillable, stats };
    for b in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        // Block-local reload registers holding a spilled value's slot.
        let mut avail: HashMap<VReg, Reg> = HashMap::new();
        for mut inst in insts {
            if let InstKind::Copy { dst, src } = inst.kind {
                let ds = matches!(dst, Reg::Virt(v) if sp.homes.contains_key(&v));
                let ss = matches!(src, Reg::Virt(v) if sp.homes.contains_key(&v));
                match (dst, src) {
                    (Reg::Virt(d), Reg::Virt(s)) if ds && ss => {
                        if d != s {
                            let tmp = match avail.get(&s) {
                                Some(&x) => x,
                                None => {
                                    let tmp = sp.temp(f, f.vreg_file(s));
                                    sp.reload(f, s, tmp, &mut out);
                                    tmp
                                }
                            };
                            sp.store(f, d, tmp, &mut out);
                            avail.remove(&d);
                        }
                        continue;
                    }
                    (Reg::Virt(d), _) if ds => {
                        if matches!(sp.homes[&d], Home::Remat(_)) {
                            // Unreachable: a remat value is only written by its move.
                            out.push(inst);
                        } else {
                            sp.store(f, d, src, &mut out);
                        }
                        avail.remove(&d);
                        continue;
                    }
                    (_, Reg::Virt(s)) if ss => {
                        match avail.get(&s) {
                            Some(&x) => out.push(Inst::new(InstKind::Copy { dst, src: x })),
                            None => sp.reload(f, s, dst, &mut out),
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            // A rematerialized value's own definition disappears.
            let regs = inst_regs(t.m, &inst, &[]);
            let defines_remat = regs.iter().any(|(r, role)| {
                role.is_def() && matches!(r, Reg::Virt(v) if matches!(sp.homes.get(v), Some(Home::Remat(_))))
            });
            if defines_remat {
                continue;
            }
            // (value, register, reload before, store after)
            let mut temps: Vec<(VReg, Reg, bool, bool)> = Vec::new();
            for (r, role) in &regs {
                let Reg::Virt(v) = *r else { continue };
                if !sp.homes.contains_key(&v) {
                    continue;
                }
                match temps.iter_mut().find(|e| e.0 == v) {
                    Some(e) => {
                        e.2 |= role.is_use();
                        e.3 |= role.is_def();
                    }
                    None => temps.push((v, Reg::Virt(v), role.is_use(), role.is_def())),
                }
            }
            if temps.is_empty() {
                out.push(inst);
                continue;
            }
            for e in &mut temps {
                let (v, used, defd) = (e.0, e.2, e.3);
                let file = f.vreg_file(v);
                if used && !defd {
                    if let Some(&x) = avail.get(&v) {
                        e.1 = x;
                        e.2 = false;
                    } else if sp.shareable(v) {
                        e.1 = sp.temp_spillable(f, file);
                        avail.insert(v, e.1);
                    } else {
                        e.1 = sp.temp(f, file);
                    }
                } else {
                    e.1 = sp.temp(f, file);
                    avail.remove(&v);
                }
            }
            for_each_reg_mut(t.m, &mut inst, |r, _| {
                if let Reg::Virt(v) = *r {
                    if let Some(e) = temps.iter().find(|e| e.0 == v) {
                        *r = e.1;
                    }
                }
            });
            for &(v, tmp, reload, _) in &temps {
                if reload {
                    sp.reload(f, v, tmp, &mut out);
                }
            }
            out.push(inst);
            for &(v, tmp, _, defd) in &temps {
                if defd {
                    sp.store(f, v, tmp, &mut out);
                }
            }
        }
        // The terminator's reads.
        let mut term = f.blocks[b].term.clone();
        let mut tmap: Vec<(VReg, Reg)> = Vec::new();
        let mut need: Vec<VReg> = Vec::new();
        for_each_term_reg_mut(&mut term, |r| {
            if let Reg::Virt(v) = *r {
                if sp.homes.contains_key(&v) && !need.contains(&v) {
                    need.push(v);
                }
            }
        });
        for v in need {
            let tmp = match avail.get(&v) {
                Some(&x) => x,
                None => {
                    let tmp = sp.temp(f, f.vreg_file(v));
                    sp.reload(f, v, tmp, &mut out);
                    tmp
                }
            };
            tmap.push((v, tmp));
        }
        for_each_term_reg_mut(&mut term, |r| {
            if let Reg::Virt(v) = *r {
                if let Some((_, tmp)) = tmap.iter().find(|(x, _)| *x == v) {
                    *r = *tmp;
                }
            }
        });
        f.blocks[b].term = term;
        f.blocks[b].insts = out;
    }
    Ok(())
}

//! Stack frame layout (vliw-backend/ABI.md, "Frames"). From `sp` upwards:
//! the outgoing stack-argument area at offset 0 (every `OutgoingArgs`
//! object starts there; calls use it one at a time), then spill slots and
//! locals (smallest first) at their alignment; the save area (link register, callee-saved
//! registers) sits at the top of the frame, below the caller's `sp` (in a
//! frame too large for the stores' immediates to reach it, the prologue
//! allocates and fills the save area before the rest). The
//! frame size is a multiple of `abi stack_align`; incoming stack arguments
//! are at `frame_size + offset`. Functions in [`FrameMode::Fp`] keep the
//! frame's top in `fp`: with dynamic stack allocation, locals and spill slots
//! are addressed from `fp` (sp moves), and over-aligned locals make the
//! prologue realign `sp` (incoming arguments then come from `fp`); with
//! both, locals and spill slots are addressed from a base register holding
//! the realigned `sp`.
//!
//! Before allocation [`fix_bases`] gives every instruction with a frame
//! operand its base register (`sp` or `fp`); after allocation
//! [`rewrite_operands`] turns frame operands into immediates, choosing an
//! instruction variant with a wider immediate or materializing the offset in
//! a free scratch register when the offset does not fit. In blocks with a
//! fixed schedule an instruction is only replaced by one of the same timing
//! (units, latency, occupancy), keeping its cycle; otherwise that is an error.

use dsp_mir::builder::sem_inst;
use dsp_mir::{FrameKind, Function, Inst, InstKind, Operand, PReg, Reg};
use isa_tablegen::{ArgPat, OperandKind, SemOp, Want};

use crate::target::{Access, FrameMode, Target};

fn round_up(x: u32, a: u32) -> u32 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

/// Sets the base register of every instruction with a frame operand; an
/// address taken by a move of a frame operand becomes `base + offset`.
pub fn fix_bases(t: &Target, f: &mut Function) -> Result<(), String> {
    let m = t.m;
    for b in 0..f.blocks.len() {
        for i in 0..f.blocks[b].insts.len() {
            let InstKind::Machine { instr, guard, ops } = &f.blocks[b].insts[i].kind else { continue };
            let Some(j) = ops.iter().position(|o| matches!(o, Operand::Frame { .. })) else { continue };
            let Operand::Frame { index, .. } = ops[j] else { continue };
            let Some(obj) = f.frame.get(index.0 as usize) else {
                return Err(format!("bb{b}: unknown frame object fi#{}", index.0));
            };
            let base = t.frame_base(obj.kind);
            let ins = m.instr(*instr);
            let sem = &ins.sem;
            let a = sem.args.iter().position(|x| x.0 == j);
            let is_base_slot = |k: usize| matches!(ins.operands[k].kind, OperandKind::Reg(fl) if fl == t.int_file);
            let slot = match a {
                Some(a) if a >= 1 && sem.op != SemOp::Mov && is_base_slot(sem.args[a - 1].0) => Some(sem.args[a - 1].0),
                Some(0) if sem.op == SemOp::Add && sem.args.len() == 2 && is_base_slot(sem.args[1].0) => Some(sem.args[1].0),
                _ => None,
            };
            if let Some(k) = slot {
                if let InstKind::Machine { ops, .. } = &mut f.blocks[b].insts[i].kind {
                    ops[k] = Operand::Reg(Reg::Phys(base));
                }
                continue;
            }
            if sem.op == SemOp::Mov && sem.args.len() == 1 {
                let dst = sem.dst.and_then(|d| ops.get(d.0).cloned());
                let add = t.add_imm_instr(0).ok_or("no add with an immediate to form frame addresses")?;
                let g = *guard;
                let frame = ops[j].clone();
                let old = &f.blocks[b].insts[i];
                if f.blocks[b].fixed.is_some() && !same_timing(t, *instr, add) {
                    return Err(format!(
                        "bb{b}: the frame address '{}' of a fixed-schedule block becomes '{}', which has other timing",
                        ins.mnemonic,
                        m.instr(add).mnemonic
                    ));
                }
                let (loc, cycle) = (old.loc.clone(), old.cycle);
                let mut new = sem_inst(m, add, dst, &[Operand::Reg(Reg::Phys(base)), frame], g);
                new.loc = loc;
                new.cycle = cycle;
                f.blocks[b].insts[i] = new;
                continue;
            }
            return Err(format!("bb{b}: '{}' takes a frame operand but has no base register operand", ins.mnemonic));
        }
    }
    Ok(())
}

/// Whether two instructions issue to the same units with the same latency
/// and occupancy (one may replace the other in a fixed schedule).
fn same_timing(t: &Target, a: isa_tablegen::InstrId, b: isa_tablegen::InstrId) -> bool {
    let (x, y) = (t.m.instr(a), t.m.instr(b));
    x.latency == y.latency && x.busy.max(1) == y.busy.max(1) && x.units == y.units
}

/// Where everything in the frame is.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub mode: FrameMode,
    /// Bytes `sp` moves down in total (Sp mode: one adjustment, unless `split`).
    pub frame_size: u32,
    /// Sp mode with save slots out of reach of the stores' immediates: the
    /// save area is allocated (and saved) first, then the body.
    pub split: bool,
    /// Fp mode: the first adjustment (save area); the body follows.
    pub save_size: u32,
    pub body_size: u32,
    /// Offset of every frame object from its base register.
    pub obj_off: Vec<i64>,
    /// Saved registers: offset from `sp` once the save area is allocated, and access.
    pub saves: Vec<(PReg, i64, Access)>,
}

pub fn layout(t: &Target, f: &Function, saves: &[PReg]) -> Result<Layout, String> {
    let align = t.m.abi.stack_align.max(1);
    let mut off = f.frame.iter().filter(|o| o.kind == FrameKind::OutgoingArgs).map(|o| o.size).max().unwrap_or(0);
    let mut body_off = vec![0u32; f.frame.len()];
    // Spill slots, then locals from the smallest: small objects stay
    // within reach of short immediates.
    let mut order: Vec<usize> =
        (0..f.frame.len()).filter(|&i| matches!(f.frame[i].kind, FrameKind::Local | FrameKind::Spill)).collect();
    order.sort_by_key(|&i| (f.frame[i].kind != FrameKind::Spill, f.frame[i].size));
    for i in order {
        let o = &f.frame[i];
        off = round_up(off, o.align);
        body_off[i] = off;
        off += o.size;
    }
    let body = off;
    // The most aligned slots first, from the top: no padding between a
    // vector register's slot and the scalars' (fewer bytes, fewer cache
    // lines touched on entry); the same alignment in the registers' order.
    let mut by_align = Vec::new();
    for &r in saves {
        let access = t.access(r.file, align)?;
        by_align.push((r, access));
    }
    by_align.sort_by_key(|(_, a)| std::cmp::Reverse(a.slot().1));
    let mut cursor = 0u32;
    let mut slots = Vec::new();
    for (r, access) in by_align {
        let (size, a) = access.slot();
        cursor = round_up(cursor + size, a);
        slots.push((r, cursor, access));
    }
    let save = cursor;
    // Whether every save slot is within reach of its store at offset `top - c`.
    let reach = |top: u32| {
        slots.iter().all(|(_, c, a)| match a {
            Access::Direct { store, .. } => {
                let ins = t.m.instr(*store);
                let off = top as i64 - *c as i64;
                ins.sem.args.get(1).and_then(|x| ins.operands[x.0].kind.imm_range()).is_some_and(|(lo, hi)| lo <= off && off <= hi)
            }
            Access::ViaInt { .. } => true,
        })
    };
    let whole = round_up(body + save, align);
    let split = t.mode == FrameMode::Sp && !reach(whole);
    let (frame_size, save_size, body_size) = match t.mode {
        FrameMode::Sp if split => {
            let s = round_up(save, align);
            let b = round_up(body, align);
            (s + b, s, b)
        }
        FrameMode::Sp => (whole, 0, body),
        FrameMode::Fp { .. } => {
            let s = round_up(save, align);
            let b = round_up(body, align);
            (s + b, s, b)
        }
    };
    let top = match t.mode {
        FrameMode::Sp if !split => frame_size,
        _ => save_size,
    } as i64;
    let saves = slots.into_iter().map(|(r, c, a)| (r, top - c as i64, a)).collect();
    let obj_off = f
        .frame
        .iter()
        .enumerate()
        .map(|(i, o)| match (t.mode, o.kind) {
            (_, FrameKind::OutgoingArgs) => 0,
            (FrameMode::Sp, FrameKind::IncomingArg { offset }) => frame_size as i64 + offset as i64,
            (FrameMode::Fp { .. }, FrameKind::IncomingArg { offset }) => offset as i64,
            (FrameMode::Fp { dynamic: true, .. }, _) if t.bp.is_some() => body_off[i] as i64,
            (FrameMode::Fp { dynamic: true, .. }, _) => body_off[i] as i64 - (save_size + body_size) as i64,
            _ => body_off[i] as i64,
        })
        .collect();
    Ok(Layout { mode: t.mode, frame_size, split, save_size, body_size, obj_off, saves })
}

/// Turns every frame operand into an immediate.
pub fn rewrite_operands(t: &Target, f: &mut Function, l: &Layout) -> Result<(), String> {
    let m = t.m;
    let mut live: Option<crate::liveness::Liveness> = None;
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let InstKind::Machine { instr, guard, ops } = &f.blocks[b].insts[i].kind else {
                i += 1;
                continue;
            };
            let Some(j) = ops.iter().position(|o| matches!(o, Operand::Frame { .. })) else {
                i += 1;
                continue;
            };
            let Operand::Frame { index, offset } = ops[j] else { unreachable!() };
            let value = l.obj_off[index.0 as usize] + offset;
            let ins = m.instr(*instr);
            let fits = ins.operands[j].kind.imm_range().is_some_and(|(lo, hi)| lo <= value && value <= hi);
            if fits {
                if let InstKind::Machine { ops, .. } = &mut f.blocks[b].insts[i].kind {
                    ops[j] = Operand::Imm(value);
                }
                i += 1;
                continue;
            }
            // Another instruction with the same meaning and a wider immediate.
            let sem = ins.sem.clone();
            let (instr, guard, ops) = (*instr, *guard, ops.clone());
            let pats: Vec<ArgPat> = sem
                .args
                .iter()
                .map(|a| match (&ops[a.0], m.instr(instr).operands[a.0].kind) {
                    (_, _) if a.0 == j => ArgPat::Imm(value),
                    (Operand::Imm(v), _) => ArgPat::Imm(*v),
                    (Operand::Sym { .. }, _) => ArgPat::SymImm,
                    (_, OperandKind::Reg(fl)) => ArgPat::Reg(fl),
                    (_, OperandKind::PcRel(_)) => ArgPat::PcRel,
                    _ => ArgPat::Imm(0),
                })
                .collect();
            let dst_file = sem.dst.and_then(|d| match m.instr(instr).operands[d.0].kind {
                OperandKind::Reg(fl) => Some(fl),
                _ => None,
            });
            let args: Vec<Operand> =
                sem.args.iter().map(|a| if a.0 == j { Operand::Imm(value) } else { ops[a.0].clone() }).collect();
            let dst = sem.dst.map(|d| ops[d.0].clone());
            let fixed = f.blocks[b].fixed.is_some();
            let alt = m
                .find_instr(&Want { op: sem.op, ty: sem.ty, ty2: sem.ty2, dst: dst_file, args: &pats })
                .filter(|&alt| !fixed || same_timing(t, instr, alt));
            if let Some(alt) = alt {
                let (loc, cycle) = (f.blocks[b].insts[i].loc.clone(), f.blocks[b].insts[i].cycle);
                let mut new = sem_inst(m, alt, dst, &args, guard);
                new.loc = loc;
                new.cycle = cycle;
                f.blocks[b].insts[i] = new;
                i += 1;
                continue;
            }
            if fixed {
                return Err(format!(
                    "bb{b}: frame offset {value} does not fit '{}' in a fixed-schedule block (no instruction of the same timing takes it)",
                    ins.mnemonic
                ));
            }
            // Materialize: s = value; s = base + s; the instruction uses s + 0.
            let base_slot = match sem.args.iter().position(|a| a.0 == j) {
                Some(a) if a >= 1 => sem.args[a - 1].0,
                Some(0) if sem.args.len() == 2 => sem.args[1].0,
                _ => return Err(format!("bb{b}: frame offset {value} does not fit '{}'", ins.mnemonic)),
            };
            let Operand::Reg(Reg::Phys(base)) = ops[base_slot] else {
                return Err(format!("bb{b}: frame offset {value} does not fit '{}'", ins.mnemonic));
            };
            // One liveness for the whole function: the scratch code below
            // leaves every block's live-in and live-out sets as they are.
            if live.is_none() {
                live = Some(crate::liveness::compute(t, &crate::target::RegKeys::new(t.m, f.vregs.len()), f));
            }
            let s = live.as_ref().and_then(|lv| crate::prologue::scratch_in(t, f, lv, b, i)).ok_or_else(|| {
                format!("bb{b}: frame offset {value} does not fit '{}' and no scratch register is free", ins.mnemonic)
            })?;
            let mut seq = crate::prologue::add_const(t, s, base, value, Some(s))?;
            let mut ops2 = ops.clone();
            ops2[base_slot] = Operand::Reg(Reg::Phys(s));
            ops2[j] = Operand::Imm(0);
            let ok0 = m.instr(instr).operands[j].kind.imm_range().is_some_and(|(lo, hi)| lo <= 0 && 0 <= hi);
            if !ok0 {
                return Err(format!("bb{b}: '{}' cannot take offset 0", ins.mnemonic));
            }
            let loc = f.blocks[b].insts[i].loc.clone();
            let mut new = Inst::new(InstKind::Machine { instr, guard, ops: ops2 });
            new.loc = loc;
            seq.push(new);
            let n = seq.len();
            f.blocks[b].insts.splice(i..i + 1, seq);
            i += n;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use dsp_mir::{FrameKind, Function};
    use isa_tablegen::Machine;

    use super::*;

    #[test]
    fn saves_pack_from_the_most_aligned_down() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            let mut f = Function::new("f");
            f.new_frame_object(60, 4, FrameKind::Spill);
            let t = Target::new(&m, &f).unwrap();
            // Every callee-saved scalar register, then one of another file
            // whose slots are more aligned (a vector register where there is one).
            let int: Vec<PReg> = m.abi.callee_saved.iter().copied().filter(|r| r.file == t.int_file).collect();
            let wide = m.abi.callee_saved.iter().copied().filter(|r| r.file != t.int_file).max_by_key(|r| t.access(r.file, m.abi.stack_align).unwrap().slot().1);
            let saves: Vec<PReg> = int.iter().copied().chain(wide).collect();
            let l = layout(&t, &f, &saves).unwrap();
            let sizes: u32 = saves.iter().map(|r| t.access(r.file, m.abi.stack_align).unwrap().slot().0).sum();
            for (r, off, a) in &l.saves {
                let (_, al) = a.slot();
                assert_eq!(*off as u32 % al, 0, "{name}: {r:?} at {off}");
            }
            // No padding between the slots: the frame is the spill slot and
            // the saves' bytes, rounded up once.
            assert_eq!(l.frame_size, round_up(60 + sizes, m.abi.stack_align.max(1)), "{name}: {:?}", l.saves);
        }
    }
}

//! Spill slot sharing (stack slot coloring): spill slots whose contents are
//! never live at the same time share one stack location. Slot liveness is
//! the backward data-flow problem over slots, with stores to a slot as its
//! definitions and loads from it as its uses; two slots interfere when one
//! is stored while the other is live (or both are live into the entry);
//! slots of the same size and alignment are then colored greedily. Merged
//! slots keep their frame index with size 0, so indices stay valid.

use dsp_mir::{FrameKind, Function, InstKind, Operand};

use crate::bitset::BitSet;

/// The spill slot an instruction stores to (`Some((slot, true))`) or loads
/// from (`Some((slot, false))`).
fn slot_access(m: &dsp_mir::Machine, f: &Function, inst: &dsp_mir::Inst) -> Option<(usize, bool)> {
    let InstKind::Machine { instr, ops, .. } = &inst.kind else { return None };
    let sem = &m.instr(*instr).sem;
    let Some(Operand::Frame { index, .. }) = ops.iter().find(|o| matches!(o, Operand::Frame { .. })) else { return None };
    let i = index.0 as usize;
    if f.frame.get(i)?.kind != FrameKind::Spill {
        return None;
    }
    if sem.writes_memory() {
        Some((i, true))
    } else if sem.reads_memory() {
        Some((i, false))
    } else {
        None
    }
}

/// Shares spill slots; returns how many slots were merged away.
pub fn share(m: &dsp_mir::Machine, f: &mut Function) -> u32 {
    let nslots = f.frame.len();
    let spills: Vec<usize> = (0..nslots).filter(|&i| f.frame[i].kind == FrameKind::Spill).collect();
    if spills.len() < 2 {
        return 0;
    }
    let n = f.blocks.len();
    // Per block: upward-exposed loads and stores.
    let mut gen = vec![BitSet::new(nslots); n];
    let mut kill = vec![BitSet::new(nslots); n];
    for (b, data) in f.blocks.iter().enumerate() {
        for inst in &data.insts {
            if let Some((s, store)) = slot_access(m, f, inst) {
                if store {
                    kill[b].insert(s);
                } else if !kill[b].contains(s) {
                    gen[b].insert(s);
                }
            }
        }
    }
    let succs: Vec<Vec<usize>> =
        f.blocks.iter().map(|d| d.term.successors().iter().map(|s| s.0 as usize).filter(|&s| s < n).collect()).collect();
    let mut live_in = gen.clone();
    let mut live_out = vec![BitSet::new(nslots); n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut out = BitSet::new(nslots);
            for &s in &succs[b] {
                out.union_with(&live_in[s]);
            }
            let mut inn = out.clone();
            for k in kill[b].iter() {
                inn.remove(k);
            }
            inn.union_with(&gen[b]);
            live_out[b] = out;
            if inn != live_in[b] {
                live_in[b] = inn;
                changed = true;
            }
        }
    }
    let mut interfere = vec![BitSet::new(nslots); nslots];
    let add = |a: usize, b: usize, g: &mut Vec<BitSet>| {
        if a != b {
            g[a].insert(b);
            g[b].insert(a);
        }
    };
    for (b, data) in f.blocks.iter().enumerate() {
        let mut live = live_out[b].clone();
        for inst in data.insts.iter().rev() {
            if let Some((s, store)) = slot_access(m, f, inst) {
                if store {
                    for l in live.iter() {
                        add(s, l, &mut interfere);
                    }
                    live.remove(s);
                } else {
                    live.insert(s);
                }
            }
        }
    }
    let entry: Vec<usize> = live_in[0].iter().collect();
    for &a in &entry {
        for &b in &entry {
            add(a, b, &mut interfere);
        }
    }
    // Greedy coloring: each slot joins the first compatible representative.
    let mut reps: Vec<(usize, BitSet)> = Vec::new();
    let mut map: Vec<usize> = (0..nslots).collect();
    let mut merged = 0;
    for &s in &spills {
        let (size, align) = (f.frame[s].size, f.frame[s].align);
        let rep = reps.iter_mut().find(|(r, members)| {
            f.frame[*r].size == size && f.frame[*r].align == align && !members.iter().any(|x| interfere[s].contains(x))
        });
        match rep {
            Some((r, members)) => {
                members.insert(s);
                map[s] = *r;
                merged += 1;
            }
            None => {
                let mut members = BitSet::new(nslots);
                members.insert(s);
                reps.push((s, members));
            }
        }
    }
    if merged == 0 {
        return 0;
    }
    for b in &mut f.blocks {
        for inst in &mut b.insts {
            if let InstKind::Machine { ops, .. } = &mut inst.kind {
                for o in ops.iter_mut() {
                    if let Operand::Frame { index, .. } = o {
                        let to = dsp_mir::FrameIndex(map[index.0 as usize] as u32);
                        // The access reaches the shared slot's object now, so
                        // the schedulers keep it in order with the others'.
                        if inst.object == Some(dsp_mir::MemObject::slot(*index)) {
                            inst.object = Some(dsp_mir::MemObject::slot(to));
                        }
                        *index = to;
                    }
                }
            }
        }
    }
    for &s in &spills {
        if map[s] != s {
            f.frame[s].size = 0;
            f.frame[s].align = 1;
        }
    }
    merged
}

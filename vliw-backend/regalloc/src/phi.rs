//! Phi elimination (out of SSA). Critical edges into blocks with phis are
//! split (a new block with a jump, appended to the layout); each predecessor
//! then ends with the parallel copy of its phi arguments, sequentialized as
//! in Boissinot et al., "Revisiting Out-of-SSA Translation for Correctness,
//! Code Quality, and Efficiency" (CGO 2009, §3.3): copies whose
//! destination is no longer read go first, and each remaining cycle is
//! broken with one temporary. A critical edge that cannot be split (from an
//! indirect jump, whose targets are addresses in a jump table) is handled
//! like Sreedhar's method I instead: the phis of that block write fresh
//! registers in every predecessor and are copied at the block's top.
//! Blocks with a fixed schedule get no copies and no split edges: a phi
//! that needs a copy on an edge out of one is an error (identity copies,
//! a phi reading its own register, are dropped).

use std::collections::HashMap;

use dsp_mir::{Block, Function, Inst, InstKind, Reg, RegFileId, Terminator, VReg};

use crate::cfg;

/// Removes every phi; returns the number of copies inserted.
#[allow(clippy::needless_range_loop)]
pub fn eliminate(f: &mut Function) -> Result<u32, String> {
    let preds = cfg::predecessors(f);
    let mut copies = 0u32;
    for s in 0..f.blocks.len() {
        let mut phis: Vec<(VReg, Vec<(Block, Reg)>)> = Vec::new();
        f.blocks[s].insts.retain(|i| match &i.kind {
            InstKind::Phi { dst, incoming } => {
                phis.push((*dst, incoming.clone()));
                false
            }
            _ => true,
        });
        if phis.is_empty() {
            continue;
        }
        let spreds = preds[s].clone();
        let nsucc = |f: &Function, p: Block| {
            let mut v = f.block(p).term.successors();
            v.sort();
            v.dedup();
            v.len()
        };
        let critical = |f: &Function, p: Block| spreds.len() > 1 && nsucc(f, p) > 1;
        let unsplittable = spreds
            .iter()
            .any(|&p| critical(f, p) && !matches!(f.block(p).term, Terminator::Branch { .. }));
        let incoming = |inc: &[(Block, Reg)], p: Block| inc.iter().find(|(b, _)| *b == p).map(|(_, r)| *r);
        // No copies on edges out of fixed blocks.
        for &p in &spreds {
            if f.block(p).fixed.is_none() {
                continue;
            }
            let needs_copy = phis.iter().any(|(d, inc)| incoming(inc, p).is_some_and(|r| r != Reg::Virt(*d)));
            if needs_copy || unsplittable {
                return Err(format!(
                    "bb{s} ({}): a phi needs a copy on the edge from bb{} ({}), which has a fixed schedule",
                    f.blocks[s].name,
                    p.0,
                    f.block(p).name
                ));
            }
        }
        if unsplittable {
            let mut head = Vec::new();
            let mut primes = Vec::new();
            for (d, _) in &phis {
                let d2 = f.new_vreg(f.vreg_file(*d));
                head.push(Inst::new(InstKind::Copy { dst: Reg::Virt(*d), src: Reg::Virt(d2) }));
                primes.push(d2);
            }
            copies += head.len() as u32;
            f.blocks[s].insts.splice(0..0, head);
            for &p in &spreds {
                let list: Vec<(Reg, Reg)> = phis
                    .iter()
                    .zip(&primes)
                    .filter_map(|((_, inc), d2)| incoming(inc, p).map(|r| (Reg::Virt(*d2), r)))
                    .collect();
                copies += append_parallel_copy(f, p, &list);
            }
        } else {
            for &p in &spreds {
                if f.block(p).fixed.is_some() {
                    continue;
                }
                let list: Vec<(Reg, Reg)> =
                    phis.iter().filter_map(|(d, inc)| incoming(inc, p).map(|r| (Reg::Virt(*d), r))).collect();
                let at = if critical(f, p) { split_edge(f, p, Block(s as u32)) } else { p };
                copies += append_parallel_copy(f, at, &list);
            }
        }
    }
    Ok(copies)
}

/// Branches to blocks made by edge splitting (index `first_new` on) that
/// ended up empty (their copies coalesced away) go straight to where those
/// blocks jump; the empty blocks become unreachable. Returns how many.
pub fn thread_empty_blocks(f: &mut Function, first_new: usize) -> u32 {
    let n = f.blocks.len();
    let target = |f: &Function, b: usize| match f.blocks[b].term {
        Terminator::Jump(t) if b >= first_new && f.blocks[b].insts.is_empty() => Some(t),
        _ => None,
    };
    let mut map: Vec<Block> = (0..n as u32).map(Block).collect();
    let mut threaded = 0;
    #[allow(clippy::needless_range_loop)]
    for b in first_new..n {
        let mut t = Block(b as u32);
        let mut steps = 0;
        while let Some(next) = target(f, t.0 as usize) {
            if next == Block(b as u32) || steps > n {
                t = Block(b as u32);
                break;
            }
            t = next;
            steps += 1;
        }
        if t != Block(b as u32) {
            map[b] = t;
            threaded += 1;
        }
    }
    if threaded > 0 {
        for data in &mut f.blocks {
            match &mut data.term {
                Terminator::Jump(t) => *t = map[t.0 as usize],
                Terminator::Branch { taken, not_taken, .. } => {
                    *taken = map[taken.0 as usize];
                    *not_taken = map[not_taken.0 as usize];
                }
                _ => {}
            }
        }
    }
    threaded
}

/// Puts a new block on the edge `p → s` (p ends with a conditional branch).
fn split_edge(f: &mut Function, p: Block, s: Block) -> Block {
    let name = format!("{}.{}", f.block(p).name, f.block(s).name);
    let n = f.new_block(name);
    f.block_mut(n).term = Terminator::Jump(s);
    if let Terminator::Branch { taken, not_taken, .. } = &mut f.block_mut(p).term {
        if *taken == s {
            *taken = n;
        }
        if *not_taken == s {
            *not_taken = n;
        }
    }
    n
}

/// Appends the parallel copy `dst_i = src_i` (all at once) to block `b`,
/// before its terminator; returns the number of copies emitted.
pub fn append_parallel_copy(f: &mut Function, b: Block, list: &[(Reg, Reg)]) -> u32 {
    let mut seq = Vec::new();
    // A terminator reading a destination reads the value from before the copies.
    let term_regs: Vec<Reg> = crate::operands::term_uses(&f.block(b).term);
    for r in term_regs {
        if let Reg::Virt(_) = r {
            if list.iter().any(|(d, s)| *d == r && *s != r) {
                let t = Reg::Virt(f.new_vreg(f.reg_file(r)));
                seq.push((t, r));
                crate::operands::for_each_term_reg_mut(&mut f.block_mut(b).term, |x| {
                    if *x == r {
                        *x = t;
                    }
                });
            }
        }
    }
    let mut by_file: HashMap<RegFileId, Vec<(Reg, Reg)>> = HashMap::new();
    let mut files = Vec::new();
    for &(d, s) in list {
        let file = f.reg_file(d);
        if !by_file.contains_key(&file) {
            files.push(file);
        }
        by_file.entry(file).or_default().push((d, s));
    }
    for file in files {
        let mut fresh = || Reg::Virt(f.new_vreg(file));
        seq.extend(sequentialize(&by_file[&file], &mut fresh));
    }
    let n = seq.len() as u32;
    f.block_mut(b).insts.extend(seq.into_iter().map(|(dst, src)| Inst::new(InstKind::Copy { dst, src })));
    n
}

/// Orders a parallel copy (distinct destinations) into sequential copies:
/// a copy whose destination no pending copy still reads goes first; when
/// only cycles remain, one destination is saved in a temporary from
/// `fresh` (one per call: each cycle unrolls completely before the next is
/// broken) and its readers read the temporary.
pub fn sequentialize(list: &[(Reg, Reg)], fresh: &mut dyn FnMut() -> Reg) -> Vec<(Reg, Reg)> {
    let mut pending: Vec<(Reg, Reg)> = list.iter().copied().filter(|(d, s)| d != s).collect();
    let mut out = Vec::new();
    let mut temp: Option<Reg> = None;
    while !pending.is_empty() {
        if let Some(i) = pending.iter().position(|(d, _)| !pending.iter().any(|(_, s)| s == d)) {
            out.push(pending.remove(i));
            continue;
        }
        let d = pending[0].0;
        let t = *temp.get_or_insert_with(&mut *fresh);
        out.push((t, d));
        for c in pending.iter_mut() {
            if c.1 == d {
                c.1 = t;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn r(i: u32) -> Reg {
        Reg::Virt(VReg(i))
    }

    /// Runs sequential copies on a register state and checks the parallel meaning.
    fn check(list: &[(Reg, Reg)]) {
        let mut next = 1000;
        let mut fresh = || {
            next += 1;
            r(next)
        };
        let seq = sequentialize(list, &mut fresh);
        let mut state: HashMap<Reg, i64> = HashMap::new();
        for i in 0..20 {
            state.insert(r(i), i as i64 * 10);
        }
        let before = state.clone();
        for (d, s) in &seq {
            let v = state.get(s).copied().unwrap_or(-1);
            state.insert(*d, v);
        }
        for (d, s) in list {
            assert_eq!(state[d], before[s], "{list:?} → {seq:?}");
        }
        // One copy per real move, plus at most one save per cycle.
        let real = list.iter().filter(|(d, s)| d != s).count();
        let saves = seq.iter().filter(|(d, _)| !list.iter().any(|(x, _)| x == d)).count();
        assert_eq!(seq.len() - saves, real, "{list:?} → {seq:?}");
        assert!(saves <= real / 2, "{list:?} → {seq:?}");
        // Registers that are not destinations keep their values.
        for i in 0..20 {
            if !list.iter().any(|(d, _)| *d == r(i)) {
                assert_eq!(state[&r(i)], before[&r(i)]);
            }
        }
    }

    #[test]
    fn parallel_copies_sequentialize() {
        check(&[(r(1), r(2)), (r(2), r(1))]); // swap
        check(&[(r(1), r(2)), (r(2), r(3)), (r(3), r(1))]); // rotation
        check(&[(r(1), r(2)), (r(2), r(3)), (r(4), r(2))]); // chain with fan-out
        check(&[(r(1), r(1)), (r(2), r(3))]); // identity
        check(&[(r(1), r(2)), (r(2), r(1)), (r(3), r(4)), (r(4), r(3)), (r(5), r(3))]); // two cycles
        check(&[(r(1), r(0)), (r(2), r(0)), (r(3), r(0))]); // broadcast
        check(&[(r(1), r(2)), (r(2), r(1)), (r(6), r(1))]); // cycle with an exit
    }

    #[test]
    fn exhaustive_small_permutations_with_fanout() {
        // Every map from 4 destinations to sources among 6 registers.
        for code in 0..6usize.pow(4) {
            let mut c = code;
            let mut list = Vec::new();
            for d in 0..4 {
                list.push((r(d), r((c % 6) as u32)));
                c /= 6;
            }
            check(&list);
        }
    }
}

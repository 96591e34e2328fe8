//! Breaking false dependences left by register allocation (a post-allocation
//! "anti-dependence breaker"): the allocator reuses registers, so unrelated
//! values that share a register are ordered by write-after-read and
//! write-after-write dependences that the list scheduler must respect. Within
//! a region, a value whose register was already read or written earlier in
//! the region moves to another register of its file that is free over the
//! value's whole range (not live, not touched there), so the two uses of the
//! register no longer constrain each other.
//!
//! Only what is provably safe is renamed: an unguarded write through a
//! destination operand that is not also a source, every read of the value
//! through a source operand or a guard, no guarded redefinition in range,
//! and a value that does not outlive the region (`liveness`). Candidate
//! registers exclude the fixed ones, the stack and frame pointers, the link
//! register, and callee-saved registers the function does not already write
//! (so the prologue saves every register used).

use std::collections::BTreeSet;

use isa_tablegen::{Machine, Reg as PReg, RegFileId};

use crate::lower::{make_op, LBlock, LOp, LOperand, OpClass, Region};

/// Regions larger than this are left alone (renaming is quadratic).
const MAX_REGION: usize = 4000;

/// Registers a renamed value may move to, per register file.
fn pool(m: &Machine, blocks: &[LBlock]) -> Vec<Vec<PReg>> {
    let written: BTreeSet<PReg> = blocks
        .iter()
        .flat_map(|b| b.regions.iter())
        .flat_map(|r| r.body.iter())
        .flat_map(|o| o.defs.iter().copied())
        .collect();
    (0..m.regfiles.len())
        .map(|f| {
            let file = RegFileId(f as u16);
            (0..m.regfile(file).count)
                .map(|index| PReg { file, index })
                .filter(|&r| {
                    !reserved(m, r) && (!m.abi.callee_saved.contains(&r) || written.contains(&r))
                })
                .collect()
        })
        .collect()
}

fn reserved(m: &Machine, r: PReg) -> bool {
    m.special(r).is_some()
        || Some(r) == m.abi.sp
        || Some(r) == m.abi.fp
        || Some(r) == m.control.link
}

fn touches(o: &LOp, r: PReg) -> bool {
    o.uses.contains(&r) || o.defs.contains(&r)
}

/// The operand positions an operation reads.
fn source_positions(m: &Machine, o: &LOp) -> Vec<usize> {
    m.instr(o.instr).sem.sources().collect()
}

/// Whether every read of `r` by `o` can be renamed: through source
/// operands or the guard, never through the destination or implicitly.
fn reads_renamable(m: &Machine, o: &LOp, r: PReg) -> bool {
    let sem = &m.instr(o.instr).sem;
    if o.defs.contains(&r) && o.guard.is_some() {
        return false;
    }
    if let Some(d) = sem.dst {
        if sem.args.iter().any(|a| a.0 == d.0) && o.operands.get(d.0) == Some(&LOperand::Reg(r)) {
            return false;
        }
    }
    let via_operand = source_positions(m, o)
        .iter()
        .any(|&p| o.operands.get(p) == Some(&LOperand::Reg(r)));
    let via_guard = o.guard.is_some_and(|(g, _)| g == r);
    let implicit = o.class == OpClass::Syscall;
    (via_operand || via_guard) && !implicit
}

fn live_after(r: &Region) -> Vec<BTreeSet<PReg>> {
    let n = r.body.len();
    let mut out = vec![BTreeSet::new(); n];
    let mut live: BTreeSet<PReg> = r.live_out.iter().copied().collect();
    for i in (0..n).rev() {
        out[i] = live.clone();
        let op = &r.body[i];
        for d in &op.defs {
            live.remove(d);
        }
        live.extend(op.uses.iter().copied());
    }
    out
}

fn rename_region(m: &Machine, region: &mut Region, pool: &[Vec<PReg>]) -> usize {
    let n = region.body.len();
    if !(2..=MAX_REGION).contains(&n) {
        return 0;
    }
    let mut live = live_after(region);
    let mut count = 0;
    for i in 0..n {
        let op = &region.body[i];
        if op.guard.is_some() || op.class != OpClass::Plain {
            continue;
        }
        let sem = &m.instr(op.instr).sem;
        let Some(d) = sem.dst else { continue };
        if sem.args.iter().any(|a| a.0 == d.0) {
            continue;
        }
        let Some(&LOperand::Reg(r)) = op.operands.get(d.0) else {
            continue;
        };
        if reserved(m, r) || !region.body[..i].iter().any(|o| touches(o, r)) {
            continue;
        }
        // The value's range: its reads up to the next write of the register.
        let mut last = i;
        let mut ends = false;
        let mut ok = true;
        for (j, o) in region.body.iter().enumerate().skip(i + 1) {
            if o.uses.contains(&r) {
                if !reads_renamable(m, o, r) {
                    ok = false;
                    break;
                }
                last = j;
            }
            if o.defs.contains(&r) {
                if o.guard.is_some() {
                    ok = false;
                }
                ends = true;
                break;
            }
        }
        if !ok || (!ends && region.live_out.contains(&r)) {
            continue;
        }
        // The free register touched least nearby: none after the range first,
        // then the one last touched longest before it.
        let mut best: Option<((bool, i64), PReg)> = None;
        for &c in &pool[r.file.0 as usize] {
            if c == r || live[i].contains(&c) || region.body[i..=last].iter().any(|o| touches(o, c))
            {
                continue;
            }
            let after = region.body[last + 1..].iter().any(|o| touches(o, c));
            let before = region.body[..i]
                .iter()
                .rposition(|o| touches(o, c))
                .map_or(-1, |p| p as i64);
            let key = (after, before);
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, c));
            }
        }
        let Some((_, c)) = best else { continue };
        // Rewrite the definition and every read in range.
        let mut def = region.body[i].clone();
        def.operands[d.0] = LOperand::Reg(c);
        region.body[i] = remake(m, def);
        for j in i + 1..=last {
            let mut o = region.body[j].clone();
            if !o.uses.contains(&r) {
                continue;
            }
            for p in source_positions(m, &o) {
                if o.operands[p] == LOperand::Reg(r) {
                    o.operands[p] = LOperand::Reg(c);
                }
            }
            if let Some((g, neg)) = o.guard {
                if g == r {
                    o.guard = Some((c, neg));
                }
            }
            region.body[j] = remake(m, o);
        }
        for set in &mut live[i..last] {
            set.remove(&r);
            set.insert(c);
        }
        count += 1;
    }
    count
}

/// Renames in every region of the function (after `liveness::compute`);
/// returns how many values moved.
pub fn rename_function(m: &Machine, blocks: &mut [LBlock]) -> usize {
    let pool = pool(m, blocks);
    let mut count = 0;
    // Fixed schedules are emitted as they are.
    for b in blocks.iter_mut().filter(|b| b.fixed.is_none()) {
        for r in &mut b.regions {
            count += rename_region(m, r, &pool);
        }
    }
    count
}

/// `op` rebuilt from its (renamed) operands, keeping the object its memory
/// access reaches.
fn remake(m: &Machine, op: LOp) -> LOp {
    let object = op.mem.as_ref().and_then(|a| a.object);
    make_op(m, op.instr, op.guard, op.operands, op.loc, object)
}

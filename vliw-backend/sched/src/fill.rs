//! Filling branch delay slots from the branch target: the classic
//! delay-slot filling of delayed-branch machines (MIPS and SPARC compilers,
//! GCC's `-fdelayed-branch` "from the target" case), run on a scheduled
//! function after `delay` has filled what it could from the branch's own
//! block; then, for a conditional branch, from the block it falls through
//! to ([`from_fallthrough`], the "from the fall-through" case).
//!
//! When the last `z` delay slots of a block's branch hold only `nop`s, the
//! first `k ≤ z` bundles of the target are copied into them and the branch
//! goes to the target's bundle `k` instead (a new label there). The copied
//! bundles issue in the same order and at the same distance from the rest
//! of the target as before, so the target's own timing is unchanged; what
//! has to be checked is the branch block:
//! - nothing of the block is pending when the first copied bundle issues:
//!   every earlier result has landed and every non-pipelined unit is free
//!   (so the copies read what the target would have read, and no write
//!   port, write order or unit is shared with the block's own operations);
//! - the copied bundles hold no control transfer or system call.
//!
//! A conditional branch also falls through to the next block, which then
//! runs the copies too. They must be harmless there
//! ([`isa_tablegen::Sem::can_speculate`]: no memory access, no fault), write
//! no register live into the next block (nor any special register), and
//! land before it starts (a block is entered with nothing pending,
//! vliw-backend/ABI.md). Blocks with a fixed schedule (the software
//! pipeliner's) are neither filled nor copied from.

use std::collections::HashMap;

use isa_tablegen::{Machine, Reg as PReg};

use crate::lower::{LOp, LOperand, OpClass};
use crate::query::busy;
use crate::ScheduledBlock;

fn is_nop_bundle(b: &[LOp]) -> bool {
    b.iter().all(|o| o.class == OpClass::Nop)
}

/// Cycle (from the bundle's issue) by which an operation's result has
/// landed and its unit is free.
fn done_after(m: &Machine, op: &LOp) -> usize {
    m.instr(op.instr).latency.max(busy(m, op.instr)) as usize
}

/// Whether an operation of the bundles before `p0` has not landed, or
/// holds its unit, when bundle `p0` issues.
fn pending_at(m: &Machine, bundles: &[Vec<LOp>], p0: usize) -> bool {
    bundles[..p0].iter().enumerate().any(|(q, b)| b.iter().any(|o| o.class != OpClass::Nop && q + done_after(m, o) > p0))
}

/// The branch ending block `i`: its bundle, the branch's index in it and the
/// label it goes to.
fn branch_of(blocks: &[ScheduledBlock], i: usize) -> Option<(usize, usize, String)> {
    let at = blocks[i].transfer?;
    let bundle = &blocks[i].bundles[at];
    let mut branches = bundle.iter().enumerate().filter(|(_, o)| o.class == OpClass::Branch);
    let (k, op) = branches.next()?;
    if branches.next().is_some() {
        return None;
    }
    let label = op.operands.iter().find_map(|o| match o {
        LOperand::Label(l) => Some(l.clone()),
        _ => None,
    })?;
    Some((at, k, label))
}

/// Whether the copies of `copied` (issued from bundle `p0` of a block of
/// `len` bundles) may also run on the fallthrough into a block whose
/// live-in registers are `live`.
fn harmless_on_fallthrough(m: &Machine, copied: &[Vec<LOp>], p0: usize, len: usize, live: &[PReg]) -> bool {
    copied.iter().enumerate().all(|(j, bundle)| {
        bundle.iter().all(|op| {
            op.class == OpClass::Nop
                || (op.class == OpClass::Plain
                    && op.mem.is_none()
                    && m.instr(op.instr).sem.can_speculate()
                    && op.port_writes.len() == op.defs.len()
                    && op.defs.iter().all(|d| !live.contains(d))
                    && p0 + j + done_after(m, op) <= len)
        })
    })
}

/// The first `n` bundle positions (block, bundle) executed from the start
/// of block `t` on: its bundles, then those of the blocks it falls through
/// to; fewer when a block with a fixed schedule or the function's end
/// comes first.
fn stream(blocks: &[ScheduledBlock], t: usize, n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(n);
    let mut b = t;
    while b < blocks.len() && !blocks[b].fixed {
        for k in 0..blocks[b].bundles.len() {
            if out.len() == n {
                return out;
            }
            out.push((b, k));
        }
        if !blocks[b].falls_through {
            break;
        }
        b += 1;
    }
    out
}

/// The most target bundles (at most `z`) that the branch of block `i` can
/// take into its trailing `z` nop delay slots.
fn how_many(
    m: &Machine,
    blocks: &[ScheduledBlock],
    i: usize,
    target: &[Vec<LOp>],
    z: usize,
    conditional: bool,
    live_in: &[Vec<PReg>],
) -> usize {
    let len = blocks[i].bundles.len();
    let limit = z.min(target.len().saturating_sub(1));
    let clean = target
        .iter()
        .take(limit)
        .take_while(|b| b.iter().all(|o| matches!(o.class, OpClass::Plain | OpClass::Nop)))
        .count();
    for k in (1..=clean).rev() {
        let p0 = len - k;
        if pending_at(m, &blocks[i].bundles, p0) {
            continue;
        }
        if conditional {
            let Some(live) = live_in.get(i + 1) else { continue };
            if !harmless_on_fallthrough(m, &target[..k], p0, len, live) {
                continue;
            }
        }
        return k;
    }
    0
}

/// Fills the trailing nop delay slots of every block's branch from its
/// target; `live_in[i]` are the registers live into `blocks[i]`. Returns
/// the number of delay-slot bundles filled.
pub fn from_targets(m: &Machine, blocks: &mut [ScheduledBlock], live_in: &[Vec<PReg>]) -> usize {
    let delay = m.control.delay_slots as usize;
    let index: HashMap<String, usize> = blocks.iter().enumerate().map(|(i, b)| (b.label.clone(), i)).collect();
    let mut filled = 0;
    for i in 0..blocks.len() {
        if blocks[i].fixed {
            continue;
        }
        let Some((at, k_op, label)) = branch_of(blocks, i) else { continue };
        let len = blocks[i].bundles.len();
        if delay == 0 || at + delay + 1 != len {
            continue;
        }
        let Some(&t) = index.get(&label) else { continue };
        let z = blocks[i].bundles[at + 1..].iter().rev().take_while(|b| is_nop_bundle(b)).count();
        let positions = stream(blocks, t, z + 1);
        let target: Vec<Vec<LOp>> = positions.iter().map(|&(b, k)| blocks[b].bundles[k].clone()).collect();
        // Guarded, or a branch on a register (brnz/brz): either way it
        // may fall through.
        let br = &blocks[i].bundles[at][k_op];
        let conditional = br.guard.is_some() || m.instr(br.instr).sem.op != isa_tablegen::SemOp::Br;
        let k = how_many(m, blocks, i, &target, z, conditional, live_in);
        if k == 0 {
            continue;
        }
        let (eb, ek) = positions[k];
        let entry = if ek == 0 {
            blocks[eb].label.clone()
        } else {
            let name = format!("{}.d{ek}", blocks[eb].label);
            if !blocks[eb].entries.iter().any(|(at, _)| *at == ek) {
                blocks[eb].entries.push((ek, name.clone()));
                blocks[eb].entries.sort();
            }
            name
        };
        let copies = &target[..k];
        let b = &mut blocks[i];
        for (j, bundle) in copies.iter().enumerate() {
            b.bundles[len - k + j] = bundle.clone();
        }
        for o in &mut b.bundles[at][k_op].operands {
            if let LOperand::Label(l) = o {
                *l = entry.clone();
            }
        }
        filled += k;
    }
    filled
}

/// Fills the trailing nop delay slots of every conditional branch from the
/// block it falls through to, when that block is entered from nowhere else
/// (`sole[i + 1]`: no branch, jump table or computed goto reaches it, no
/// delay-slot entry inside it): its first bundles move into the slots, so
/// on the fall-through it starts as many cycles earlier with the same
/// timing inside it. On the taken path the moved bundles run too: they
/// must be harmless there (as copies from the target must be on the
/// fall-through: no memory access, no fault, no register live into the
/// target written, landed before it starts), and nothing of the branch's
/// block may be pending when the first of them issues. `live_in[i]` are the
/// registers live into `blocks[i]`. Returns the number of delay-slot
/// bundles filled.
pub fn from_fallthrough(m: &Machine, blocks: &mut [ScheduledBlock], live_in: &[Vec<PReg>], sole: &[bool]) -> usize {
    let delay = m.control.delay_slots as usize;
    let index: HashMap<String, usize> = blocks.iter().enumerate().map(|(i, b)| (b.label.clone(), i)).collect();
    let mut filled = 0;
    for i in 0..blocks.len().saturating_sub(1) {
        let next = i + 1;
        if blocks[i].fixed || blocks[next].fixed || !sole.get(next).copied().unwrap_or(false) || !blocks[next].entries.is_empty() {
            continue;
        }
        let Some((at, k_op, label)) = branch_of(blocks, i) else { continue };
        let len = blocks[i].bundles.len();
        if delay == 0 || at + delay + 1 != len {
            continue;
        }
        let br = &blocks[i].bundles[at][k_op];
        let conditional = br.guard.is_some() || m.instr(br.instr).sem.op != isa_tablegen::SemOp::Br;
        let Some(&t) = index.get(&label) else { continue };
        if !conditional || t == next {
            continue;
        }
        let Some(live) = live_in.get(t) else { continue };
        let z = blocks[i].bundles[at + 1..].iter().rev().take_while(|b| is_nop_bundle(b)).count();
        // Leading plain bundles of the next block, leaving it at least one.
        let limit = z.min(blocks[next].bundles.len().saturating_sub(1));
        let clean = blocks[next].bundles.iter().take(limit).take_while(|b| b.iter().all(|o| matches!(o.class, OpClass::Plain | OpClass::Nop))).count();
        let mut k = 0;
        for n in (1..=clean).rev() {
            let p0 = len - n;
            if !pending_at(m, &blocks[i].bundles, p0) && harmless_on_fallthrough(m, &blocks[next].bundles[..n], p0, len, live) {
                k = n;
                break;
            }
        }
        if k == 0 {
            continue;
        }
        let moved: Vec<Vec<LOp>> = blocks[next].bundles.drain(..k).collect();
        if let Some(tr) = blocks[next].transfer.as_mut() {
            *tr -= k;
        }
        for (j, bundle) in moved.into_iter().enumerate() {
            blocks[i].bundles[len - k + j] = bundle;
        }
        filled += k;
    }
    filled
}

/// Per block of `blocks` (lowered from `f`): whether it is entered only by
/// falling into it from the block before, which no branch, jump table or
/// computed goto names (what [`from_fallthrough`] asks of the block it
/// moves bundles out of).
pub fn entered_only_by_falling(f: &dsp_mir::Function, blocks: &[crate::lower::LBlock]) -> Vec<bool> {
    let named: std::collections::HashSet<String> = blocks
        .iter()
        .flat_map(|b| b.regions.iter().flat_map(|r| r.body.iter().chain(r.control.iter().flat_map(|c| c.ops.iter()))))
        .flat_map(|o| o.operands.iter())
        .filter_map(|o| match o {
            LOperand::Label(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    let indirect: std::collections::HashSet<dsp_mir::Block> = f
        .blocks
        .iter()
        .flat_map(|b| match &b.term {
            dsp_mir::Terminator::IndirectJump { targets, .. } => targets.clone(),
            _ => Vec::new(),
        })
        .chain(f.address_taken.iter().copied())
        .collect();
    // Each block's predecessors (positions in `blocks`, each once), in one
    // pass over the edges: asking every block for every other block's
    // successors was quadratic in the number of blocks.
    let mut preds: std::collections::HashMap<dsp_mir::Block, Vec<usize>> = std::collections::HashMap::new();
    for (j, b) in blocks.iter().enumerate() {
        for s in &b.succs {
            let p = preds.entry(*s).or_default();
            if p.last() != Some(&j) {
                p.push(j);
            }
        }
    }
    (0..blocks.len())
        .map(|k| {
            let b = &blocks[k];
            k > 0
                && preds.get(&b.block).is_some_and(|p| p.as_slice() == [k - 1])
                && !named.contains(&b.label) && !indirect.contains(&b.block)
        })
        .collect()
}

//! Blocks with a fixed schedule (`dsp_mir::FixedBlock`: the software
//! pipeliner's prologue, kernel and epilogue) are emitted as they are:
//! bundle `c` holds the block's operations of cycle `c` in list order (the
//! renamer and the list scheduler leave them alone), an empty bundle one
//! nop, exactly `len` bundles. A kernel's guarded branch (the condition,
//! negated as the terminator says, to the taken successor) goes last into
//! bundle `branch_cycle`, whose delay slots are the block's last bundles;
//! its not-taken successor follows in layout (`layout` puts it there). A
//! block without a branch falls through into its successor, which must
//! follow, unless it drains: then an ordinary jump (its own region) follows
//! the `len` bundles when the successor is elsewhere.
//!
//! Values may be in flight across the edges between fixed blocks, so a
//! block is only legal together with its neighbours. [`check`] replays
//! every path through fixed blocks that starts where an ordinary block
//! enters them (nothing pending, every unit free) and takes each fixed
//! block at most twice (a kernel's back edge once: P, P K, P K K, P K K E,
//! P K E for a prologue, kernel and epilogue), as one straight sequence of
//! bundles:
//! - `resource::replay`: slots, units, non-pipelined units, read and write ports;
//! - register timing as `dsp-sim --strict` checks it: no read of a register
//!   whose write is pending, no write landing no later than an earlier
//!   pending write of the same register (unless both are guarded by one
//!   predicate with opposite senses);
//! - where the path leaves for an ordinary block, every result has landed
//!   and every unit is free by the end of the last block's `len` bundles
//!   (the timing rule of vliw-backend/ABI.md).
//!
//! A failure is a bug in the fixed schedule (the software pipeliner's, or
//! register allocation's renaming), reported as such.

use std::collections::HashMap;

use dsp_mir::{Block, FixedBlock, Function, InstKind, Terminator};
use isa_tablegen::{Machine, OperandKind, Reg as PReg};

use crate::layout::Layout;
use crate::lower::{Ctx, LBlock, LOp, LowerError, OpClass, Region};
use crate::query::busy;
use crate::resource::replay;

/// The cycles of a lowered fixed block (see [`LBlock::fixed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedPlan {
    pub len: u32,
    /// Cycle of each operation of the block's first region.
    pub cycles: Vec<u32>,
    /// The bundle of the branch (one of the operations), if any.
    pub branch_cycle: Option<u32>,
}

/// Paths explored by [`check`] at most (a guard against pathological CFGs).
const MAX_PATHS: usize = 10_000;

fn block_name(f: &Function, b: Block) -> String {
    format!("bb{} ({})", b.0, f.block(b).name)
}

/// Lowers fixed block `b`; `next` is the block laid out after it.
pub(crate) fn lower_block(
    cx: &Ctx,
    b: Block,
    fx: &FixedBlock,
    next: Option<Block>,
    layout: &Layout,
) -> Result<LBlock, LowerError> {
    let (m, f) = (cx.m, cx.f);
    let block = f.block(b);
    let err = |msg: String| {
        (
            format!("fixed-schedule block {}: {msg}", block_name(f, b)),
            None,
        )
    };
    let mut body = Vec::new();
    let mut cycles = Vec::new();
    for (i, inst) in block.insts.iter().enumerate() {
        if !matches!(inst.kind, InstKind::Machine { .. }) {
            return Err(err(format!("inst {i} is not a machine instruction")));
        }
        let c = inst
            .cycle
            .ok_or_else(|| err(format!("inst {i} has no cycle")))?;
        if c >= fx.len || cycles.last().is_some_and(|&l| c < l) {
            return Err(err(format!(
                "inst {i}: cycle {c} out of order or past the block's {} bundles",
                fx.len
            )));
        }
        if let Some(op) = cx.lower_inst(inst)? {
            body.push(op);
            cycles.push(c);
        }
    }
    let mut jump = None;
    match (&block.term, fx.branch_cycle) {
        (Terminator::Branch { cond, negate, taken, not_taken }, Some(bc)) => {
            let delay = m.control.delay_slots;
            if bc + delay + 1 != fx.len {
                return Err(err(format!(
                    "the branch in bundle {bc} has {delay} delay slots, so the block must be {} bundles long, not {}",
                    bc + delay + 1,
                    fx.len
                )));
            }
            let not_taken = layout.resolve(*not_taken);
            if next != Some(not_taken) {
                return Err(err(format!("its not-taken successor {} does not follow it in layout", block_name(f, not_taken))));
            }
            let c = cx.phys(*cond, &None)?;
            let br = if m.predicate_file() == Some(c.file) {
                cx.branch_to(layout.resolve(*taken), Some((c, *negate)))?
            } else {
                cx.branch_on_reg(c, *negate, layout.resolve(*taken))?
            };
            let at = cycles.partition_point(|&x| x <= bc);
            body.insert(at, br);
            cycles.insert(at, bc);
        }
        (Terminator::Jump(t), None) => {
            let t = layout.resolve(*t);
            if next != Some(t) {
                if !fx.drains {
                    return Err(err(format!(
                        "it falls through into {}, which does not follow it in layout",
                        block_name(f, t)
                    )));
                }
                jump = cx.terminator(b, &Terminator::Jump(t), next)?;
            }
        }
        _ => {
            return Err(err(
                "a fixed block ends in a jump (branch_cycle None) or a conditional branch (branch_cycle Some)".into(),
            ))
        }
    }
    let mut regions = vec![Region {
        body,
        control: None,
        live_out: vec![],
    }];
    if let Some(control) = jump {
        regions.push(Region {
            body: vec![],
            control: Some(control),
            live_out: vec![],
        });
    }
    Ok(LBlock {
        block: b,
        label: crate::lower::block_label(f, b),
        regions,
        succs: layout.successors(f, b),
        fixed: Some(FixedPlan {
            len: fx.len,
            cycles,
            branch_cycle: fx.branch_cycle,
        }),
    })
}

/// The bundles of a lowered fixed block's first region: `plan.len`
/// bundles, operations in list order, a nop in every empty bundle.
pub fn bundles(m: &Machine, plan: &FixedPlan, body: &[LOp]) -> Result<Vec<Vec<LOp>>, String> {
    let mut out: Vec<Vec<LOp>> = vec![Vec::new(); plan.len as usize];
    for (op, &c) in body.iter().zip(&plan.cycles) {
        let slot = out
            .get_mut(c as usize)
            .ok_or_else(|| format!("an operation in cycle {c} past the block's end"))?;
        slot.push(op.clone());
    }
    if out.iter().any(|b| b.is_empty()) {
        let nop = crate::lower::nop_op(m)
            .ok_or_else(|| format!("machine {} has no nop to pad empty bundles", m.name))?;
        for b in out.iter_mut().filter(|b| b.is_empty()) {
            b.push(nop.clone());
        }
    }
    Ok(out)
}

/// Registers an operation reads, as the simulator counts them: its
/// semantic sources and its guard (not a guarded destination), specials excluded.
fn reads(m: &Machine, op: &LOp) -> Vec<PReg> {
    let ins = m.instr(op.instr);
    let mut out: Vec<PReg> = ins
        .sem
        .sources()
        .filter_map(
            |k| match (op.operands.get(k), ins.operands.get(k).map(|o| o.kind)) {
                (Some(crate::lower::LOperand::Reg(r)), Some(OperandKind::Reg(_))) => Some(*r),
                _ => None,
            },
        )
        .collect();
    out.extend(op.guard.map(|(g, _)| g));
    out.retain(|r| m.special(*r).is_none());
    out
}

/// A pending write: where it lands, its guard, and where it was issued.
#[derive(Clone, Copy)]
struct Pending {
    at: u64,
    guard: Option<(PReg, bool)>,
    issued: usize,
}

/// Checks one straight sequence of fixed blocks; `drain`: control then
/// leaves for an ordinary block.
fn check_path(
    m: &Machine,
    f: &Function,
    path: &[Block],
    code: &HashMap<Block, Vec<Vec<LOp>>>,
    drain: bool,
) -> Result<(), String> {
    let mut seq: Vec<Vec<&LOp>> = Vec::new();
    // (block, bundle within it) of every bundle of the sequence.
    let mut origin: Vec<(Block, usize)> = Vec::new();
    for &b in path {
        let bundles = code
            .get(&b)
            .ok_or_else(|| format!("{} was not emitted", block_name(f, b)))?;
        for (k, bundle) in bundles.iter().enumerate() {
            seq.push(bundle.iter().collect());
            origin.push((b, k));
        }
    }
    let names: Vec<String> = path.iter().map(|&b| format!("bb{}", b.0)).collect();
    let route = names.join(" → ");
    let at = |c: usize| {
        origin.get(c).map_or(format!("cycle {c}"), |(b, k)| {
            format!("bb{} bundle {k}", b.0)
        })
    };
    replay(m, &seq).map_err(|(c, e)| format!("along {route}, {}: {e}", at(c)))?;
    let mut pending: HashMap<PReg, Pending> = HashMap::new();
    let mut done = 0u64;
    for (c, bundle) in seq.iter().enumerate() {
        let cycle = c as u64;
        // Operands are read at issue: a write issued in this bundle is not
        // pending for its reads, whatever the list order.
        for op in bundle.iter().filter(|op| op.class != OpClass::Nop) {
            for r in reads(m, op) {
                if let Some(p) = pending.get(&r).filter(|p| p.at > cycle) {
                    return Err(format!(
                        "along {route}, {}: '{}' reads {} before the write issued at {} lands (cycle {} of the path)",
                        at(c),
                        crate::emit::op_text(m, op),
                        m.reg_name(r),
                        at(p.issued),
                        p.at
                    ));
                }
            }
        }
        for op in bundle.iter().filter(|op| op.class != OpClass::Nop) {
            let lat = m.instr(op.instr).latency.max(1) as u64;
            for &r in &op.defs {
                let land = cycle + lat;
                if let Some(p) = pending.get(&r).filter(|p| p.at >= land) {
                    let exclusive = matches!((p.guard, op.guard), (Some((g1, n1)), Some((g2, n2))) if g1 == g2 && n1 != n2);
                    if !exclusive {
                        return Err(format!(
                            "along {route}, {}: '{}' writes {} landing in cycle {land}, no later than the write issued at {} (cycle {})",
                            at(c),
                            crate::emit::op_text(m, op),
                            m.reg_name(r),
                            at(p.issued),
                            p.at
                        ));
                    }
                }
                let keep = pending.get(&r).is_some_and(|p| p.at > land);
                if !keep {
                    pending.insert(
                        r,
                        Pending {
                            at: land,
                            guard: op.guard,
                            issued: c,
                        },
                    );
                }
            }
            done = done.max(cycle + (m.instr(op.instr).latency.max(busy(m, op.instr))) as u64);
        }
    }
    if drain && done > seq.len() as u64 {
        return Err(format!(
            "along {route}: control leaves for an ordinary block after cycle {} but results land or units stay busy until cycle {done} (the last fixed block must drain)",
            seq.len()
        ));
    }
    Ok(())
}

/// Checks every path through the function's emitted fixed blocks (`code`:
/// their bundles); Err says what is wrong and where.
pub fn check(
    m: &Machine,
    f: &Function,
    code: &HashMap<Block, Vec<Vec<LOp>>>,
) -> Result<(), String> {
    if code.is_empty() {
        return Ok(());
    }
    let fixed = |b: Block| code.contains_key(&b);
    let mut emitted: Vec<Block> = code.keys().copied().collect();
    emitted.sort();
    // Paths start where an ordinary block (or nothing) enters fixed code.
    let mut preds: HashMap<Block, Vec<Block>> = HashMap::new();
    for p in (0..f.blocks.len() as u32).map(Block) {
        for s in f.block(p).term.successors() {
            if fixed(s) {
                preds.entry(s).or_default().push(p);
            }
        }
    }
    let starts: Vec<Block> = emitted
        .into_iter()
        .filter(|&b| preds.get(&b).is_none_or(|ps| ps.iter().any(|&p| !fixed(p))))
        .collect();
    let mut explored = 0usize;
    for s in starts {
        let mut stack: Vec<Vec<Block>> = vec![vec![s]];
        while let Some(path) = stack.pop() {
            explored += 1;
            if explored > MAX_PATHS {
                return Ok(());
            }
            let last = *path.last().unwrap_or(&s);
            let mut succ = f.block(last).term.successors();
            succ.sort();
            succ.dedup();
            let drain = succ.iter().any(|&x| !fixed(x));
            check_path(m, f, &path, code, drain)
                .map_err(|e| format!("invalid fixed schedule (a bug in the software pipeliner or in register allocation): {e}"))?;
            for x in succ.into_iter().filter(|&x| fixed(x)) {
                if path.iter().filter(|&&y| y == x).count() < 2 {
                    let mut p = path.clone();
                    p.push(x);
                    stack.push(p);
                }
            }
        }
    }
    Ok(())
}

//! Placing a region's control transfer and its branch delay slots.
//!
//! The operations of the region are already list-scheduled. The transfer
//! (a call, a branch, or a pair of oppositely guarded branches in
//! consecutive bundles) goes into the earliest bundle `b` such that
//! - its dependences are met (the condition or target register has landed;
//!   for a call, earlier readers of the link register have issued);
//! - every operation of the region issues no later than the last delay slot
//!   `b + delay_slots`: the bundles after the transfer are its delay slots,
//!   filled with the region's independent operations that the list schedule
//!   put there, and with `nop` where empty;
//! - every result lands, and every non-pipelined unit is free again, by the
//!   cycle control reaches the target (`b + delay_slots + 1`): the timing
//!   rule of vliw-backend/ABI.md (block boundaries, calls, returns);
//! - the bundle accepts it (`resource::replay` of the whole region).
//!
//! A region without a transfer (fallthrough) ends when its last operation
//! has issued and every result has landed.

use isa_tablegen::Machine;

use crate::ddg::Ddg;
use crate::list::ListSchedule;
use crate::lower::LOp;
use crate::query::busy;
use crate::resource::replay;

/// One operation of a scheduled bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// An operation of the region's body.
    Body(usize),
    /// The k-th operation of the control transfer.
    Ctrl(usize),
    /// The machine's nop (a bundle with nothing else to do).
    Nop,
}

#[derive(Clone, Debug, Default)]
pub struct RegionSchedule {
    /// Bundles in issue order, items in bundle order; never empty bundles.
    pub bundles: Vec<Vec<Item>>,
    /// Bundles issued in the delay slots of the transfer.
    pub delay_slots: std::ops::Range<usize>,
}

/// Cycle by which every result of the body has landed and every unit is free.
fn drain_cycle(m: &Machine, body: &[LOp], ls: &ListSchedule) -> usize {
    body.iter()
        .zip(&ls.cycle)
        .map(|(op, &c)| c as usize + m.instr(op.instr).latency.max(busy(m, op.instr)) as usize)
        .max()
        .unwrap_or(0)
}

fn assemble(ls: &ListSchedule, len: usize, control_at: usize, nctrl: usize) -> Vec<Vec<Item>> {
    let mut bundles: Vec<Vec<Item>> = vec![Vec::new(); len];
    for (c, b) in ls.bundles.iter().enumerate() {
        bundles[c].extend(b.iter().map(|&i| Item::Body(i)));
    }
    for k in 0..nctrl {
        bundles[control_at + k].push(Item::Ctrl(k));
    }
    bundles
}

/// Checks that a list schedule with the transfer at `at` meets the
/// transfer's rules: its dependences, operations issued by the last delay
/// slot, results landed when control leaves, legal bundles.
fn accept(
    m: &Machine,
    body: &[LOp],
    control: &[LOp],
    g: &Ddg,
    ls: &ListSchedule,
    at: usize,
) -> Result<Vec<Vec<Item>>, String> {
    let delay = m.control.delay_slots as usize;
    let node = body.len();
    for &(p, d) in &g.preds[node] {
        if (ls.cycle[p as usize] as i64 + d as i64) > at as i64 {
            return Err(format!("operation {p} it depends on issues too late"));
        }
    }
    if ls.bundles.len() > at + delay + 1 || drain_cycle(m, body, ls) > at + delay + 1 {
        return Err("operations would still issue or be in flight after control leaves".into());
    }
    let cand = assemble(ls, at + delay + control.len(), at, control.len());
    let ops: Vec<Vec<&LOp>> = cand
        .iter()
        .map(|b| {
            b.iter()
                .filter_map(|it| match *it {
                    Item::Body(i) => Some(&body[i]),
                    Item::Ctrl(k) => Some(&control[k]),
                    Item::Nop => None,
                })
                .collect()
        })
        .collect();
    replay(m, &ops).map_err(|(c, e)| format!("bundle {c}: {e}"))?;
    Ok(cand)
}

/// Places the control transfer `control` (empty: none) after the list
/// schedule `ls` of `body`; `g` is the region's graph (control node last),
/// `prio` its priorities. The transfer goes into the earliest bundle where
/// either it fits the list schedule as it is, or a new list schedule built
/// around it (the transfer pinned in that bundle) meets every rule. Without
/// `fill`, the transfer follows the last operation (delay slots are nops).
pub fn place(
    m: &Machine,
    body: &[LOp],
    control: &[LOp],
    g: &Ddg,
    ls: &ListSchedule,
    prio: &[u32],
    opts: &crate::SchedOptions,
) -> Result<RegionSchedule, String> {
    let len_ops = ls.bundles.len();
    let drain = drain_cycle(m, body, ls);
    let delay = m.control.delay_slots as usize;
    let mut bundles;
    let mut delay_slots = 0..0;
    if control.is_empty() {
        bundles = assemble(ls, len_ops.max(drain), 0, 0);
    } else {
        let node = body.len();
        let earliest = g.preds[node]
            .iter()
            .map(|&(p, d)| (ls.cycle[p as usize] as i64 + d as i64).max(0) as usize)
            .max()
            .unwrap_or(0);
        let mut lo = earliest
            .max(len_ops.saturating_sub(1 + delay))
            .max(drain.saturating_sub(delay + 1));
        if !opts.fill_delay_slots {
            lo = lo.max(len_ops);
        }
        // Past `hi`, the transfer simply follows the whole list schedule.
        let hi = len_ops.max(drain)
            + m.max_latency() as usize
            + m.instrs.iter().map(|i| i.busy as usize).max().unwrap_or(1)
            + 4;
        let mut found = None;
        let mut why = String::new();
        for at in lo..=hi {
            match accept(m, body, control, g, ls, at) {
                Ok(cand) => {
                    found = Some((at, cand));
                    break;
                }
                Err(e) => why = e,
            }
            if opts.fill_delay_slots && !body.is_empty() {
                let pinned: Vec<(u64, &LOp)> = control
                    .iter()
                    .enumerate()
                    .map(|(k, op)| ((at + k) as u64, op))
                    .collect();
                if let Ok(ls2) = crate::list::schedule(m, body, g, prio, opts.pack, &pinned) {
                    if let Ok(cand) = accept(m, body, control, g, &ls2, at) {
                        found = Some((at, cand));
                        break;
                    }
                }
            }
        }
        let Some((at, cand)) = found else {
            return Err(format!("no bundle accepts the control transfer ({why})"));
        };
        bundles = cand;
        delay_slots = at + 1..at + delay + control.len();
    }
    let nop_needed = bundles.iter().any(|b| b.is_empty());
    if nop_needed && m.nop_instr().is_none() {
        return Err(format!(
            "machine {} has no nop to pad empty bundles",
            m.name
        ));
    }
    for b in &mut bundles {
        if b.is_empty() {
            b.push(Item::Nop);
        }
    }
    Ok(RegionSchedule {
        bundles,
        delay_slots,
    })
}

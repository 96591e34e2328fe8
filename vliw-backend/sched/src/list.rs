//! Cycle-driven list scheduling of a region's operations (the control
//! transfer is placed afterwards by `delay`).
//!
//! Priority is the critical path: the longest chain of dependence distances
//! from an operation to the end of the region, counting the operation's own
//! latency (its result must land before control leaves) and, for the
//! operations the control transfer depends on, the transfer and its delay
//! slots. Each cycle the ready operations (all predecessors issued and their
//! distances elapsed) are tried in priority order and added to the bundle
//! when `resource::Tracker` accepts the bundle with them; operations made
//! ready by a distance-0 edge join the same bundle. Without packing
//! (`pack = false`), every bundle holds one operation, in program order.

use isa_tablegen::Machine;

use crate::ddg::Ddg;
use crate::lower::LOp;
use crate::query::busy;
use crate::resource::{isa_op, Tracker};

/// Issue cycle of every operation and the bundles (operation indices in
/// program order) of cycles 0.., without trailing empty bundles.
#[derive(Clone, Debug, Default)]
pub struct ListSchedule {
    pub cycle: Vec<u32>,
    pub bundles: Vec<Vec<usize>>,
}

/// Critical-path heights of the graph's nodes (`nbody` operations, then the
/// control node if the graph has one, whose height is `control_height`).
pub fn heights(m: &Machine, body: &[LOp], g: &Ddg, control_height: u32) -> Vec<u32> {
    let n = g.len();
    let mut h = vec![0u32; n];
    for i in (0..n).rev() {
        let own = match body.get(i) {
            Some(op) => m.instr(op.instr).latency.max(busy(m, op.instr)),
            None => control_height,
        };
        let via = g.succs[i]
            .iter()
            .map(|&(s, d)| (d.max(0) as u32) + h[s as usize])
            .max()
            .unwrap_or(0);
        h[i] = own.max(via);
    }
    h
}

/// Schedules `body` (nodes `0..body.len()` of `g`; a control node after
/// them is ignored here). `pinned` operations are fixed in the bundle of
/// their cycle, after the body's (the control transfer, when `delay` asks
/// for a schedule around it). Err: the index of an operation that fits no
/// bundle and why.
pub fn schedule(
    m: &Machine,
    body: &[LOp],
    g: &Ddg,
    prio: &[u32],
    pack: bool,
    pinned: &[(u64, &LOp)],
) -> Result<ListSchedule, (usize, String)> {
    let n = body.len();
    let mut remaining: Vec<usize> = (0..n).map(|i| g.preds[i].len()).collect();
    let mut earliest = vec![0u64; n];
    let mut cycle_of = vec![u32::MAX; n];
    let mut ready: Vec<usize> = (0..n).filter(|&i| remaining[i] == 0).collect();
    let mut bundles: Vec<Vec<usize>> = Vec::new();
    let mut tracker = Tracker::new(m);
    let mut done = 0usize;
    let mut cycle = 0u64;
    let max_wait =
        m.max_latency() as u64 + m.instrs.iter().map(|i| i.busy as u64).max().unwrap_or(1) + 2;
    let mut idle = 0u64;
    while done < n {
        let mut bundle: Vec<usize> = Vec::new();
        loop {
            let mut cands: Vec<usize> = ready
                .iter()
                .copied()
                .filter(|&i| earliest[i] <= cycle)
                .collect();
            if !pack {
                // Program order, one operation per bundle.
                cands.sort_unstable();
                cands.truncate(1);
            } else {
                cands.sort_unstable_by(|&a, &b| prio[b].cmp(&prio[a]).then(a.cmp(&b)));
            }
            let mut added = false;
            // Instructions that did not fit this bundle as it is: an operation
            // of the same instruction would not fit either (same units, ports).
            let mut failed: Vec<isa_tablegen::InstrId> = Vec::new();
            for c in cands {
                if !pack && !bundle.is_empty() {
                    break;
                }
                if !bundle.is_empty() && failed.contains(&body[c].instr) {
                    continue;
                }
                let mut trial = bundle.clone();
                let pos = trial.partition_point(|&x| x < c);
                trial.insert(pos, c);
                let mut ops: Vec<&LOp> = trial.iter().map(|&i| &body[i]).collect();
                ops.extend(pinned.iter().filter(|p| p.0 == cycle).map(|p| p.1));
                match tracker.fits(cycle, &ops) {
                    Ok(()) => {
                        bundle = trial;
                        cycle_of[c] = cycle as u32;
                        done += 1;
                        ready.retain(|&x| x != c);
                        for &(s, d) in &g.succs[c] {
                            let s = s as usize;
                            if s >= n {
                                continue;
                            }
                            earliest[s] = earliest[s].max(cycle + d.max(0) as u64);
                            remaining[s] -= 1;
                            if remaining[s] == 0 {
                                ready.push(s);
                            }
                        }
                        added = true;
                        failed.clear();
                    }
                    Err(e) if bundle.is_empty() => {
                        // Alone in a bundle: a static rule fails forever.
                        if let Err(err) = m.check_bundle(&[isa_op(&body[c])]) {
                            return Err((c, err.to_string()));
                        }
                        if idle > max_wait {
                            return Err((c, e));
                        }
                    }
                    Err(_) => failed.push(body[c].instr),
                }
            }
            if !added {
                break;
            }
        }
        let mut ops: Vec<&LOp> = bundle.iter().map(|&i| &body[i]).collect();
        ops.extend(pinned.iter().filter(|p| p.0 == cycle).map(|p| p.1));
        tracker.commit(cycle, &ops);
        idle = if bundle.is_empty() { idle + 1 } else { 0 };
        bundles.push(bundle);
        cycle += 1;
        if idle > max_wait && ready.iter().all(|&i| earliest[i] <= cycle) && !ready.is_empty() {
            let c = ready[0];
            return Err((c, "no bundle accepts it".into()));
        }
    }
    while bundles.last().is_some_and(|b| b.is_empty()) {
        bundles.pop();
    }
    Ok(ListSchedule {
        cycle: cycle_of,
        bundles,
    })
}

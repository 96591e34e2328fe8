//! Swing Modulo Scheduling's placement (seed 000 §4.3): the nodes, in the
//! order of [`crate::order`], go into a modulo reservation table at II =
//! MII, each as close as possible to its already placed neighbours:
//!
//! - only predecessors placed: from `Early_Start = max(t_v + delay − distance·II)`
//!   upward to `Early_Start + II − 1`;
//! - only successors placed: from `Late_Start = min(t_v − delay + distance·II)`
//!   downward to `Late_Start − II + 1`;
//! - both: from `Early_Start` upward to `min(Late_Start, Early_Start + II − 1)`;
//! - neither: from `ASAP` upward to `ASAP + II − 1`.
//!
//! A node pinned to a row (the loop branch) is only tried at the cycles of
//! that row. When a node finds no cycle, II grows by one and the placement
//! starts again with the same order. Delays are the edges' own, so zero and
//! negative delays need nothing special here.
//!
//! §6.2's symmetric second attempt: when the first schedule's II exceeds
//! MII, the order of the symmetric (top-down first) variant is placed at
//! MII … II−1; its schedule replaces the first only if its II is smaller.
//!
//! Times may go negative while placing; the result is shifted so that the
//! earliest node issues at cycle 0 — by a multiple of II when a node is
//! pinned, so that pinned rows stay where they are (the earliest node then
//! issues in cycle 0 … II−1). Every schedule returned has passed
//! [`crate::schedule::verify`].

use isa_tablegen::Machine;

use crate::analysis::{node_times, NodeTimes};
use crate::graph::{LoopGraph, NodeId};
use crate::mii::MiiReport;
use crate::mrt::Mrt;
use crate::order;
use crate::schedule::{verify, Attempt, Outcome, Schedule};

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SmsOptions {
    /// Largest II tried; None: MII + max(64, sum of positive delays + nodes).
    pub max_ii: Option<u32>,
    /// §6.2: a second, top-down-first ordering when the first II > MII.
    pub symmetric_retry: bool,
}

impl SmsOptions {
    /// The default of the pipeliner: symmetric retry on, default max II.
    pub fn production() -> SmsOptions {
        SmsOptions { max_ii: None, symmetric_retry: true }
    }
}

/// The default largest II for a graph.
pub fn default_max_ii(g: &LoopGraph, mii: u32) -> u32 {
    let delays: u64 = g.edges.iter().map(|e| e.delay.max(0) as u64).sum();
    let extra = (delays + g.nodes.len() as u64).max(64).min(u32::MAX as u64 / 2) as u32;
    mii.saturating_add(extra)
}

/// Schedules a loop graph with SMS. Err: every II tried and why it failed.
pub fn schedule(m: &Machine, g: &LoopGraph, mii: &MiiReport, opts: &SmsOptions) -> Result<Outcome, Vec<Attempt>> {
    let start = mii.mii.max(1);
    let max_ii = opts.max_ii.unwrap_or_else(|| default_max_ii(g, start)).max(start);
    if g.nodes.is_empty() {
        return Ok(Outcome {
            schedule: Schedule { ii: start, time: Vec::new() },
            attempts: Vec::new(),
            order: Vec::new(),
            notes: Vec::new(),
            capped: false,
        });
    }
    let times = node_times(g, start);
    let first = order::compute(m, g, &times, false);
    let mut attempts = Vec::new();
    let found = search(m, g, &times, &first.order, start, max_ii, &mut attempts);
    let Some(sched) = found else {
        return Err(attempts);
    };
    let mut out = Outcome { schedule: sched, attempts, order: first.order, notes: Vec::new(), capped: false };
    if opts.symmetric_retry && out.schedule.ii > start {
        let second = order::compute(m, g, &times, true);
        let mut attempts2 = Vec::new();
        match search(m, g, &times, &second.order, start, out.schedule.ii - 1, &mut attempts2) {
            Some(s) => {
                out.notes.push(format!(
                    "symmetric second attempt (top-down first) reached II={} where the first reached II={}",
                    s.ii, out.schedule.ii
                ));
                out.schedule = s;
                out.attempts = attempts2;
                out.order = second.order;
            }
            None => out.notes.push(format!(
                "symmetric second attempt (top-down first) found nothing below II={}",
                out.schedule.ii
            )),
        }
    }
    Ok(out)
}

/// Places `order` at II = `from` … `to`; the first success.
fn search(
    m: &Machine,
    g: &LoopGraph,
    times: &NodeTimes,
    order: &[NodeId],
    from: u32,
    to: u32,
    attempts: &mut Vec<Attempt>,
) -> Option<Schedule> {
    for ii in from..=to {
        match place(m, g, times, order, ii) {
            Ok(s) => match verify(m, g, &s) {
                Ok(()) => return Some(s),
                Err(e) => attempts.push(Attempt { ii, reason: format!("internal: schedule failed its check: {e}") }),
            },
            Err(reason) => attempts.push(Attempt { ii, reason }),
        }
    }
    None
}

/// One placement pass at a fixed II (§4.3).
pub fn place(m: &Machine, g: &LoopGraph, times: &NodeTimes, order: &[NodeId], ii: u32) -> Result<Schedule, String> {
    let n = g.nodes.len();
    let iil = ii as i64;
    let (succ, pred) = g.adjacency();
    let mut mrt = Mrt::new(m, g, ii);
    let mut t: Vec<Option<i64>> = vec![None; n];
    for &v in order {
        let node = &g.nodes[v];
        if let Some(p) = node.pinned_row {
            if p.row(ii).is_none() {
                return Err(format!("{} is pinned {} rows from the end, more than II allows", node.name, p.from_end));
            }
        }
        let mut es: Option<i64> = None;
        for &e in &pred[v] {
            let e = &g.edges[e];
            if let Some(tu) = t[e.from] {
                let x = tu + e.delay as i64 - e.distance as i64 * iil;
                es = Some(es.map_or(x, |y: i64| y.max(x)));
            }
        }
        let mut ls: Option<i64> = None;
        for &e in &succ[v] {
            let e = &g.edges[e];
            if let Some(tw) = t[e.to] {
                let x = tw - e.delay as i64 + e.distance as i64 * iil;
                ls = Some(ls.map_or(x, |y: i64| y.min(x)));
            }
        }
        // Self-loops constrain only II (checked by RecMII); they are not
        // neighbours.
        let (cycles, what): (Vec<i64>, String) = match (es, ls) {
            (Some(es), None) => ((es..es + iil).collect(), format!("Early_Start={es}")),
            (None, Some(ls)) => ((ls - iil + 1..=ls).rev().collect(), format!("Late_Start={ls}")),
            (Some(es), Some(ls)) => {
                if es > ls {
                    return Err(format!(
                        "no cycle for {}: Early_Start={es} > Late_Start={ls} (its placed predecessors and successors are too close)",
                        node.name
                    ));
                }
                ((es..=ls.min(es + iil - 1)).collect(), format!("Early_Start={es}, Late_Start={ls}"))
            }
            (None, None) => {
                let a = times.asap[v];
                ((a..a + iil).collect(), format!("ASAP={a}"))
            }
        };
        let want = node.pinned_row.and_then(|p| p.row(ii));
        let mut last_err = None;
        let mut done = false;
        for c in cycles {
            let row = c.rem_euclid(iil) as u32;
            if want.is_some_and(|w| w != row) {
                continue;
            }
            match mrt.try_place(v, row) {
                Ok(()) => {
                    t[v] = Some(c);
                    done = true;
                    break;
                }
                Err(e) => last_err = Some(e),
            }
        }
        if !done {
            let instr = &m.instr(node.instr).mnemonic;
            let why = match (last_err, want) {
                (Some(e), _) => e,
                (None, Some(w)) => format!("its pinned row {w} is outside the window"),
                (None, None) => "empty window".to_string(),
            };
            return Err(format!("no slot for {} ({instr}) from {what}: {why}", node.name));
        }
    }
    let times: Vec<i64> = t.into_iter().map(|x| x.unwrap_or(0)).collect();
    let min = times.iter().copied().min().unwrap_or(0);
    let pinned = g.nodes.iter().any(|nd| nd.pinned_row.is_some());
    let shift = if pinned { -min.div_euclid(iil) * iil } else { -min };
    let time: Vec<u32> = times
        .iter()
        .map(|&x| u32::try_from(x + shift).map_err(|_| format!("time {} out of range", x + shift)))
        .collect::<Result<_, _>>()?;
    Ok(Schedule { ii, time })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{DepKind, Node};
    use crate::mii;

    fn tiny() -> Machine {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../isa-tablegen/tests/good/tiny.isa");
        Machine::load(path).expect("tiny.isa")
    }

    #[test]
    fn chain_with_recurrence() {
        let m = tiny();
        let ld = m.instr_by_mnemonic("ld").unwrap();
        let add = m.instr_by_mnemonic("add").unwrap();
        let st = m.instr_by_mnemonic("st").unwrap();
        let mut g = LoopGraph::new();
        let mk = |ins, name: &str| Node { instr: ins, reads: vec![], writes: None, name: name.into(), pinned_row: None };
        let a = g.add_node(mk(add, "inc"));
        let l = g.add_node(mk(ld, "ld"));
        let s = g.add_node(mk(add, "sum"));
        let o = g.add_node(mk(st, "st"));
        g.add_edge(a, a, 1, 1, DepKind::Flow);
        g.add_edge(a, l, 1, 1, DepKind::Flow);
        g.add_edge(l, s, 2, 0, DepKind::Flow);
        g.add_edge(s, s, 1, 1, DepKind::Flow);
        g.add_edge(s, o, 1, 0, DepKind::Flow);
        let r = mii::compute(&m, &g).unwrap();
        assert_eq!(r.mii, 2);
        let out = schedule(&m, &g, &r, &SmsOptions::production()).unwrap();
        assert_eq!(out.schedule.ii, 2);
        verify(&m, &g, &out.schedule).unwrap();
        assert_eq!(out.schedule.time.iter().min(), Some(&0));
    }
}

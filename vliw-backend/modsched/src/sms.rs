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
//! One strengthening, for graphs the seed does not consider (circuits of
//! zero or negative delay, §6.2, and loop-carried edges that make a placed
//! node's neighbours depend on each other through nodes not yet placed):
//! the window is also clipped by the longest paths (`delay − distance·II`)
//! from and to every placed node, through any nodes. The direction of the
//! scan still follows the seed (which direct neighbours are placed); when
//! the direct neighbours are the only constraints, as in every graph the
//! seed discusses, the window is exactly the seed's. With it a window is
//! never empty for dependence reasons at II ≥ RecMII: only resources can
//! make a placement fail. A node pinned to a row (the loop branch) is only
//! tried at the cycles of that row. When a node finds no cycle, II grows by one and the placement
//! starts again with the same order. Delays are the edges' own, so zero and
//! negative delays need nothing special here.
//!
//! Our additions for resource-tight loops (the seed's II+1 keeps the
//! order; these only act where it would have given up an II):
//!
//! - when a node finds no cycle for lack of resources, the same II is tried
//!   again (at most [`PROMOTIONS`] times) with that node moved to the front
//!   of the order, so that the resources it needs are not taken first by
//!   nodes that had a choice; the next II starts from the original order;
//! - a node whose whole window is taken in the reservation table evicts
//!   the placed node(s) in the way at the first cycle of its scan where
//!   that makes room, and the evicted nodes are placed again next (Rau's
//!   iterative repair, bounded by [`EVICTIONS_PER_NODE`] per node and pass);
//! - the reservation table's choice of unit for a non-pipelined operation
//!   with alternative units depends on the order of placement, and
//!   [`verify`] places in time order: a pass whose table `verify` rejects is
//!   repeated checking each candidate the way `verify` will.
//!
//! After placement, [`crate::polish`] (our addition) moves single nodes
//! within their windows where that lowers MaxLive or lifetimes, at the same
//! II ([`SmsOptions::polish`]; on in production).
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
use crate::work::{Work, EXHAUSTED};

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SmsOptions {
    /// Largest II tried; None: MII + max(64, sum of positive delays + nodes).
    pub max_ii: Option<u32>,
    /// §6.2: a second, top-down-first ordering when the first II > MII.
    pub symmetric_retry: bool,
    /// Lifetime polishing after placement ([`crate::polish`], our addition).
    pub polish: bool,
}

impl SmsOptions {
    /// The default of the pipeliner: symmetric retry on, default max II.
    pub fn production() -> SmsOptions {
        SmsOptions { max_ii: None, symmetric_retry: true, polish: true }
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
    schedule_with(m, g, mii, opts, &mut Work::unlimited())
}

/// [`schedule`] within a compile-time budget: `work` counts what it spends;
/// when the limit is reached the search stops (the last attempt's reason is
/// [`crate::work::EXHAUSTED`]), and polishing stops where it is.
pub fn schedule_with(
    m: &Machine,
    g: &LoopGraph,
    mii: &MiiReport,
    opts: &SmsOptions,
    work: &mut Work,
) -> Result<Outcome, Vec<Attempt>> {
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
    let found = search(m, g, &times, &first.order, start, max_ii, &mut attempts, work);
    let Some((sched, order, notes)) = found else {
        return Err(attempts);
    };
    let mut out = Outcome { schedule: sched, attempts, order, notes, capped: false };
    if opts.symmetric_retry && out.schedule.ii > start && !work.exhausted() {
        let second = order::compute(m, g, &times, true);
        let mut attempts2 = Vec::new();
        match search(m, g, &times, &second.order, start, out.schedule.ii - 1, &mut attempts2, work) {
            Some((s, order, notes)) => {
                let mut all = vec![format!(
                    "symmetric second attempt (top-down first) reached II={} where the first reached II={}",
                    s.ii, out.schedule.ii
                )];
                all.extend(notes);
                out.schedule = s;
                out.attempts = attempts2;
                out.order = order;
                out.notes = all;
            }
            None => out.notes.push(format!(
                "symmetric second attempt (top-down first) found nothing below II={}",
                out.schedule.ii
            )),
        }
    }
    if opts.polish && !work.exhausted() {
        let p = crate::polish::polish_with(m, g, &out.schedule, work);
        if p.moves > 0 {
            out.notes.push(format!(
                "lifetime polishing: MaxLive {} -> {} ({} operation{} moved)",
                p.max_live_before,
                p.max_live_after,
                p.moves,
                if p.moves == 1 { "" } else { "s" }
            ));
            out.schedule = p.schedule;
        }
    }
    Ok(out)
}

/// Places `order` at II = `from` … `to`; the first success.
///
/// At each II, when a node finds no cycle for lack of resources, the pass
/// is repeated (up to [`PROMOTIONS`] times) with that node moved to the
/// front of the order — our addition, in the spirit of §6.2's
/// resource-aware choice: the node the others crowded out is placed before
/// them. If that fails too, one last pass uses a topological order of the
/// graph without back edges (earliest ASAP first): every node then has only
/// predecessors placed, its window is II cycles wide, and a large enough
/// II always succeeds — where the swing order can leave a node with no
/// slack between neighbours placed before it, which no II relaxes. The next
/// II starts again from `order` (the seed keeps its order).
#[allow(clippy::too_many_arguments)]
fn search(
    m: &Machine,
    g: &LoopGraph,
    times: &NodeTimes,
    order: &[NodeId],
    from: u32,
    to: u32,
    attempts: &mut Vec<Attempt>,
    work: &mut Work,
) -> Option<(Schedule, Vec<NodeId>, Vec<String>)> {
    let mut fallback: Option<Vec<NodeId>> = None;
    let has_busy = (0..g.nodes.len()).any(|v| g.busy(m, v) > 1);
    for ii in from..=to {
        let closure = Closure::for_graph(g, ii);
        if let Some(why) = closure.as_ref().and_then(|c| recurrence_crowds_unit(m, g, c, ii)) {
            attempts.push(Attempt { ii, reason: why });
            continue;
        }
        let mut current = order.to_vec();
        let mut first_reason = None;
        let mut notes = Vec::new();
        let mut busy_culprit = None;
        for _ in 0..=PROMOTIONS.min(g.nodes.len()) {
            match place_checked(m, g, times, &current, ii, false, closure.as_ref(), work) {
                Ok(s) => return Some((s, current, notes)),
                Err((culprit, reason)) => {
                    first_reason.get_or_insert(reason);
                    if work.exhausted() {
                        break;
                    }
                    if let Some(v) = culprit.filter(|&v| g.busy(m, v) > 1) {
                        busy_culprit.get_or_insert(v);
                    }
                    match culprit {
                        Some(v) if current[0] != v => {
                            notes.push(format!(
                                "II={ii}: {} found no cycle; placed again with it first",
                                g.nodes[v].name
                            ));
                            current.retain(|&x| x != v);
                            current.insert(0, v);
                        }
                        _ => break,
                    }
                }
            }
        }
        // Our addition: a non-pipelined node crowded out — its unit's
        // holdings left gaps shorter than its busy time — is placed again
        // with every non-pipelined node first, back to back.
        if let (true, Some(v), false) = (has_busy, busy_culprit, work.exhausted()) {
            let packed = busy_first(m, g, order);
            if let Ok(s) = place_checked(m, g, times, &packed, ii, true, closure.as_ref(), work) {
                notes.push(format!(
                    "II={ii}: {} found no cycle; placed with the non-pipelined operations first, back to back",
                    g.nodes[v].name
                ));
                return Some((s, packed, notes));
            }
        }
        if !work.exhausted() {
            let topo = fallback.get_or_insert_with(|| topological_order(g, times));
            if let Ok(s) = place_checked(m, g, times, topo, ii, false, closure.as_ref(), work) {
                notes.push(format!("II={ii}: the swing order found no schedule; a topological order (by ASAP) did"));
                return Some((s, topo.clone(), notes));
            }
        }
        if work.exhausted() {
            attempts.push(Attempt { ii, reason: format!("{EXHAUSTED} ({} units)", work.used()) });
            return None;
        }
        attempts.push(Attempt { ii, reason: first_reason.unwrap_or_default() });
    }
    None
}

/// Why no schedule can exist at `ii` because recurrences crowd a
/// non-pipelined unit (our addition; neither ResMII nor RecMII sees it): the
/// operations of one strongly connected component that run only on unit
/// `U` must issue within `D` cycles of each other, `D` the largest
/// `−L(v, u)` over their pairs (`L` the longest path at `ii`, `t(u) ≥
/// t(v) + L(v, u)`), so their busy cycles fall within `D + max busy`
/// consecutive cycles; if that is less than II and their busy cycles
/// exceed `count·(D + max busy)`, no placement exists. None: no such unit.
fn recurrence_crowds_unit(m: &Machine, g: &LoopGraph, c: &Closure, ii: u32) -> Option<String> {
    let sccs = crate::analysis::sccs(g);
    for scc in sccs.iter().filter(|s| s.len() > 1) {
        for (u, unit) in m.units.iter().enumerate() {
            let on: Vec<NodeId> = scc
                .iter()
                .copied()
                .filter(|&v| g.busy(m, v) > 1 && m.instr(g.nodes[v].instr).units.iter().all(|x| x.0 as usize == u))
                .collect();
            if on.len() < 2 {
                continue;
            }
            let mut spread = i64::MIN;
            for &a in &on {
                for &b in &on {
                    if a != b {
                        spread = spread.max(c.get(b, a).map_or(i64::MAX / 4, |l| -l));
                    }
                }
            }
            let busiest = on.iter().map(|&v| g.busy(m, v) as i64).max().unwrap_or(1);
            let busy: i64 = on.iter().map(|&v| g.busy(m, v) as i64).sum();
            let span = spread.saturating_add(busiest);
            if span < ii as i64 && busy > unit.count as i64 * span {
                return Some(format!(
                    "a recurrence keeps {} operations on unit '{}' ({busy} busy cycles) within {span} cycles",
                    on.len(),
                    unit.name
                ));
            }
        }
    }
    None
}

/// A topological order of the graph without back edges, earliest ASAP
/// (then lowest index) first; circuits of zero or negative delay within an
/// iteration are entered at their earliest node.
pub fn topological_order(g: &LoopGraph, times: &NodeTimes) -> Vec<NodeId> {
    let n = g.nodes.len();
    let mut indeg = vec![0usize; n];
    let mut succ: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for i in crate::analysis::acyclic_edges(g) {
        let e = &g.edges[i];
        if e.from != e.to {
            indeg[e.to] += 1;
            succ[e.from].push(e.to);
        }
    }
    let mut done = vec![false; n];
    let mut ready: std::collections::BTreeSet<(i64, NodeId)> =
        (0..n).filter(|&v| indeg[v] == 0).map(|v| (times.asap[v], v)).collect();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let (_, v) = match ready.pop_first() {
            Some(x) => x,
            // Only circuits left: enter one at its earliest node.
            None => (0..n).filter(|&v| !done[v]).map(|v| (times.asap[v], v)).min().expect("a node left"),
        };
        if done[v] {
            continue;
        }
        done[v] = true;
        out.push(v);
        for &w in &succ[v] {
            indeg[w] = indeg[w].saturating_sub(1);
            if indeg[w] == 0 && !done[w] {
                ready.insert((times.asap[w], w));
            }
        }
    }
    out
}

/// `order` with every non-pipelined node moved to the front, the busiest
/// first (as first-fit-decreasing bin packing), the rest as they were.
fn busy_first(m: &Machine, g: &LoopGraph, order: &[NodeId]) -> Vec<NodeId> {
    let (mut busy, rest): (Vec<NodeId>, Vec<NodeId>) = order.iter().partition(|&&x| g.busy(m, x) > 1);
    busy.sort_by_key(|&x| std::cmp::Reverse(g.busy(m, x)));
    busy.into_iter().chain(rest).collect()
}

/// Nodes moved to the front of the order per II before giving up on it.
pub const PROMOTIONS: usize = 8;

/// One pass at `ii`, its schedule checked by [`verify`].
#[allow(clippy::too_many_arguments)]
fn place_checked(
    m: &Machine,
    g: &LoopGraph,
    times: &NodeTimes,
    order: &[NodeId],
    ii: u32,
    tight: bool,
    closure: Option<&Closure>,
    work: &mut Work,
) -> Result<Schedule, (Option<NodeId>, String)> {
    let s = place_at(m, g, times, order, ii, false, tight, closure, work)?;
    let Err(e) = verify(m, g, &s) else { return Ok(s) };
    // The table's unit choices depend on the order of placement
    // (non-pipelined operations with alternative units); `verify` places in
    // time order. Place again, checking every candidate the way `verify`
    // will.
    let s2 = place_at(m, g, times, order, ii, true, tight, closure, work)?;
    match verify(m, g, &s2) {
        Ok(()) => Ok(s2),
        Err(_) => Err((None, format!("internal: schedule failed its check: {e}"))),
    }
}

/// One placement pass at a fixed II (§4.3). `time_order`: also check each
/// candidate by placing every placed node into a fresh table in time order,
/// as [`verify`] does (slower; for tables whose unit choices depend on the
/// order of placement).
pub fn place(
    m: &Machine,
    g: &LoopGraph,
    times: &NodeTimes,
    order: &[NodeId],
    ii: u32,
    time_order: bool,
) -> Result<Schedule, String> {
    let closure = Closure::for_graph(g, ii);
    place_at(m, g, times, order, ii, time_order, false, closure.as_ref(), &mut Work::unlimited()).map_err(|(_, e)| e)
}

/// [`place`], with the node that found no cycle, within `work`'s budget.
#[allow(clippy::too_many_arguments)]
fn place_at(
    m: &Machine,
    g: &LoopGraph,
    times: &NodeTimes,
    order: &[NodeId],
    ii: u32,
    time_order: bool,
    tight: bool,
    closure: Option<&Closure>,
    work: &mut Work,
) -> Result<Schedule, (Option<NodeId>, String)> {
    let mut mrt = Mrt::new(m, g, ii);
    let mut extra = 0;
    let left = work.left();
    let r = place_in(&mut mrt, m, g, times, order, time_order, tight, closure, left, &mut extra);
    work.spend(mrt.work() + extra);
    r
}

/// The pass of [`place_at`] in `mrt`; `extra`: work spent in other tables.
#[allow(clippy::too_many_arguments)]
fn place_in(
    mrt: &mut Mrt,
    m: &Machine,
    g: &LoopGraph,
    times: &NodeTimes,
    order: &[NodeId],
    time_order: bool,
    tight: bool,
    closure: Option<&Closure>,
    left: u64,
    extra: &mut u64,
) -> Result<Schedule, (Option<NodeId>, String)> {
    let n = g.nodes.len();
    let ii = mrt.ii();
    let iil = ii as i64;
    let (succ, pred) = g.adjacency();
    let mut t: Vec<Option<i64>> = vec![None; n];
    let mut queue: std::collections::VecDeque<NodeId> = order.iter().copied().collect();
    let mut evictions = 0usize;
    while let Some(v) = queue.pop_front() {
        if mrt.work() + *extra > left {
            return Err((None, EXHAUSTED.to_string()));
        }
        let node = &g.nodes[v];
        if let Some(p) = node.pinned_row {
            if p.row(ii).is_none() {
                return Err((None, format!("{} is pinned {} rows from the end, more than II allows", node.name, p.from_end)));
            }
        }
        // The seed's Early_Start / Late_Start from the placed direct
        // neighbours decide the direction of the scan …
        let has_pred = pred[v].iter().any(|&e| g.edges[e].from != v && t[g.edges[e].from].is_some());
        let has_succ = succ[v].iter().any(|&e| g.edges[e].to != v && t[g.edges[e].to].is_some());
        let mut es: Option<i64> = None;
        let mut ls: Option<i64> = None;
        for &e in &pred[v] {
            let e = &g.edges[e];
            if let (Some(tu), true) = (t[e.from], e.from != v) {
                let x = tu + e.delay as i64 - e.distance as i64 * iil;
                es = Some(es.map_or(x, |y: i64| y.max(x)));
            }
        }
        for &e in &succ[v] {
            let e = &g.edges[e];
            if let (Some(tw), true) = (t[e.to], e.to != v) {
                let x = tw - e.delay as i64 + e.distance as i64 * iil;
                ls = Some(ls.map_or(x, |y: i64| y.min(x)));
            }
        }
        // … and the bounds over paths through nodes not yet placed tighten
        // the window, so that no dependence can leave it empty.
        if let Some(c) = closure {
            for (u, tu) in t.iter().enumerate() {
                let Some(tu) = *tu else { continue };
                if let Some(d) = c.get(u, v) {
                    es = Some(es.map_or(tu + d, |y| y.max(tu + d)));
                }
                if let Some(d) = c.get(v, u) {
                    ls = Some(ls.map_or(tu - d, |y| y.min(tu - d)));
                }
            }
        }
        if let (Some(e), Some(l)) = (es, ls) {
            if e > l {
                return Err((
                    Some(v),
                    format!(
                        "no cycle for {}: Early_Start={e} > Late_Start={l} (its placed predecessors and successors are too close)",
                        node.name
                    ),
                ));
            }
        }
        let up = |from: i64, to: Option<i64>| -> Vec<i64> { (from..=to.map_or(from + iil - 1, |l| l.min(from + iil - 1))).collect() };
        let down = |from: i64, to: Option<i64>| -> Vec<i64> {
            (to.map_or(from - iil + 1, |e| e.max(from - iil + 1))..=from).rev().collect()
        };
        let (cycles, what): (Vec<i64>, String) = match (has_pred, has_succ, es, ls) {
            (true, false, Some(e), l) => (up(e, l), format!("Early_Start={e}")),
            (false, true, e, Some(l)) => (down(l, e), format!("Late_Start={l}")),
            (true, true, Some(e), Some(l)) => (up(e, Some(l)), format!("Early_Start={e}, Late_Start={l}")),
            (_, _, e, l) => {
                let a = times.asap[v];
                let s = e.map_or(a, |e| e.max(a));
                match l {
                    Some(l) if s > l => (down(l, e), format!("ASAP={a}, Late_Start={l}")),
                    _ => (up(s, l), format!("ASAP={a}")),
                }
            }
        };
        let want = node.pinned_row.and_then(|p| p.row(ii));
        let mut last_err = None;
        let mut last_row = None;
        let mut done = false;
        // Tight packing of a non-pipelined node: the first cycle of the
        // scan where it abuts its unit's other holdings, else the first
        // where it fits.
        let pack = tight && g.busy(m, v) > 1;
        let mut first_fit = None;
        for &c in &cycles {
            let row = c.rem_euclid(iil) as u32;
            if want.is_some_and(|w| w != row) {
                continue;
            }
            // The cheap tests first; reasons are only spelled out for the
            // last candidate.
            if !time_order && !pack {
                if mrt.place(v, row) {
                    t[v] = Some(c);
                    done = true;
                    break;
                }
                last_row = Some(row);
                continue;
            }
            if !mrt.fits(v, row) {
                last_row = Some(row);
                continue;
            }
            if pack && !mrt.abuts(v, row) {
                first_fit.get_or_insert(c);
                continue;
            }
            let fits = if time_order { fits_in_time_order(m, g, &t, v, c, ii, extra) } else { Ok(()) };
            match fits.and_then(|()| mrt.try_place(v, row)) {
                Ok(()) => {
                    t[v] = Some(c);
                    done = true;
                    break;
                }
                Err(e) => last_err = Some(e),
            }
        }
        if let (false, Some(c)) = (done, first_fit) {
            let row = c.rem_euclid(iil) as u32;
            let fits = if time_order { fits_in_time_order(m, g, &t, v, c, ii, extra) } else { Ok(()) };
            match fits.and_then(|()| mrt.try_place(v, row)) {
                Ok(()) => {
                    t[v] = Some(c);
                    done = true;
                }
                Err(e) => last_err = Some(e),
            }
        }
        if !done && !time_order && evictions < EVICTIONS_PER_NODE * n {
            // Our addition: a node whose window is full takes the first
            // cycle of its scan where evicting placed nodes makes room; the
            // evicted nodes are placed again next (as in Rau's iterative
            // scheduling, within a budget).
            if let Some((c, evicted)) = make_room(mrt, g, &t, v, &cycles, want, iil) {
                mrt.try_place(v, c.rem_euclid(iil) as u32).map_err(|e| (Some(v), format!("internal: {e}")))?;
                t[v] = Some(c);
                done = true;
                for &u in evicted.iter().rev() {
                    t[u] = None;
                    queue.push_front(u);
                }
                evictions += evicted.len();
            }
        }
        if !done {
            if last_err.is_none() {
                if let Some(row) = last_row {
                    last_err = mrt.can_place(v, row).err();
                }
            }
            let instr = &m.instr(node.instr).mnemonic;
            let why = match (last_err, want) {
                (Some(e), _) => e,
                (None, Some(w)) => format!("its pinned row {w} is outside the window"),
                (None, None) => "empty window".to_string(),
            };
            return Err((Some(v), format!("no slot for {} ({instr}) from {what}: {why}", node.name)));
        }
    }
    let times: Vec<i64> = t.into_iter().map(|x| x.unwrap_or(0)).collect();
    let min = times.iter().copied().min().unwrap_or(0);
    let pinned = g.nodes.iter().any(|nd| nd.pinned_row.is_some());
    let shift = if pinned { -min.div_euclid(iil) * iil } else { -min };
    let time: Vec<u32> = times
        .iter()
        .map(|&x| u32::try_from(x + shift).map_err(|_| (None, format!("time {} out of range", x + shift))))
        .collect::<Result<_, _>>()?;
    Ok(Schedule { ii, time })
}

/// Evictions allowed per node of the graph in one placement pass.
pub const EVICTIONS_PER_NODE: usize = 2;

/// The first cycle of `cycles` (in scan order, in the pinned row if any)
/// where taking out one placed node — else every unpinned node issued in
/// that row — lets `v` fit; the nodes taken out (already removed from the
/// table). None: no such cycle.
fn make_room(
    mrt: &mut Mrt,
    g: &LoopGraph,
    t: &[Option<i64>],
    v: NodeId,
    cycles: &[i64],
    want: Option<u32>,
    ii: i64,
) -> Option<(i64, Vec<NodeId>)> {
    let movable: Vec<NodeId> =
        (0..g.nodes.len()).filter(|&u| u != v && t[u].is_some() && g.nodes[u].pinned_row.is_none()).collect();
    for &c in cycles {
        let row = c.rem_euclid(ii) as u32;
        if want.is_some_and(|w| w != row) {
            continue;
        }
        for &u in &movable {
            if !mrt.may_affect(u, v, row) {
                continue;
            }
            let tu = t[u].map(|x| x.rem_euclid(ii) as u32).unwrap_or(0);
            mrt.remove(u);
            if mrt.fits(v, row) {
                return Some((c, vec![u]));
            }
            mrt.place(u, tu);
        }
        let in_row: Vec<NodeId> = mrt.row(row).iter().copied().filter(|u| movable.contains(u)).collect();
        for &u in &in_row {
            mrt.remove(u);
        }
        if !in_row.is_empty() && mrt.fits(v, row) {
            return Some((c, in_row));
        }
        for &u in &in_row {
            mrt.place(u, row);
        }
    }
    None
}

/// Whether the placed nodes and `v` at cycle `c` fill a fresh table in
/// time order (ties by node), as [`verify`] fills it.
/// The work of that table is added to `extra`.
fn fits_in_time_order(
    m: &Machine,
    g: &LoopGraph,
    t: &[Option<i64>],
    v: NodeId,
    c: i64,
    ii: u32,
    extra: &mut u64,
) -> Result<(), String> {
    let mut all: Vec<(i64, NodeId)> = t.iter().enumerate().filter_map(|(u, x)| x.map(|x| (x, u))).collect();
    all.push((c, v));
    all.sort_unstable();
    let mut mrt = Mrt::new(m, g, ii);
    let r = all.into_iter().try_for_each(|(x, u)| mrt.try_place(u, x.rem_euclid(ii as i64) as u32));
    *extra += mrt.work();
    r
}

/// Largest graph for which placement computes the longest paths between
/// all nodes (O(n³) per II); larger graphs use the seed's windows alone.
pub const CLOSURE_MAX_NODES: usize = 400;

/// Longest path weights `delay − distance·II` between all pairs of nodes
/// (Floyd–Warshall; II ≥ RecMII, so no circuit is positive).
struct Closure {
    n: usize,
    d: Vec<i64>,
}

const NO_PATH: i64 = i64::MIN / 4;

impl Closure {
    /// The closure, for graphs of at most [`CLOSURE_MAX_NODES`] nodes.
    fn for_graph(g: &LoopGraph, ii: u32) -> Option<Closure> {
        (g.nodes.len() <= CLOSURE_MAX_NODES).then(|| Closure::new(g, ii))
    }

    fn new(g: &LoopGraph, ii: u32) -> Closure {
        let n = g.nodes.len();
        let mut d = vec![NO_PATH; n * n];
        for e in &g.edges {
            if e.from < n && e.to < n {
                let w = e.delay as i64 - e.distance as i64 * ii as i64;
                let x = &mut d[e.from * n + e.to];
                *x = (*x).max(w);
            }
        }
        for k in 0..n {
            for i in 0..n {
                let dik = d[i * n + k];
                if dik == NO_PATH {
                    continue;
                }
                for j in 0..n {
                    let dkj = d[k * n + j];
                    if dkj != NO_PATH && dik + dkj > d[i * n + j] {
                        d[i * n + j] = (dik + dkj).min(i64::MAX / 8);
                    }
                }
            }
        }
        Closure { n, d }
    }

    /// The longest path from `a` to `b` (a ≠ b), if any.
    fn get(&self, a: usize, b: usize) -> Option<i64> {
        let x = self.d[a * self.n + b];
        (a != b && x != NO_PATH).then_some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_machines::tiny;
    use crate::graph::{DepKind, Node};
    use crate::mii;

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

    /// A recurrence through three non-pipelined divides (a load feeds them,
    /// their stores feed the next iteration's load): ResMII says 9, but the
    /// divides of one iteration must issue within II − 8 cycles of each
    /// other, so no II below 14 can hold them; those IIs are ruled out
    /// without placing anything, and the schedule is found at 14.
    #[test]
    fn recurrence_crowding_a_non_pipelined_unit() {
        let m = Machine::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/machines/sms_alt.isa")).unwrap();
        let (ld, div, st) = (
            m.instr_by_mnemonic("ld").unwrap(),
            m.instr_by_mnemonic("div").unwrap(),
            m.instr_by_mnemonic("st").unwrap(),
        );
        let mut g = LoopGraph::new();
        let mk = |ins, name: String| Node { instr: ins, reads: vec![], writes: None, name, pinned_row: None };
        let l = g.add_node(mk(ld, "ld".into()));
        for i in 0..3 {
            let d = g.add_node(mk(div, format!("div{i}")));
            let s = g.add_node(mk(st, format!("st{i}")));
            g.add_flow(&m, l, d, 0);
            g.add_flow(&m, d, s, 0);
            g.add_edge(s, l, 1, 1, DepKind::Memory);
        }
        let r = mii::compute(&m, &g).unwrap();
        assert_eq!(r.mii, 9);
        let out = schedule(&m, &g, &r, &SmsOptions::production()).unwrap();
        verify(&m, &g, &out.schedule).unwrap();
        assert_eq!(out.schedule.ii, 14);
        assert!(out.attempts.iter().all(|a| a.reason.contains("recurrence keeps 3 operations on unit 'div'")), "{:?}", out.attempts);
    }

    /// The work budget stops the search and says so.
    #[test]
    fn work_budget() {
        let m = tiny();
        let add = m.instr_by_mnemonic("add").unwrap();
        let mut g = LoopGraph::new();
        for i in 0..6 {
            g.add_node(Node { instr: add, reads: vec![], writes: None, name: format!("n{i}"), pinned_row: None });
        }
        for i in 1..6 {
            g.add_edge(i - 1, i, 1, 0, DepKind::Flow);
        }
        let r = mii::compute(&m, &g).unwrap();
        let mut work = Work::limited(2);
        let a = schedule_with(&m, &g, &r, &SmsOptions::production(), &mut work).unwrap_err();
        assert!(a.last().unwrap().reason.starts_with(EXHAUSTED), "{a:?}");
        let mut work = Work::unlimited();
        schedule_with(&m, &g, &r, &SmsOptions::production(), &mut work).unwrap();
        assert!(work.used() >= 6, "{work:?}");
    }
}

//! Iterative modulo scheduling, the reference heuristic of B. R. Rau,
//! "Iterative Modulo Scheduling: An Algorithm For Software Pipelining
//! Loops" (MICRO-27, 1994), §3 ("iterative scheduling") and §4 (the
//! procedures `IterativeSchedule`, `CalculateEarlyStart`, `FindTimeSlot`
//! and `Schedule`); seed 003 gives the priority function and the window.
//!
//! For each candidate II from the MII upward:
//!
//! - **priority** is `HeightR` (seed 003, "Priority function"): 0 without
//!   successors, else `max(HeightR(y) + delay − II·distance)` over the
//!   successors, a longest path to the sinks with effective delays (finite
//!   because II ≥ RecMII — an II below RecMII fails at once);
//! - the highest-priority unscheduled operation gets
//!   `Estart = max(0, t(p) + delay − II·distance)` over its *scheduled*
//!   predecessors and the window `[Estart, Estart + II − 1]` (seed 003, "The
//!   scheduling window"); a node with a pinned row only looks at the one
//!   time of the window in that row;
//! - it takes the first time of the window where the modulo reservation
//!   table ([`Mrt`], the same table `verify` uses) has room; if none, Rau's
//!   rule picks `Estart` or, when the operation was scheduled before at or
//!   after `Estart`, its previous time + 1 (so that it cannot cycle), and
//!   operations are evicted until it fits: first one whose removal alone
//!   makes room (the lowest priority such), else the lowest-priority one
//!   sharing a row, a landing row or a held unit with it;
//! - scheduled successors whose dependence it now violates are evicted too
//!   (predecessors hold by construction of `Estart`);
//! - every placement spends one unit of the budget, `budget_ratio × nodes`
//!   per II (Rau's BudgetRatio); when it runs out, II + 1.
//!
//! The result is checked with [`crate::schedule::verify`].

use isa_tablegen::Machine;

use crate::graph::{LoopGraph, NodeId};
use crate::mii::{positive_cycle, MiiReport};
use crate::mrt::Mrt;
use crate::schedule::{verify, Attempt, Outcome, Schedule};

/// Options of the iterative modulo scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImsOptions {
    /// Placements allowed per II, per node (Rau's BudgetRatio; he found 3
    /// to 6 enough for near-optimal II).
    pub budget_ratio: u32,
    /// Largest II to try (default: a bound at which a schedule is all but
    /// certain, see [`default_max_ii`]).
    pub max_ii: Option<u32>,
}

impl Default for ImsOptions {
    fn default() -> ImsOptions {
        ImsOptions { budget_ratio: 3, max_ii: None }
    }
}

/// A generous largest II for schedulers that climb from the MII: the MII
/// plus every node's busy cycles, every positive delay and the longest
/// latency — a sequential schedule of one iteration fits well below it.
pub fn default_max_ii(m: &Machine, g: &LoopGraph, mii: u32) -> u32 {
    let busy: u64 = (0..g.nodes.len()).map(|n| g.busy(m, n) as u64).sum();
    let delays: u64 = g.edges.iter().map(|e| e.delay.max(0) as u64).sum();
    let lat = m.max_latency() as u64;
    (mii as u64 + busy + delays + lat + 1).min(u32::MAX as u64 / 2) as u32
}

/// Rau's iterative modulo scheduling from `mii.mii` up to the largest II.
/// Err: every II tried, each with the reason it failed.
pub fn schedule(m: &Machine, g: &LoopGraph, mii: &MiiReport, opts: &ImsOptions) -> Result<Outcome, Vec<Attempt>> {
    schedule_from(m, g, mii.mii, opts)
}

/// [`schedule`] with the first II given directly.
pub fn schedule_from(m: &Machine, g: &LoopGraph, first_ii: u32, opts: &ImsOptions) -> Result<Outcome, Vec<Attempt>> {
    let first_ii = first_ii.max(1);
    if let Err(reason) = check_graph(g) {
        return Err(vec![Attempt { ii: first_ii, reason }]);
    }
    let last_ii = opts.max_ii.unwrap_or_else(|| default_max_ii(m, g, first_ii));
    let budget = (opts.budget_ratio.max(1) as u64 * g.nodes.len().max(1) as u64).min(u32::MAX as u64) as u32;
    let mut attempts = Vec::new();
    for ii in first_ii..=last_ii.max(first_ii) {
        match try_ii(m, g, ii, budget) {
            Ok((schedule, order, steps)) => {
                let notes = vec![format!(
                    "ims: II={ii} after {steps} placements (budget {budget} = {} x {} nodes)",
                    opts.budget_ratio.max(1),
                    g.nodes.len()
                )];
                return Ok(Outcome { schedule, attempts, order, notes, capped: false });
            }
            Err(reason) => attempts.push(Attempt { ii, reason }),
        }
    }
    Err(attempts)
}

/// Edges must name existing nodes.
pub(crate) fn check_graph(g: &LoopGraph) -> Result<(), String> {
    let n = g.nodes.len();
    for e in &g.edges {
        if e.from >= n || e.to >= n {
            return Err(format!("edge {} -> {} names a node outside the graph ({n} nodes)", e.from, e.to));
        }
    }
    Ok(())
}

/// HeightR of every node at `ii` (seed 003): the longest path to a sink
/// with effective delays `delay − ii·distance`, at least 0. None when the
/// graph has a positive circuit at this II.
pub fn height_r(g: &LoopGraph, ii: u32) -> Option<Vec<i64>> {
    let n = g.nodes.len();
    let mut h = vec![0i64; n];
    for _round in 0..=n {
        let mut changed = false;
        for e in &g.edges {
            let w = e.delay as i64 - ii as i64 * e.distance as i64;
            let cand = h[e.to] + w;
            if cand > h[e.from] {
                h[e.from] = cand;
                changed = true;
            }
        }
        if !changed {
            return Some(h);
        }
    }
    None
}

/// The scheduler's state at one II.
struct State<'a> {
    g: &'a LoopGraph,
    ii: u32,
    mrt: Mrt<'a>,
    time: Vec<Option<u32>>,
    prev: Vec<Option<u32>>,
    /// Position in the priority order (0 = highest priority).
    rank: Vec<usize>,
    succ: Vec<Vec<usize>>,
    pred: Vec<Vec<usize>>,
    m: &'a Machine,
}

/// One II: Ok(schedule, priority order, placements made) or the reason.
fn try_ii(m: &Machine, g: &LoopGraph, ii: u32, budget: u32) -> Result<(Schedule, Vec<NodeId>, u32), String> {
    let n = g.nodes.len();
    if n == 0 {
        return Ok((Schedule { ii, time: Vec::new() }, Vec::new(), 0));
    }
    if let Some(c) = positive_cycle(g, ii as i64) {
        let names: Vec<&str> = c.iter().map(|&x| g.nodes[x].name.as_str()).collect();
        return Err(format!("recurrence {} needs a larger II", names.join(" -> ")));
    }
    let height = height_r(g, ii).ok_or_else(|| "HeightR does not converge".to_string())?;
    let mut order: Vec<NodeId> = (0..n).collect();
    order.sort_by_key(|&x| (std::cmp::Reverse(height[x]), x));
    let mut rank = vec![0; n];
    for (i, &x) in order.iter().enumerate() {
        rank[x] = i;
    }
    let (succ, pred) = g.adjacency();
    let mut st = State {
        g,
        ii,
        mrt: Mrt::new(m, g, ii),
        time: vec![None; n],
        prev: vec![None; n],
        rank,
        succ,
        pred,
        m,
    };
    let mut left = budget;
    let mut steps = 0;
    while let Some(&op) = order.iter().find(|&&x| st.time[x].is_none()) {
        if left == 0 {
            let placed = st.time.iter().filter(|t| t.is_some()).count();
            return Err(format!(
                "budget of {budget} placements exhausted with {placed} of {n} operations placed ({} was next)",
                g.nodes[op].name
            ));
        }
        left -= 1;
        steps += 1;
        let estart = st.early_start(op);
        let t = st.find_time_slot(op, estart);
        st.place(op, t)?;
    }
    let mut time: Vec<u32> = st.time.iter().map(|t| t.expect("all placed")).collect();
    let min_stage = time.iter().map(|t| t / ii).min().unwrap_or(0);
    for t in &mut time {
        *t -= min_stage * ii;
    }
    let s = Schedule { ii, time };
    verify(m, g, &s).map_err(|e| format!("internal error: the schedule fails its check: {e}"))?;
    Ok((s, order, steps))
}

impl<'a> State<'a> {
    /// Rau's CalculateEarlyStart over the scheduled predecessors.
    fn early_start(&self, op: NodeId) -> u32 {
        let mut e = 0i64;
        for &ei in &self.pred[op] {
            let edge = &self.g.edges[ei];
            if edge.from == op {
                continue;
            }
            if let Some(tp) = self.time[edge.from] {
                e = e.max(tp as i64 + edge.delay as i64 - self.ii as i64 * edge.distance as i64);
            }
        }
        e.clamp(0, u32::MAX as i64 / 2) as u32
    }

    /// The pinned row of `op` at this II, if any.
    fn pinned(&self, op: NodeId) -> Option<u32> {
        self.g.nodes[op].pinned_row.and_then(|p| p.row(self.ii))
    }

    /// The first time ≥ `t` in `op`'s pinned row (or `t`).
    fn align(&self, op: NodeId, t: u32) -> u32 {
        match self.pinned(op) {
            Some(r) => t + (r + self.ii - t % self.ii) % self.ii,
            None => t,
        }
    }

    /// Rau's FindTimeSlot: the first conflict-free time of the window, else
    /// Estart or one past the previous time.
    fn find_time_slot(&self, op: NodeId, estart: u32) -> u32 {
        let max_t = estart + self.ii - 1;
        let mut t = self.align(op, estart);
        while t <= max_t {
            if self.mrt.can_place(op, t).is_ok() {
                return t;
            }
            t += if self.pinned(op).is_some() { self.ii } else { 1 };
        }
        let forced = match self.prev[op] {
            Some(p) if estart <= p => p + 1,
            _ => estart,
        };
        self.align(op, forced)
    }

    fn unschedule(&mut self, x: NodeId) {
        self.mrt.remove(x);
        self.time[x] = None;
    }

    /// Placed nodes that share a resource question with `op` at `t`: its
    /// issue row, the row its result lands in (same file), and rows where a
    /// non-pipelined unit is held.
    fn conflict_candidates(&self, op: NodeId, t: u32) -> Vec<NodeId> {
        let (m, g, ii) = (self.m, self.g, self.ii);
        let r = t % ii;
        let land = |x: NodeId, tx: u32| (tx + g.latency(m, x)) % ii;
        let held = |x: NodeId, tx: u32| -> Vec<u32> { (1..g.busy(m, x)).map(|k| (tx + k) % ii).collect() };
        let op_land = land(op, t);
        let op_held = held(op, t);
        let mut out: Vec<NodeId> = (0..g.nodes.len())
            .filter(|&x| x != op)
            .filter(|&x| {
                let Some(tx) = self.time[x] else { return false };
                let rx = tx % ii;
                rx == r
                    || (g.nodes[x].writes.is_some() && g.nodes[x].writes == g.nodes[op].writes && land(x, tx) == op_land)
                    || op_held.contains(&rx)
                    || held(x, tx).iter().any(|h| *h == r || op_held.contains(h))
            })
            .collect();
        // Lowest priority first.
        out.sort_by_key(|&x| std::cmp::Reverse(self.rank[x]));
        out
    }

    /// Rau's Schedule: evict resource conflicts, place, evict successors
    /// whose dependences no longer hold.
    fn place(&mut self, op: NodeId, t: u32) -> Result<(), String> {
        while let Err(why) = self.mrt.can_place(op, t) {
            let cands = self.conflict_candidates(op, t);
            if cands.is_empty() {
                return Err(format!("no time for {} at {t} even in an empty row: {why}", self.g.nodes[op].name));
            }
            let mut victim = cands[0];
            for &c in &cands {
                let tc = self.time[c].expect("candidate is placed");
                self.mrt.remove(c);
                let fits = self.mrt.can_place(op, t).is_ok();
                let back = self.mrt.try_place(c, tc).is_ok();
                if fits || !back {
                    // (A candidate that cannot go back, its row being placed
                    // in another order, is evicted as well.)
                    victim = c;
                    break;
                }
            }
            self.unschedule(victim);
        }
        self.mrt.try_place(op, t)?;
        self.time[op] = Some(t);
        self.prev[op] = Some(t);
        for i in 0..self.succ[op].len() {
            let e = &self.g.edges[self.succ[op][i]];
            if e.to == op {
                continue;
            }
            if let Some(tv) = self.time[e.to] {
                if (tv as i64) + (e.distance as i64) * (self.ii as i64) < t as i64 + e.delay as i64 {
                    self.unschedule(e.to);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::graph::{DepKind, Node, PinnedRow};
    use crate::mii;

    pub(crate) fn seed_machine() -> Machine {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/machines/seed003_ims.isa");
        Machine::load(path).expect("seed003_ims.isa")
    }

    /// Seed 003's loop `b[j] = a[j] * 26` in DSA form (slide 14): 1 load,
    /// 2 multiply, 3 store, 4/5 the pointer increments, 6 the compare,
    /// 7 the loop branch (pinned to the kernel's last row less the delay
    /// slots).
    pub(crate) fn seed_graph(m: &Machine) -> LoopGraph {
        let r = m.regfile_by_name("r").unwrap();
        let p = m.regfile_by_name("p").unwrap();
        let mut g = LoopGraph::new();
        let node = |g: &mut LoopGraph, mn: &str, name: &str, reads: Vec<(_, u32)>, writes| {
            g.add_node(Node {
                instr: m.instr_by_mnemonic(mn).unwrap(),
                reads,
                writes,
                name: name.into(),
                pinned_row: None,
            })
        };
        let ld = node(&mut g, "ld", "1 ld", vec![(r, 1)], Some(r));
        let mpy = node(&mut g, "mpyi", "2 mpy", vec![(r, 1)], Some(r));
        let st = node(&mut g, "st", "3 st", vec![(r, 2)], None);
        let a1 = node(&mut g, "addi", "4 add r1", vec![(r, 1)], Some(r));
        let a2 = node(&mut g, "addi", "5 add r2", vec![(r, 1)], Some(r));
        let cmp = node(&mut g, "cmpp", "6 cmpp", vec![(r, 2)], Some(p));
        let br = node(&mut g, "brct", "7 br", vec![(p, 1)], None);
        g.nodes[br].pinned_row = Some(PinnedRow { from_end: m.control.delay_slots });
        g.add_flow(m, ld, mpy, 0);
        g.add_flow(m, mpy, st, 0);
        g.add_flow(m, a1, ld, 1);
        g.add_flow(m, a1, a1, 1);
        g.add_flow(m, a2, st, 1);
        g.add_flow(m, a2, a2, 1);
        g.add_flow(m, a1, cmp, 0);
        g.add_flow(m, cmp, br, 0);
        g.add_edge(ld, a1, 0, 0, DepKind::Anti);
        g.add_edge(st, a2, 0, 0, DepKind::Anti);
        g
    }

    #[test]
    fn seed003_at_mii() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let r = mii::compute(&m, &g).unwrap();
        assert_eq!((r.res_mii, r.rec_mii, r.mii), (2, 1, 2));
        let out = schedule(&m, &g, &r, &ImsOptions::default()).unwrap();
        assert_eq!(out.schedule.ii, 2);
        assert!(out.attempts.is_empty());
        verify(&m, &g, &out.schedule).unwrap();
        // The load comes before the multiply, the multiply before the store.
        let t = &out.schedule.time;
        assert!(t[1] >= t[0] + 2 && t[2] >= t[1] + 3);
        assert_eq!(out.schedule.row(6), 1, "the branch closes the kernel");
        assert_eq!(out.order.len(), 7);
    }

    #[test]
    fn height_r_uses_effective_delays() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let h = height_r(&g, 2).unwrap();
        // ld -> mpy -> st: 2 + 3.
        assert_eq!(h[0], 5);
        assert_eq!(h[2], 0);
        // add r1 -> ld at distance 1: 1 - 2·1 + 5 (more than via the compare, 1 + 1).
        assert_eq!(h[3], 4);
    }

    #[test]
    fn recurrence_below_rec_mii_fails_then_climbs() {
        let m = seed_machine();
        let alu = m.instr_by_mnemonic("addi").unwrap();
        let r = m.regfile_by_name("r").unwrap();
        let mut g = LoopGraph::new();
        for i in 0..3 {
            g.add_node(Node { instr: alu, reads: vec![(r, 1)], writes: Some(r), name: format!("a{i}"), pinned_row: None });
        }
        g.add_edge(0, 1, 2, 0, DepKind::Flow);
        g.add_edge(1, 2, 2, 0, DepKind::Flow);
        g.add_edge(2, 0, 1, 1, DepKind::Flow);
        let out = schedule_from(&m, &g, 1, &ImsOptions::default()).unwrap();
        assert_eq!(out.schedule.ii, 5);
        assert_eq!(out.attempts.len(), 4);
        assert!(out.attempts[0].reason.contains("recurrence"), "{:?}", out.attempts);
        verify(&m, &g, &out.schedule).unwrap();
    }

    #[test]
    fn bad_edges_are_an_error() {
        let m = seed_machine();
        let mut g = seed_graph(&m);
        g.add_edge(0, 99, 1, 0, DepKind::Flow);
        let err = schedule_from(&m, &g, 2, &ImsOptions::default()).unwrap_err();
        assert!(err[0].reason.contains("outside the graph"));
    }

    #[test]
    fn max_ii_bounds_the_search() {
        let m = seed_machine();
        let g = seed_graph(&m);
        let err = schedule_from(&m, &g, 1, &ImsOptions { budget_ratio: 3, max_ii: Some(1) }).unwrap_err();
        assert_eq!(err.len(), 1);
        assert_eq!(err[0].ii, 1);
    }
}

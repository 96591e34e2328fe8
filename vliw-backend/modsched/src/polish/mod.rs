//! Lifetime polishing: a local search that lowers the register pressure of
//! a finished modulo schedule without changing its II.
//!
//! SMS orders and places nodes so that each lands next to its placed
//! neighbours (seed 000 §4.2–4.3), which keeps lifetimes short but not
//! minimal: a node placed before its consumers cannot know where they will
//! go, and the first node of each recurrence is placed blind. Against the
//! integer program's optimum (our `ilp`, seed 000 §5's "MaxLive") that
//! leaves a few registers on the table. This pass (our addition, run after
//! the placement the seed gives) moves one node at a time, all others
//! fixed, to the cycle of its dependence window with room in the modulo
//! reservation table that most lowers (MaxLive, the rows at MaxLive, sum of lifetimes, stages) —
//! MaxLive and lifetimes as [`crate::regs`] defines them. Where no single
//! move helps (a resource-bound kernel has no free slot to move into), two
//! neighbours shift together by the same amount, and then two nodes
//! exchange rows. Rounds repeat while something improves, at most
//! [`ROUNDS`]. What it may spend scales with what it gains: a grant of
//! [`GRANT_PER_NODE`] evaluated placements per node at the start and
//! another each time the peak (MaxLive, then the rows at it) drops, never
//! more than [`BUDGET`] units of work (less if the caller's
//! [`crate::work::Work`] has less left); [`Effort::Full`] spends up to the
//! budget at once, for schedules whose registers are short. Kicks of an
//! iterated local search follow while they keep finding better states (a few in a row
//! that do not end it). Polishing stops as soon as MaxLive reaches its
//! lower bound at this II ([`max_live_floor`]). Pinned nodes keep
//! their row. Every move keeps every dependence and every resource, so the
//! result is a schedule at the same II; it is still checked by
//! [`crate::schedule::verify`] and dropped if the check fails (the table's
//! unit choice for non-pipelined operations can depend on the order of
//! placement).

use isa_tablegen::Machine;

use crate::graph::{DepKind, LoopGraph, NodeId};
use crate::mrt::Mrt;
use crate::schedule::{verify, Schedule};
use crate::work::{Work, POLISH_EVALUATIONS_PER_UNIT};

mod live;
use live::{interval, Live};

/// Rounds over all nodes at most.
pub const ROUNDS: usize = 8;
/// Kicks of the iterated local search at most…
const KICKS: usize = 40;
/// …and at most this many in a row that find nothing better: polishing
/// spends in proportion to what it gains.
const KICK_PATIENCE: usize = 16;
/// Work of computing one push, in kernel-row updates.
const PUSH_COST: usize = 8;
/// Nodes one push may move.
const PUSH_LIMIT: usize = 8;
/// A node moves at most this many IIs from where it is in one step…
const REACH_IIS: i64 = 3;
/// …and in one push (which moves its neighbours with it).
const PUSH_REACH_IIS: i64 = 1;

/// What polishing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Polished {
    pub schedule: Schedule,
    pub moves: u32,
    pub max_live_before: u32,
    pub max_live_after: u32,
}

/// (MaxLive, rows at MaxLive, sum of lifetimes, stages): smaller is
/// better (fewer rows at the peak is progress towards a lower peak).
type Score = (i64, i64, i64, i64);

/// The search state: times, register rows and the reservation table.
struct Polisher<'a> {
    g: &'a LoopGraph,
    ii: i64,
    t: Vec<i64>,
    live: Live,
    mrt: Mrt<'a>,
    succ: Vec<Vec<usize>>,
    pred: Vec<Vec<usize>>,
    flow_out: Vec<Vec<usize>>,
    flow_in: Vec<Vec<NodeId>>,
    /// Work spent so far (bounded by `limit`).
    evaluations: usize,
    /// What may be spent now: a grant at the start and another each time
    /// MaxLive drops, never more than `cap`.
    limit: usize,
    cap: usize,
    grant: usize,
    /// MaxLive and the rows at MaxLive when the last grant was given.
    granted_at: (i64, i64),
    /// MaxLive no schedule at this II can go below (polishing stops there).
    floor: i64,
    /// Buffers of [`Polisher::push`].
    push_moved: Vec<(NodeId, i64)>,
    push_work: Vec<NodeId>,
    push_need: Vec<(NodeId, i64)>,
}

/// Work per schedule at most, in kernel-row updates: each evaluated
/// placement costs about II of them (swaps are quadratic in the nodes, so
/// large loops stop at the budget; small ones finish first).
const BUDGET: usize = 1_500_000;

/// Each grant of work (see [`Polisher::regrant`]): this many evaluated
/// placements per node.
pub const GRANT_PER_NODE: usize = 100;

impl<'a> Polisher<'a> {
    /// Whether the budget is spent.
    fn spent(&self) -> bool {
        self.evaluations > self.limit
    }

    /// Another grant if MaxLive dropped since the last one: polishing
    /// spends in proportion to what it gains.
    fn regrant(&mut self) {
        let now = self.live.peak();
        if now < self.granted_at {
            self.granted_at = now;
            self.limit = (self.evaluations + self.grant).min(self.cap);
        }
    }

    /// Whether the budget is spent or MaxLive is at its lower bound
    /// (nothing left to gain).
    fn done(&self) -> bool {
        self.spent() || self.live.max_live() <= self.floor
    }

    /// The work done, in [`crate::work`] units.
    fn work(&self) -> u64 {
        self.evaluations as u64 / POLISH_EVALUATIONS_PER_UNIT + self.mrt.work()
    }

    /// The work of evaluating one placement.
    fn cost(&self) -> usize {
        self.ii as usize + 4
    }

    fn score(&self) -> Score {
        let (peak, rows) = self.live.peak();
        (peak, rows, self.live.lifetime_sum, self.stages())
    }

    fn stages(&self) -> i64 {
        let lo = self.t.iter().copied().min().unwrap_or(0).div_euclid(self.ii);
        let hi = self.t.iter().copied().max().unwrap_or(0).div_euclid(self.ii);
        hi - lo
    }

    /// The score of the current times if it is below `best` (the stages,
    /// a scan of every node, counted only on a tie of the rest).
    fn better(&self, best: &Score) -> Option<Score> {
        let (peak, rows) = self.live.peak();
        let head = (peak, rows, self.live.lifetime_sum);
        match head.cmp(&(best.0, best.1, best.2)) {
            std::cmp::Ordering::Greater => None,
            std::cmp::Ordering::Less => Some((peak, rows, head.2, self.stages())),
            std::cmp::Ordering::Equal => {
                let st = self.stages();
                (st < best.3).then_some((peak, rows, head.2, st))
            }
        }
    }

    /// Cycles `v` may take with every node but `v` and `other` fixed.
    fn window(&self, v: NodeId, other: NodeId) -> (i64, i64) {
        let (g, ii) = (self.g, self.ii);
        let mut lo = self.t[v] - REACH_IIS * ii;
        let mut hi = self.t[v] + REACH_IIS * ii;
        for &e in &self.pred[v] {
            let e = &g.edges[e];
            if e.from != v && e.from != other {
                lo = lo.max(self.t[e.from] + e.delay as i64 - e.distance as i64 * ii);
            }
        }
        for &e in &self.succ[v] {
            let e = &g.edges[e];
            if e.to != v && e.to != other {
                hi = hi.min(self.t[e.to] - e.delay as i64 + e.distance as i64 * ii);
            }
        }
        (lo, hi)
    }

    /// Whether the edges between `v` and `w` hold.
    fn edges_between_hold(&self, v: NodeId, w: NodeId) -> bool {
        let ii = self.ii;
        self.succ[v].iter().chain(&self.succ[w]).all(|&e| {
            let e = &self.g.edges[e];
            let inner = (e.from == v && e.to == w) || (e.from == w && e.to == v);
            !inner || self.t[e.to] + e.distance as i64 * ii >= self.t[e.from] + e.delay as i64
        })
    }

    fn pinned(&self, v: NodeId) -> bool {
        self.g.nodes[v].pinned_row.is_some()
    }

    /// The values whose intervals depend on the times of `nodes`.
    fn touched(&self, nodes: &[NodeId]) -> Vec<NodeId> {
        let mut out = Vec::new();
        for &v in nodes {
            out.extend(self.flow_in[v].iter().copied());
            if self.g.nodes[v].writes.is_some() {
                out.push(v);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Sets the times of `moves`, updating the intervals of `touched`.
    fn retime(&mut self, touched: &[NodeId], moves: &[(NodeId, i64)]) {
        for &u in touched {
            if let Some((f, a, l)) = self.live.interval[u] {
                self.live.add(u, f, a, l, -1);
            }
        }
        for &(v, c) in moves {
            self.t[v] = c;
        }
        for &u in touched {
            if let Some((f, a, l)) = interval(self.g, &self.flow_out, &self.t, self.ii, u) {
                self.live.add(u, f, a, l, 1);
            }
        }
    }

    fn row(&self, c: i64) -> u32 {
        c.rem_euclid(self.ii) as u32
    }

    /// The best cycle for `v` alone; true if it moved.
    fn single(&mut self, v: NodeId) -> bool {
        let (lo, hi) = self.window(v, v);
        if lo >= hi {
            return false;
        }
        let want = self.g.nodes[v].pinned_row.and_then(|p| p.row(self.mrt.ii()));
        let touched = self.touched(&[v]);
        let here = self.t[v];
        let mut best = (self.score(), here);
        self.mrt.remove(v);
        // Whether v fits each row, asked once per row (the window spans
        // several IIs).
        let mut fits: Vec<Option<bool>> = vec![None; self.ii as usize];
        for c in lo..=hi {
            if c == here || want.is_some_and(|r| self.row(c) != r) {
                continue;
            }
            let row = self.row(c);
            if !*fits[row as usize].get_or_insert_with(|| self.mrt.fits(v, row)) {
                continue;
            }
            self.evaluations += self.cost();
            self.retime(&touched, &[(v, c)]);
            if let Some(sc) = self.better(&best.0) {
                best = (sc, c);
            }
        }
        self.settle(&touched, &[(v, best.1)], &[(v, here)]) && best.1 != here
    }

    /// With the nodes of `chosen` out of the table: puts them at their
    /// chosen cycles, or back at `old` if the table refuses; true if the
    /// chosen cycles were taken.
    fn settle(&mut self, touched: &[NodeId], chosen: &[(NodeId, i64)], old: &[(NodeId, i64)]) -> bool {
        self.retime(touched, chosen);
        let mut placed = 0;
        for &(x, c) in chosen {
            if !self.mrt.place(x, self.row(c)) {
                break;
            }
            placed += 1;
        }
        if placed == chosen.len() {
            return true;
        }
        for &(x, _) in &chosen[..placed] {
            self.mrt.remove(x);
        }
        self.retime(touched, old);
        for &(x, c) in old {
            self.mrt.place(x, self.row(c));
        }
        false
    }

    /// The best exchange of rows between `v` and `w` (each within its
    /// window); true if they moved.
    fn swap(&mut self, v: NodeId, w: NodeId) -> bool {
        let (tv, tw) = (self.t[v], self.t[w]);
        let (rv, rw) = (self.row(tv), self.row(tw));
        if rv == rw || self.pinned(v) || self.pinned(w) {
            return false;
        }
        let (vlo, vhi) = self.window(v, w);
        let (wlo, whi) = self.window(w, v);
        // Cycles of v in w's row, and of w in v's row.
        let in_row = |lo: i64, hi: i64, row: u32, ii: i64| -> Vec<i64> {
            let first = lo + (row as i64 - lo.rem_euclid(ii)).rem_euclid(ii);
            (0..).map(|k| first + k * ii).take_while(|&c| c <= hi).collect()
        };
        let cv = in_row(vlo, vhi, rw, self.ii);
        let cw = in_row(wlo, whi, rv, self.ii);
        if cv.is_empty() || cw.is_empty() {
            return false;
        }
        self.mrt.remove(v);
        self.mrt.remove(w);
        let ok = self.mrt.place(v, rw);
        let fits = ok && self.mrt.fits(w, rv);
        if ok {
            self.mrt.remove(v);
        }
        let touched = self.touched(&[v, w]);
        let mut best = (self.score(), tv, tw);
        if fits {
            for &a in &cv {
                for &b in &cw {
                    self.evaluations += self.cost();
                    self.retime(&touched, &[(v, a), (w, b)]);
                    if self.edges_between_hold(v, w) {
                        if let Some(sc) = self.better(&best.0) {
                            best = (sc, a, b);
                        }
                    }
                }
            }
        }
        let (_, a, b) = best;
        self.settle(&touched, &[(v, a), (w, b)], &[(v, tv), (w, tw)]) && (a, b) != (tv, tw)
    }

    /// New times that put `v` at cycle `c` and push its neighbours just as
    /// far as their dependences need, transitively (at most `limit` nodes,
    /// none pinned); None if that cannot be done.
    fn push(&mut self, v: NodeId, c: i64, limit: usize) -> Option<Vec<(NodeId, i64)>> {
        // Buffers reused from push to push (this runs for every candidate
        // cycle of every node).
        let mut moved = std::mem::take(&mut self.push_moved);
        let mut work = std::mem::take(&mut self.push_work);
        let mut need = std::mem::take(&mut self.push_need);
        moved.clear();
        work.clear();
        moved.push((v, c));
        work.push(v);
        let ok = self.push_into(v, limit, &mut moved, &mut work, &mut need);
        let out = ok.then(|| moved.clone());
        self.push_moved = moved;
        self.push_work = work;
        self.push_need = need;
        out
    }

    /// The transitive closure of [`Polisher::push`], from `moved = [(v, c)]`
    /// and `work = [v]`; false if it cannot be done.
    fn push_into(
        &self,
        v: NodeId,
        limit: usize,
        moved: &mut Vec<(NodeId, i64)>,
        work: &mut Vec<NodeId>,
        need: &mut Vec<(NodeId, i64)>,
    ) -> bool {
        let (g, ii) = (self.g, self.ii);
        let at = |moved: &[(NodeId, i64)], x: NodeId| moved.iter().find(|m| m.0 == x).map_or(self.t[x], |m| m.1);
        let mut steps = 0;
        while let Some(x) = work.pop() {
            steps += 1;
            if steps > 4 * limit {
                return false;
            }
            let tx = at(moved, x);
            need.clear();
            for &e in &self.succ[x] {
                let e = &g.edges[e];
                let w = e.to;
                let lo = tx + e.delay as i64 - e.distance as i64 * ii;
                if w != x && at(moved, w) < lo {
                    need.push((w, lo));
                }
            }
            for &e in &self.pred[x] {
                let e = &g.edges[e];
                let u = e.from;
                let hi = tx - e.delay as i64 + e.distance as i64 * ii;
                if u != x && at(moved, u) > hi {
                    need.push((u, hi));
                }
            }
            for &(y, ty) in need.iter() {
                if y == v || self.pinned(y) {
                    return false;
                }
                match moved.iter().position(|m| m.0 == y) {
                    Some(i) => moved[i].1 = ty,
                    None if moved.len() < limit => moved.push((y, ty)),
                    None => return false,
                }
                work.push(y);
            }
        }
        true
    }

    /// Whether the reservation table takes `moves` (the other nodes where
    /// they are); the table is left as it was.
    fn table_takes(&mut self, moves: &[(NodeId, i64)]) -> bool {
        for &(x, _) in moves {
            self.mrt.remove(x);
        }
        let mut placed = 0;
        for &(x, c) in moves {
            if !self.mrt.place(x, self.row(c)) {
                break;
            }
            placed += 1;
        }
        for &(x, _) in &moves[..placed] {
            self.mrt.remove(x);
        }
        for &(x, _) in moves {
            self.mrt.place(x, self.row(self.t[x]));
        }
        placed == moves.len()
    }

    /// Applies `moves` if the reservation table takes them (else changes
    /// nothing); the old times of the moved nodes, if applied.
    fn apply(&mut self, moves: &[(NodeId, i64)], touched: &[NodeId]) -> Option<Vec<(NodeId, i64)>> {
        let old: Vec<(NodeId, i64)> = moves.iter().map(|&(x, _)| (x, self.t[x])).collect();
        for &(x, _) in moves {
            self.mrt.remove(x);
        }
        self.settle(touched, moves, &old).then_some(old)
    }

    /// The best push of `v` to another cycle (see [`Polisher::push`]);
    /// true if it moved.
    fn push_best(&mut self, v: NodeId) -> bool {
        if self.pinned(v) {
            return false;
        }
        let here = self.t[v];
        let mut best: (Score, Option<Vec<(NodeId, i64)>>) = (self.score(), None);
        for c in here - PUSH_REACH_IIS * self.ii..=here + PUSH_REACH_IIS * self.ii {
            if c == here || self.spent() {
                continue;
            }
            self.evaluations += PUSH_COST;
            let Some(moves) = self.push(v, c, PUSH_LIMIT) else { continue };
            if moves.len() < 2 {
                continue; // a single move: already tried
            }
            let nodes: Vec<NodeId> = moves.iter().map(|m| m.0).collect();
            let touched = self.touched(&nodes);
            self.evaluations += self.cost();
            // Scored first: the reservation table (several row placements
            // per moved node) is asked only about improvements.
            let old: Vec<(NodeId, i64)> = moves.iter().map(|&(x, _)| (x, self.t[x])).collect();
            self.retime(&touched, &moves);
            let better = self.better(&best.0);
            self.retime(&touched, &old);
            if let Some(sc) = better {
                if self.table_takes(&moves) {
                    best = (sc, Some(moves));
                }
            }
        }
        match best.1 {
            Some(moves) => {
                let nodes: Vec<NodeId> = moves.iter().map(|m| m.0).collect();
                let touched = self.touched(&nodes);
                self.apply(&moves, &touched).is_some()
            }
            None => false,
        }
    }

    /// Improving moves until none is left (or the budget is spent):
    /// single moves, then pushes and neighbour pairs, then row exchanges.
    fn descend(&mut self) {
        let n = self.g.nodes.len();
        for _ in 0..ROUNDS {
            let mut improved = false;
            for v in 0..n {
                improved |= self.single(v);
            }
            if !improved {
                for v in 0..n {
                    if self.spent() {
                        break;
                    }
                    improved |= self.push_best(v);
                }
                let pairs: Vec<(NodeId, NodeId)> =
                    self.g.edges.iter().filter(|e| e.from != e.to && e.from < n && e.to < n).map(|e| (e.from, e.to)).collect();
                for (u, v) in pairs {
                    if self.spent() {
                        break;
                    }
                    improved |= self.shift_pair(u, v);
                }
            }
            if !improved {
                'pairs: for v in 0..n {
                    for w in v + 1..n {
                        if self.spent() {
                            break 'pairs;
                        }
                        improved |= self.swap(v, w);
                    }
                }
            }
            self.regrant();
            if !improved || self.done() {
                break;
            }
        }
    }

    /// Back to the times `t` (a state this search was in).
    fn reset(&mut self, t: &[i64]) {
        let moves: Vec<(NodeId, i64)> = (0..t.len()).filter(|&v| self.t[v] != t[v]).map(|v| (v, t[v])).collect();
        if moves.is_empty() {
            return;
        }
        let nodes: Vec<NodeId> = moves.iter().map(|m| m.0).collect();
        let touched = self.touched(&nodes);
        // A state the search was in: the table takes it.
        let _ = self.apply(&moves, &touched);
    }

    /// The best common shift of `u` and `v` (neighbours: their edges stay
    /// as they are); true if they moved.
    fn shift_pair(&mut self, u: NodeId, v: NodeId) -> bool {
        if u == v || self.pinned(u) || self.pinned(v) {
            return false;
        }
        let (tu, tv) = (self.t[u], self.t[v]);
        let (ulo, uhi) = self.window(u, v);
        let (vlo, vhi) = self.window(v, u);
        let (dlo, dhi) = ((ulo - tu).max(vlo - tv), (uhi - tu).min(vhi - tv));
        if dlo >= dhi {
            return false;
        }
        let touched = self.touched(&[u, v]);
        let mut best = (self.score(), 0);
        self.mrt.remove(u);
        self.mrt.remove(v);
        for d in dlo..=dhi {
            if d == 0 || !self.mrt.fits(u, self.row(tu + d)) {
                continue;
            }
            if !self.mrt.place(u, self.row(tu + d)) {
                continue;
            }
            let fits = self.mrt.fits(v, self.row(tv + d));
            self.mrt.remove(u);
            if !fits {
                continue;
            }
            self.evaluations += self.cost();
            self.retime(&touched, &[(u, tu + d), (v, tv + d)]);
            if let Some(sc) = self.better(&best.0) {
                best = (sc, d);
            }
        }
        let d = best.1;
        self.settle(&touched, &[(u, tu + d), (v, tv + d)], &[(u, tu), (v, tv)]) && d != 0
    }
}

/// Polishes `s` (a valid schedule of `g`).
pub fn polish(m: &Machine, g: &LoopGraph, s: &Schedule) -> Polished {
    polish_with(m, g, s, &mut Work::unlimited())
}

/// A lower bound of MaxLive at II for every schedule of `g`: each value
/// lives at least as long as its flow edges force (`delay − distance·II`,
/// at least 1), and II rows hold all those cycles.
pub fn max_live_floor(g: &LoopGraph, ii: u32) -> u32 {
    floor_of(g, ii, |_| true)
}

/// [`max_live_floor`] of the values of one register file.
pub fn max_live_floor_of(g: &LoopGraph, ii: u32, file: isa_tablegen::RegFileId) -> u32 {
    floor_of(g, ii, |f| f == file)
}

fn floor_of(g: &LoopGraph, ii: u32, counts: impl Fn(isa_tablegen::RegFileId) -> bool) -> u32 {
    let n = g.nodes.len();
    let mut least: Vec<i64> = g.nodes.iter().map(|nd| i64::from(nd.writes.is_some_and(&counts))).collect();
    for e in &g.edges {
        if e.kind == DepKind::Flow && e.from < n && g.nodes[e.from].writes.is_some_and(&counts) {
            least[e.from] = least[e.from].max(e.delay as i64 - e.distance as i64 * ii as i64);
        }
    }
    let total: i64 = least.iter().sum();
    (total.max(0) as u64).div_ceil(ii.max(1) as u64) as u32
}

/// [`polish`] within a compile-time budget: at most what `work` has left
/// (and never more than [`BUDGET`]); what it spends is counted there. It
/// stops as soon as MaxLive reaches [`max_live_floor`].
pub fn polish_with(m: &Machine, g: &LoopGraph, s: &Schedule, work: &mut Work) -> Polished {
    polish_effort(m, g, s, work, Effort::Gains)
}

/// How much polishing may spend (within [`BUDGET`] and the caller's
/// [`Work`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// In proportion to what it gains: [`GRANT_PER_NODE`] evaluations per
    /// node at the start and again each time MaxLive drops. Production's
    /// first polish.
    Gains,
    /// Up to the whole budget: for a schedule whose MaxLive exceeds the
    /// registers, where lowering it decides whether the loop is pipelined
    /// at this II.
    Full,
}

/// [`polish_with`] at a chosen [`Effort`].
pub fn polish_effort(m: &Machine, g: &LoopGraph, s: &Schedule, work: &mut Work, effort: Effort) -> Polished {
    let n = g.nodes.len();
    let ii = s.ii as i64;
    let unchanged = |ml: u32| Polished { schedule: s.clone(), moves: 0, max_live_before: ml, max_live_after: ml };
    if n == 0 || s.time.len() != n {
        return unchanged(0);
    }
    let (succ, pred) = g.adjacency();
    let mut flow_out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut flow_in: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for (i, e) in g.edges.iter().enumerate() {
        if e.kind == DepKind::Flow && e.from < n && e.to < n {
            flow_out[e.from].push(i);
            if e.from != e.to {
                flow_in[e.to].push(e.from);
            }
        }
    }
    for p in &mut flow_in {
        p.sort_unstable();
        p.dedup();
    }
    let t: Vec<i64> = s.time.iter().map(|&x| x as i64).collect();
    let mut live = Live::new(s.ii, n);
    for v in 0..n {
        if let Some((f, a, l)) = interval(g, &flow_out, &t, ii, v) {
            live.add(v, f, a, l, 1);
        }
    }
    let before = live.max_live();
    let floor = max_live_floor(g, s.ii) as i64;
    if before <= floor {
        return unchanged(before as u32);
    }
    let mut mrt = Mrt::new(m, g, s.ii);
    for (v, &tv) in t.iter().enumerate() {
        if !mrt.place(v, tv.rem_euclid(ii) as u32) {
            return unchanged(before as u32);
        }
    }
    let original = t.clone();
    let cap = work.left().saturating_mul(POLISH_EVALUATIONS_PER_UNIT).min(BUDGET as u64) as usize;
    let grant = match effort {
        Effort::Gains => GRANT_PER_NODE * n * (ii as usize + 4),
        Effort::Full => cap,
    };
    let granted_at = live.peak();
    let mut p = Polisher {
        g,
        ii,
        t,
        live,
        mrt,
        succ,
        pred,
        flow_out,
        flow_in,
        evaluations: 0,
        limit: grant.min(cap),
        cap,
        grant,
        granted_at,
        floor,
        push_moved: Vec::new(),
        push_work: Vec::new(),
        push_need: Vec::new(),
    };
    let out = p.run(m, s, original, before);
    work.spend(p.work());
    out
}

impl Polisher<'_> {
    /// Descent, the iterated local search, and the best state found.
    fn run(&mut self, m: &Machine, s: &Schedule, original: Vec<i64>, before: i64) -> Polished {
        let (g, ii, n) = (self.g, self.ii, self.g.nodes.len());
        let unchanged = |ml: u32| Polished { schedule: s.clone(), moves: 0, max_live_before: ml, max_live_after: ml };
        let p = self;
        p.descend();
        // Iterated local search: a deterministic kick (one node to another
        // cycle of its window, pushing its neighbours), a descent, and the
        // better of the two states kept.
        let mut best = (p.score(), p.t.clone());
        let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ (n as u64) << 32 ^ s.ii as u64;
        let mut patience = KICK_PATIENCE;
        for _ in 0..KICKS {
            if p.done() || patience == 0 {
                break;
            }
            patience -= 1;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let v = (rng % n as u64) as usize;
            let reach = 2 * p.ii + 1;
            let c = p.t[v] - p.ii + ((rng >> 20) % reach as u64) as i64;
            if p.pinned(v) || c == p.t[v] {
                continue;
            }
            p.evaluations += PUSH_COST;
            let Some(moves) = p.push(v, c, PUSH_LIMIT) else { continue };
            let nodes: Vec<NodeId> = moves.iter().map(|m| m.0).collect();
            let touched = p.touched(&nodes);
            if p.apply(&moves, &touched).is_none() {
                continue;
            }
            p.descend();
            let sc = p.score();
            if sc < best.0 {
                patience = KICK_PATIENCE;
                best = (sc, p.t.clone());
            } else {
                p.reset(&best.1);
            }
        }
        // The best state, taken from its times (the table's unit choices for
        // non-pipelined operations depend on the order of placement, so the
        // table may refuse to go back to a state it was in: the times decide,
        // and the check below).
        let t = best.1;
        let moves = t.iter().zip(&original).filter(|(a, b)| a != b).count() as u32;
        if moves == 0 {
            return unchanged(before as u32);
        }
        // Earliest node at cycle 0; by whole IIs when a row is pinned.
        let min = t.iter().copied().min().unwrap_or(0);
        let shift = if g.nodes.iter().any(|nd| nd.pinned_row.is_some()) { -min.div_euclid(ii) * ii } else { -min };
        let schedule = Schedule { ii: s.ii, time: t.iter().map(|&x| (x + shift) as u32).collect() };
        if verify(m, g, &schedule).is_err() {
            return unchanged(before as u32);
        }
        let after = crate::regs::pressure(m, g, &schedule).max_live;
        if after as i64 > before {
            return unchanged(before as u32);
        }
        Polished { schedule, moves, max_live_before: before as u32, max_live_after: after }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_machines::tiny;
    use crate::graph::Node;
    use crate::regs::pressure;

    /// A value defined far ahead of its only use moves next to it.
    #[test]
    fn early_definition_moves_late() {
        let m = tiny();
        let r = m.regfile_by_name("r").unwrap();
        let add = m.instr_by_mnemonic("add").unwrap();
        let mut g = LoopGraph::new();
        for i in 0..3 {
            g.add_node(Node { instr: add, reads: vec![], writes: Some(r), name: format!("n{i}"), pinned_row: None });
        }
        g.add_edge(0, 2, 1, 0, DepKind::Flow);
        g.add_edge(1, 2, 1, 0, DepKind::Flow);
        let s = Schedule { ii: 3, time: vec![0, 4, 5] };
        let before = pressure(&m, &g, &s);
        let p = polish(&m, &g, &s);
        verify(&m, &g, &p.schedule).unwrap();
        let after = pressure(&m, &g, &p.schedule);
        assert_eq!(p.max_live_before, before.max_live);
        assert_eq!(p.max_live_after, after.max_live);
        assert!(after.max_live < before.max_live, "{before:?} -> {after:?}");
        assert!(p.moves >= 1);
        let sum = |x: &crate::regs::Pressure| x.lifetimes.iter().flatten().sum::<u32>();
        assert!(sum(&after) < sum(&before));
    }
}

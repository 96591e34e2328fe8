//! The modulo reservation table (seed 003, "Resource usage legality"): II
//! rows, each the bundle that issues in that cycle of the kernel. An
//! operation issued at cycle `t` sits in row `t mod II`; a row is legal when
//! the `.isa` can place its operations on slots and unit instances
//! (`Machine::place_bundle`, the packer's and simulator's own question) with
//! the instances still held by non-pipelined operations of earlier rows taken
//! out, when its register reads fit every file's read ports, and when the
//! results landing in each cycle (`(t + latency) mod II`) fit every file's
//! write ports.
//!
//! A non-pipelined operation (busy `b > 1`) holds the unit instance its row's
//! placement gave it for rows `t+1 … t+b-1` (mod II, wrapping as often as
//! `b` exceeds II). Instances of one unit are interchangeable, so the table
//! keeps counts of held instances per row and unit.

use std::cell::RefCell;

use isa_tablegen::{InstrId, Machine, PlaceFail, PlaceScratch, RegFileId, UnitId};

use crate::graph::{LoopGraph, NodeId};

/// Why an operation does not fit a row (formatted only when shown).
#[derive(Clone, Debug)]
enum Fail {
    ReadPorts { file: RegFileId, row: usize },
    WritePorts { file: RegFileId, row: usize },
    /// Row `row` with `node` added has no placement.
    Place { row: usize, node: NodeId, fail: PlaceFail },
    Held { unit: UnitId, row: usize, busy: u32 },
    /// Row `row` with one more instance of `unit` held has no placement.
    HeldPlace { unit: UnitId, row: usize, fail: PlaceFail },
    Moved { unit: UnitId, row: usize },
}

impl Fail {
    /// The reason in words; `mrt` is the table the check was made in, as
    /// it was then.
    fn text(&self, mrt: &Mrt) -> String {
        let m = mrt.m;
        match self {
            Fail::ReadPorts { file, row } => {
                let f = m.regfile(*file);
                format!("{} read ports of file '{}' (row {row})", f.read_ports, f.name)
            }
            Fail::WritePorts { file, row } => {
                let f = m.regfile(*file);
                format!("{} write ports of file '{}' (results landing in row {row})", f.write_ports, f.name)
            }
            Fail::Place { row, node, fail } => {
                let mut instrs = mrt.row_instrs(*row);
                instrs.push(mrt.g.nodes[*node].instr);
                format!("row {row}: {}", m.bundle_error(&instrs, *fail))
            }
            Fail::Held { unit, row, busy } => {
                format!("unit '{}' is busy in row {row} (non-pipelined, {busy} cycles)", m.unit(*unit).name)
            }
            Fail::Moved { unit, row } => format!(
                "row {row}: a non-pipelined operation holding unit '{}' would have to issue on another unit",
                m.unit(*unit).name
            ),
            Fail::HeldPlace { unit, row, fail } => format!(
                "row {row}: unit '{}' held by a non-pipelined operation: {}",
                m.unit(*unit).name,
                m.bundle_error(&mrt.row_instrs(*row), *fail)
            ),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Mrt<'a> {
    m: &'a Machine,
    g: &'a LoopGraph,
    ii: u32,
    /// Nodes issued in each row.
    rows: Vec<Vec<NodeId>>,
    /// Instances of each unit held in each row by non-pipelined operations
    /// issued in other rows (or earlier wraps of the same row).
    held: Vec<Vec<u32>>,
    /// Results landing in each row, per register file.
    landing: Vec<Vec<u32>>,
    /// Register reads in each row, per register file.
    reads: Vec<Vec<u32>>,
    /// Issue cycle and held unit of every placed node.
    placed: Vec<Option<(u32, Option<UnitId>)>>,
    /// Queries answered so far ([`Mrt::work`]).
    queries: std::cell::Cell<u64>,
    /// Per node: the units it may run on and the slots that feed them, as
    /// bit sets (0 when the machine has more than 64 of either: no quick
    /// test).
    masks: Vec<(u64, u64)>,
    /// Buffers of the row placements asked of the `.isa` (no allocation
    /// per query).
    scratch: RefCell<Scratch>,
}

/// Reused buffers of [`Mrt::check`].
#[derive(Clone, Debug, Default)]
struct Scratch {
    place: PlaceScratch,
    instrs: Vec<InstrId>,
    held: Vec<u32>,
    extra: Vec<u32>,
}

impl<'a> Mrt<'a> {
    pub fn new(m: &'a Machine, g: &'a LoopGraph, ii: u32) -> Mrt<'a> {
        let ii = ii.max(1);
        let files = m.regfiles.len();
        Mrt {
            m,
            g,
            ii,
            rows: vec![Vec::new(); ii as usize],
            held: vec![vec![0; m.units.len()]; ii as usize],
            landing: vec![vec![0; files]; ii as usize],
            reads: vec![vec![0; files]; ii as usize],
            placed: vec![None; g.nodes.len()],
            queries: std::cell::Cell::new(0),
            masks: g.nodes.iter().map(|nd| masks_of(m, nd.instr)).collect(),
            scratch: RefCell::new(Scratch::default()),
        }
    }

    /// The instructions issued in row `r`, in placement order.
    fn row_instrs(&self, r: usize) -> Vec<InstrId> {
        self.rows[r].iter().map(|&x| self.g.nodes[x].instr).collect()
    }

    /// A quick necessary condition for adding `n` to row `r` (Hall's
    /// condition on `n`'s own units and slots): the operations of the row
    /// that can only use those units, with `n`, are no more than their free
    /// instances, and those that can only use those slots no more than the
    /// slots. The `.isa`'s placement search is only asked when it holds —
    /// it spends most of its time proving full rows full.
    fn may_fit(&self, n: NodeId, r: usize) -> bool {
        let (units, slots) = self.masks[n];
        if units == 0 || slots == 0 {
            return true;
        }
        let (mut on_units, mut on_slots) = (1u32, 1u32);
        for &x in &self.rows[r] {
            let (u, s) = self.masks[x];
            on_units += u32::from(u != 0 && u & !units == 0);
            on_slots += u32::from(s != 0 && s & !slots == 0);
        }
        let free: u32 = (0..self.m.units.len())
            .filter(|&u| units >> u & 1 == 1)
            .map(|u| self.m.units[u].count.saturating_sub(self.held[r][u]))
            .sum();
        on_units <= free && on_slots <= slots.count_ones()
    }

    /// The work this table has done: one unit per query (a row placement
    /// asked of the `.isa`, with the rows a non-pipelined operation holds),
    /// the measure of the schedulers' compile-time budgets
    /// ([`crate::work::Work`]): deterministic, unlike time.
    pub fn work(&self) -> u64 {
        self.queries.get()
    }

    pub fn ii(&self) -> u32 {
        self.ii
    }

    /// Issue cycle of a placed node.
    pub fn time(&self, n: NodeId) -> Option<u32> {
        self.placed[n].map(|(t, _)| t)
    }

    /// Nodes issued in a row.
    pub fn row(&self, r: u32) -> &[NodeId] {
        &self.rows[r as usize]
    }

    fn busy(&self, n: NodeId) -> u32 {
        self.m.instr(self.g.nodes[n].instr).busy.max(1)
    }

    /// Rows (with multiplicity) a non-pipelined node issued at `t` holds
    /// its unit in, besides its issue cycle.
    fn held_rows(&self, n: NodeId, t: u32) -> impl Iterator<Item = u32> {
        let ii = self.ii;
        (1..self.busy(n)).map(move |k| (t + k) % ii)
    }

    /// Whether node `n` can issue at cycle `t`; Err says which resource is
    /// short. The unit a non-pipelined node would hold is returned.
    fn check(&self, n: NodeId, t: u32) -> Result<Option<UnitId>, Fail> {
        self.queries.set(self.queries.get() + 1);
        let m = self.m;
        let node = &self.g.nodes[n];
        let instr = m.instr(node.instr);
        let r = (t % self.ii) as usize;
        // Read ports.
        for &(f, k) in &node.reads {
            let used = self.reads[r][f.0 as usize] + k;
            let file = m.regfile(f);
            if used > file.read_ports {
                return Err(Fail::ReadPorts { file: f, row: r });
            }
        }
        // Write ports where the result lands.
        if let Some(f) = node.writes {
            let land = ((t + instr.latency) % self.ii) as usize;
            let file = m.regfile(f);
            if self.landing[land][f.0 as usize] + 1 > file.write_ports {
                return Err(Fail::WritePorts { file: f, row: land });
            }
        }
        // Slots and units of the issue row, with held instances taken out.
        if !self.may_fit(n, r) {
            return Err(Fail::Place { row: r, node: n, fail: PlaceFail::NoUnit { op: self.rows[r].len() } });
        }
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { place, instrs, held, extra } = &mut *scratch;
        instrs.clear();
        instrs.extend(self.rows[r].iter().map(|&x| self.g.nodes[x].instr));
        instrs.push(node.instr);
        let held_r = &self.held[r];
        let placement = m
            .place_bundle_in(instrs, &|u: UnitId, k: u32| k < held_r[u.0 as usize], place)
            .map_err(|fail| Fail::Place { row: r, node: n, fail })?;
        self.keeps_units(r, placement).map_err(|unit| Fail::Moved { unit, row: r })?;
        let unit = placement.last().map(|p| p.unit);
        if self.busy(n) <= 1 {
            return Ok(None);
        }
        let unit = unit.expect("placement of every operation");
        // The unit must also be free in every row it will be held in: count
        // what those rows already need of it.
        let count = m.unit(unit).count;
        extra.clear();
        extra.resize(self.ii as usize, 0);
        for hr in self.held_rows(n, t) {
            extra[hr as usize] += 1;
        }
        for (hr, &k) in extra.iter().enumerate() {
            if k == 0 {
                continue;
            }
            let issued = self.rows[hr]
                .iter()
                .filter(|&&x| m.instr(self.g.nodes[x].instr).units.iter().all(|&u| u == unit))
                .count() as u32;
            // A node busy for more than II cycles holds its unit again in
            // its own issue row: count its issue there too.
            let own = u32::from(hr == r);
            if self.held[hr][unit.0 as usize] + k + issued + own > count {
                return Err(Fail::Held { unit, row: hr, busy: self.busy(n) });
            }
            // Re-place that row with one more instance held: its operations
            // with alternative units may need the instance too (counting
            // only the operations bound to `unit` misses them).
            if !self.rows[hr].is_empty() {
                instrs.clear();
                instrs.extend(self.rows[hr].iter().map(|&x| self.g.nodes[x].instr));
                held.clear();
                held.extend_from_slice(&self.held[hr]);
                held[unit.0 as usize] += k;
                let h = &*held;
                let p = m
                    .place_bundle_in(instrs, &|u: UnitId, i: u32| i < h[u.0 as usize], place)
                    .map_err(|fail| Fail::HeldPlace { unit, row: hr, fail })?;
                self.keeps_units(hr, p).map_err(|unit| Fail::Moved { unit, row: hr })?;
            }
        }
        Ok(Some(unit))
    }

    /// Instances of `unit` taken in row `r` (held by non-pipelined
    /// operations, or issued to by operations that run only on it).
    fn unit_used(&self, unit: UnitId, r: u32) -> u32 {
        let m = self.m;
        let r = r as usize;
        let issued = self.rows[r]
            .iter()
            .filter(|&&x| {
                self.placed[x].is_some_and(|(_, u)| u == Some(unit))
                    || m.instr(self.g.nodes[x].instr).units.iter().all(|&u| u == unit)
            })
            .count() as u32;
        self.held[r][unit.0 as usize] + issued
    }

    /// Whether a non-pipelined node `n` that fits at cycle `t` would hold
    /// its unit back to back with the unit's other holdings: the instances
    /// taken in the row before its issue and in the row after its last busy
    /// cycle add up to the unit's count (for a single instance: one of the
    /// two is taken). Placed so, non-pipelined operations leave no gaps
    /// shorter than their busy time, which no later one could use. False
    /// for pipelined nodes and nodes that do not fit.
    pub fn abuts(&self, n: NodeId, t: u32) -> bool {
        let b = self.busy(n);
        if b <= 1 || b >= self.ii {
            return false;
        }
        let Ok(Some(unit)) = self.check(n, t) else { return false };
        let ii = self.ii;
        self.unit_used(unit, (t + ii - 1) % ii) + self.unit_used(unit, (t + b) % ii) >= self.m.unit(unit).count
    }

    /// Whether a placement of row `r` (its nodes first, in order) keeps every
    /// non-pipelined node of the row on the unit it holds in the following
    /// rows; Err: the unit one of them would leave. (A non-pipelined
    /// operation with alternative units holds the unit it issued on; a row
    /// placed so that it issues on another would hold the wrong one.)
    fn keeps_units(&self, r: usize, placement: &[isa_tablegen::Placement]) -> Result<(), UnitId> {
        for (&x, p) in self.rows[r].iter().zip(placement) {
            if let Some((_, Some(u))) = self.placed[x] {
                if p.unit != u {
                    return Err(u);
                }
            }
        }
        Ok(())
    }

    /// Whether taking placed node `u` out could change whether `v` fits
    /// at cycle `t`: `u` issues in a row `v`'s check reads (its issue row,
    /// or a row `v` would hold its unit in), its result lands where `v`'s
    /// does, or it holds a unit in one of those rows. False means removing
    /// `u` cannot make room for `v` (searches skip it).
    pub fn may_affect(&self, u: NodeId, v: NodeId, t: u32) -> bool {
        let Some((tu, unit)) = self.placed[u] else { return false };
        let ii = self.ii;
        let (rv, ru) = (t % ii, tu % ii);
        let bv = self.busy(v);
        // Rows v's check looks at: its issue row and the rows it holds.
        let in_v_rows = |r: u32| r == rv || (1..bv).any(|k| (t + k) % ii == r);
        if in_v_rows(ru) {
            return true;
        }
        let (nu, nv) = (&self.g.nodes[u], &self.g.nodes[v]);
        if let (Some(fu), Some(fv)) = (nu.writes, nv.writes) {
            let land = |n: &crate::graph::Node, at: u32| (at + self.m.instr(n.instr).latency) % ii;
            if fu == fv && land(nu, tu) == land(nv, t) {
                return true;
            }
        }
        unit.is_some() && (1..self.busy(u)).any(|k| in_v_rows((tu + k) % ii))
    }

    /// Whether node `n` fits at cycle `t` (nothing changes).
    pub fn can_place(&self, n: NodeId, t: u32) -> Result<(), String> {
        self.check(n, t).map(|_| ()).map_err(|e| e.text(self))
    }

    /// [`Mrt::can_place`] without the reason (cheaper in search loops).
    pub fn fits(&self, n: NodeId, t: u32) -> bool {
        self.check(n, t).is_ok()
    }

    /// Places node `n` at cycle `t` if it fits.
    pub fn try_place(&mut self, n: NodeId, t: u32) -> Result<(), String> {
        self.place_or_fail(n, t).map_err(|e| e.text(self))
    }

    /// [`Mrt::try_place`] without the reason (cheaper in search loops).
    pub fn place(&mut self, n: NodeId, t: u32) -> bool {
        self.place_or_fail(n, t).is_ok()
    }

    fn place_or_fail(&mut self, n: NodeId, t: u32) -> Result<(), Fail> {
        assert!(self.placed[n].is_none(), "node placed twice");
        let unit = self.check(n, t)?;
        let r = (t % self.ii) as usize;
        self.rows[r].push(n);
        let node = &self.g.nodes[n];
        for &(f, k) in &node.reads {
            self.reads[r][f.0 as usize] += k;
        }
        if let Some(f) = node.writes {
            let land = ((t + self.m.instr(node.instr).latency) % self.ii) as usize;
            self.landing[land][f.0 as usize] += 1;
        }
        if let Some(u) = unit {
            let (busy, ii) = (self.busy(n), self.ii);
            for k in 1..busy {
                self.held[((t + k) % ii) as usize][u.0 as usize] += 1;
            }
        }
        self.placed[n] = Some((t, unit));
        Ok(())
    }

    /// Takes a placed node out again (for schedulers that backtrack).
    pub fn remove(&mut self, n: NodeId) {
        let Some((t, unit)) = self.placed[n].take() else { return };
        let r = (t % self.ii) as usize;
        self.rows[r].retain(|&x| x != n);
        let node = &self.g.nodes[n];
        for &(f, k) in &node.reads {
            self.reads[r][f.0 as usize] -= k;
        }
        if let Some(f) = node.writes {
            let land = ((t + self.m.instr(node.instr).latency) % self.ii) as usize;
            self.landing[land][f.0 as usize] -= 1;
        }
        if let Some(u) = unit {
            let (busy, ii) = (self.busy(n), self.ii);
            for k in 1..busy {
                self.held[((t + k) % ii) as usize][u.0 as usize] -= 1;
            }
        }
    }
}

/// The units an instruction may run on and the slots feeding them, as bit
/// sets; (0, 0) when the machine has more than 64 units or slots.
fn masks_of(m: &Machine, instr: InstrId) -> (u64, u64) {
    if m.units.len() > 64 || m.slots.len() > 64 {
        return (0, 0);
    }
    let units = m.instr(instr).units.iter().fold(0u64, |a, u| a | 1 << u.0);
    let slots = m
        .slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.feeds.iter().any(|u| units >> u.0 & 1 == 1))
        .fold(0u64, |a, (i, _)| a | 1 << i);
    (units, slots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Node;

    fn alt() -> Machine {
        Machine::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/machines/sms_alt.isa")).expect("sms_alt.isa")
    }

    fn bag(m: &Machine, ops: &[&str]) -> LoopGraph {
        let mut g = LoopGraph::new();
        for (i, k) in ops.iter().enumerate() {
            let instr = m.instr_by_mnemonic(k).unwrap();
            g.add_node(Node { instr, reads: vec![], writes: None, name: format!("n{i}"), pinned_row: None });
        }
        g
    }

    /// rem (div or mul, busy 2) at row 0 on mul, a div holding the divider
    /// over rows 1–3, and a mac that only runs on mul in row 0: the .isa's
    /// placement of row 0 would move the rem to the divider (held) to let
    /// the mac have mul — the table must refuse, not count the rem's
    /// holding on one unit and its issue on the other.
    #[test]
    fn non_pipelined_operation_keeps_its_unit() {
        let m = alt();
        let g = bag(&m, &["rem", "rem", "div", "mac", "cmpp"]);
        let mut mrt = Mrt::new(&m, &g, 4);
        let rows = [0, 2, 1, 0, 1];
        let all = (0..5).all(|x| mrt.place(x, rows[x]));
        assert!(!all, "the table accepted an impossible packing");
        // Two rems and a mul at II = 3 next to a div (holding the divider
        // all three rows): the rems both need mul, 4 busy cycles in 3 rows.
        let g = bag(&m, &["rem", "div", "ld", "rem", "mul"]);
        for a in 0..3 {
            for b in 0..3 {
                for c in 0..3 {
                    let mut mrt = Mrt::new(&m, &g, 3);
                    let rows = [a, b, 0, c, 1];
                    assert!(!(0..5).all(|x| mrt.place(x, rows[x])), "rows {rows:?}");
                }
            }
        }
    }

    /// Back-to-back placement: a divider held over rows 0–2 at II = 9; a
    /// second div abuts it at row 3 (or ends at row 8), not in between.
    #[test]
    fn abutting_holdings() {
        let m = alt();
        let g = bag(&m, &["div", "div", "div"]);
        let mut mrt = Mrt::new(&m, &g, 9);
        assert!(mrt.place(0, 0));
        assert!(mrt.abuts(1, 3));
        assert!(mrt.abuts(1, 6));
        assert!(!mrt.abuts(1, 4));
        assert!(!mrt.abuts(1, 1), "does not fit");
        assert!(mrt.place(1, 4));
        // Rows 3 and 7–8 are left: no div fits any more.
        assert!((0..9).all(|r| !mrt.fits(2, r)));
    }
}

//! The memory system at run time: which memory an access reaches (the
//! external memory or an on-chip one, and whether the operation's unit
//! reaches it), and the data-cache hierarchy in front of the external
//! memory with its hits, misses and stall cycles (the `.isa`'s `cache`
//! statements; `isa-tablegen`'s README gives the timing rules).
//!
//! A miss stalls the whole machine: the run loop adds the stall cycles of a
//! bundle's accesses after it issues, without moving the pending-write queue,
//! so the program computes what it computes on an ideal memory. Counters are
//! kept per bundle and level, so that the statistics attribute them to
//! functions after the run.

use isa_tablegen::{Instr, Machine, Region};

use crate::cache::CacheLevel;
use crate::state::Trap;

/// What one cache level saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    pub read_hits: u64,
    pub read_misses: u64,
    pub write_hits: u64,
    pub write_misses: u64,
    /// Dirty lines written to the next level when evicted.
    pub writebacks: u64,
    /// Stall cycles its misses caused.
    pub stall: u64,
}

/// Counters kept per bundle and level: hits, misses, stall cycles.
pub const PER_LEVEL: usize = 3;

/// The memory system's run-time state.
pub struct MemSys {
    /// Cache timing on (off: `--ideal-memory`, or a machine without caches).
    pub caches_on: bool,
    /// Accesses need a reachability check (on-chip memories, or an external
    /// memory not every unit reaches).
    restricted: bool,
    ext: (u64, u64),
    onchip: Vec<(u64, u64)>,
    names: Vec<String>,
    pub levels: Vec<CacheLevel>,
    miss: Vec<u64>,
    pub counts: Vec<LevelCounts>,
    /// Accesses per on-chip memory.
    pub onchip_accesses: Vec<u64>,
    /// `per_bundle[(bundle × levels + level) × PER_LEVEL + k]`: hits, misses, stall.
    pub per_bundle: Vec<u64>,
    /// The bundle issuing (set by the run loop when the caches are on).
    pub cur: usize,
    /// Stall cycles so far, and those of the bundle issuing.
    pub stall_total: u64,
    pub bundle_stall: u64,
    scratch: Vec<u32>,
}

/// The memories an instruction's units reach, as a bit mask: bit 0 the
/// external memory, bit 1 + i on-chip memory i.
pub fn reach(m: &Machine, instr: &Instr) -> u32 {
    let mut mask = 0;
    let regions = std::iter::once(Region::External).chain((0..m.memory.onchip.len()).map(Region::OnChip));
    for (bit, r) in regions.enumerate().take(32) {
        if instr.units.iter().any(|&u| m.memory.reaches(u, r)) {
            mask |= 1 << bit;
        }
    }
    mask
}

impl MemSys {
    pub fn new(m: &Machine, bundles: usize, ideal: bool) -> MemSys {
        let mem = &m.memory;
        let caches_on = !ideal && !mem.caches.is_empty();
        let nl = mem.caches.len();
        MemSys {
            caches_on,
            restricted: !mem.onchip.is_empty() || !mem.units.is_empty(),
            ext: (mem.base as u64, mem.end()),
            onchip: mem.onchip.iter().map(|o| (o.base as u64, o.end())).collect(),
            names: std::iter::once("the external memory".to_string())
                .chain(mem.onchip.iter().map(|o| format!("on-chip memory '{}'", o.name)))
                .collect(),
            levels: if caches_on { mem.caches.iter().map(CacheLevel::new).collect() } else { Vec::new() },
            miss: mem.caches.iter().map(|c| c.miss as u64).collect(),
            counts: vec![LevelCounts::default(); if caches_on { nl } else { 0 }],
            onchip_accesses: vec![0; mem.onchip.len()],
            per_bundle: if caches_on { vec![0; bundles * nl * PER_LEVEL] } else { Vec::new() },
            cur: 0,
            stall_total: 0,
            bundle_stall: 0,
            scratch: Vec::with_capacity(64),
        }
    }

    /// An access of `len` bytes at `addr` (already checked to lie in memory)
    /// by an operation that reaches the memories of `reach`.
    #[inline(always)]
    pub fn access(&mut self, addr: u32, len: u32, store: bool, reach: u32) -> Result<(), Trap> {
        if !self.caches_on && !self.restricted {
            return Ok(());
        }
        self.access_range(addr, len, store, reach)
    }

    /// Accesses of `size` bytes at each of `addrs` by one operation (the
    /// active lanes of a strided, masked, gather or scatter access): each
    /// line they touch counts once.
    pub fn access_lanes(&mut self, addrs: &[u32], size: u32, store: bool, reach: u32) -> Result<(), Trap> {
        if !self.caches_on && !self.restricted {
            return Ok(());
        }
        let mut lines = std::mem::take(&mut self.scratch);
        lines.clear();
        let mut result = Ok(());
        for &a in addrs {
            match self.region_of(a, store, reach) {
                Ok(0) if self.caches_on => {
                    let shift = self.levels[0].line_shift;
                    let last = ((a as u64 + size as u64 - 1) >> shift) as u32;
                    lines.extend((a >> shift)..=last);
                }
                Ok(_) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        if result.is_ok() {
            lines.sort_unstable();
            lines.dedup();
            for &l in &lines {
                self.demand(l, store);
            }
        }
        self.scratch = lines;
        result
    }

    #[inline(never)]
    fn access_range(&mut self, addr: u32, len: u32, store: bool, reach: u32) -> Result<(), Trap> {
        if self.region_of(addr, store, reach)? != 0 || !self.caches_on {
            return Ok(());
        }
        let shift = self.levels[0].line_shift;
        let last = ((addr as u64 + len.max(1) as u64 - 1) >> shift) as u32;
        for l in (addr >> shift)..=last {
            self.demand(l, store);
        }
        Ok(())
    }

    /// The memory of `addr` (0: external, 1 + i: on-chip i), if `reach` reaches it.
    fn region_of(&mut self, addr: u32, store: bool, reach: u32) -> Result<usize, Trap> {
        let a = addr as u64;
        let r = if a >= self.ext.0 && a < self.ext.1 {
            0
        } else {
            match self.onchip.iter().position(|&(lo, hi)| a >= lo && a < hi) {
                Some(i) => {
                    self.onchip_accesses[i] += 1;
                    i + 1
                }
                None => return Ok(0),
            }
        };
        if r < 32 && reach & (1 << r) == 0 {
            let kind = if store { "store" } else { "load" };
            return Err(Trap::Message(format!(
                "{kind} at {addr:#x}: {} is not reached by the unit of this operation",
                self.names[r]
            )));
        }
        Ok(r)
    }

    /// A load or store of L1 line number `line`: the stall it costs is added.
    fn demand(&mut self, line: u32, store: bool) {
        let addr = line << self.levels[0].line_shift;
        let stall = self.level_access(0, addr, store, true);
        self.bundle_stall += stall;
        self.stall_total += stall;
    }

    fn count(&mut self, k: usize, hit: bool, store: bool, stall: u64) {
        let c = &mut self.counts[k];
        match (hit, store) {
            (true, false) => c.read_hits += 1,
            (false, false) => c.read_misses += 1,
            (true, true) => c.write_hits += 1,
            (false, true) => c.write_misses += 1,
        }
        c.stall += stall;
        let base = (self.cur * self.levels.len() + k) * PER_LEVEL;
        if let Some(p) = self.per_bundle.get_mut(base..base + PER_LEVEL) {
            p[if hit { 0 } else { 1 }] += 1;
            p[2] += stall;
        }
    }

    /// Level `k` served the line at byte address `addr` (a load, a store, or
    /// a fetch from the level above). `stalls`: whether the machine waits for
    /// it (not for write-backs and write-through stores: a write buffer takes
    /// them). Returns the stall cycles.
    fn level_access(&mut self, k: usize, addr: u32, store: bool, stalls: bool) -> u64 {
        if k == self.levels.len() {
            return 0; // the external memory
        }
        let lv = &mut self.levels[k];
        let line = addr >> lv.line_shift;
        let write_back = lv.write_back;
        if let Some(slot) = lv.lookup(line) {
            if store {
                if write_back {
                    lv.mark_dirty(slot);
                } else {
                    self.level_access(k + 1, addr, true, false);
                }
            }
            self.count(k, true, store, 0);
            return 0;
        }
        if store && !write_back {
            self.count(k, false, true, 0);
            self.level_access(k + 1, addr, true, false);
            return 0;
        }
        let own = if stalls { self.miss[k] } else { 0 };
        self.count(k, false, store, own);
        let below = self.level_access(k + 1, addr, false, stalls);
        let (slot, evicted) = self.levels[k].fill(line);
        if store {
            self.levels[k].mark_dirty(slot);
        }
        if let Some(e) = evicted {
            self.counts[k].writebacks += 1;
            let ea = e << self.levels[k].line_shift;
            self.level_access(k + 1, ea, true, false);
        }
        own + below
    }

    /// The stall cycles that first accesses to the bytes `accesses` (an
    /// address and whether it is a store) would cost at least, from the
    /// state the caches are in now: each first-level line not there costs
    /// that level's miss penalty, and each line of a lower level that such
    /// misses fetch (at the first-level line's address, as [`MemSys`] does)
    /// and it does not hold costs its penalty once. A line only stored to
    /// stops at a write-through level (the write buffer takes it); one both
    /// loaded and stored is loaded. 0 with the caches off and outside the
    /// external memory. Nothing changes (a lower bound's view: `dsp-bench`'s
    /// cold misses).
    pub fn cold_stall(&self, accesses: impl IntoIterator<Item = (u32, bool)>) -> u64 {
        let Some(first) = self.levels.first() else { return 0 };
        // First-level line addresses → only stored to.
        let mut need = std::collections::BTreeMap::new();
        for (addr, store) in accesses {
            let a = addr as u64;
            if a >= self.ext.0 && a < self.ext.1 {
                let line = (addr >> first.line_shift) << first.line_shift;
                *need.entry(line).or_insert(true) &= store;
            }
        }
        let mut cost = 0;
        for (k, lv) in self.levels.iter().enumerate() {
            let mut seen = std::collections::BTreeSet::new();
            need.retain(|&addr, &mut store| {
                let line = addr >> lv.line_shift;
                if lv.holds(line) || (store && !lv.write_back) {
                    return false;
                }
                if seen.insert(line) {
                    cost += self.miss[k];
                }
                true
            });
        }
        cost
    }

    /// The size in bytes of the first level's lines (0 with the caches off).
    pub fn line_size(&self) -> u32 {
        self.levels.first().map_or(0, |l| 1 << l.line_shift)
    }

    /// Takes the stall cycles of the bundle that just issued.
    #[inline(always)]
    pub fn take_bundle_stall(&mut self) -> u64 {
        std::mem::take(&mut self.bundle_stall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(caches: &str) -> Machine {
        let base = include_str!("../../../isa-tablegen/tests/good/tiny.isa");
        Machine::parse_str(&format!("{base}{caches}"), "t.isa").unwrap()
    }

    const TWO_LEVELS: &str = "cache l1 level 1 size 128 line 16 ways 2 hit 1 miss 5 policy writeback\n\
                              cache l2 level 2 size 1K line 32 ways 4 hit 5 miss 40 policy writeback\n";

    #[test]
    fn misses_stall_by_the_levels_they_miss() {
        let m = machine(TWO_LEVELS);
        let mut s = MemSys::new(&m, 1, false);
        s.access(0x100, 4, false, 1).unwrap();
        assert_eq!(s.take_bundle_stall(), 45, "misses both levels");
        s.access(0x104, 4, false, 1).unwrap();
        assert_eq!(s.take_bundle_stall(), 0, "same L1 line");
        s.access(0x110, 4, false, 1).unwrap();
        assert_eq!(s.take_bundle_stall(), 5, "next L1 line, same 32-byte L2 line");
        assert_eq!(s.counts[0].read_misses, 2);
        assert_eq!(s.counts[0].read_hits, 1);
        assert_eq!((s.counts[1].read_hits, s.counts[1].read_misses), (1, 1));
        assert_eq!((s.counts[0].stall, s.counts[1].stall), (10, 40));
        assert_eq!(s.stall_total, 50);
        assert_eq!(&s.per_bundle[..6], &[1, 2, 10, 1, 1, 40]);
    }

    #[test]
    fn a_wide_access_counts_every_line_it_touches() {
        let m = machine(TWO_LEVELS);
        let mut s = MemSys::new(&m, 1, false);
        s.access(0x108, 16, false, 1).unwrap(); // lines 0x100 and 0x110
        assert_eq!(s.counts[0].read_misses, 2);
        assert_eq!(s.take_bundle_stall(), 45 + 5);
        // Lanes: 0x200, 0x204 (one line), 0x300: two lines.
        s.access_lanes(&[0x200, 0x204, 0x300], 4, false, 1).unwrap();
        assert_eq!(s.counts[0].read_misses, 4);
    }

    #[test]
    fn write_back_allocates_and_writes_dirty_lines_back() {
        // Direct-mapped 4-line L1: 0x000 and 0x040 collide.
        let m = machine("cache l1 level 1 size 64 line 16 ways 1 hit 1 miss 7 policy writeback\n");
        let mut s = MemSys::new(&m, 1, false);
        s.access(0x000, 4, true, 1).unwrap();
        assert_eq!(s.take_bundle_stall(), 7, "a store miss fetches the line");
        s.access(0x000, 4, false, 1).unwrap();
        assert_eq!((s.counts[0].write_misses, s.counts[0].read_hits), (1, 1));
        s.access(0x040, 4, false, 1).unwrap();
        assert_eq!(s.counts[0].writebacks, 1, "the dirty line leaves");
        s.access(0x000, 4, false, 1).unwrap();
        assert_eq!(s.counts[0].writebacks, 1, "0x040 was clean");
    }

    #[test]
    fn write_through_never_allocates_nor_stalls_on_stores() {
        let m = machine(
            "cache l1 level 1 size 64 line 16 ways 1 hit 1 miss 7 policy writethrough\n\
             cache l2 level 2 size 1K line 16 ways 2 hit 7 miss 30 policy writeback\n",
        );
        let mut s = MemSys::new(&m, 1, false);
        s.access(0x000, 4, true, 1).unwrap();
        assert_eq!(s.take_bundle_stall(), 0);
        assert_eq!(s.counts[0].write_misses, 1);
        assert_eq!(s.counts[1].write_misses, 1, "the store went on to L2, which allocates");
        s.access(0x000, 4, false, 1).unwrap();
        assert_eq!(s.take_bundle_stall(), 7, "L1 did not allocate; L2 holds the line");
        s.access(0x000, 4, true, 1).unwrap();
        assert_eq!(
            (s.counts[0].write_hits, s.counts[1].write_hits),
            (1, 1),
            "L2 missed the first store, then held the line"
        );
        assert_eq!(s.counts[0].writebacks, 0);
    }

    #[test]
    fn ideal_memory_counts_nothing_and_onchip_memories_check_their_units() {
        let m = machine(&format!("{TWO_LEVELS}onchip sm base 0x10000 size 4K units mem\n"));
        let mut s = MemSys::new(&m, 1, true);
        s.access(0x100, 4, false, 1).unwrap();
        assert_eq!((s.take_bundle_stall(), s.counts.len()), (0, 0));
        let ld = m.instr(m.instr_by_mnemonic("ld").unwrap());
        assert_eq!(reach(&m, ld), 0b11);
        let add = m.instr(m.instr_by_mnemonic("add").unwrap());
        assert_eq!(reach(&m, add), 0b01);
        let mut s = MemSys::new(&m, 1, false);
        s.access(0x10000, 4, false, 0b11).unwrap();
        assert_eq!((s.stall_total, s.onchip_accesses[0]), (0, 1), "on-chip: no cache, no stall");
        let e = s.access(0x10004, 4, true, 0b01).unwrap_err();
        assert_eq!(
            e,
            Trap::Message("store at 0x10004: on-chip memory 'sm' is not reached by the unit of this operation".into())
        );
    }
}

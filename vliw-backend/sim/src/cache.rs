//! One level of a data cache at run time: set-associative, least recently
//! used replacement, a dirty bit per line. It knows lines, not bytes (the
//! data itself always lives in the simulated memory) and nothing of timing:
//! `memsys` decides what a hit or a miss costs.

use isa_tablegen::{Cache, WritePolicy};

/// The state of one cache level.
pub struct CacheLevel {
    /// log2 of the line size.
    pub line_shift: u32,
    sets_mask: u32,
    ways: usize,
    pub write_back: bool,
    /// Per line slot (set × ways + way): line number + 1, 0 when empty.
    tags: Vec<u32>,
    /// Per line slot: when it was last used (for LRU).
    used: Vec<u64>,
    dirty: Vec<bool>,
    clock: u64,
}

impl CacheLevel {
    pub fn new(c: &Cache) -> CacheLevel {
        let slots = (c.sets() * c.ways) as usize;
        CacheLevel {
            line_shift: c.line.trailing_zeros(),
            sets_mask: c.sets() - 1,
            ways: c.ways as usize,
            write_back: c.policy == WritePolicy::WriteBack,
            tags: vec![0; slots],
            used: vec![0; slots],
            dirty: vec![false; slots],
            clock: 0,
        }
    }

    fn set_of(&self, line: u32) -> usize {
        (line & self.sets_mask) as usize * self.ways
    }

    /// The slot holding line number `line`, marked most recently used.
    pub fn lookup(&mut self, line: u32) -> Option<usize> {
        let s = self.set_of(line);
        let tag = line.wrapping_add(1);
        let i = (s..s + self.ways).find(|&i| self.tags[i] == tag)?;
        self.clock += 1;
        self.used[i] = self.clock;
        Some(i)
    }

    /// Brings line number `line` in (it is not present), in an empty way or
    /// over the least recently used one. Returns its slot and the line
    /// number of a dirty line it evicted.
    pub fn fill(&mut self, line: u32) -> (usize, Option<u32>) {
        let s = self.set_of(line);
        let victim = (s..s + self.ways).min_by_key(|&i| if self.tags[i] == 0 { 0 } else { self.used[i] }).unwrap_or(s);
        let evicted = (self.tags[victim] != 0 && self.dirty[victim]).then(|| self.tags[victim] - 1);
        self.clock += 1;
        self.tags[victim] = line.wrapping_add(1);
        self.used[victim] = self.clock;
        self.dirty[victim] = false;
        (victim, evicted)
    }

    pub fn mark_dirty(&mut self, slot: usize) {
        self.dirty[slot] = true;
    }

    /// Whether line number `line` is present (without touching LRU state).
    pub fn holds(&self, line: u32) -> bool {
        let s = self.set_of(line);
        self.tags[s..s + self.ways].contains(&line.wrapping_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(size: u32, line: u32, ways: u32) -> CacheLevel {
        CacheLevel::new(&Cache {
            name: "t".into(),
            level: 1,
            size,
            line,
            ways,
            hit: 1,
            miss: 10,
            policy: WritePolicy::WriteBack,
            decl_line: 1,
        })
    }

    #[test]
    fn lru_evicts_the_least_recently_used_way() {
        // 2 sets x 2 ways of 16 bytes: lines 0, 2, 4 map to set 0.
        let mut c = level(64, 16, 2);
        assert_eq!(c.lookup(0), None);
        c.fill(0);
        c.fill(2);
        assert!(c.lookup(0).is_some(), "0 is now the most recent");
        let (_, ev) = c.fill(4);
        assert_eq!(ev, None, "clean lines leave silently");
        assert!(c.holds(0) && c.holds(4) && !c.holds(2), "2 was the least recently used");
        assert!(c.holds(0) && !c.holds(1), "set 1 untouched");
    }

    #[test]
    fn dirty_lines_are_reported_when_evicted() {
        let mut c = level(32, 16, 1);
        let (slot, _) = c.fill(3);
        c.mark_dirty(slot);
        let (_, ev) = c.fill(5);
        assert_eq!(ev, Some(3));
        let (_, ev) = c.fill(7);
        assert_eq!(ev, None, "5 was clean");
    }
}

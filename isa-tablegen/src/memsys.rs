//! The memory system of a description: the external memory, the data-cache
//! hierarchy in front of it (`cache`) and the on-chip memories (`onchip`),
//! resolved and checked with located errors; and the typed queries the
//! simulator, the linker and the compiler's locality passes ask of it.

use crate::model::{Cache, Instr, Machine, Memory, OnChip, UnitId, WritePolicy};
use crate::parse::{CacheDecl, Diagnostic, Loc, Name, OnChipDecl, PropValue};

type R<T> = Result<T, Diagnostic>;

/// Largest number of cache levels.
pub const MAX_LEVELS: u32 = 4;
/// Largest cache (the simulator keeps a tag per line).
pub const MAX_CACHE_BYTES: i64 = 1 << 24;
/// Most on-chip memories (the simulator keeps a bit per memory an
/// instruction reaches, the external memory included, in 32 bits).
pub const MAX_ONCHIP: usize = 31;
/// Largest on-chip memory (the simulator allocates it).
pub const MAX_ONCHIP_BYTES: i64 = 1 << 28;

/// Where an address lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// The external memory (through the caches).
    External,
    /// An on-chip memory: index in [`Memory::onchip`].
    OnChip(usize),
}

/// The unit names of a list, resolved.
fn units(names: &[Name], unit_of: &dyn Fn(&str) -> Option<UnitId>) -> R<Vec<UnitId>> {
    names.iter().map(|n| unit_of(&n.text).ok_or_else(|| n.loc.error(format!("unknown unit '{}'", n.text)))).collect()
}

fn number(v: &PropValue, key: &Name) -> R<(i64, Loc)> {
    match v {
        PropValue::Number(n, loc) => Ok((*n, loc.clone())),
        PropValue::Word(w) => Err(w.loc.error(format!("'{}' needs a number, found '{}'", key.text, w.text))),
    }
}

fn bounded(v: i64, lo: i64, hi: i64, loc: &Loc, what: &str) -> R<u32> {
    if v < lo || v > hi {
        return Err(loc.error(format!("{what} must be between {lo} and {hi}, got {v}")));
    }
    Ok(v as u32)
}

/// One `cache` declaration, checked on its own.
fn cache(d: &CacheDecl, decl_loc: &Loc) -> R<Cache> {
    let (mut level, mut size, mut line, mut ways, mut hit, mut miss, mut policy) =
        (None, None, None, None, None, None, None);
    let mut size_loc = decl_loc.clone();
    let mut line_loc = decl_loc.clone();
    for (key, value) in &d.props {
        let seen = match key.text.as_str() {
            "level" => level.replace(number(value, key)?).is_some(),
            "size" => {
                let (n, loc) = number(value, key)?;
                size_loc = loc.clone();
                size.replace((n, loc)).is_some()
            }
            "line" => {
                let (n, loc) = number(value, key)?;
                line_loc = loc.clone();
                line.replace((n, loc)).is_some()
            }
            "ways" => ways.replace(number(value, key)?).is_some(),
            "hit" => hit.replace(number(value, key)?).is_some(),
            "miss" => miss.replace(number(value, key)?).is_some(),
            "policy" => {
                let PropValue::Word(w) = value else {
                    return Err(key.loc.error("'policy' needs writeback or writethrough"));
                };
                let p = match w.text.as_str() {
                    "writeback" => WritePolicy::WriteBack,
                    "writethrough" => WritePolicy::WriteThrough,
                    other => {
                        return Err(w.loc.error(format!(
                            "unknown write policy '{other}' (expected writeback: write-back and write-allocate, \
                             or writethrough: write-through and no write-allocate)"
                        )))
                    }
                };
                policy.replace(p).is_some()
            }
            other => {
                return Err(key.loc.error(format!(
                    "unknown cache property '{other}' (expected level, size, line, ways, hit, miss, policy)"
                )))
            }
        };
        if seen {
            return Err(key.loc.error(format!("'{}' given twice", key.text)));
        }
    }
    let name = &d.name;
    let missing = |what: &str| name.loc.error(format!("cache '{}' needs '{what}'", name.text));
    let (level, lloc) = level.ok_or_else(|| missing("level"))?;
    let level = bounded(level, 1, MAX_LEVELS as i64, &lloc, "cache level")?;
    let (line, lloc) = line.ok_or_else(|| missing("line"))?;
    let line = bounded(line, 4, 4096, &lloc, "cache line size")?;
    if !line.is_power_of_two() {
        return Err(line_loc.error(format!("cache line size must be a power of two, got {line}")));
    }
    let (ways, wloc) = ways.ok_or_else(|| missing("ways"))?;
    let ways = bounded(ways, 1, 64, &wloc, "cache ways")?;
    let (size, sloc) = size.ok_or_else(|| missing("size"))?;
    let size = bounded(size, 1, MAX_CACHE_BYTES, &sloc, "cache size")?;
    let per_set = line * ways;
    if size % per_set != 0 || !(size / per_set).is_power_of_two() {
        return Err(size_loc.error(format!(
            "cache size {size} is not a power-of-two number of sets of {ways} way{} x {line} bytes \
             (size / (ways x line) = {})",
            if ways == 1 { "" } else { "s" },
            size as f64 / per_set as f64
        )));
    }
    let (hit, hloc) = hit.ok_or_else(|| missing("hit"))?;
    let hit = bounded(hit, 0, 10_000, &hloc, "hit latency")?;
    let (miss, mloc) = miss.ok_or_else(|| missing("miss"))?;
    let miss = bounded(miss, 1, 1_000_000, &mloc, "miss penalty")?;
    let policy = policy.ok_or_else(|| missing("policy"))?;
    Ok(Cache { name: name.text.clone(), level, size, line, ways, hit, miss, policy, decl_line: decl_loc.line })
}

/// Resolves the memory system: `memory`'s units, the caches (levels 1…n,
/// each line at least the one above, each miss penalty at least the next
/// level's hit latency), the on-chip memories (inside 32 bits, overlapping
/// neither the external memory nor each other).
pub fn resolve(
    memory: (u32, u32, u32, &[Name], &Loc),
    caches: &[(CacheDecl, Loc)],
    onchips: &[(OnChipDecl, Loc)],
    unit_of: &dyn Fn(&str) -> Option<UnitId>,
) -> R<Memory> {
    let (base, size, null_guard, mem_units, _) = memory;
    let mut levels: Vec<(Cache, Loc)> = Vec::new();
    for (d, loc) in caches {
        let c = cache(d, loc)?;
        if let Some((other, _)) = levels.iter().find(|(o, _)| o.level == c.level) {
            return Err(loc.error(format!(
                "cache '{}' is level {}, like cache '{}' (line {})",
                c.name, c.level, other.name, other.decl_line
            )));
        }
        levels.push((c, loc.clone()));
    }
    levels.sort_by_key(|(c, _)| c.level);
    for (i, (c, loc)) in levels.iter().enumerate() {
        if c.level != i as u32 + 1 {
            return Err(loc.error(format!(
                "cache '{}' is level {} but there is no level {} (levels count from 1 without gaps)",
                c.name,
                c.level,
                i + 1
            )));
        }
        if let Some((below, bloc)) = levels.get(i + 1) {
            if below.line < c.line {
                return Err(bloc.error(format!(
                    "cache '{}' has {}-byte lines, smaller than the {}-byte lines of level {} '{}' above it",
                    below.name, below.line, c.line, c.level, c.name
                )));
            }
            if c.miss < below.hit {
                return Err(loc.error(format!(
                    "cache '{}' has a miss penalty of {} cycles, less than the hit latency {} of the next level '{}' \
                     (a miss waits for the next level)",
                    c.name, c.miss, below.hit, below.name
                )));
            }
        }
    }
    let mem_end = base as u64 + size as u64;
    let mut onchip: Vec<OnChip> = Vec::new();
    for (d, loc) in onchips {
        let name = &d.name;
        let missing = |what: &str| name.loc.error(format!("on-chip memory '{}' needs '{what}'", name.text));
        let (b, bloc) = d.base.clone().ok_or_else(|| missing("base"))?;
        let (s, sloc) = d.size.clone().ok_or_else(|| missing("size"))?;
        let b = bounded(b, 0, u32::MAX as i64, &bloc, "on-chip memory base")?;
        let s = bounded(s, 1, MAX_ONCHIP_BYTES.min((1i64 << 32) - b as i64), &sloc, "on-chip memory size")?;
        if d.units.is_empty() {
            return Err(missing("units"));
        }
        let units = units(&d.units, unit_of)?;
        let o = OnChip { name: name.text.clone(), base: b, size: s, units, decl_line: loc.line };
        if (b as u64) < mem_end && o.end() > base as u64 {
            return Err(bloc.error(format!(
                "on-chip memory '{}' [{:#x}, {:#x}) overlaps the external memory [{:#x}, {:#x})",
                o.name,
                b,
                o.end(),
                base,
                mem_end
            )));
        }
        if let Some(p) = onchip.iter().find(|p| (b as u64) < p.end() && o.end() > p.base as u64) {
            return Err(bloc.error(format!(
                "on-chip memory '{}' [{:#x}, {:#x}) overlaps on-chip memory '{}' [{:#x}, {:#x}) (line {})",
                o.name,
                b,
                o.end(),
                p.name,
                p.base,
                p.end(),
                p.decl_line
            )));
        }
        if onchip.len() >= MAX_ONCHIP {
            return Err(loc.error(format!("more than {MAX_ONCHIP} on-chip memories")));
        }
        onchip.push(o);
    }
    Ok(Memory {
        base,
        size,
        null_guard,
        units: units(mem_units, unit_of)?,
        caches: levels.into_iter().map(|(c, _)| c).collect(),
        onchip,
    })
}

/// An L1D hit costs nothing beyond the load instructions' `lat`, so the
/// L1D's hit latency must fit in every load's latency.
pub fn check_l1_hit(memory: &Memory, instrs: &[Instr], caches: &[(CacheDecl, Loc)]) -> R<()> {
    let Some(l1) = memory.caches.first() else { return Ok(()) };
    let loads = instrs.iter().filter(|i| i.sem.reads_memory());
    if let Some(i) = loads.filter(|i| i.latency < l1.hit).min_by_key(|i| i.latency) {
        let loc = caches.iter().find(|(d, _)| d.name.text == l1.name).map(|(_, l)| l.clone());
        let msg = format!(
            "cache '{}' has a hit latency of {} cycles, more than the {}-cycle latency of load instruction '{}' \
             (an L1 hit is part of a load's 'lat')",
            l1.name, l1.hit, i.latency, i.mnemonic
        );
        return Err(match loc {
            Some(l) => l.error(msg),
            None => Diagnostic { file: String::new(), line: 0, col: 0, message: msg },
        });
    }
    Ok(())
}

impl Memory {
    /// One past the last address of the external memory.
    pub fn end(&self) -> u64 {
        self.base as u64 + self.size as u64
    }
    /// Where `addr` lives, if anywhere.
    pub fn region(&self, addr: u64) -> Option<Region> {
        if addr >= self.base as u64 && addr < self.end() {
            return Some(Region::External);
        }
        self.onchip.iter().position(|o| o.contains(addr)).map(Region::OnChip)
    }
    /// Whether `unit` reaches the region.
    pub fn reaches(&self, unit: UnitId, region: Region) -> bool {
        match region {
            Region::External => self.units.is_empty() || self.units.contains(&unit),
            Region::OnChip(i) => self.onchip[i].units.contains(&unit),
        }
    }
}

impl Machine {
    /// The data caches in front of the external memory, L1D first (empty: an
    /// ideal memory). What a tiling pass sizes its tiles by.
    pub fn data_caches(&self) -> &[Cache] {
        &self.memory.caches
    }
    /// The data cache of a level (1 = L1D).
    pub fn data_cache(&self, level: u32) -> Option<&Cache> {
        self.memory.caches.iter().find(|c| c.level == level)
    }
    /// The on-chip memories.
    pub fn onchip_memories(&self) -> &[OnChip] {
        &self.memory.onchip
    }
    /// The stall cycles of an access that misses every level (a line from
    /// the external memory); 0 without caches.
    pub fn memory_miss_cycles(&self) -> u64 {
        self.memory.caches.iter().map(|c| c.miss as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Machine, WritePolicy};

    const TINY: &str = include_str!("../tests/good/tiny.isa");

    fn with(extra: &str) -> Result<Machine, String> {
        Machine::parse_str(&format!("{TINY}{extra}"), "t.isa").map_err(|e| e.to_string())
    }

    #[test]
    fn caches_and_onchip_memories_resolve_and_answer_queries() {
        let m = with(
            "cache l2 level 2 size 64K line 128 ways 4 hit 8 miss 60 policy writeback\n\
             cache l1d level 1 size 4K line 64 ways 2 hit 1 miss 8 policy writethrough\n\
             onchip sm base 0x10000 size 4K units mem\n",
        )
        .unwrap();
        let c = m.data_caches();
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].name.as_str(), c[0].sets(), c[0].lines()), ("l1d", 32, 64));
        assert_eq!(c[0].policy, WritePolicy::WriteThrough);
        assert_eq!((c[1].level, c[1].sets()), (2, 128));
        assert_eq!(m.data_cache(2).map(|c| c.miss), Some(60));
        assert_eq!(m.memory_miss_cycles(), 68);
        assert_eq!(m.onchip_memories()[0].size, 4096);
        use crate::memsys::Region;
        assert_eq!(m.memory.region(0x100), Some(Region::External));
        assert_eq!(m.memory.region(0x10000), Some(Region::OnChip(0)));
        assert_eq!(m.memory.region(0x11000), None);
        let mem = m.unit_by_name("mem").unwrap();
        let alu = m.unit_by_name("alu").unwrap();
        assert!(m.memory.reaches(mem, Region::OnChip(0)) && !m.memory.reaches(alu, Region::OnChip(0)));
        assert!(m.memory.reaches(alu, Region::External), "no 'units' on memory: every unit");
    }

    #[test]
    fn at_most_31_onchip_memories() {
        let decl = |i: u32| format!("onchip m{i} base {:#x} size 16 units mem\n", 0x10000 + 16 * i);
        with(&(0..31).map(decl).collect::<String>()).unwrap();
        let e = with(&(0..32).map(decl).collect::<String>()).unwrap_err();
        assert_eq!(e, "t.isa:59:1: error: more than 31 on-chip memories");
    }

    #[test]
    fn bad_memory_systems_are_located_errors() {
        let cases = [
            ("cache l1d level 1 size 4K line 48 ways 2 hit 1 miss 8 policy writeback", "28:32: error: cache line size must be a power of two, got 48"),
            ("cache l1d level 1 size 3K line 64 ways 2 hit 1 miss 8 policy writeback", "28:24: error: cache size 3072 is not a power-of-two number of sets of 2 ways x 64 bytes (size / (ways x line) = 24)"),
            ("cache l1d level 1 size 4K line 64 ways 2 hit 1 miss 8 policy lazy", "28:62: error: unknown write policy 'lazy' (expected writeback: write-back and write-allocate, or writethrough: write-through and no write-allocate)"),
            ("cache l1d level 2 size 4K line 64 ways 2 hit 1 miss 8 policy writeback", "28:1: error: cache 'l1d' is level 2 but there is no level 1 (levels count from 1 without gaps)"),
            ("cache l1d level 1 size 4K line 64 ways 2 hit 1 policy writeback", "28:7: error: cache 'l1d' needs 'miss'"),
            ("cache l1d level 1 size 4K line 64 ways 2 hit 1 miss -3 policy writeback", "28:53: error: miss penalty must be between 1 and 1000000, got -3"),
            ("onchip sm base 0xff00 size 4K units mem", "28:16: error: on-chip memory 'sm' [0xff00, 0x10f00) overlaps the external memory [0x0, 0x10000)"),
            ("onchip sm base 0x10000 size 4K units mem\nonchip am base 0x10800 size 4K units mem", "29:16: error: on-chip memory 'am' [0x10800, 0x11800) overlaps on-chip memory 'sm' [0x10000, 0x11000) (line 28)"),
            ("onchip sm base 0x10000 size 4K units vls", "28:38: error: unknown unit 'vls'"),
            ("cache l1d level 1 size 4K line 64 ways 2 hit 3 miss 8 policy writeback", "28:1: error: cache 'l1d' has a hit latency of 3 cycles, more than the 2-cycle latency of load instruction 'ld' (an L1 hit is part of a load's 'lat')"),
            ("onchip sm base 0x10000 size 512M units mem", "28:29: error: on-chip memory size must be between 1 and 268435456, got 536870912"),
            ("cache l1d level 1 size 4K line 64 ways 2 hit 1 miss 4 policy writeback\ncache l2 level 2 size 64K line 64 ways 4 hit 8 miss 60 policy writeback", "28:1: error: cache 'l1d' has a miss penalty of 4 cycles, less than the hit latency 8 of the next level 'l2' (a miss waits for the next level)"),
            ("cache l1d level 1 size 4K line 64 ways 2 hit 1 miss 8 policy writeback\ncache l2 level 2 size 64K line 32 ways 4 hit 8 miss 60 policy writeback", "29:1: error: cache 'l2' has 32-byte lines, smaller than the 64-byte lines of level 1 'l1d' above it"),
        ];
        let wrong: Vec<String> = cases
            .iter()
            .map(|(text, want)| (with(&format!("{text}\n")).expect_err(text), want))
            .filter(|(e, want)| *e != format!("t.isa:{want}"))
            .map(|(e, _)| e)
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}

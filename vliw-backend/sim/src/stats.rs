//! Run statistics (`--stats`, `--stats-json`), computed after the run from the
//! per-bundle issue and stall counters the cycle loop keeps, so gathering
//! them costs the loop nothing.
//!
//! `nop` operations are not counted as operations (a bundle of nops is a "nop
//! bundle") and do not count towards unit utilisation. Stall cycles are
//! attributed to the function of the bundle waiting to issue, memory stall
//! cycles (data-cache misses) and cache hits and misses to the function of
//! the bundle whose accesses caused them. Cycles = issue cycles (unit stalls
//! included) + memory stall cycles.

use std::fmt::Write as _;

use crate::run::Sim;

#[derive(Clone, Debug, PartialEq)]
pub struct UnitStat {
    pub name: String,
    pub count: u32,
    /// Busy instance-cycles (an operation occupies its unit instance `busy` cycles).
    pub busy: u64,
    /// busy / (count × cycles).
    pub utilisation: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FuncStat {
    pub name: String,
    /// Issue and stall cycles (memory stalls included).
    pub cycles: u64,
    pub percent: f64,
    /// Memory stall cycles (in `cycles`).
    pub memory_stall_cycles: u64,
    /// Per cache level (L1D first): hits, misses, stall cycles.
    pub cache: Vec<[u64; 3]>,
}

/// One data-cache level over the run.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheStat {
    pub name: String,
    pub level: u32,
    pub counts: crate::memsys::LevelCounts,
}

impl CacheStat {
    pub fn hits(&self) -> u64 {
        self.counts.read_hits + self.counts.write_hits
    }
    pub fn misses(&self) -> u64 {
        self.counts.read_misses + self.counts.write_misses
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub machine: String,
    pub cycles: u64,
    pub bundles: u64,
    /// Operations issued, nops excluded (guarded-off operations included).
    pub ops: u64,
    pub nop_bundles: u64,
    pub stall_cycles: u64,
    /// Cycles without memory stalls (`cycles - memory_stall_cycles`).
    pub issue_cycles: u64,
    /// Cycles the machine stood still for data-cache misses.
    pub memory_stall_cycles: u64,
    /// The data caches (empty with `--ideal-memory` or without caches).
    pub caches: Vec<CacheStat>,
    /// Accesses per on-chip memory: (name, accesses).
    pub onchip: Vec<(String, u64)>,
    /// `histogram[k]`: bundles that issued with k operations.
    pub histogram: Vec<u64>,
    pub units: Vec<UnitStat>,
    /// Sorted by cycles, most first.
    pub functions: Vec<FuncStat>,
}

impl Stats {
    pub fn ops_per_bundle(&self) -> f64 {
        if self.bundles == 0 {
            0.0
        } else {
            self.ops as f64 / self.bundles as f64
        }
    }

    /// The human-readable report.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let pct = |a: u64, b: u64| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
        let _ = writeln!(s, "dsp-sim statistics ({})", self.machine);
        let _ = writeln!(s, "  cycles            {}", self.cycles);
        let _ = writeln!(s, "  bundles           {}", self.bundles);
        let _ = writeln!(s, "  operations        {}", self.ops);
        let _ = writeln!(s, "  ops per bundle    {:.3}", self.ops_per_bundle());
        let _ = writeln!(s, "  nop bundles       {} ({:.1}%)", self.nop_bundles, pct(self.nop_bundles, self.bundles));
        let _ = writeln!(s, "  stall cycles      {} ({:.1}%)", self.stall_cycles, pct(self.stall_cycles, self.cycles));
        if !self.caches.is_empty() {
            let _ = writeln!(s, "  issue cycles      {}", self.issue_cycles);
            let _ = writeln!(
                s,
                "  memory stalls     {} ({:.1}%)",
                self.memory_stall_cycles,
                pct(self.memory_stall_cycles, self.cycles)
            );
            let _ = writeln!(s, "  data caches:");
            for c in &self.caches {
                let _ = writeln!(
                    s,
                    "    {:<6} L{}  hits {:>12}  misses {:>10} ({:>5.1}%)  writebacks {:>10}  stall cycles {:>12}",
                    c.name,
                    c.level,
                    c.hits(),
                    c.misses(),
                    pct(c.misses(), c.hits() + c.misses()),
                    c.counts.writebacks,
                    c.counts.stall
                );
            }
        }
        if self.onchip.iter().any(|(_, n)| *n > 0) {
            let _ = writeln!(s, "  on-chip memory accesses:");
            for (name, n) in &self.onchip {
                let _ = writeln!(s, "    {name:<8} {n:>12}");
            }
        }
        let _ = writeln!(s, "  ops per bundle histogram:");
        for (k, &n) in self.histogram.iter().enumerate() {
            if n > 0 {
                let _ = writeln!(s, "    {k:>3} ops  {n:>12}  {:>5.1}%", pct(n, self.bundles));
            }
        }
        let _ = writeln!(s, "  unit utilisation:");
        for u in &self.units {
            let _ = writeln!(s, "    {:<8} x{:<2} {:>12} busy  {:>5.1}%", u.name, u.count, u.busy, 100.0 * u.utilisation);
        }
        let _ = writeln!(s, "  cycles per function:");
        for f in &self.functions {
            let _ = write!(s, "    {:<24} {:>12}  {:>5.1}%", f.name, f.cycles, f.percent);
            if !self.caches.is_empty() {
                let _ = write!(s, "  memory stalls {:>10}", f.memory_stall_cycles);
                for (c, k) in self.caches.iter().zip(&f.cache) {
                    let _ = write!(s, "  {} {}/{}", c.name, k[0], k[1]);
                }
            }
            s.push('\n');
        }
        if !self.caches.is_empty() {
            let _ = writeln!(s, "  (per function: memory stall cycles, then hits/misses per cache)");
        }
        s
    }

    /// The same as JSON.
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"machine\": {},", json_str(&self.machine));
        let _ = writeln!(s, "  \"cycles\": {},", self.cycles);
        let _ = writeln!(s, "  \"bundles\": {},", self.bundles);
        let _ = writeln!(s, "  \"operations\": {},", self.ops);
        let _ = writeln!(s, "  \"ops_per_bundle\": {},", json_f64(self.ops_per_bundle()));
        let _ = writeln!(s, "  \"nop_bundles\": {},", self.nop_bundles);
        let _ = writeln!(s, "  \"stall_cycles\": {},", self.stall_cycles);
        let _ = writeln!(s, "  \"issue_cycles\": {},", self.issue_cycles);
        let _ = writeln!(s, "  \"memory_stall_cycles\": {},", self.memory_stall_cycles);
        s.push_str("  \"caches\": [");
        for (i, c) in self.caches.iter().enumerate() {
            let k = &c.counts;
            let _ = write!(
                s,
                "{}\n    {{\"name\": {}, \"level\": {}, \"hits\": {}, \"misses\": {}, \"read_hits\": {}, \"read_misses\": {}, \"write_hits\": {}, \"write_misses\": {}, \"writebacks\": {}, \"stall_cycles\": {}}}",
                if i > 0 { "," } else { "" },
                json_str(&c.name),
                c.level,
                c.hits(),
                c.misses(),
                k.read_hits,
                k.read_misses,
                k.write_hits,
                k.write_misses,
                k.writebacks,
                k.stall
            );
        }
        s.push_str(if self.caches.is_empty() { "],\n" } else { "\n  ],\n" });
        let onchip: Vec<String> =
            self.onchip.iter().map(|(n, a)| format!("{{\"name\": {}, \"accesses\": {a}}}", json_str(n))).collect();
        let _ = writeln!(s, "  \"onchip\": [{}],", onchip.join(", "));
        let hist: Vec<String> = self.histogram.iter().map(|n| n.to_string()).collect();
        let _ = writeln!(s, "  \"ops_histogram\": [{}],", hist.join(", "));
        s.push_str("  \"units\": [\n");
        for (i, u) in self.units.iter().enumerate() {
            let _ = writeln!(
                s,
                "    {{\"name\": {}, \"count\": {}, \"busy\": {}, \"utilisation\": {}}}{}",
                json_str(&u.name),
                u.count,
                u.busy,
                json_f64(u.utilisation),
                if i + 1 < self.units.len() { "," } else { "" }
            );
        }
        s.push_str("  ],\n  \"functions\": [\n");
        for (i, f) in self.functions.iter().enumerate() {
            let _ = writeln!(
                s,
                "    {{\"name\": {}, \"cycles\": {}, \"percent\": {}, \"memory_stall_cycles\": {}, \"cache\": [{}]}}{}",
                json_str(&f.name),
                f.cycles,
                json_f64(f.percent),
                f.memory_stall_cycles,
                f.cache
                    .iter()
                    .map(|k| format!("{{\"hits\": {}, \"misses\": {}, \"stall_cycles\": {}}}", k[0], k[1], k[2]))
                    .collect::<Vec<_>>()
                    .join(", "),
                if i + 1 < self.functions.len() { "," } else { "" }
            );
        }
        s.push_str("  ]\n}\n");
        s
    }
}

fn json_f64(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "null".into()
    }
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

impl Sim<'_> {
    /// Memory stall cycles caused by the accesses of bundle `i` (0 with an
    /// ideal memory).
    pub fn memory_stalls_of(&self, i: usize) -> u64 {
        let ms = &self.core.memsys;
        let nl = ms.counts.len();
        (0..nl).map(|k| ms.per_bundle.get((i * nl + k) * crate::memsys::PER_LEVEL + 2).copied().unwrap_or(0)).sum()
    }

    /// Statistics of the run so far.
    pub fn stats(&self) -> Stats {
        let m = self.machine;
        let p = &self.prog;
        let mut ops = 0u64;
        let mut nop_bundles = 0u64;
        let mut bundles = 0u64;
        let mut histogram = vec![0u64; m.bundle.max_ops as usize + 1];
        let mut busy = self.unit_busy_dyn.clone();
        let mut func_cycles = vec![0u64; p.funcs.len()];
        let mut unknown = 0u64;
        let ms = &self.core.memsys;
        let nl = ms.counts.len();
        // Per function (and "??" last): memory stalls, and per level hits, misses, stall.
        let mut func_mem = vec![(0u64, vec![[0u64; 3]; nl]); p.funcs.len() + 1];
        for (i, b) in p.bundles.iter().enumerate() {
            let (n_issued, n_stalled) = (self.issues[i], self.stalls[i]);
            if n_issued + n_stalled == 0 {
                continue;
            }
            let range = b.first as usize..(b.first + b.n) as usize;
            let useful = p.ops[range.clone()].iter().filter(|o| !o.is_nop).count();
            bundles += n_issued;
            ops += useful as u64 * n_issued;
            if useful == 0 {
                nop_bundles += n_issued;
            }
            if useful >= histogram.len() {
                histogram.resize(useful + 1, 0);
            }
            histogram[useful] += n_issued;
            if !b.dynamic {
                for k in range {
                    if !p.ops[k].is_nop {
                        let unit = p.place[k].0 as usize;
                        busy[unit] += m.instr(p.src_ops[k].instr).busy.max(1) as u64 * n_issued;
                    }
                }
            }
            let mut mem_stall = 0;
            let fi = p.func_index(b.pc);
            if nl > 0 {
                let slot = &mut func_mem[fi.unwrap_or(p.funcs.len())];
                for (k, acc) in slot.1.iter_mut().enumerate() {
                    let base = (i * nl + k) * crate::memsys::PER_LEVEL;
                    let c = &ms.per_bundle[base..base + crate::memsys::PER_LEVEL];
                    acc[0] += c[0];
                    acc[1] += c[1];
                    acc[2] += c[2];
                    mem_stall += c[2];
                }
                slot.0 += mem_stall;
            }
            match fi {
                Some(f) => func_cycles[f] += n_issued + n_stalled + mem_stall,
                None => unknown += n_issued + n_stalled + mem_stall,
            }
        }
        let cycles = self.cycle;
        let units = m
            .units
            .iter()
            .zip(&busy)
            .map(|(u, &b)| UnitStat {
                name: u.name.clone(),
                count: u.count,
                busy: b,
                utilisation: if cycles == 0 || u.count == 0 { 0.0 } else { b as f64 / (u.count as f64 * cycles as f64) },
            })
            .collect();
        let pct = |c: u64| if cycles == 0 { 0.0 } else { 100.0 * c as f64 / cycles as f64 };
        let mut functions: Vec<FuncStat> = p
            .funcs
            .iter()
            .zip(&func_cycles)
            .zip(&func_mem)
            .filter(|((_, &c), _)| c > 0)
            .map(|((f, &c), m)| FuncStat {
                name: f.name.clone(),
                cycles: c,
                percent: pct(c),
                memory_stall_cycles: m.0,
                cache: m.1.clone(),
            })
            .collect();
        if unknown > 0 {
            let m = &func_mem[p.funcs.len()];
            functions.push(FuncStat {
                name: "??".into(),
                cycles: unknown,
                percent: pct(unknown),
                memory_stall_cycles: m.0,
                cache: m.1.clone(),
            });
        }
        functions.sort_by(|a, b| b.cycles.cmp(&a.cycles).then_with(|| a.name.cmp(&b.name)));
        Stats {
            machine: m.name.clone(),
            cycles,
            bundles,
            ops,
            nop_bundles,
            stall_cycles: self.stalls.iter().sum(),
            issue_cycles: self.issue_cycle,
            memory_stall_cycles: ms.stall_total,
            caches: m
                .memory
                .caches
                .iter()
                .zip(&ms.counts)
                .map(|(c, k)| CacheStat { name: c.name.clone(), level: c.level, counts: *k })
                .collect(),
            onchip: m.memory.onchip.iter().map(|o| o.name.clone()).zip(ms.onchip_accesses.iter().copied()).collect(),
            histogram,
            units,
            functions,
        }
    }
}

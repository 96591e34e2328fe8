//! Run statistics (`--stats`, `--stats-json`), computed after the run from the
//! per-bundle issue and stall counters the cycle loop keeps, so gathering
//! them costs the loop nothing.
//!
//! `nop` operations are not counted as operations (a bundle of nops is a "nop
//! bundle") and do not count towards unit utilisation. Stall cycles are
//! attributed to the function of the bundle waiting to issue.

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
    pub cycles: u64,
    pub percent: f64,
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
            let _ = writeln!(s, "    {:<24} {:>12}  {:>5.1}%", f.name, f.cycles, f.percent);
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
                "    {{\"name\": {}, \"cycles\": {}, \"percent\": {}}}{}",
                json_str(&f.name),
                f.cycles,
                json_f64(f.percent),
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
            match p.func_index(b.pc) {
                Some(f) => func_cycles[f] += n_issued + n_stalled,
                None => unknown += n_issued + n_stalled,
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
            .filter(|(_, &c)| c > 0)
            .map(|(f, &c)| FuncStat { name: f.name.clone(), cycles: c, percent: pct(c) })
            .collect();
        if unknown > 0 {
            functions.push(FuncStat { name: "??".into(), cycles: unknown, percent: pct(unknown) });
        }
        functions.sort_by(|a, b| b.cycles.cmp(&a.cycles).then_with(|| a.name.cmp(&b.name)));
        Stats {
            machine: m.name.clone(),
            cycles,
            bundles,
            ops,
            nop_bundles,
            stall_cycles: self.stalls.iter().sum(),
            histogram,
            units,
            functions,
        }
    }
}

//! The results table: one per machine, a row per kernel × size × -O level,
//! then the problems (failed builds or runs, checksum mismatches) spelled
//! out below it.

use std::fmt::Write as _;

use isa_tablegen::Machine;

use crate::chain::{FpSemantics, KernelBound};
use crate::measure::Run;

/// How the DSP's output compares with the host build's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    Match,
    Mismatch {
        expected: String,
        got: String,
    },
    /// The host reference could not be built or run.
    NoReference(String),
    /// The DSP build or run failed (the row's `run` says why).
    Failed,
}

impl Check {
    /// Compares a run's output and exit status with the host's output.
    pub fn of(run: &Result<Run, String>, host: &Result<Vec<u8>, String>) -> Check {
        let Ok(run) = run else { return Check::Failed };
        match (&run.outcome, host) {
            (Err(_), _) => Check::Failed,
            (_, Err(e)) => Check::NoReference(e.clone()),
            (Ok(status), Ok(expected)) => {
                if *status == 0 && run.stdout == *expected && run.stderr.is_empty() {
                    Check::Match
                } else {
                    let mut got = String::from_utf8_lossy(&run.stdout).trim_end().to_string();
                    if *status != 0 {
                        let _ = write!(got, " [exit {status}]");
                    }
                    if !run.stderr.is_empty() {
                        let _ = write!(
                            got,
                            " [stderr: {}]",
                            String::from_utf8_lossy(&run.stderr).trim_end()
                        );
                    }
                    Check::Mismatch {
                        expected: String::from_utf8_lossy(expected).trim_end().to_string(),
                        got,
                    }
                }
            }
        }
    }

    pub fn cell(&self) -> &'static str {
        match self {
            Check::Match => "ok",
            Check::Mismatch { .. } => "MISMATCH!",
            Check::NoReference(_) => "no host",
            Check::Failed => "FAILED!",
        }
    }
}

/// One line of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub kernel: &'static str,
    pub size: u64,
    pub level: u8,
    pub run: Result<Run, String>,
    pub bound: Result<KernelBound, String>,
    pub check: Check,
}

impl Row {
    /// Whether the row is a problem to report (and to fail the run on).
    pub fn bad(&self) -> bool {
        !matches!(self.check, Check::Match)
    }
}

/// A row of the main table: the build and, when measured, the naive scalar
/// build of the same kernel and size (`dspcc -O2 -fno-vectorize
/// -fno-slp-vectorize -fno-modulo-sched`).
#[derive(Clone, Debug)]
pub struct TableRow {
    pub row: Row,
    pub scalar: Option<Row>,
}

/// `cycles ÷ (bound + cold)` of a run, the bound raised by the stall cycles
/// of the run's cold misses (`None` without both).
fn ratio_to(run: &Result<Run, String>, bound: Option<f64>) -> Option<f64> {
    match (run, bound) {
        (Ok(r), Some(b)) if b > 0.0 => Some(r.kernel.cycles as f64 / (b + r.kernel.cold_stall_cycles as f64)),
        _ => None,
    }
}

/// The naive scalar build's cycles ÷ this build's.
fn speedup(t: &TableRow) -> Option<f64> {
    match (&t.row.run, t.scalar.as_ref().map(|s| &s.run)) {
        (Ok(r), Some(Ok(s))) if r.kernel.cycles > 0 => {
            Some(s.kernel.cycles as f64 / r.kernel.cycles as f64)
        }
        _ => None,
    }
}

fn opt<T: std::fmt::Display>(v: Option<T>, width: usize, prec: usize) -> String {
    v.map_or(format!("{:>width$}", "-"), |x| format!("{x:>width$.prec$}"))
}

/// The table of one machine, its legend, the geometric means per level and
/// its problems. `sem` says which bound applies (printed in the heading).
pub fn render(m: &Machine, rows: &[TableRow], sem: FpSemantics) -> String {
    let plain: Vec<Row> = rows.iter().map(|t| t.row.clone()).collect();
    let mut s = heading(m, &plain, sem);
    let _ = writeln!(
        s,
        "{:<9} {:>5} {:>3} {:>9} {:>8} {:>7} {:>6} {:>9} {:<12} {:>8} {:>9} {:>7} {:>9} {:>7} {:>5} {:>4} {:>5} {:>11}  host",
        "kernel",
        "size",
        "-O",
        "cycles",
        "stalls",
        "cold",
        "RATIO",
        "bound",
        "bound by",
        "chain",
        "resource",
        "r.ratio",
        "scalar",
        "speedup",
        "ops/b",
        "vec%",
        "code",
        "run bundles"
    );
    for t in rows {
        let r = &t.row;
        let _ = write!(s, "{:<9} {:>5} {:>3}", r.kernel, r.size, format!("O{}", r.level));
        let cycles = r.run.as_ref().ok().map(|x| x.kernel.cycles);
        let stalls = r.run.as_ref().ok().map(|x| x.kernel.memory_stall_cycles);
        let cold = r.run.as_ref().ok().map(|x| x.kernel.cold_stall_cycles);
        let _ = write!(s, " {} {} {}", opt(cycles, 9, 0), opt(stalls, 8, 0), opt(cold, 7, 0));
        let b = r.bound.as_ref().ok();
        let _ = write!(
            s,
            " {} {} {:<12} {} {} {}",
            opt(ratio_to(&r.run, b.map(|b| b.cycles())), 6, 1),
            opt(b.map(|b| b.cycles()), 9, 1),
            b.map_or("-".to_string(), |b| b.limit()),
            opt(b.and_then(|b| b.chain.as_ref().map(|c| c.cycles)), 8, 0),
            opt(b.map(|b| b.resource.cycles), 9, 1),
            opt(ratio_to(&r.run, b.map(|b| b.resource.cycles)), 7, 1),
        );
        let scalar = t
            .scalar
            .as_ref()
            .and_then(|x| x.run.as_ref().ok().map(|x| x.kernel.cycles));
        let _ = write!(
            s,
            " {} {}",
            opt(scalar, 9, 0),
            speedup(t).map_or(format!("{:>7}", "-"), |x| format!("{:>6.2}x", x))
        );
        match &r.run {
            Ok(run) => {
                let k = &run.kernel;
                let _ = write!(
                    s,
                    " {:>5.2} {:>4.0} {:>5} {:>11}",
                    k.ops_per_bundle(),
                    k.vector_percent(),
                    k.code_bundles,
                    run.total_bundles,
                );
            }
            Err(_) => {
                let _ = write!(s, " {:>5} {:>4} {:>5} {:>11}", "-", "-", "-", "-");
            }
        }
        let _ = writeln!(s, "  {}", r.check.cell());
    }
    geometric_means(&mut s, rows);
    problems(&mut s, &plain, "");
    let scalars: Vec<Row> = rows.iter().filter_map(|t| t.scalar.clone()).collect();
    problems(&mut s, &scalars, " (naive scalar)");
    s
}

/// Per -O level: the geometric means of cycles ÷ bound, cycles ÷ resource
/// bound and the speedup over the naive scalar build.
fn geometric_means(s: &mut String, rows: &[TableRow]) {
    let mut levels: Vec<u8> = rows.iter().map(|t| t.row.level).collect();
    levels.sort();
    levels.dedup();
    for l in levels {
        let at: Vec<&TableRow> = rows.iter().filter(|t| t.row.level == l).collect();
        let gm = |f: &dyn Fn(&TableRow) -> Option<f64>| {
            let v: Vec<f64> = at.iter().filter_map(|t| f(t)).collect();
            (!v.is_empty()).then(|| ((v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp(), v.len()))
        };
        let sem = gm(&|t| ratio_to(&t.row.run, t.row.bound.as_ref().ok().map(|b| b.cycles())));
        let res = gm(&|t| ratio_to(&t.row.run, t.row.bound.as_ref().ok().map(|b| b.resource.cycles)));
        let sp = gm(&speedup);
        if let (Some((a, n)), Some((b, _))) = (sem, res) {
            let _ = write!(
                s,
                "   -O{l}: geometric means over {n} runs: cycles/(bound + cold) {a:.2}, cycles/(resource bound + cold) {b:.2}"
            );
            if let Some((x, k)) = sp {
                let _ = write!(s, ", speedup over naive scalar {x:.2}x ({k} runs)");
            }
            let _ = writeln!(s);
        }
    }
}

/// The machine's line, which bound applies, and the bound model's legend.
fn heading(m: &Machine, rows: &[Row], sem: FpSemantics) -> String {
    let mut s = String::new();
    let lanes = m
        .vector_lanes(32)
        .map_or("no vector file".to_string(), |l| {
            format!("{l} lanes x 32 bit")
        });
    let _ = writeln!(
        s,
        "== {}: {} ({lanes}, bundle of {})",
        m.name, m.description, m.bundle.max_ops
    );
    let _ = writeln!(s, "   {}", sem.describe());
    let caches: Vec<String> =
        m.data_caches().iter().map(|c| format!("{} {} KB {}-way {} B lines, miss {}", c.name, c.size / 1024, c.ways, c.line, c.miss)).collect();
    if !caches.is_empty() {
        let _ = writeln!(s, "   cycles include memory stalls (the stalls column): {}", caches.join("; "));
    }
    let mut legend: Vec<String> = Vec::new();
    let mut chains: Vec<String> = Vec::new();
    for r in rows {
        if let Ok(b) = &r.bound {
            for mp in &b.resource.mappings {
                let d = mp.describe(m);
                if !legend.contains(&d) {
                    legend.push(d);
                }
            }
            if let Some(c) = &b.chain {
                let d = format!("{} {}: {}", r.kernel, r.size, c.describe(m));
                if !chains.contains(&d) {
                    chains.push(d);
                }
            }
        }
    }
    let _ = writeln!(s, "   resource model: {}", legend.join(", "));
    if !chains.is_empty() {
        let _ = writeln!(s, "   chains (count×instr(latency)): {}", chains.join("; "));
    }
    s
}

/// The problems of `rows` spelled out, one `!!` line each (`tag` follows
/// the -O level: which build of a comparison).
fn problems(s: &mut String, rows: &[Row], tag: &str) {
    let problems: Vec<&Row> = rows
        .iter()
        .filter(|r| r.bad() || r.bound.is_err())
        .collect();
    for r in problems {
        let what = format!("{} size {} -O{}{tag}", r.kernel, r.size, r.level);
        if let Err(e) = &r.bound {
            let _ = writeln!(s, "!! {what}: no bound: {e}");
        }
        match (&r.check, &r.run) {
            (Check::Match, _) => {}
            (_, Err(e)) => {
                let _ = writeln!(s, "!! {what}: {e}");
            }
            (Check::Failed, Ok(run)) => {
                let why = run.outcome.as_ref().err().cloned().unwrap_or_default();
                let _ = writeln!(s, "!! {what}: the DSP run failed: {why}");
            }
            (Check::Mismatch { expected, got }, _) => {
                let _ = writeln!(
                    s,
                    "!! {what}: CHECKSUM MISMATCH\n     host: {expected}\n     dsp:  {got}"
                );
            }
            (Check::NoReference(e), _) => {
                let _ = writeln!(s, "!! {what}: no host reference: {e}");
            }
        }
    }
}

fn ratio(run: &Result<Run, String>, bound: &Result<KernelBound, String>) -> Option<f64> {
    ratio_to(run, bound.as_ref().ok().map(|b| b.cycles()))
}

fn cycles_cells(r: &Row) -> String {
    match (&r.run, ratio(&r.run, &r.bound)) {
        (Ok(run), Some(x)) => format!(" {:>10} {:>6.1}", run.kernel.cycles, x),
        (Ok(run), None) => format!(" {:>10} {:>6}", run.kernel.cycles, "-"),
        (Err(_), _) => format!(" {:>10} {:>6}", "-", "-"),
    }
}

/// The kernel table before and after a change of flags, side by side: each
/// pair is the same kernel, size and level built without and with it (e.g.
/// `-fno-modulo-sched` and the default), with cycles, ratio to the bound,
/// the speed-up, the code size of both and both host checks; then geometric
/// means per level and the problems of both builds.
pub fn render_compare(
    m: &Machine,
    pairs: &[(Row, Row)],
    before: &str,
    after: &str,
    sem: FpSemantics,
) -> String {
    let all: Vec<Row> = pairs.iter().flat_map(|(a, b)| [a.clone(), b.clone()]).collect();
    let mut s = heading(m, &all, sem);
    let _ = writeln!(
        s,
        "{:<9} {:>5} {:>3} {:>17} {:>17} {:>8} {:>11}",
        "", "", "", before, after, "", "code"
    );
    let _ = writeln!(
        s,
        "{:<9} {:>5} {:>3} {:>10} {:>6} {:>10} {:>6} {:>8} {:>11} {:>9} {:<12} host",
        "kernel", "size", "-O", "cycles", "ratio", "cycles", "ratio", "speedup", "bundles", "bound", "bound by"
    );
    for (a, b) in pairs {
        let _ = write!(s, "{:<9} {:>5} {:>3}", a.kernel, a.size, format!("O{}", a.level));
        s.push_str(&cycles_cells(a));
        s.push_str(&cycles_cells(b));
        match (&a.run, &b.run) {
            (Ok(x), Ok(y)) if y.kernel.cycles > 0 => {
                let _ = write!(s, " {:>7.2}x", x.kernel.cycles as f64 / y.kernel.cycles as f64);
            }
            _ => {
                let _ = write!(s, " {:>8}", "-");
            }
        }
        let code = |r: &Row| r.run.as_ref().map_or("-".to_string(), |x| x.kernel.code_bundles.to_string());
        let _ = write!(s, " {:>11}", format!("{}/{}", code(a), code(b)));
        match &a.bound {
            Ok(bd) => {
                let _ = write!(s, " {:>9.1} {:<12}", bd.cycles(), bd.limit());
            }
            Err(_) => {
                let _ = write!(s, " {:>9} {:<12}", "-", "-");
            }
        }
        let check = if a.check == b.check { a.check.cell().to_string() } else { format!("{}/{}", a.check.cell(), b.check.cell()) };
        let _ = writeln!(s, " {check}");
    }
    let mut levels: Vec<u8> = pairs.iter().map(|(a, _)| a.level).collect();
    levels.sort();
    levels.dedup();
    for l in levels {
        let (mut n, mut sp, mut ra, mut rb) = (0usize, 0.0f64, 0.0f64, 0.0f64);
        for (a, b) in pairs.iter().filter(|(a, _)| a.level == l) {
            if let (Some(x), Some(y)) = (ratio(&a.run, &a.bound), ratio(&b.run, &b.bound)) {
                n += 1;
                sp += (x / y).ln();
                ra += x.ln();
                rb += y.ln();
            }
        }
        if n > 0 {
            let g = |v: f64| (v / n as f64).exp();
            let _ = writeln!(
                s,
                "   -O{l}: geometric means over {n} runs: ratio {before} {:.2}, {after} {:.2}, speedup {:.2}x",
                g(ra),
                g(rb),
                g(sp)
            );
        }
    }
    let firsts: Vec<Row> = pairs.iter().map(|(a, _)| a.clone()).collect();
    let seconds: Vec<Row> = pairs.iter().map(|(_, b)| b.clone()).collect();
    problems(&mut s, &firsts, &format!(" ({before})"));
    problems(&mut s, &seconds, &format!(" ({after})"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bound::Bound;
    use crate::measure::KernelStats;

    fn row(level: u8, cycles: u64, out: &[u8]) -> Row {
        let run = Run {
            stdout: out.to_vec(),
            stderr: vec![],
            outcome: Ok(0),
            total_cycles: cycles * 2,
            total_bundles: cycles,
            kernel: KernelStats { cycles, bundles: cycles, ops: cycles, vector_ops: 0, code_bundles: 40, memory_stall_cycles: 0, cold_stall_cycles: 0 },
        };
        let run = Ok(run);
        Row {
            kernel: "dot_i32",
            size: 256,
            level,
            check: Check::of(&run, &Ok(b"42\n".to_vec())),
            run,
            bound: Ok(KernelBound {
                resource: Bound { cycles: 100.0, limit: "VMAC".into(), mappings: vec![] },
                chain: None,
            }),
        }
    }

    #[test]
    fn main_table_with_chain_and_scalar() {
        let m = Machine::load("ftm").unwrap();
        let mut r = row(2, 400, b"42\n");
        if let Ok(b) = &mut r.bound {
            b.chain = Some(crate::chain::ChainBound { cycles: 200.0, steps: vec![] });
        }
        // 100 cycles of cold misses raise both bounds.
        if let Ok(run) = &mut r.run {
            run.kernel.cold_stall_cycles = 100;
        }
        let scalar = Some(row(2, 1000, b"41\n"));
        let t = render(&m, &[TableRow { row: r, scalar }], FpSemantics::Strict);
        assert!(t.contains("   400        0     100    1.3     200.0 chain             200     100.0     2.0      1000   2.50x"), "{t}");
        assert!(t.contains("cycles include memory stalls (the stalls column): l1d 32 KB 2-way 64 B lines, miss 10"), "{t}");
        assert!(t.contains("-O2: geometric means over 1 runs: cycles/(bound + cold) 1.33, cycles/(resource bound + cold) 2.00, speedup over naive scalar 2.50x"), "{t}");
        assert!(t.contains("!! dot_i32 size 256 -O2 (naive scalar): CHECKSUM MISMATCH"), "{t}");
        assert!(t.contains("longest strict-IEEE float chain"), "{t}");
        let t = render(&m, &[TableRow { row: row(2, 400, b"42\n"), scalar: None }], FpSemantics::Reassociable);
        assert!(t.contains("resource bound only"), "{t}");
    }

    #[test]
    fn comparison_table() {
        let m = Machine::load("ftm").unwrap();
        let pairs = vec![(row(2, 400, b"42\n"), row(2, 200, b"42\n")), (row(3, 300, b"42\n"), row(3, 300, b"41\n"))];
        let t = render_compare(&m, &pairs, "no SWP", "SWP", FpSemantics::Strict);
        assert!(t.contains("   400    4.0        200    2.0    2.00x"), "{t}");
        assert!(t.contains("ok/MISMATCH!"), "{t}");
        assert!(t.contains("-O2: geometric means over 1 runs: ratio no SWP 4.00, SWP 2.00, speedup 2.00x"), "{t}");
        assert!(t.contains("!! dot_i32 size 256 -O3 (SWP): CHECKSUM MISMATCH"), "{t}");
        assert!(!t.contains("-O3 (no SWP)"), "{t}");
    }
}

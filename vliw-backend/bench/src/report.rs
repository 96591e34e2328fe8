//! The results table: one per machine, a row per kernel × size × -O level,
//! then the problems (failed builds or runs, checksum mismatches) spelled
//! out below it.

use std::fmt::Write as _;

use isa_tablegen::Machine;

use crate::bound::Bound;
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

    fn cell(&self) -> &'static str {
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
    pub bound: Result<Bound, String>,
    pub check: Check,
}

impl Row {
    /// Whether the row is a problem to report (and to fail the run on).
    pub fn bad(&self) -> bool {
        !matches!(self.check, Check::Match)
    }
}

/// The table of one machine, its legend and its problems.
pub fn render(m: &Machine, rows: &[Row]) -> String {
    let mut s = heading(m, rows);
    let _ = writeln!(
        s,
        "{:<9} {:>5} {:>3} {:>10} {:>6} {:>5} {:>11} {:>5} {:>9} {:<12} {:>7}  host",
        "kernel",
        "size",
        "-O",
        "cycles",
        "ops/b",
        "vec%",
        "run bundles",
        "code",
        "bound",
        "bound by",
        "ratio"
    );
    for r in rows {
        let _ = write!(
            s,
            "{:<9} {:>5} {:>3}",
            r.kernel,
            r.size,
            format!("O{}", r.level)
        );
        match &r.run {
            Ok(run) => {
                let k = &run.kernel;
                let _ = write!(
                    s,
                    " {:>10} {:>6.2} {:>5.0} {:>11} {:>5}",
                    k.cycles,
                    k.ops_per_bundle(),
                    k.vector_percent(),
                    run.total_bundles,
                    k.code_bundles
                );
            }
            Err(_) => {
                let _ = write!(
                    s,
                    " {:>10} {:>6} {:>5} {:>11} {:>5}",
                    "-", "-", "-", "-", "-"
                );
            }
        }
        match (&r.bound, &r.run) {
            (Ok(b), Ok(run)) => {
                let ratio = if b.cycles > 0.0 {
                    run.kernel.cycles as f64 / b.cycles
                } else {
                    f64::INFINITY
                };
                let _ = write!(s, " {:>9.1} {:<12} {:>7.1}", b.cycles, b.limit, ratio);
            }
            (Ok(b), Err(_)) => {
                let _ = write!(s, " {:>9.1} {:<12} {:>7}", b.cycles, b.limit, "-");
            }
            (Err(_), _) => {
                let _ = write!(s, " {:>9} {:<12} {:>7}", "-", "-", "-");
            }
        }
        let _ = writeln!(s, "  {}", r.check.cell());
    }
    problems(&mut s, rows, "");
    s
}

/// The machine's line and the bound model's legend.
fn heading(m: &Machine, rows: &[Row]) -> String {
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
    let mut legend: Vec<String> = Vec::new();
    for r in rows {
        if let Ok(b) = &r.bound {
            for mp in &b.mappings {
                let d = mp.describe(m);
                if !legend.contains(&d) {
                    legend.push(d);
                }
            }
        }
    }
    let _ = writeln!(s, "   bound model: {}", legend.join(", "));
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

fn ratio(run: &Result<Run, String>, bound: &Result<Bound, String>) -> Option<f64> {
    match (run, bound) {
        (Ok(r), Ok(b)) if b.cycles > 0.0 => Some(r.kernel.cycles as f64 / b.cycles),
        _ => None,
    }
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
pub fn render_compare(m: &Machine, pairs: &[(Row, Row)], before: &str, after: &str) -> String {
    let all: Vec<Row> = pairs.iter().flat_map(|(a, b)| [a.clone(), b.clone()]).collect();
    let mut s = heading(m, &all);
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
                let _ = write!(s, " {:>9.1} {:<12}", bd.cycles, bd.limit);
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
    use crate::measure::KernelStats;

    fn row(level: u8, cycles: u64, out: &[u8]) -> Row {
        let run = Run {
            stdout: out.to_vec(),
            stderr: vec![],
            outcome: Ok(0),
            total_cycles: cycles * 2,
            total_bundles: cycles,
            kernel: KernelStats { cycles, bundles: cycles, ops: cycles, vector_ops: 0, code_bundles: 40 },
        };
        let run = Ok(run);
        Row {
            kernel: "dot_i32",
            size: 256,
            level,
            check: Check::of(&run, &Ok(b"42\n".to_vec())),
            run,
            bound: Ok(Bound { cycles: 100.0, limit: "VMAC".into(), mappings: vec![] }),
        }
    }

    #[test]
    fn comparison_table() {
        let m = Machine::load("ftm").unwrap();
        let pairs = vec![(row(2, 400, b"42\n"), row(2, 200, b"42\n")), (row(3, 300, b"42\n"), row(3, 300, b"41\n"))];
        let t = render_compare(&m, &pairs, "no SWP", "SWP");
        assert!(t.contains("   400    4.0        200    2.0    2.00x"), "{t}");
        assert!(t.contains("ok/MISMATCH!"), "{t}");
        assert!(t.contains("-O2: geometric means over 1 runs: ratio no SWP 4.00, SWP 2.00, speedup 2.00x"), "{t}");
        assert!(t.contains("!! dot_i32 size 256 -O3 (SWP): CHECKSUM MISMATCH"), "{t}");
        assert!(!t.contains("-O3 (no SWP)"), "{t}");
    }
}

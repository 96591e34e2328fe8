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
    let problems: Vec<&Row> = rows
        .iter()
        .filter(|r| r.bad() || r.bound.is_err())
        .collect();
    for r in problems {
        let what = format!("{} size {} -O{}", r.kernel, r.size, r.level);
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
    s
}

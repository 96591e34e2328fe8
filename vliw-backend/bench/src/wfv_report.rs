//! The function-vectorization benchmark's tables ([`crate::wfv`]): per
//! machine, a row per program with the kernel's cycles in each
//! configuration, the speedups over the baseline configuration, the
//! geometric mean of each speedup, dspcc's compile times, and below it what
//! the vectorizer refused (its remarks, once per program and text) and the
//! problems (failed builds or runs, outputs that differ from the host's).

use std::fmt::Write as _;

use crate::report::Check;
use crate::wfv::{geomean, Config, Outcome};

/// One program's results, in the table's configuration order.
#[derive(Clone, Debug)]
pub struct ProgramRow {
    pub name: &'static str,
    pub cells: Vec<(Outcome, Check)>,
}

impl ProgramRow {
    fn cycles(&self, i: usize) -> Option<u64> {
        let (o, check) = self.cells.get(i)?;
        match (check, &o.run) {
            (Check::Match, Ok(run)) => Some(run.kernel.cycles),
            _ => None,
        }
    }

    /// Whether any cell is a problem.
    pub fn bad(&self) -> bool {
        self.cells.iter().any(|(_, c)| *c != Check::Match)
    }
}

fn cycles_cell(o: &Outcome, check: &Check) -> String {
    match (check, &o.run) {
        (Check::Match, Ok(run)) => run.kernel.cycles.to_string(),
        (Check::Mismatch { .. }, _) => "MISMATCH!".to_string(),
        (Check::NoReference(_), _) => "no host".to_string(),
        _ => "FAILED!".to_string(),
    }
}

fn ratio(a: Option<u64>, b: Option<u64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0 => Some(a as f64 / b as f64),
        _ => None,
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |x| format!("{x:.2}x"))
}

/// Renders one table. `baseline` is the index of the configuration the
/// speedups divide (`baseline cycles / config cycles` for every other one).
pub fn render(title: &str, configs: &[Config], baseline: usize, rows: &[ProgramRow]) -> String {
    let base = configs[baseline].name;
    let others: Vec<usize> = (0..configs.len()).filter(|&i| i != baseline).collect();
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    let _ = write!(s, "{:<16}", "program");
    for c in configs {
        let _ = write!(s, " {:>10}", c.name);
    }
    for &i in &others {
        let _ = write!(s, " {:>12}", format!("{base}/{}", configs[i].name));
    }
    let _ = write!(s, "   compile s:");
    for c in configs {
        let _ = write!(s, " {:>6}", c.name);
    }
    let _ = writeln!(s);
    for r in rows {
        let _ = write!(s, "{:<16}", r.name);
        for (o, check) in &r.cells {
            let _ = write!(s, " {:>10}", cycles_cell(o, check));
        }
        for &i in &others {
            let _ = write!(s, " {:>12}", cell(ratio(r.cycles(baseline), r.cycles(i))));
        }
        let _ = write!(s, "              ");
        for (o, _) in &r.cells {
            let _ = write!(s, " {:>6.2}", o.compile_secs);
        }
        let _ = writeln!(s);
    }
    let _ = write!(s, "{:<16}", "geomean");
    for _ in configs {
        let _ = write!(s, " {:>10}", "");
    }
    for &i in &others {
        let v: Vec<f64> = rows.iter().filter_map(|r| ratio(r.cycles(baseline), r.cycles(i))).collect();
        let _ = write!(s, " {:>12}", cell(geomean(&v)));
    }
    let _ = writeln!(s);
    refused(&mut s, configs, rows);
    problems(&mut s, configs, rows);
    s
}

fn refused(s: &mut String, configs: &[Config], rows: &[ProgramRow]) {
    for r in rows {
        // Each remark once, with the configurations that gave it.
        let mut seen: Vec<(&str, Vec<&str>)> = Vec::new();
        for (c, (o, _)) in configs.iter().zip(&r.cells) {
            for text in &o.refused {
                match seen.iter_mut().find(|(t, _)| *t == text.as_str()) {
                    Some((_, names)) => names.push(c.name),
                    None => seen.push((text, vec![c.name])),
                }
            }
        }
        for (text, names) in seen {
            let _ = writeln!(s, "  refused ({}; {}): {text}", r.name, names.join(", "));
        }
    }
}

fn problems(s: &mut String, configs: &[Config], rows: &[ProgramRow]) {
    for r in rows {
        for (c, (o, check)) in configs.iter().zip(&r.cells) {
            let what = match (check, &o.run) {
                (Check::Match, _) => continue,
                (Check::Mismatch { expected, got }, _) => {
                    format!("output differs from the host's:\n      host: {expected}\n      dsp:  {got}")
                }
                (Check::NoReference(e), _) => format!("no host reference: {e}"),
                (_, Err(e)) => e.clone(),
                (_, Ok(run)) => format!("{:?}", run.outcome),
            };
            let _ = writeln!(s, "  ! {} {}: {what}", r.name, c.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{KernelStats, Run};

    fn outcome(cycles: u64) -> Outcome {
        Outcome {
            compile_secs: 0.5,
            refused: vec!["h.c:1:1: 'f' not vectorized: why".to_string()],
            run: Ok(Run {
                stdout: b"x\n".to_vec(),
                stderr: Vec::new(),
                outcome: Ok(0),
                total_cycles: cycles + 10,
                total_bundles: cycles,
                kernel: KernelStats { cycles, ..Default::default() },
            }),
        }
    }

    #[test]
    fn speedups_geomean_and_problems() {
        let configs = &crate::wfv::TABLE2[..2];
        let rows = vec![
            ProgramRow { name: "A", cells: vec![(outcome(800), Check::Match), (outcome(100), Check::Match)] },
            ProgramRow { name: "B", cells: vec![(outcome(200), Check::Match), (outcome(100), Check::Match)] },
            ProgramRow {
                name: "C",
                cells: vec![
                    (outcome(200), Check::Match),
                    (outcome(100), Check::Mismatch { expected: "1".into(), got: "2".into() }),
                ],
            },
        ];
        let t = render("T", configs, 0, &rows);
        assert!(t.contains("Scalar/Naive"), "{t}");
        assert!(t.contains("8.00x") && t.contains("2.00x"), "{t}");
        assert!(t.lines().any(|l| l.starts_with("geomean") && l.contains("4.00x")), "{t}");
        assert!(t.contains("MISMATCH!") && t.contains("! C Naive: output differs"), "{t}");
        assert!(rows[2].bad() && !rows[0].bad());
        assert_eq!(t.matches("refused (A; Scalar, Naive): h.c:1:1: 'f' not vectorized: why").count(), 1, "{t}");
    }
}

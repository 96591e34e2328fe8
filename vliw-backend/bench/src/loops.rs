//! The loop corpus of `dsp-bench-sms` (`scripts/bench-sms`): the software
//! pipeliner's record of every innermost loop (`dspcc
//! --pipeline-report=FILE.json`, see `dsp_pipeliner::report`), one set per
//! modulo scheduler (sms, ims, ilp), and the tables computed from them:
//!
//! - seed 000's Table 2 (§5, "performance results") side by side over the
//!   loops every scheduler pipelined: loops at II = MII, sum of II, mean
//!   MaxLive, mean stages (SC), mean kernel copies, total scheduling time,
//!   and the scheduling time per pipelined loop (median, 95th percentile,
//!   maximum: what pipelining costs at compile time, issue 9 item 5);
//! - the outcomes of every loop (pipelined, not, with the top reasons), and
//!   how often the ILP scheduler hit its time cap;
//! - the issue's "Done when" figures: among loops where the ILP proved that
//!   II = MII exists (reached it without its time cap), the share where SMS
//!   reached II = MII too; at equal II (SMS's II = the uncapped ILP's), SMS's
//!   mean MaxLive against the ILP's;
//! - head-to-head counts (II lower / equal / higher, MaxLive at equal II).
//!
//! A loop is known by its source file, function, loop block and, when a
//! function has several loops on the same block label, their order.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::json::Value;

/// The facts of a pipelined loop.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pipelined {
    pub res_mii: u32,
    pub rec_mii: u32,
    pub mii: u32,
    pub ii: u32,
    pub stages: u32,
    pub max_live: u32,
    pub kernel_copies: u32,
    pub min_trip: u32,
    pub time_us: u64,
    /// The scheduler stopped at its time cap (the ILP's `--ilp-time-limit`).
    pub capped: bool,
    /// IIs tried and failed before the one found.
    pub attempts: usize,
    /// The ILP scheduler gave up on its integer program (too large) and used
    /// the heuristic's schedule: not an optimum, like a capped one.
    pub fallback: bool,
}

impl Pipelined {
    /// Whether an ILP schedule is a proven optimum (neither capped nor the
    /// heuristic's fallback).
    pub fn proven(&self) -> bool {
        !self.capped && !self.fallback
    }
}

/// The note of `dsp_modsched::ilp` when it used the heuristic's schedule.
const FALLBACK_NOTE: &str = "no schedule from the integer program";

/// One innermost loop as one scheduler saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopRecord {
    /// The corpus file it was compiled from (as given to dspcc).
    pub source: String,
    pub function: String,
    pub block: String,
    /// Source line (from the record's debug location).
    pub line: Option<u64>,
    /// The pipelined loop, or why it was not pipelined.
    pub outcome: Result<Pipelined, String>,
}

/// How a loop is known across schedulers.
pub type LoopKey = (String, String, String, usize);

impl LoopRecord {
    pub fn describe(&self) -> String {
        let line = self.line.map_or(String::new(), |l| format!(":{l}"));
        format!("{}{} {} ({})", self.source, line, self.function, self.block)
    }
}

fn field_u32(o: &Value, k: &str) -> Result<u32, String> {
    o.get(k)
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("record without a number '{k}'"))
}

/// The records of one `--pipeline-report` JSON array, compiled from `source`.
pub fn records_from_json(source: &str, v: &Value) -> Result<Vec<LoopRecord>, String> {
    let arr = v.as_array().ok_or("the report is not a JSON array")?;
    let mut out = Vec::new();
    for (i, o) in arr.iter().enumerate() {
        let rec = (|| -> Result<LoopRecord, String> {
            let s = |k: &str| o.get(k).and_then(Value::as_str).map(String::from);
            let function = s("function").ok_or("record without 'function'")?;
            let block = s("block").unwrap_or_default();
            let line = o.get("line").and_then(Value::as_u64);
            let pipelined = o.get("pipelined").and_then(Value::as_bool).ok_or("record without 'pipelined'")?;
            let outcome = if pipelined {
                Ok(Pipelined {
                    res_mii: field_u32(o, "res_mii")?,
                    rec_mii: field_u32(o, "rec_mii")?,
                    mii: field_u32(o, "mii")?,
                    ii: field_u32(o, "ii")?,
                    stages: field_u32(o, "stages")?,
                    max_live: field_u32(o, "max_live")?,
                    kernel_copies: field_u32(o, "kernel_copies")?,
                    min_trip: field_u32(o, "min_trip").unwrap_or(0),
                    time_us: o.get("schedule_time_us").and_then(Value::as_u64).unwrap_or(0),
                    capped: o.get("capped").and_then(Value::as_bool).unwrap_or(false),
                    attempts: o.get("attempts").and_then(Value::as_array).map_or(0, |a| a.len()),
                    fallback: o
                        .get("notes")
                        .and_then(Value::as_array)
                        .is_some_and(|n| n.iter().any(|x| x.as_str().is_some_and(|t| t.contains(FALLBACK_NOTE)))),
                })
            } else {
                Err(s("reason").unwrap_or_else(|| "(no reason given)".to_string()))
            };
            Ok(LoopRecord { source: source.to_string(), function, block, line, outcome })
        })()
        .map_err(|e| format!("{source}: record {i}: {e}"))?;
        out.push(rec);
    }
    Ok(out)
}

/// The records of one scheduler, by loop.
pub fn keyed(records: Vec<LoopRecord>) -> BTreeMap<LoopKey, LoopRecord> {
    let mut seen: HashMap<(String, String, String), usize> = HashMap::new();
    let mut out = BTreeMap::new();
    for r in records {
        let n = seen.entry((r.source.clone(), r.function.clone(), r.block.clone())).or_insert(0);
        out.insert((r.source.clone(), r.function.clone(), r.block.clone(), *n), r);
        *n += 1;
    }
    out
}

/// One scheduler's results over the corpus.
#[derive(Clone, Debug, Default)]
pub struct SchedulerRun {
    pub name: String,
    pub loops: BTreeMap<LoopKey, LoopRecord>,
    /// Files whose build failed: (file, command, first lines of stderr).
    pub failures: Vec<(String, String, String)>,
}

impl SchedulerRun {
    fn pipelined(&self, k: &LoopKey) -> Option<&Pipelined> {
        self.loops.get(k).and_then(|r| r.outcome.as_ref().ok())
    }
}

/// A reason with its numbers and names generalized, so that reasons of the
/// same kind count together: digit runs become `N`, quoted text `'…'`.
pub fn reason_kind(r: &str) -> String {
    let mut out = String::new();
    let mut in_quote: Option<char> = None;
    let mut last_digit = false;
    for c in r.chars() {
        if let Some(q) = in_quote {
            if c == q {
                in_quote = None;
                out.push(q);
            }
            continue;
        }
        if c == '\'' || c == '`' {
            in_quote = Some(c);
            out.push(c);
            out.push('…');
            last_digit = false;
            continue;
        }
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        out.push(c);
    }
    out
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

fn mean(sum: u64, n: usize) -> String {
    if n == 0 {
        "-".to_string()
    } else {
        format!("{:.2}", sum as f64 / n as f64)
    }
}

/// Median, 95th percentile and maximum of `times` (nearest rank), in
/// microseconds; None when empty.
pub fn time_quantiles(times: &[u64]) -> Option<(u64, u64, u64)> {
    let mut t = times.to_vec();
    t.sort_unstable();
    let rank = |q: f64| t[((q * t.len() as f64).ceil() as usize).clamp(1, t.len()) - 1];
    (!t.is_empty()).then(|| (rank(0.5), rank(0.95), t[t.len() - 1]))
}

/// Every loop any scheduler reported, in order.
pub fn all_keys(runs: &[SchedulerRun]) -> Vec<LoopKey> {
    let mut keys: Vec<LoopKey> = runs.iter().flat_map(|r| r.loops.keys().cloned()).collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Loops every run pipelined.
pub fn common_pipelined(runs: &[SchedulerRun]) -> Vec<LoopKey> {
    all_keys(runs).into_iter().filter(|k| runs.iter().all(|r| r.pipelined(k).is_some())).collect()
}

/// Seed 000's Table 2 side by side over the loops every run pipelined, then
/// the outcome counts and the top reasons for not pipelining.
pub fn table2(runs: &[SchedulerRun]) -> String {
    let mut s = String::new();
    let keys = all_keys(runs);
    let common = common_pipelined(runs);
    let names: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
    let w = 16;
    let head = |s: &mut String, title: &str| {
        let _ = write!(s, "{title:<34}");
        for n in &names {
            let _ = write!(s, " {n:>w$}");
        }
        let _ = writeln!(s);
    };
    let row = |s: &mut String, label: &str, cells: Vec<String>| {
        let _ = write!(s, "{label:<34}");
        for c in cells {
            let _ = write!(s, " {c:>w$}");
        }
        let _ = writeln!(s);
    };
    let _ = writeln!(
        s,
        "Table 2 (seed 000 §5) over the {} loops that {} all pipelined:",
        common.len(),
        names.join(", ")
    );
    head(&mut s, "");
    let per = |f: &dyn Fn(&Pipelined) -> u64| -> Vec<u64> {
        runs.iter().map(|r| common.iter().filter_map(|k| r.pipelined(k)).map(f).sum()).collect()
    };
    let at_mii: Vec<usize> = runs
        .iter()
        .map(|r| common.iter().filter_map(|k| r.pipelined(k)).filter(|p| p.ii == p.mii).count())
        .collect();
    row(
        &mut s,
        "loops at II = MII",
        at_mii.iter().map(|&a| format!("{a} ({})", pct(a, common.len()))).collect(),
    );
    row(&mut s, "sum of II", per(&|p| p.ii as u64).iter().map(u64::to_string).collect());
    row(&mut s, "sum of MII", per(&|p| p.mii as u64).iter().map(u64::to_string).collect());
    row(&mut s, "mean MaxLive", per(&|p| p.max_live as u64).iter().map(|&x| mean(x, common.len())).collect());
    row(&mut s, "mean stages (SC)", per(&|p| p.stages as u64).iter().map(|&x| mean(x, common.len())).collect());
    row(
        &mut s,
        "mean kernel copies",
        per(&|p| p.kernel_copies as u64).iter().map(|&x| mean(x, common.len())).collect(),
    );
    row(
        &mut s,
        "scheduling time (s)",
        per(&|p| p.time_us).iter().map(|&x| format!("{:.3}", x as f64 / 1e6)).collect(),
    );
    let _ = writeln!(s);

    let _ = writeln!(s, "Every innermost loop ({} in the corpus):", keys.len());
    head(&mut s, "");
    let count = |f: &dyn Fn(&SchedulerRun, &LoopKey) -> bool| -> Vec<String> {
        runs.iter().map(|r| keys.iter().filter(|k| f(r, k)).count().to_string()).collect()
    };
    row(&mut s, "reported", count(&|r, k| r.loops.contains_key(k)));
    row(&mut s, "pipelined", count(&|r, k| r.pipelined(k).is_some()));
    row(&mut s, "  at II = MII", count(&|r, k| r.pipelined(k).is_some_and(|p| p.ii == p.mii)));
    row(&mut s, "  time cap reached", count(&|r, k| r.pipelined(k).is_some_and(|p| p.capped)));
    row(&mut s, "  program too large (heuristic's)", count(&|r, k| r.pipelined(k).is_some_and(|p| p.fallback)));
    row(
        &mut s,
        "not pipelined",
        count(&|r, k| r.loops.get(k).is_some_and(|l| l.outcome.is_err())),
    );
    row(&mut s, "missing (build failed)", count(&|r, k| !r.loops.contains_key(k)));
    row(
        &mut s,
        "scheduling time, all loops (s)",
        runs.iter()
            .map(|r| {
                let us: u64 = r.loops.values().filter_map(|l| l.outcome.as_ref().ok()).map(|p| p.time_us).sum();
                format!("{:.3}", us as f64 / 1e6)
            })
            .collect(),
    );
    for (label, pick) in [("  median", 0usize), ("  95th percentile", 1), ("  max", 2)] {
        let cells = runs
            .iter()
            .map(|r| {
                let us: Vec<u64> = r.loops.values().filter_map(|l| l.outcome.as_ref().ok()).map(|p| p.time_us).collect();
                time_quantiles(&us).map_or("-".to_string(), |q| {
                    let x = [q.0, q.1, q.2][pick];
                    format!("{:.1}", x as f64 / 1e3)
                })
            })
            .collect();
        if pick == 0 {
            row(&mut s, "scheduling time per pipelined loop (ms):", vec![String::new(); runs.len()]);
        }
        row(&mut s, label, cells);
    }
    let mut reasons: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, r) in runs.iter().enumerate() {
        for l in r.loops.values() {
            if let Err(why) = &l.outcome {
                reasons.entry(reason_kind(why)).or_insert_with(|| vec![0; runs.len()])[i] += 1;
            }
        }
    }
    let mut reasons: Vec<(String, Vec<usize>)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.iter().sum::<usize>().cmp(&a.1.iter().sum::<usize>()).then(a.0.cmp(&b.0)));
    if !reasons.is_empty() {
        let _ = writeln!(s, "Top reasons for not pipelining (loops per scheduler):");
        for (why, n) in reasons.iter().take(12) {
            let cells: Vec<String> = n.iter().map(|x| format!("{x:>5}")).collect();
            let _ = writeln!(s, "  {}  {why}", cells.join(" "));
        }
        if reasons.len() > 12 {
            let _ = writeln!(s, "  ... and {} other kinds", reasons.len() - 12);
        }
    }
    s
}

/// The "Done when" figures of SMS against the ILP scheduler, with the loops
/// where SMS missed II = MII that the ILP proved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DoneWhen {
    /// ILP schedules that are not proven optima: time cap reached, or the
    /// heuristic's schedule because the program was too large.
    pub ilp_capped: usize,
    pub ilp_fallback: usize,
    /// Loops where the ILP reached II = MII without its time cap.
    pub ilp_proved: usize,
    /// Of those, where SMS reached II = MII too.
    pub sms_at_mii: usize,
    /// The others: (loop, SMS's II or why not pipelined, MII).
    pub misses: Vec<(String, String, u32)>,
    /// Loops with SMS's II = the uncapped ILP's II.
    pub equal_ii: usize,
    pub sms_max_live: u64,
    pub ilp_max_live: u64,
    /// Of the equal-II loops, where SMS needs more / fewer MaxLive than the ILP.
    pub sms_more: usize,
    pub sms_fewer: usize,
}

impl DoneWhen {
    pub fn compute(sms: &SchedulerRun, ilp: &SchedulerRun) -> DoneWhen {
        let mut d = DoneWhen::default();
        for (k, l) in &ilp.loops {
            let Ok(p) = &l.outcome else { continue };
            if !p.proven() {
                d.ilp_capped += p.capped as usize;
                d.ilp_fallback += (p.fallback && !p.capped) as usize;
                continue;
            }
            let s = sms.loops.get(k).map(|r| &r.outcome);
            if p.ii == p.mii {
                d.ilp_proved += 1;
                match s {
                    Some(Ok(q)) if q.ii == p.mii => d.sms_at_mii += 1,
                    Some(Ok(q)) => d.misses.push((l.describe(), format!("II {}", q.ii), p.mii)),
                    Some(Err(why)) => d.misses.push((l.describe(), format!("not pipelined: {why}"), p.mii)),
                    None => d.misses.push((l.describe(), "no record (build failed)".into(), p.mii)),
                }
            }
            if let Some(Ok(q)) = s {
                if q.ii == p.ii {
                    d.equal_ii += 1;
                    d.sms_max_live += q.max_live as u64;
                    d.ilp_max_live += p.max_live as u64;
                    match q.max_live.cmp(&p.max_live) {
                        std::cmp::Ordering::Greater => d.sms_more += 1,
                        std::cmp::Ordering::Less => d.sms_fewer += 1,
                        std::cmp::Ordering::Equal => {}
                    }
                }
            }
        }
        d
    }

    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "\"Done when\" figures (SMS against the ILP scheduler):");
        let _ = writeln!(
            s,
            "  ILP schedules not proven optimal, left out: {} at the time cap, {} from the heuristic (integer program too large)",
            self.ilp_capped, self.ilp_fallback
        );
        let _ = writeln!(
            s,
            "  ILP proved II = MII (reached it, optimal): {} loops; SMS at II = MII on {} of them: {}   [target >= 99%]",
            self.ilp_proved,
            self.sms_at_mii,
            pct(self.sms_at_mii, self.ilp_proved)
        );
        let excess = if self.ilp_max_live == 0 {
            "-".to_string()
        } else {
            format!("{:+.2}%", 100.0 * (self.sms_max_live as f64 / self.ilp_max_live as f64 - 1.0))
        };
        let _ = writeln!(
            s,
            "  equal II (SMS II = ILP II, ILP optimal): {} loops; mean MaxLive SMS {} vs ILP {}: {}   [target within 5%]",
            self.equal_ii,
            mean(self.sms_max_live, self.equal_ii),
            mean(self.ilp_max_live, self.equal_ii),
            excess
        );
        let _ = writeln!(
            s,
            "    SMS MaxLive above the ILP's on {} loops, below on {} (the ILP minimises MaxLive at its II)",
            self.sms_more, self.sms_fewer
        );
        if !self.misses.is_empty() {
            let _ = writeln!(s, "  SMS missed II = MII on:");
            for (l, what, mii) in &self.misses {
                let _ = writeln!(s, "    {l}: MII {mii}, SMS {what}");
            }
        }
        s
    }
}

/// Head-to-head counts over the loops both runs pipelined: II lower / equal
/// / higher for `a`, and at equal II, MaxLive lower / equal / higher.
pub fn head_to_head(runs: &[SchedulerRun]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Head to head (loops both pipelined): {:>6} {:>5} {:>5} {:>6} | at equal II, MaxLive: {:>5} {:>5} {:>6} | pipelined by one only: {:>6} {:>6}",
        "loops", "II <", "=", ">", "<", "=", ">", "first", "second"
    );
    for i in 0..runs.len() {
        for j in i + 1..runs.len() {
            let (a, b) = (&runs[i], &runs[j]);
            let mut c = [0usize; 9];
            for k in all_keys(&[a.clone(), b.clone()]) {
                match (a.pipelined(&k).is_some(), b.pipelined(&k).is_some()) {
                    (true, false) if b.loops.contains_key(&k) => c[7] += 1,
                    (false, true) if a.loops.contains_key(&k) => c[8] += 1,
                    _ => {}
                }
            }
            for (k, l) in &a.loops {
                let (Ok(p), Some(q)) = (&l.outcome, b.pipelined(k)) else { continue };
                c[0] += 1;
                match p.ii.cmp(&q.ii) {
                    std::cmp::Ordering::Less => c[1] += 1,
                    std::cmp::Ordering::Equal => {
                        c[2] += 1;
                        match p.max_live.cmp(&q.max_live) {
                            std::cmp::Ordering::Less => c[4] += 1,
                            std::cmp::Ordering::Equal => c[5] += 1,
                            std::cmp::Ordering::Greater => c[6] += 1,
                        }
                    }
                    std::cmp::Ordering::Greater => c[3] += 1,
                }
            }
            let label = format!("  {} vs {}", a.name, b.name);
            let _ = writeln!(
                s,
                "{label:<36} {:>6} {:>5} {:>5} {:>6} |                       {:>5} {:>5} {:>6} |                        {:>6} {:>6}",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
            );
        }
    }
    // The MII is the loop's, not the scheduler's: say if runs disagree.
    let mut differ = Vec::new();
    for k in all_keys(runs) {
        let miis: Vec<u32> = runs.iter().filter_map(|r| r.pipelined(&k)).map(|p| p.mii).collect();
        if miis.windows(2).any(|w| w[0] != w[1]) {
            differ.push(k);
        }
    }
    if !differ.is_empty() {
        let _ = writeln!(s, "  note: {} loops have different MIIs under different schedulers:", differ.len());
        for k in differ.iter().take(10) {
            let _ = writeln!(s, "    {} {} ({})", k.0, k.1, k.2);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn run(name: &str, json: &str) -> SchedulerRun {
        let v = parse(json).unwrap();
        SchedulerRun { name: name.into(), loops: keyed(records_from_json("a.c", &v).unwrap()), failures: vec![] }
    }

    fn rec(f: &str, b: &str, mii: u32, ii: u32, live: u32, capped: bool) -> String {
        format!(
            r#"{{"function":"{f}","file":"a.c","line":3,"block":"{b}","pipelined":true,"res_mii":{mii},"rec_mii":1,"mii":{mii},"ii":{ii},"stages":2,"max_live":{live},"kernel_copies":1,"min_trip":2,"scheduler":"x","schedule_time_us":1000,"capped":{capped},"attempts":[]}}"#
        )
    }

    #[test]
    fn quantiles() {
        assert_eq!(time_quantiles(&[]), None);
        assert_eq!(time_quantiles(&[7]), Some((7, 7, 7)));
        let t: Vec<u64> = (1..=100).rev().collect();
        assert_eq!(time_quantiles(&t), Some((50, 95, 100)));
        assert_eq!(time_quantiles(&[1, 2, 3]), Some((2, 3, 3)));
    }

    #[test]
    fn reads_records_and_keys_duplicates() {
        let j = format!(
            "[{},{},{}]",
            rec("f", "bb1", 2, 2, 5, false),
            rec("f", "bb1", 1, 1, 3, false),
            r#"{"function":"g","file":null,"line":null,"block":"bb2","pipelined":false,"reason":"loop has a call to 'foo'"}"#
        );
        let r = run("sms", &j);
        assert_eq!(r.loops.len(), 3);
        let k0 = ("a.c".to_string(), "f".to_string(), "bb1".to_string(), 0);
        let k1 = ("a.c".to_string(), "f".to_string(), "bb1".to_string(), 1);
        assert_eq!(r.pipelined(&k0).unwrap().ii, 2);
        assert_eq!(r.pipelined(&k1).unwrap().max_live, 3);
        let g = r.loops.values().find(|l| l.function == "g").unwrap();
        assert_eq!(g.line, None);
        assert_eq!(g.outcome, Err("loop has a call to 'foo'".to_string()));
        assert!(records_from_json("a.c", &parse("{}").unwrap()).is_err());
        assert!(records_from_json("a.c", &parse(r#"[{"function":"f","pipelined":true}]"#).unwrap()).is_err());
    }

    #[test]
    fn reasons_generalize() {
        assert_eq!(reason_kind("body has 412 nodes (max 400)"), "body has N nodes (max N)");
        assert_eq!(reason_kind("call to 'printf' in the loop"), "call to '…' in the loop");
    }

    #[test]
    fn done_when_counts() {
        let sms = run(
            "sms",
            &format!("[{},{},{},{}]", rec("f", "a", 2, 2, 10, false), rec("g", "b", 2, 3, 8, false), rec("h", "c", 1, 1, 4, false), rec("k", "d", 5, 6, 4, false)),
        );
        // k: the ILP's program was too large; its schedule is the heuristic's.
        let fallback = rec("k", "d", 5, 5, 3, false).replace(
            "\"attempts\":[]",
            "\"attempts\":[],\"notes\":[\"ilp: no schedule from the integer program at II=5: the iterative scheduler's schedule is used\"]",
        );
        let ilp = run("ilp", &format!("[{},{},{},{fallback}]", rec("f", "a", 2, 2, 9, false), rec("g", "b", 2, 2, 7, false), rec("h", "c", 1, 1, 4, true)));
        assert!(ilp.loops.values().any(|l| l.outcome.as_ref().is_ok_and(|p| p.fallback)));
        let d = DoneWhen::compute(&sms, &ilp);
        assert_eq!((d.ilp_capped, d.ilp_fallback), (1, 1));
        assert_eq!(d.ilp_proved, 2);
        assert_eq!(d.sms_at_mii, 1);
        assert_eq!(d.misses.len(), 1);
        assert!(d.misses[0].0.contains("g"));
        assert_eq!((d.equal_ii, d.sms_max_live, d.ilp_max_live, d.sms_more), (1, 10, 9, 1));
        let text = d.render();
        assert!(text.contains("50.0%"), "{text}");
        assert!(text.contains("+11.11%"), "{text}");
        let t = table2(&[sms.clone(), ilp.clone()]);
        assert!(t.contains("over the 4 loops"), "{t}");
        assert!(t.contains("sum of II"), "{t}");
        let h = head_to_head(&[sms, ilp]);
        assert!(h.contains("sms vs ilp"), "{h}");
    }

    #[test]
    fn head_to_head_counts() {
        let not = r#"{"function":"g","block":"b","pipelined":false,"reason":"no modulo schedule"}"#;
        let a = run("sms", &format!("[{},{}]", rec("f", "a", 2, 2, 5, false), not));
        let b = run("ims", &format!("[{},{}]", rec("f", "a", 2, 3, 4, false), rec("g", "b", 2, 2, 4, false)));
        let h = head_to_head(&[a, b]);
        let line = h.lines().find(|l| l.contains("sms vs ims")).unwrap();
        let nums: Vec<&str> = line.split(|c: char| c == '|' || c.is_whitespace()).filter(|w| w.parse::<u32>().is_ok()).collect();
        // 1 loop both pipelined, sms's II lower; none at equal II; 0 only by sms, 1 only by ims.
        assert_eq!(nums, ["1", "1", "0", "0", "0", "0", "0", "0", "1"], "{h}");
    }
}

//! What the pipeliner tells its users, the way TI's cl6x "software pipeline
//! information" and LLVM's `-Rpass=pipeliner` do: one record per innermost
//! loop, rendered as clang-style remarks (`-Rpass=sms`,
//! `-Rpass-missed=sms`, `-Rpass-analysis=sms`), as the comment block before
//! the loop in `-S` output, and as JSON (`--pipeline-report=FILE.json`).

use dsp_mir::Loc;
use dsp_modsched::Attempt;

/// A pipelined loop's facts.
#[derive(Clone, Debug, PartialEq)]
pub struct Pipelined {
    pub res_mii: u32,
    pub rec_mii: u32,
    pub mii: u32,
    pub ii: u32,
    pub stages: u32,
    pub max_live: u32,
    pub kernel_copies: u32,
    pub min_trip: u32,
    pub scheduler: String,
    pub schedule_us: u128,
    pub bottleneck: String,
    pub recurrence: Vec<String>,
    pub attempts: Vec<Attempt>,
    pub registers: Vec<(String, u32)>,
    pub alias_checks: usize,
    pub trip_count: String,
    pub notes: Vec<String>,
    pub capped: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LoopReport {
    pub function: String,
    pub loc: Option<Loc>,
    /// The loop's block label.
    pub block: String,
    pub outcome: Result<Pipelined, String>,
}

fn at(loc: &Option<Loc>) -> String {
    match loc {
        Some(l) => format!("{}:{}:{}: ", l.file, l.line, l.col.max(1)),
        None => String::new(),
    }
}

impl LoopReport {
    /// Where a remark is: `FILE:LINE:COL: ` before `remark:` when the IR
    /// had debug locations, else `in function 'F', loop BLOCK: ` after it.
    fn place(&self) -> (String, String) {
        match &self.loc {
            Some(_) => (at(&self.loc), String::new()),
            None => (String::new(), format!("in function '{}', loop {}: ", self.function, self.block)),
        }
    }

    /// `-Rpass=sms` / `-Rpass-missed=sms` remark.
    pub fn remark(&self) -> String {
        let (before, after) = self.place();
        match &self.outcome {
            Ok(p) => format!(
                "{before}remark: {after}loop software pipelined: II={} (ResMII={}, RecMII={}), {} stages, MaxLive={}, {} kernel copies [-Rpass=sms]",
                p.ii,
                p.res_mii,
                p.rec_mii,
                p.stages,
                p.max_live,
                p.kernel_copies
            ),
            Err(why) => format!("{before}remark: {after}loop not software pipelined: {why} [-Rpass-missed=sms]"),
        }
    }

    /// `-Rpass-analysis=sms`: the details behind the decision.
    pub fn analysis(&self) -> Vec<String> {
        let a = at(&self.loc);
        match &self.outcome {
            Ok(p) => {
                let mut v = vec![format!(
                    "{a}remark: in function '{}': ResMII={} ({}), RecMII={}{}, scheduler {}, {} us [-Rpass-analysis=sms]",
                    self.function,
                    p.res_mii,
                    p.bottleneck,
                    p.rec_mii,
                    if p.recurrence.is_empty() { String::new() } else { format!(" ({})", p.recurrence.join(" -> ")) },
                    p.scheduler,
                    p.schedule_us
                )];
                for t in &p.attempts {
                    v.push(format!("{a}remark: II={} failed: {} [-Rpass-analysis=sms]", t.ii, t.reason));
                }
                for n in &p.notes {
                    v.push(format!("{a}remark: {n} [-Rpass-analysis=sms]"));
                }
                v
            }
            Err(_) => Vec::new(),
        }
    }

    /// The comment block before the loop in `-S` output.
    pub fn comment_block(&self) -> Vec<String> {
        let mut v = vec!["*----------------------------------------------------------*".to_string()];
        v.push("SOFTWARE PIPELINE INFORMATION".into());
        if let Some(l) = &self.loc {
            v.push(format!("  Loop source line           : {}:{}", l.file, l.line));
        }
        match &self.outcome {
            Ok(p) => {
                v.push(format!("  Loop trip count            : {}", p.trip_count));
                v.push(format!("  Minimum safe trip count    : {} (fewer iterations run the original loop)", p.min_trip));
                v.push(format!("  Resource bound (ResMII)    : {} ({})", p.res_mii, p.bottleneck));
                let rec = if p.recurrence.is_empty() { "no recurrence".to_string() } else { p.recurrence.join(" -> ") };
                v.push(format!("  Loop carried bound (RecMII): {} ({rec})", p.rec_mii));
                for t in &p.attempts {
                    v.push(format!("  ii = {:<3} failed: {}", t.ii, t.reason));
                }
                v.push(format!("  ii = {:<3} Schedule found with {} iterations in parallel", p.ii, p.stages));
                v.push(format!("  Scheduler                  : {}{}", p.scheduler, if p.capped { " (time cap reached)" } else { "" }));
                v.push(format!("  Max live values (MaxLive)  : {}", p.max_live));
                let regs: Vec<String> = p.registers.iter().map(|(f, n)| format!("{n} {f}")).collect();
                v.push(format!("  Registers (expanded values): {}", regs.join(", ")));
                v.push(format!("  Kernel copies (unroll)     : {}", p.kernel_copies));
                if p.alias_checks > 0 {
                    v.push(format!("  Run-time overlap checks    : {}", p.alias_checks));
                }
                for n in &p.notes {
                    v.push(format!("  Note: {n}"));
                }
            }
            Err(why) => v.push(format!("  Not pipelined: {why}")),
        }
        v.push("*----------------------------------------------------------*".into());
        v
    }

    /// One JSON object.
    pub fn json(&self) -> String {
        let mut s = String::from("{");
        s.push_str(&format!("\"function\":{},", json_str(&self.function)));
        match &self.loc {
            Some(l) => s.push_str(&format!("\"file\":{},\"line\":{},\"column\":{},", json_str(&l.file), l.line, l.col)),
            None => s.push_str("\"file\":null,\"line\":null,\"column\":null,"),
        }
        s.push_str(&format!("\"block\":{},", json_str(&self.block)));
        match &self.outcome {
            Ok(p) => {
                let strs = |v: &[String]| v.iter().map(|x| json_str(x)).collect::<Vec<_>>().join(",");
                s.push_str(&format!(
                    "\"pipelined\":true,\"res_mii\":{},\"rec_mii\":{},\"mii\":{},\"ii\":{},\"stages\":{},\"max_live\":{},\"kernel_copies\":{},\"min_trip\":{},\"scheduler\":{},\"schedule_time_us\":{},\"capped\":{},\"attempts\":[{}],",
                    p.res_mii,
                    p.rec_mii,
                    p.mii,
                    p.ii,
                    p.stages,
                    p.max_live,
                    p.kernel_copies,
                    p.min_trip,
                    json_str(&p.scheduler),
                    p.schedule_us,
                    p.capped,
                    p.attempts
                        .iter()
                        .map(|a| format!("{{\"ii\":{},\"reason\":{}}}", a.ii, json_str(&a.reason)))
                        .collect::<Vec<_>>()
                        .join(",")
                ));
                s.push_str(&format!(
                    "\"bottleneck\":{},\"recurrence\":[{}],\"registers\":{{{}}},\"trip_count\":{},\"alias_checks\":{},\"notes\":[{}]",
                    json_str(&p.bottleneck),
                    strs(&p.recurrence),
                    p.registers.iter().map(|(f, n)| format!("{}:{n}", json_str(f))).collect::<Vec<_>>().join(","),
                    json_str(&p.trip_count),
                    p.alias_checks,
                    strs(&p.notes)
                ));
            }
            Err(why) => s.push_str(&format!("\"pipelined\":false,\"reason\":{}", json_str(why))),
        }
        s.push('}');
        s
    }
}

pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipelined() -> Pipelined {
        Pipelined {
            res_mii: 2,
            rec_mii: 1,
            mii: 2,
            ii: 3,
            stages: 3,
            max_live: 9,
            kernel_copies: 2,
            min_trip: 4,
            scheduler: "sms".into(),
            schedule_us: 12,
            bottleneck: "unit \"alu\"".into(),
            recurrence: vec!["a".into(), "b".into()],
            attempts: vec![Attempt { ii: 2, reason: "no slot for n3".into() }],
            registers: vec![("r".into(), 9), ("v".into(), 2)],
            alias_checks: 1,
            trip_count: "100 (known at compile time)".into(),
            notes: Vec::new(),
            capped: false,
        }
    }

    fn report(loc: bool, outcome: Result<Pipelined, String>) -> LoopReport {
        LoopReport {
            function: "f".into(),
            loc: loc.then(|| Loc { file: "k.c".into(), line: 12, col: 3 }),
            block: "bb3".into(),
            outcome,
        }
    }

    #[test]
    fn remarks_with_and_without_a_location() {
        assert_eq!(
            report(true, Ok(pipelined())).remark(),
            "k.c:12:3: remark: loop software pipelined: II=3 (ResMII=2, RecMII=1), 3 stages, MaxLive=9, 2 kernel copies [-Rpass=sms]"
        );
        assert_eq!(
            report(false, Err("the loop contains a call".into())).remark(),
            "remark: in function 'f', loop bb3: loop not software pipelined: the loop contains a call [-Rpass-missed=sms]"
        );
        let a = report(true, Ok(pipelined())).analysis();
        assert_eq!(a.len(), 2);
        assert!(a[1].starts_with("k.c:12:3: remark: II=2 failed: no slot for n3"), "{a:?}");
    }

    #[test]
    fn json_records() {
        let ok = report(true, Ok(pipelined())).json();
        assert!(ok.starts_with("{\"function\":\"f\",\"file\":\"k.c\",\"line\":12,\"column\":3,\"block\":\"bb3\",\"pipelined\":true,"), "{ok}");
        for key in ["res_mii\":2", "rec_mii\":1", "\"mii\":2", "\"ii\":3", "stages\":3", "max_live\":9", "kernel_copies\":2", "scheduler\":\"sms\"", "schedule_time_us\":12"] {
            assert!(ok.contains(key), "{key} in {ok}");
        }
        assert!(ok.contains("\"attempts\":[{\"ii\":2,\"reason\":\"no slot for n3\"}]"), "{ok}");
        assert!(ok.contains("\"bottleneck\":\"unit \\\"alu\\\"\",\"recurrence\":[\"a\",\"b\"],\"registers\":{\"r\":9,\"v\":2}"), "{ok}");
        assert!(ok.ends_with("\"notes\":[]}"), "{ok}");
        let missed = report(false, Err("a\tb\n".into())).json();
        assert_eq!(
            missed,
            "{\"function\":\"f\",\"file\":null,\"line\":null,\"column\":null,\"block\":\"bb3\",\"pipelined\":false,\"reason\":\"a\\u0009b\\n\"}"
        );
    }
}

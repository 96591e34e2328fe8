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
    /// `-Rpass=sms` / `-Rpass-missed=sms` remark.
    pub fn remark(&self) -> String {
        match &self.outcome {
            Ok(p) => format!(
                "{}remark: loop software pipelined: II={} (ResMII={}, RecMII={}), {} stages, MaxLive={}, {} kernel copies [-Rpass=sms]",
                at(&self.loc),
                p.ii,
                p.res_mii,
                p.rec_mii,
                p.stages,
                p.max_live,
                p.kernel_copies
            ),
            Err(why) => format!("{}remark: loop not software pipelined: {why} [-Rpass-missed=sms]", at(&self.loc)),
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
            Some(l) => s.push_str(&format!("\"file\":{},\"line\":{},", json_str(&l.file), l.line)),
            None => s.push_str("\"file\":null,\"line\":null,"),
        }
        s.push_str(&format!("\"block\":{},", json_str(&self.block)));
        match &self.outcome {
            Ok(p) => s.push_str(&format!(
                "\"pipelined\":true,\"res_mii\":{},\"rec_mii\":{},\"mii\":{},\"ii\":{},\"stages\":{},\"max_live\":{},\"kernel_copies\":{},\"min_trip\":{},\"scheduler\":{},\"schedule_time_us\":{},\"capped\":{},\"attempts\":[{}]",
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
            )),
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

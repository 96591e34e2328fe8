//! `dsp-llc [--isa NAME|FILE] [-O0|-O1|-O2|-O3] [-S] [-o OUT] [--print-mir]
//! [--stats] [--no-counted-loops] [--pipeline|--no-pipeline]
//! [--modulo-scheduler=sms|ims|ilp] [--ilp-time-limit=SECONDS]
//! [-Rpass=REGEX] [-Rpass-missed=REGEX] [-Rpass-analysis=REGEX]
//! [--pipeline-report=FILE.json] IN.ll|IN.bc`: LLVM IR to assembly (`-S`, or
//! OUT ending in `.s`) or to a relocatable object. Errors are printed one per
//! line; exit status 1 for errors in the input, 2 for usage errors.
//!
//! The software pipeliner (on from -O2, `--pipeline` also at -O1, never at
//! -O0) reports like clang's optimization remarks: `-Rpass=REGEX` prints a
//! remark for each loop pipelined by a pass whose name the regular
//! expression matches (the pipeliner's name is `sms`, whatever the
//! scheduler), `-Rpass-missed=REGEX` one for each loop it could not pipeline
//! and why, `-Rpass-analysis=REGEX` the details (MII bounds, each II tried);
//! `--pipeline-report=FILE.json` writes one JSON record per innermost loop.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use dsp_llc::{assemble_object, compile_module, read_module, stats_table, LlcOptions};
use dsp_modsched::Scheduler;
use dsp_pipeliner::{LoopReport, PipelineOptions};
use inkwell::context::Context;
use isa_tablegen::Machine;
use regex_lite::Regex;

/// The software pipeliner's name in remarks (`-Rpass=sms`).
const PIPELINER_PASS: &str = "sms";

const AFTER_HELP: &str = "\
Optimization remarks (clang's syntax; REGEX is matched against the pass name, \
the software pipeliner's being 'sms'; printed on stderr as FILE:LINE:COL: remark: …):
  -Rpass=REGEX           loops software-pipelined
  -Rpass-missed=REGEX    loops not pipelined, and why
  -Rpass-analysis=REGEX  MII bounds, bottleneck, recurrence, each II tried";

#[derive(Parser)]
#[command(name = "dsp-llc", about = "LLVM IR to VLIW DSP assembly or objects", after_help = AFTER_HELP)]
struct Cli {
    /// Machine: a shipped name (ftm, ftm8, ftm32) or a path to a .isa file.
    #[arg(long, value_name = "NAME|FILE", default_value = isa_tablegen::builtin::DEFAULT)]
    isa: String,
    /// Optimization level: -O0 (no packing, no delay-slot filling) to -O3;
    /// software pipelining from -O2.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2", value_parser = clap::value_parser!(u8).range(0..=3))]
    opt: u8,
    /// Write assembly instead of an object.
    #[arg(short = 'S')]
    assembly: bool,
    /// Output file (default: the input's base name with .s or .o).
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,
    /// Print the machine IR after selection and after register allocation (to stderr).
    #[arg(long)]
    print_mir: bool,
    /// Keep loops' own exit tests at -O2 and above (no counter form; see
    /// dsp_llc::counted_loops). No loop is then pipelined.
    #[arg(long)]
    no_counted_loops: bool,
    /// No loop strength reduction before selection (on from -O1: see
    /// dsp_llc::lsr).
    #[arg(long)]
    no_lsr: bool,
    /// No value numbering, dead-code elimination or loop-invariant code
    /// motion on the machine IR (on from -O1: see dsp_pipeliner::licm).
    #[arg(long)]
    no_licm: bool,
    /// Keep a compare with 0 made for a branch (by default from -O1 the
    /// branch tests the register itself with brnz/brz: see
    /// dsp_llc::branch_reg).
    #[arg(long)]
    no_branch_on_register: bool,
    /// Leave branch delay slots the block's own operations did not fill as
    /// nops (by default from -O1 they take the branch target's first
    /// bundles: see dsp_sched::fill).
    #[arg(long)]
    no_branch_target_fill: bool,
    /// Leave a conditional branch's nop delay slots as they are (by default
    /// from -O1 they take the first bundles of the block it falls through
    /// to, when nothing else enters that block: see dsp_sched::fill).
    #[arg(long)]
    no_branch_fallthrough_fill: bool,
    /// Keep reloads of spill slots into registers that already hold them
    /// (by default from -O1 they are deleted: see dsp_regalloc::reload_cse).
    #[arg(long)]
    no_reload_cse: bool,
    /// Spill values that pass through a software pipeline everywhere when
    /// registers run out (by default from -O1 they are split around it,
    /// only the part inside going to the stack: see dsp_regalloc::split).
    #[arg(long)]
    no_split_around_pipelines: bool,
    /// Put each function and data object in its own section (.text.NAME,
    /// .data.NAME, ...) for dsp-ld --gc-sections.
    #[arg(long)]
    function_sections: bool,
    /// Software-pipeline innermost loops also at -O1 (the default from -O2;
    /// never at -O0). The last of --pipeline and --no-pipeline counts.
    #[arg(long, overrides_with = "no_pipeline")]
    pipeline: bool,
    /// Do not software-pipeline loops (at -O2 and -O3).
    #[arg(long, overrides_with = "pipeline")]
    no_pipeline: bool,
    /// Also pipeline loops that cannot gain from it: those whose iteration,
    /// list-scheduled alone, already repeats every MII cycles or fewer
    /// (left to the block scheduler by default; see dsp_modsched::flat).
    #[arg(long)]
    pipeline_unprofitable: bool,
    /// No address rebasing in pipelined loops (by default an access reads a
    /// later iteration's address where the schedule allows, so addresses
    /// need fewer registers and kernel copies; see dsp_pipeliner::rebase).
    #[arg(long)]
    no_pipeline_rebase: bool,
    /// The modulo scheduler of the software pipeliner: sms (Swing Modulo
    /// Scheduling), ims (Rau's iterative modulo scheduling) or ilp (optimal,
    /// an integer program).
    #[arg(long, value_name = "NAME", default_value = "sms", value_parser = ["sms", "ims", "ilp"])]
    modulo_scheduler: String,
    /// Seconds the ilp scheduler may spend on one loop (then it keeps the
    /// best schedule found, and the reports say so).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    ilp_time_limit: Option<f64>,
    /// Write a JSON array with one record per innermost loop (pipelined or
    /// not, and why) to FILE.json.
    #[arg(long, value_name = "FILE.json")]
    pipeline_report: Option<PathBuf>,
    /// Print bundle statistics per function (to stderr).
    #[arg(long)]
    stats: bool,
    /// LLVM IR input (.ll text or .bc bitcode).
    input: PathBuf,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err("expected a positive number of seconds".into()),
    }
}

/// Which remarks to print: clang's `-Rpass=`, `-Rpass-missed=` and
/// `-Rpass-analysis=`, each a regular expression on the pass name (the
/// last of each kind counts, as in clang).
#[derive(Debug, Default)]
struct Remarks {
    passed: Option<Regex>,
    missed: Option<Regex>,
    analysis: Option<Regex>,
}

impl Remarks {
    /// Takes the `-R…` flags out of `args` (clap cannot parse clang's
    /// `-Rpass=REGEX` spelling); the others are left for clap.
    fn extract(args: Vec<OsString>) -> Result<(Vec<OsString>, Remarks), String> {
        let mut rest = Vec::with_capacity(args.len());
        let mut r = Remarks::default();
        for (k, a) in args.into_iter().enumerate() {
            let Some(text) = a.to_str().filter(|t| k > 0 && t.starts_with("-R")) else {
                rest.push(a);
                continue;
            };
            let (slot, pattern) = if let Some(p) = text.strip_prefix("-Rpass=") {
                (&mut r.passed, p)
            } else if let Some(p) = text.strip_prefix("-Rpass-missed=") {
                (&mut r.missed, p)
            } else if let Some(p) = text.strip_prefix("-Rpass-analysis=") {
                (&mut r.analysis, p)
            } else {
                return Err(format!("unknown remark flag '{text}' (expected -Rpass=, -Rpass-missed= or -Rpass-analysis=)"));
            };
            let re = Regex::new(pattern).map_err(|e| format!("in pattern '{text}': {e}"))?;
            *slot = Some(re);
        }
        Ok((rest, r))
    }

    fn wants(re: &Option<Regex>) -> bool {
        re.as_ref().is_some_and(|re| re.is_match(PIPELINER_PASS))
    }

    /// The remark lines for the loops, in order.
    fn lines(&self, loops: &[LoopReport]) -> Vec<String> {
        let mut out = Vec::new();
        for l in loops {
            let wanted = match l.outcome {
                Ok(_) => Remarks::wants(&self.passed),
                Err(_) => Remarks::wants(&self.missed),
            };
            if wanted {
                out.push(l.remark());
            }
            if Remarks::wants(&self.analysis) {
                out.extend(l.analysis());
            }
        }
        out
    }
}

/// The `--pipeline-report` file: a JSON array, one record per line.
fn report_json(loops: &[LoopReport]) -> String {
    if loops.is_empty() {
        return "[]\n".into();
    }
    let records: Vec<String> = loops.iter().map(|l| format!("  {}", l.json())).collect();
    format!("[\n{}\n]\n", records.join(",\n"))
}

fn main() -> ExitCode {
    let (args, remarks) = match Remarks::extract(std::env::args_os().collect()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("dsp-llc: error: {e}");
            return ExitCode::from(2);
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(&cli, &remarks) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msgs) => {
            for m in msgs {
                eprintln!("{}", isa_tablegen::text::shown(&m));
            }
            ExitCode::from(1)
        }
    }
}

/// The pipeliner's options from the command line (`None`: no pipelining).
fn pipeline_options(cli: &Cli) -> Option<PipelineOptions> {
    let on = match cli.opt {
        0 => false,
        1 => cli.pipeline,
        _ => !cli.no_pipeline,
    };
    if !on {
        return None;
    }
    let mut p = PipelineOptions {
        scheduler: Scheduler::parse(&cli.modulo_scheduler).unwrap_or(Scheduler::Sms),
        profitable_only: !cli.pipeline_unprofitable,
        rebase: !cli.no_pipeline_rebase,
        ..PipelineOptions::default()
    };
    if let Some(t) = cli.ilp_time_limit {
        p.ilp_time_limit = t;
    }
    Some(p)
}

fn run(cli: &Cli, remarks: &Remarks) -> Result<(), Vec<String>> {
    let machine = Machine::load(&cli.isa).map_err(|e| vec![format!("dsp-llc: {e}")])?;
    let text_out = cli.assembly
        || cli
            .output
            .as_ref()
            .is_some_and(|o| o.extension().is_some_and(|e| e == "s"));
    let output = match &cli.output {
        Some(o) => o.clone(),
        None => {
            let stem = cli
                .input
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "a".into());
            PathBuf::from(format!("{stem}.{}", if text_out { "s" } else { "o" }))
        }
    };
    let ctx = Context::create();
    let module = dsp_llc::timing::phase("read IR", || read_module(&ctx, &cli.input)).map_err(|e| vec![e])?;
    let pipeline = pipeline_options(cli);
    let opts = LlcOptions {
        print_mir: cli.print_mir,
        comments: text_out,
        sections: cli.function_sections,
        counted_loops: (cli.opt >= 2 || pipeline.is_some()) && !cli.no_counted_loops,
        lsr: cli.opt >= 1 && !cli.no_lsr,
        clean_loops: cli.opt >= 1 && !cli.no_licm,
        target_fill: cli.opt >= 1 && !cli.no_branch_target_fill,
        fallthrough_fill: cli.opt >= 1 && !cli.no_branch_fallthrough_fill,
        reload_cse: cli.opt >= 1 && !cli.no_reload_cse,
        split_passing: cli.opt >= 1 && !cli.no_split_around_pipelines,
        branch_on_reg: cli.opt >= 1 && !cli.no_branch_on_register,
        pipeline,
        ..LlcOptions::at_level(cli.opt)
    };
    let compiled = compile_module(&machine, &module, &opts, &mut std::io::stderr())?;
    for line in remarks.lines(&compiled.loops) {
        eprintln!("{line}");
    }
    if let Some(path) = &cli.pipeline_report {
        write(path, report_json(&compiled.loops).as_bytes()).map_err(|e| vec![e])?;
    }
    if cli.stats {
        eprint!("{}", stats_table(&compiled.stats));
    }
    let bytes = if text_out {
        compiled.asm.into_bytes()
    } else {
        let name = cli.input.with_extension("s");
        assemble_object(&machine, &compiled.asm, &name.display().to_string())?
    };
    write(&output, &bytes).map_err(|e| vec![e])?;
    eprint!("{}", dsp_llc::timing::report());
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if path == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .write_all(bytes)
            .map_err(|e| format!("dsp-llc: stdout: {e}"));
    }
    std::fs::write(path, bytes).map_err(|e| format!("dsp-llc: {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_pipeliner::Pipelined;

    fn args(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    fn pipelined() -> Pipelined {
        Pipelined {
            res_mii: 2,
            rec_mii: 1,
            mii: 2,
            ii: 2,
            stages: 3,
            max_live: 9,
            kernel_copies: 2,
            min_trip: 4,
            scheduler: "sms".into(),
            schedule_us: 12,
            bottleneck: "unit alu".into(),
            recurrence: vec!["a".into(), "b".into()],
            attempts: Vec::new(),
            registers: vec![("r".into(), 9)],
            alias_checks: 0,
            trip_count: "unknown".into(),
            notes: Vec::new(),
            capped: false,
        }
    }

    fn loops() -> Vec<LoopReport> {
        let loc = Some(dsp_mir::Loc { file: "k.c".into(), line: 12, col: 3 });
        vec![
            LoopReport { function: "f".into(), loc: loc.clone(), block: ".Lf_1".into(), outcome: Ok(pipelined()) },
            LoopReport { function: "g".into(), loc, block: ".Lg_1".into(), outcome: Err("the loop contains a call".into()) },
        ]
    }

    #[test]
    fn remark_flags_are_taken_out_and_the_rest_left_for_clap() {
        let (rest, r) = Remarks::extract(args("dsp-llc -Rpass=sms -S -Rpass-missed=.* x.ll -Rpass-analysis=^sms$")).unwrap();
        assert_eq!(rest, args("dsp-llc -S x.ll"));
        assert!(Remarks::wants(&r.passed) && Remarks::wants(&r.missed) && Remarks::wants(&r.analysis));
        let (_, r) = Remarks::extract(args("dsp-llc -Rpass=loop-vectorize -Rpass-missed=pipeliner|s.s")).unwrap();
        assert!(!Remarks::wants(&r.passed) && Remarks::wants(&r.missed) && !Remarks::wants(&r.analysis));
        // The last flag of a kind counts.
        let (_, r) = Remarks::extract(args("dsp-llc -Rpass=sms -Rpass=inline")).unwrap();
        assert!(!Remarks::wants(&r.passed));
        assert!(Remarks::extract(args("dsp-llc -Rpass=(")).unwrap_err().starts_with("in pattern '-Rpass=('"));
        assert!(Remarks::extract(args("dsp-llc -Rfoo")).unwrap_err().contains("unknown remark flag '-Rfoo'"));
    }

    #[test]
    fn remarks_by_kind() {
        let l = loops();
        let (_, r) = Remarks::extract(args("dsp-llc -Rpass=sms")).unwrap();
        assert_eq!(
            r.lines(&l),
            ["k.c:12:3: remark: loop software pipelined: II=2 (ResMII=2, RecMII=1), 3 stages, MaxLive=9, 2 kernel copies [-Rpass=sms]"]
        );
        let (_, r) = Remarks::extract(args("dsp-llc -Rpass-missed=sms")).unwrap();
        assert_eq!(r.lines(&l), ["k.c:12:3: remark: loop not software pipelined: the loop contains a call [-Rpass-missed=sms]"]);
        let (_, r) = Remarks::extract(args("dsp-llc -Rpass-analysis=sms")).unwrap();
        let lines = r.lines(&l);
        assert!(lines[0].contains("ResMII=2 (unit alu), RecMII=1 (a -> b)"), "{lines:?}");
        assert!(lines.iter().all(|x| x.ends_with("[-Rpass-analysis=sms]")), "{lines:?}");
        assert!(Remarks::default().lines(&l).is_empty());
    }

    #[test]
    fn json_report_is_an_array() {
        assert_eq!(report_json(&[]), "[]\n");
        let text = report_json(&loops());
        assert!(text.starts_with("[\n  {\"function\":\"f\",") && text.ends_with("}\n]\n"), "{text}");
        assert_eq!(text.lines().count(), 4);
    }

    #[test]
    fn pipelining_by_level_and_flags() {
        let cli = |s: &str| Cli::try_parse_from(args(&format!("dsp-llc {s} x.ll"))).unwrap();
        assert!(pipeline_options(&cli("")).is_some());
        assert!(pipeline_options(&cli("-O1")).is_none());
        assert!(pipeline_options(&cli("-O1 --pipeline")).is_some());
        assert!(pipeline_options(&cli("-O0 --pipeline")).is_none());
        assert!(pipeline_options(&cli("-O3 --no-pipeline")).is_none());
        assert!(pipeline_options(&cli("-O3 --no-pipeline --pipeline")).is_some());
        assert!(pipeline_options(&cli("-O2 --pipeline --no-pipeline")).is_none());
        let p = pipeline_options(&cli("--modulo-scheduler=ilp --ilp-time-limit=2.5")).unwrap();
        assert_eq!((p.scheduler, p.ilp_time_limit), (Scheduler::Ilp, 2.5));
        assert_eq!(pipeline_options(&cli("--modulo-scheduler ims")).unwrap().scheduler, Scheduler::Ims);
        assert_eq!(pipeline_options(&cli("")).unwrap().scheduler, Scheduler::Sms);
        for bad in ["--modulo-scheduler=top-down", "--ilp-time-limit=0", "--ilp-time-limit=x"] {
            assert!(Cli::try_parse_from(args(&format!("dsp-llc {bad} x.ll"))).is_err(), "{bad}");
        }
    }
}

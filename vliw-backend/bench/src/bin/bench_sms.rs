//! `dsp-bench-sms [OPTIONS] [FILE.c...]`: the software pipeliner's loop
//! corpus benchmark (`scripts/bench-sms`; a benchmark, not a test).
//!
//! Compiles every program of the corpus — `tests/c/*.c`, `tests/c/fma/*.c`
//! (with their `// dsp-cflags:` lines) and the bench kernels
//! (`vliw-backend/bench/kernels/*.c` at their medium `-DSIZE`), or the files
//! given — with `dspcc -O2 -S --pipeline-report=FILE.json` once per modulo
//! scheduler (`--modulo-scheduler=sms|ims|ilp`, the ILP with
//! `--ilp-time-limit`), on `-j` threads, keeping each report under
//! `target/bench-sms/ISA/O2/SCHEDULER/` and reusing it while the source, its
//! headers, `dspcc`, `dsp-llc` and the command line are unchanged. Then it
//! prints the tables of [`dsp_bench::loops`]: seed 000's Table 2 side by
//! side, every loop's outcome with the top reasons, the "Done when"
//! figures and head-to-head counts. Exit status 1 when a build failed (each
//! is listed with its command line), 2 on usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime};

use clap::Parser;
use dsp_bench::json;
use dsp_bench::kernels::KERNELS;
use dsp_bench::loops::{self, DoneWhen, SchedulerRun};
use dsp_bench::runner::parallel;

#[derive(Parser)]
#[command(name = "dsp-bench-sms", about = "The software pipeliner's loop corpus: Table 2 for sms, ims and ilp")]
struct Cli {
    /// C files to use instead of the default corpus (tests/c, tests/c/fma, the bench kernels).
    files: Vec<PathBuf>,
    /// The machine: a shipped name or an .isa file.
    #[arg(long, default_value = "ftm")]
    isa: String,
    /// Optimization level (pipelining is on from -O2).
    #[arg(short = 'O', long = "opt", default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    level: u8,
    /// Modulo schedulers to compare (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "sms,ims,ilp")]
    schedulers: Vec<String>,
    /// Seconds the ILP scheduler may spend on one loop.
    #[arg(long, default_value_t = 10.0)]
    ilp_time_limit: f64,
    /// Parallel compilations (default: the number of CPUs).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Recompile everything (ignore the cached reports).
    #[arg(long)]
    fresh: bool,
    /// Compile again the files that timed out in an earlier run (by default
    /// a timeout is remembered like a report, while nothing changed).
    #[arg(long)]
    retry_timeouts: bool,
    /// Give up on one compilation after this many seconds (a file may have
    /// dozens of loops, each allowed the ILP's time limit).
    #[arg(long, default_value_t = 900)]
    timeout: u64,
    /// Address-space limit of each compilation in MiB (through `prlimit`;
    /// 0: none). The ILP's integer programs can grow very large; this keeps
    /// a run from taking the machine's memory.
    #[arg(long, default_value_t = 4096)]
    mem_limit_mb: u64,
    /// Also print every loop's II / MaxLive under each scheduler.
    #[arg(long)]
    list_loops: bool,
    /// The compiler driver (default: dspcc next to this program).
    #[arg(long)]
    dspcc: Option<PathBuf>,
    /// Use the tools where they are instead of a copy taken at the start
    /// (by default dspcc, dsp-llc and the pass plugin are copied to
    /// WORK/bin, so that a rebuild during a long run does not mix versions).
    #[arg(long)]
    no_snapshot: bool,
    /// Run the copy of the tools the last run took (WORK/bin) instead of
    /// taking a new one: re-prints the tables from the cached reports even
    /// after the toolchain was rebuilt.
    #[arg(long, conflicts_with = "no_snapshot")]
    keep_tools: bool,
    /// Compile nothing: print the tables over the files whose reports are
    /// all in the cache (a partial view while a run is going).
    #[arg(long)]
    cached_only: bool,
    /// Cache and output directory (default: target/bench-sms).
    #[arg(long)]
    work: Option<PathBuf>,
}

/// One corpus program.
#[derive(Clone, Debug)]
struct Source {
    path: PathBuf,
    /// Its name in the tables (repository-relative when it can be).
    label: String,
    flags: Vec<String>,
}

/// The `// dsp-cflags:` lines of a test program's leading comments.
fn dsp_cflags(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("// dsp-cflags:"))
        .flat_map(|f| f.split_whitespace().map(String::from).collect::<Vec<_>>())
        .collect()
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn label_of(root: &Path, p: &Path) -> String {
    let (Ok(r), Ok(a)) = (root.canonicalize(), p.canonicalize()) else { return p.display().to_string() };
    a.strip_prefix(&r).map_or(p.display().to_string(), |x| x.display().to_string())
}

fn default_corpus(root: &Path) -> Vec<Source> {
    let mut v = Vec::new();
    for dir in ["tests/c", "tests/c/fma"] {
        for p in c_files(&root.join(dir)) {
            v.push(Source { label: label_of(root, &p), flags: dsp_cflags(&p), path: p });
        }
    }
    let kdir = root.join("vliw-backend/bench/kernels");
    for k in KERNELS {
        let p = kdir.join(format!("{}.c", k.name));
        v.push(Source { label: label_of(root, &p), flags: vec![format!("-DSIZE={}", k.sizes[1])], path: p });
    }
    v
}

fn mtime(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// What one compilation gave: the report's text, or why there is none.
struct Built {
    report: Result<String, String>,
    cached: bool,
    /// Not in the cache, and `--cached-only`.
    skipped: bool,
    seconds: f64,
}

struct Setup {
    dspcc: PathBuf,
    tools: Vec<PathBuf>,
    work: PathBuf,
    isa: String,
    level: u8,
    ilp_time_limit: f64,
    fresh: bool,
    retry_timeouts: bool,
    cached_only: bool,
    timeout: Duration,
    /// `prlimit --as=BYTES --` before dspcc, when limited.
    limit: Vec<String>,
}

fn shell_quote(a: &str) -> String {
    if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_=./,:+".contains(c)) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

fn build(setup: &Setup, src: &Source, sched: &str) -> Built {
    let dir = setup.work.join(format!("O{}", setup.level)).join(sched);
    let stem = src.label.replace(['/', '\\'], "__");
    let json_path = dir.join(format!("{stem}.json"));
    let asm = dir.join(format!("{stem}.s"));
    let cmd_path = dir.join(format!("{stem}.cmd"));
    let err_path = dir.join(format!("{stem}.stderr"));
    // Line tables give the records their FILE:LINE (the code is the same).
    let mut args: Vec<String> =
        vec![format!("--isa={}", setup.isa), format!("-O{}", setup.level), "-S".into(), "-gline-tables-only".into()];
    args.extend(src.flags.iter().cloned());
    args.push(format!("--modulo-scheduler={sched}"));
    if sched == "ilp" {
        args.push(format!("--ilp-time-limit={}", setup.ilp_time_limit));
    }
    args.push(format!("--pipeline-report={}", json_path.display()));
    args.push(src.path.display().to_string());
    args.push("-o".into());
    args.push(asm.display().to_string());
    let line: String = setup
        .limit
        .iter()
        .cloned()
        .chain(std::iter::once(setup.dspcc.display().to_string()))
        .chain(args.iter().cloned())
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ");

    // The cached report (or timeout) stands while nothing it came from is newer.
    let timeout_path = dir.join(format!("{stem}.timeout"));
    if !setup.fresh {
        let mut inputs: Vec<PathBuf> = setup.tools.clone();
        inputs.push(src.path.clone());
        if let Some(d) = src.path.parent() {
            inputs.extend(
                std::fs::read_dir(d)
                    .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "h")).collect::<Vec<_>>())
                    .unwrap_or_default(),
            );
        }
        let newest = inputs.iter().filter_map(|p| mtime(p)).max();
        let fresh_for = |p: &Path| matches!((mtime(p), newest), (Some(t), Some(n)) if t >= n);
        if std::fs::read_to_string(&cmd_path).is_ok_and(|c| c == line) && fresh_for(&json_path) {
            if let Ok(text) = std::fs::read_to_string(&json_path) {
                return Built { report: Ok(text), cached: true, skipped: false, seconds: 0.0 };
            }
        }
        if !setup.retry_timeouts && std::fs::read_to_string(&timeout_path).is_ok_and(|c| c == line) && fresh_for(&timeout_path) {
            return Built {
                report: Err(format!("timed out in an earlier run (--retry-timeouts to try again)\n  reproduce: {line}")),
                cached: true,
                skipped: false,
                seconds: 0.0,
            };
        }
    }
    if setup.cached_only {
        return Built { report: Err("not in the cache".into()), cached: false, skipped: true, seconds: 0.0 };
    }

    let start = Instant::now();
    let report = (|| -> Result<String, String> {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let _ = std::fs::remove_file(&cmd_path);
        let _ = std::fs::remove_file(&timeout_path);
        let _ = std::fs::remove_file(&json_path);
        let err_file = std::fs::File::create(&err_path).map_err(|e| format!("{}: {e}", err_path.display()))?;
        let mut cmd = match setup.limit.split_first() {
            Some((prog, rest)) => {
                let mut c = Command::new(prog);
                c.args(rest).arg(&setup.dspcc);
                c
            }
            None => Command::new(&setup.dspcc),
        };
        // Its own process group, so that a timeout ends dsp-llc and clang too.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err_file)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", setup.dspcc.display()))?;
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break st,
                Ok(None) if start.elapsed() > setup.timeout => {
                    let _ = Command::new("kill").arg("-KILL").arg("--").arg(format!("-{}", child.id())).status();
                    let _ = child.kill();
                    let _ = child.wait();
                    let _ = std::fs::write(&timeout_path, &line);
                    return Err(format!("timed out after {} s\n  reproduce: {line}", setup.timeout.as_secs()));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => return Err(format!("waiting for dspcc: {e}")),
            }
        };
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        if !status.success() {
            let first: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).take(6).collect();
            return Err(format!("dspcc failed ({status}):\n    {}\n  reproduce: {line}", first.join("\n    ")));
        }
        let text = std::fs::read_to_string(&json_path)
            .map_err(|e| format!("no report {}: {e}\n  reproduce: {line}", json_path.display()))?;
        std::fs::write(&cmd_path, &line).map_err(|e| format!("{}: {e}", cmd_path.display()))?;
        Ok(text)
    })();
    Built { report, cached: false, skipped: false, seconds: start.elapsed().as_secs_f64() }
}

/// The toolchain pieces `dspcc -S` runs (next to dspcc).
const TOOLS: &[&str] = &["dspcc", "dsp-llc", "libdsp_opt_passes.so", "libdsp_frontend_plugin.so"];

/// Copies the tools next to `dspcc` into `dir`, keeping their modification
/// times (the cache compares them); returns the copy of dspcc.
fn snapshot(dspcc: &Path, dir: &Path) -> Result<PathBuf, String> {
    let from = dspcc.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for t in TOOLS {
        let src = if *t == "dspcc" { dspcc.to_path_buf() } else { from.join(t) };
        let dst = dir.join(t);
        let tmp = dir.join(format!(".{t}.tmp"));
        let time = std::fs::metadata(&src).and_then(|m| m.modified()).map_err(|e| format!("{}: {e}", src.display()))?;
        std::fs::copy(&src, &tmp).map_err(|e| format!("copying {}: {e}", src.display()))?;
        std::fs::File::options()
            .write(true)
            .open(&tmp)
            .and_then(|f| f.set_modified(time))
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &dst).map_err(|e| format!("{}: {e}", dst.display()))?;
    }
    Ok(dir.join("dspcc"))
}

/// The `prlimit` prefix for an address-space limit (none without prlimit).
fn mem_limit(mb: u64) -> Vec<String> {
    if mb == 0 {
        return Vec::new();
    }
    let found = Command::new("prlimit").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if !found.is_ok_and(|s| s.success()) {
        eprintln!("dsp-bench-sms: warning: prlimit not found, compilations run without a memory limit");
        return Vec::new();
    }
    vec!["prlimit".into(), format!("--as={}", mb.saturating_mul(1 << 20)), "--".into()]
}

fn usage_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("dsp-bench-sms: error: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    for s in &cli.schedulers {
        if !["sms", "ims", "ilp"].contains(&s.as_str()) {
            return usage_error(format!("unknown scheduler '{s}' (sms, ims, ilp)"));
        }
    }
    if !cli.ilp_time_limit.is_finite() || cli.ilp_time_limit <= 0.0 {
        return usage_error("--ilp-time-limit must be positive");
    }
    let exe_dir = std::env::current_exe().ok().and_then(|p| p.parent().map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("."));
    let mut dspcc = cli.dspcc.clone().unwrap_or_else(|| exe_dir.join("dspcc"));
    if !dspcc.exists() {
        return usage_error(format!("{} not found (cargo build --workspace --release)", dspcc.display()));
    }
    let work_root = cli.work.clone().unwrap_or_else(|| exe_dir.join("..").join("bench-sms"));
    if !cli.no_snapshot {
        // The runtime's headers stay where dspcc would have found them.
        if std::env::var_os("DSPCC_RUNTIME").is_none() {
            let rt = dspcc.parent().unwrap_or(Path::new(".")).join("..").join("runtime");
            std::env::set_var("DSPCC_RUNTIME", rt);
        }
        let bin = work_root.join("bin");
        if cli.keep_tools {
            dspcc = bin.join("dspcc");
            if !dspcc.exists() {
                return usage_error(format!("--keep-tools: {} not found (no earlier run)", dspcc.display()));
            }
        } else {
            match snapshot(&dspcc, &bin) {
                Ok(p) => dspcc = p,
                Err(e) => return usage_error(format!("snapshot of the tools: {e}")),
            }
        }
    }
    let tool_dir = dspcc.parent().map(PathBuf::from).unwrap_or_default();
    let root = repo_root();
    let sources: Vec<Source> = if cli.files.is_empty() {
        default_corpus(&root)
    } else {
        cli.files.iter().map(|p| Source { label: label_of(&root, p), flags: dsp_cflags(p), path: p.clone() }).collect()
    };
    if let Some(s) = sources.iter().find(|s| !s.path.exists()) {
        return usage_error(format!("{}: no such file", s.path.display()));
    }
    let isa_dir = Path::new(&cli.isa).file_stem().map_or(cli.isa.clone(), |s| s.to_string_lossy().to_string());
    let setup = Setup {
        tools: TOOLS.iter().map(|t| tool_dir.join(t)).collect(),
        dspcc,
        work: work_root.join(isa_dir),
        isa: cli.isa.clone(),
        level: cli.level,
        ilp_time_limit: cli.ilp_time_limit,
        fresh: cli.fresh,
        retry_timeouts: cli.retry_timeouts,
        cached_only: cli.cached_only,
        timeout: Duration::from_secs(cli.timeout),
        limit: mem_limit(cli.mem_limit_mb),
    };
    let jobs_n = dsp_bench::cli::jobs_or_cpus(cli.jobs);

    // The ILP's compilations are the long ones: start them first.
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    let mut order: Vec<usize> = (0..cli.schedulers.len()).collect();
    order.sort_by_key(|&i| (cli.schedulers[i] != "ilp", i));
    for &si in &order {
        for fi in 0..sources.len() {
            jobs.push((fi, si));
        }
    }
    eprintln!(
        "dsp-bench-sms: {} files x {} schedulers ({}), --isa={} -O{}, {} thread(s), cache {}",
        sources.len(),
        cli.schedulers.len(),
        cli.schedulers.join(","),
        cli.isa,
        cli.level,
        jobs_n,
        setup.work.display()
    );
    let start = Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = jobs.len();
    let results = parallel(&jobs, jobs_n, &|&(fi, si): &(usize, usize)| {
        let b = build(&setup, &sources[fi], &cli.schedulers[si]);
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if !b.cached && !b.skipped {
            eprintln!(
                "  [{n}/{total}] {} {} {:.1} s{}",
                cli.schedulers[si],
                sources[fi].label,
                b.seconds,
                if b.report.is_err() { " FAILED" } else { "" }
            );
        }
        b
    });
    let wall = start.elapsed().as_secs_f64();

    let mut runs: Vec<SchedulerRun> =
        cli.schedulers.iter().map(|s| SchedulerRun { name: s.clone(), ..Default::default() }).collect();
    let mut cached = 0;
    let mut compile_seconds = vec![0.0f64; runs.len()];
    // With --cached-only, files missing from the cache for any scheduler are left out.
    let left_out: std::collections::HashSet<usize> =
        jobs.iter().zip(&results).filter(|(_, r)| r.as_ref().is_some_and(|b| b.skipped)).map(|(&(fi, _), _)| fi).collect();
    for (&(fi, si), r) in jobs.iter().zip(results) {
        let src = &sources[fi];
        if left_out.contains(&fi) {
            continue;
        }
        let Some(b) = r else {
            runs[si].failures.push((src.label.clone(), String::new(), "the worker thread died".into()));
            continue;
        };
        cached += b.cached as usize;
        compile_seconds[si] += b.seconds;
        let parsed = b.report.and_then(|text| {
            let v = json::parse(&text).map_err(|e| format!("report: {e}"))?;
            loops::records_from_json(&src.label, &v)
        });
        match parsed {
            Ok(recs) => runs[si].loops.extend(loops::keyed(recs)),
            Err(e) => runs[si].failures.push((src.label.clone(), String::new(), e)),
        }
    }

    let all = loops::all_keys(&runs);
    println!(
        "== bench-sms: --isa={} -O{}, {} programs ({} compilations, {} from the cache, {:.0} s wall); ILP time limit {} s per loop",
        cli.isa,
        cli.level,
        sources.len(),
        total,
        cached,
        wall,
        cli.ilp_time_limit
    );
    let compiled: Vec<String> =
        runs.iter().zip(&compile_seconds).map(|(r, s)| format!("{} {:.0} s", r.name, s)).collect();
    println!("   compile time of the non-cached builds: {}", compiled.join(", "));
    if !left_out.is_empty() {
        println!("   --cached-only: {} of {} programs left out (not in the cache for every scheduler)", left_out.len(), sources.len());
    }
    println!("   innermost loops (candidates, pipelined or not): {}", all.len());
    println!();
    println!("{}", loops::table2(&runs));
    let sms = runs.iter().find(|r| r.name == "sms");
    let ilp = runs.iter().find(|r| r.name == "ilp");
    if let (Some(s), Some(i)) = (sms, ilp) {
        println!("{}", DoneWhen::compute(s, i).render());
    }
    if runs.len() > 1 {
        println!("{}", loops::head_to_head(&runs));
    }
    if cli.list_loops {
        println!("{}", list_loops(&runs, &all));
    }
    let failures: usize = runs.iter().map(|r| r.failures.len()).sum();
    for r in &runs {
        for (file, _, why) in &r.failures {
            println!("!! {} {file}: {why}", r.name);
        }
    }
    if failures > 0 {
        println!("dsp-bench-sms: {failures} compilation(s) failed");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Every loop: MII and, per scheduler, II/MaxLive or `-` (not pipelined).
fn list_loops(runs: &[SchedulerRun], keys: &[loops::LoopKey]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = write!(s, "{:<64} {:>4}", "loop", "MII");
    for r in runs {
        let _ = write!(s, " {:>12}", format!("{} II/live", r.name));
    }
    let _ = writeln!(s, "  (not pipelined: the first scheduler's reason)");
    for k in keys {
        let rec = runs.iter().find_map(|r| r.loops.get(k));
        let name = rec.map_or(format!("{} {}", k.0, k.1), |r| r.describe());
        let mii = runs.iter().find_map(|r| r.loops.get(k).and_then(|l| l.outcome.as_ref().ok()).map(|p| p.mii));
        let _ = write!(s, "{:<64} {:>4}", name, mii.map_or("-".to_string(), |m| m.to_string()));
        for r in runs {
            let cell = match r.loops.get(k).map(|l| &l.outcome) {
                Some(Ok(p)) => format!("{}/{}{}", p.ii, p.max_live, if p.capped { "c" } else { "" }),
                Some(Err(_)) => "-".to_string(),
                None => "?".to_string(),
            };
            let _ = write!(s, " {cell:>12}");
        }
        if let Some(Err(why)) = rec.map(|r| &r.outcome) {
            let _ = write!(s, "  {why}");
        }
        let _ = writeln!(s);
    }
    s
}

//! Differential tests of the C toolchain: every program in `tests/c/` is
//! built for the host with `cc -m32` (ILP32, so C type sizes agree with the
//! DSP ABI) and with `dspcc` for each (machine, -O level), and run; stdout,
//! stderr and the exit status must match exactly.
//!
//! - Host reference: `cc -m32 -std=c11 -msse2 -mfpmath=sse -ffp-contract=off
//!   -O2 PROG.c -lm`. `-msse2 -mfpmath=sse` makes `double` arithmetic IEEE
//!   binary64 (FLT_EVAL_METHOD 0) instead of x87 extended precision; builtins
//!   (`__builtin_popcount`, inlined `memcpy`, …) are allowed on both sides.
//! - DSP: `dspcc --isa=M -OL -ffp-contract=off PROG.c -o EXE -lm`, run with
//!   `dsp-sim --strict --max-cycles N EXE`.
//! - Matrix: `ftm` at -O0…-O3, every other shipped machine and every test
//!   machine of `tests/machines/` (the FPU-less `ftm_nofpu`: all float
//!   arithmetic through the runtime's soft-float routines) at -O2; with
//!   `DIFF_FULL=1` (or `DSP_TEST_MATRIX=full`, as `scripts/test-full` sets)
//!   every machine at every level. `DSP_TEST_ISA=FILE.isa[,FILE.isa…]`
//!   (`scripts/test --isa FILE.isa`) runs the given machine files at every
//!   level instead (their runtime built by `scripts/build-runtime FILE.isa`).
//!   The contracted-fp programs run on machines with a fused multiply-add only.
//!   `DIFF_FILTER=SUBSTRING` restricts the programs by name.
//! - Contracted floating point (`tests/c/fma/`): the host reference is built
//!   with `-DREF_FMA` (explicit `fma`/`fmaf`), the DSP build with the flags in
//!   the program's `// dsp-cflags:` line (`-ffp-contract=on`: each source
//!   `a*b+c` becomes `llvm.fmuladd`, which must use the fused MAC units).
//! - csmith: the regression set (`tests/csmith/SEED.c` with `SEED.expected`)
//!   over the matrix, and `scripts/fuzz-csmith 55 1` (fresh programs at -O0
//!   and -O2 on `ftm`; with the few the host cannot run or that have
//!   undefined behaviour skipped, at least 50 are compared).
//!
//! A program's leading `//` lines may say `expect-exit: N` (default 0),
//! `host-cflags: …` and `dsp-cflags: …` (extra flags for one side).
//!
//! The host tests validate the corpus itself (-O0 and -O2 and, when clang-19
//! is installed, clang must all agree, with the declared status); the DSP
//! tests need the tools and the C runtime that scripts/test builds first.
//! Build products stay in `target/e2e/PROFILE/differential-*/` for inspection.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dsp_e2e_tests::{machines, tool};

/// Host flags shared by every reference build (see the module comment).
const HOST_FLAGS: &[&str] = &[
    "-m32",
    "-std=c11",
    "-msse2",
    "-mfpmath=sse",
    "-ffp-contract=off",
];
/// Wall-clock limit of one host run or one compile.
const HOST_LIMIT: Duration = Duration::from_secs(60);
/// Cycle limit of one simulated run, and its wall-clock guard.
const MAX_CYCLES: u64 = 2_000_000_000;
const SIM_LIMIT: Duration = Duration::from_secs(600);
/// The -O levels of the full matrix.
const LEVELS: [u8; 4] = [0, 1, 2, 3];
/// Where Debian's libcsmith-dev puts csmith.h.
const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// The repository root, as seen when this file was compiled. (Not the
/// library's `root()`: checkouts sharing a target folder can leave the
/// library built from another checkout.)
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A fresh scratch folder `target/e2e/PROFILE/NAME` of this checkout (per
/// profile, so that debug and release runs do not remove each other's files).
fn scratch(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    // target/<profile>/deps/<test>
    let profile = exe.parent().and_then(Path::parent).and_then(Path::file_name);
    let profile = profile.map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|| "any".into());
    let dir = root().join("target").join("e2e").join(profile).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// One C program of the corpus and its header directives.
#[derive(Debug)]
struct Program {
    src: PathBuf,
    name: String,
    expect_exit: i32,
    host_cflags: Vec<String>,
    dsp_cflags: Vec<String>,
    lines: usize,
    has_topic: bool,
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Outcome {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    timed_out: bool,
}

fn parse_program(src: &Path) -> Program {
    let text = std::fs::read_to_string(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    let name = src.file_stem().unwrap().to_string_lossy().into_owned();
    let mut p = Program {
        src: src.to_path_buf(),
        has_topic: text.starts_with(&format!("// {name}: ")),
        name,
        expect_exit: 0,
        host_cflags: Vec::new(),
        dsp_cflags: Vec::new(),
        lines: text.lines().count(),
    };
    for line in text.lines().take_while(|l| l.starts_with("//")) {
        let body = line.trim_start_matches('/').trim();
        if let Some(v) = body.strip_prefix("expect-exit:") {
            p.expect_exit = v
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{}: bad expect-exit line", src.display()));
        } else if let Some(v) = body.strip_prefix("host-cflags:") {
            p.host_cflags = v.split_whitespace().map(String::from).collect();
        } else if let Some(v) = body.strip_prefix("dsp-cflags:") {
            p.dsp_cflags = v.split_whitespace().map(String::from).collect();
        }
    }
    p
}

/// The `.c` files of a corpus folder under `tests/`, sorted, filtered by `DIFF_FILTER`.
fn corpus(dir: &str) -> Vec<Program> {
    let filter = std::env::var("DIFF_FILTER").unwrap_or_default();
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(root().join("tests").join(dir))
        .unwrap_or_else(|e| panic!("tests/{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| p.file_stem().unwrap().to_string_lossy().contains(&filter))
        .collect();
    srcs.sort();
    srcs.iter().map(|s| parse_program(s)).collect()
}

/// Runs a command with a wall-clock limit, collecting its output.
fn run_limited(cmd: &mut Command, limit: Duration) -> Result<Outcome, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                timed_out = true;
                break child.wait().map_err(|e| e.to_string())?;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {cmd:?}: {e}")),
        }
    };
    Ok(Outcome {
        status: status.code(),
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        timed_out,
    })
}

/// Compiles with a command; Err carries the compiler's messages.
fn compile(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let out = run_limited(cmd, HOST_LIMIT)?;
    if out.timed_out {
        return Err(format!("{shown}: timed out"));
    }
    if out.status != Some(0) {
        return Err(format!(
            "{shown} failed:\n{}{}",
            text(&out.stdout),
            text(&out.stderr)
        ));
    }
    Ok(())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The host C compiler: `HOST_CC` or `cc`.
fn host_cc() -> String {
    std::env::var("HOST_CC").unwrap_or_else(|_| "cc".into())
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Builds `p` for the host with `cc` at `opt` plus `extra` flags.
fn host_build(cc: &str, p: &Program, opt: &str, extra: &[&str], exe: &Path) -> Result<(), String> {
    compile(
        Command::new(cc)
            .args(HOST_FLAGS)
            .arg(opt)
            .args(&p.host_cflags)
            .args(extra)
            .arg(&p.src)
            .arg("-o")
            .arg(exe)
            .arg("-lm"),
    )
    .map_err(|e| {
        if e.contains("stubs-32.h") || e.contains("cannot find -lgcc") {
            format!("{e}\n(the -m32 host build needs gcc-multilib: scripts/install-deps)")
        } else {
            e
        }
    })
}

fn host_run(exe: &Path) -> Result<Outcome, String> {
    run_limited(&mut Command::new(exe), HOST_LIMIT)
}

/// Builds `p` with dspcc for `machine` (a name or a `.isa` file) at
/// `-O{level}`; the program's `dsp-cflags` come last, so they win.
fn dsp_build(p: &Program, machine: &str, level: u8, exe: &Path) -> Result<(), String> {
    compile(
        Command::new(tool("dspcc"))
            .arg(format!("--isa={machine}"))
            .arg(format!("-O{level}"))
            .arg("-ffp-contract=off")
            .args(&p.dsp_cflags)
            .arg(&p.src)
            .arg("-o")
            .arg(exe)
            .arg("-lm"),
    )
}

fn dsp_run(machine: &str, exe: &Path) -> Result<Outcome, String> {
    run_limited(
        Command::new(tool("dsp-sim"))
            .arg("--isa")
            .arg(machine)
            .arg("--strict")
            .arg("--max-cycles")
            .arg(MAX_CYCLES.to_string())
            .arg(exe),
        SIM_LIMIT,
    )
}

/// Runs `f` over `items` on as many threads as there are cores, keeping the order.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

/// Describes how `actual` differs from `expected`, or None when they agree.
fn difference(expected: &Outcome, actual: &Outcome) -> Option<String> {
    let mut why = Vec::new();
    if actual.timed_out {
        why.push("timed out".to_string());
    }
    if expected.status != actual.status {
        let note = match actual.status {
            Some(124) => " (dsp-sim: cycle limit)",
            Some(125) => " (dsp-sim: fault or hazard)",
            _ => "",
        };
        why.push(format!(
            "exit status {:?}, expected {:?}{note}",
            actual.status, expected.status
        ));
    }
    for (stream, e, a) in [
        ("stdout", &expected.stdout, &actual.stdout),
        ("stderr", &expected.stderr, &actual.stderr),
    ] {
        if e != a {
            why.push(format!("{stream} differs: {}", first_difference(e, a)));
        }
    }
    if why.is_empty() {
        None
    } else {
        if !actual.stderr.is_empty() && expected.stderr != actual.stderr {
            why.push(format!("stderr was:\n{}", tail(&text(&actual.stderr), 800)));
        }
        Some(why.join("; "))
    }
}

/// The first differing line of two outputs, both versions shown.
fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let (e, a) = (text(expected), text(actual));
    let (el, al): (Vec<&str>, Vec<&str>) = (e.split('\n').collect(), a.split('\n').collect());
    for i in 0..el.len().max(al.len()) {
        let (x, y) = (el.get(i).copied(), al.get(i).copied());
        if x != y {
            return format!(
                "line {}: expected {:?}, got {:?} ({} vs {} bytes)",
                i + 1,
                x.unwrap_or("<end>"),
                y.unwrap_or("<end>"),
                expected.len(),
                actual.len()
            );
        }
    }
    "same lines".into()
}

fn tail(s: &str, n: usize) -> &str {
    let mut start = s.len().saturating_sub(n);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

/// The machine files given by `DSP_TEST_ISA` (comma-separated), if any.
fn isa_override() -> Option<Vec<String>> {
    let v = std::env::var("DSP_TEST_ISA").ok().filter(|v| !v.trim().is_empty())?;
    Some(v.split(',').map(|f| f.trim().to_string()).filter(|f| !f.is_empty()).collect())
}

/// The test machines of `tests/machines/` (fixtures, not shipped), sorted.
fn test_machines() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("tests/machines"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "isa"))
        .map(|p| p.display().to_string())
        .collect();
    v.sort();
    v
}

/// Whether a machine has fused multiply-add instructions for f32 and f64.
fn has_fma(machine: &str) -> bool {
    let m = isa_tablegen::Machine::load(machine).unwrap_or_else(|e| panic!("{e}"));
    [isa_tablegen::Ty::F32, isa_tablegen::Ty::F64]
        .iter()
        .all(|&t| m.instrs.iter().any(|i| i.sem.op == isa_tablegen::SemOp::Mac && i.sem.ty == Some(t)))
}

/// The (machine, level) pairs to run: `ftm` at every level, the other
/// shipped machines and the test machines at -O2, or everything with
/// `DIFF_FULL=1`; the machine files of `DSP_TEST_ISA` at every level
/// instead when set.
fn matrix() -> Vec<(String, u8)> {
    if let Some(files) = isa_override() {
        return files.iter().flat_map(|f| LEVELS.map(|l| (f.clone(), l))).collect();
    }
    let full = std::env::var("DIFF_FULL").is_ok_and(|v| v != "0" && !v.is_empty())
        || std::env::var("DSP_TEST_MATRIX").is_ok_and(|v| v == "full");
    let mut m = Vec::new();
    let all = machines().into_iter().map(String::from).chain(test_machines());
    for machine in all {
        for level in LEVELS {
            if full || machine == isa_tablegen::builtin::DEFAULT || level == 2 {
                m.push((machine.clone(), level));
            }
        }
    }
    m
}

/// A short name of a machine for file names and messages (a file's stem).
fn machine_label(machine: &str) -> String {
    Path::new(machine).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| machine.to_string())
}

/// Fails the test with every collected failure.
fn report(what: &str, runs: usize, failures: Vec<String>) {
    if !failures.is_empty() {
        panic!(
            "{what}: {} of {runs} runs failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
    eprintln!("{what}: {runs} runs agree");
}

/// Builds and runs the host reference of every program (at -O2 with `extra`).
fn host_references(progs: &[Program], dir: &Path, extra: &[&str]) -> Vec<Result<Outcome, String>> {
    let cc = host_cc();
    parallel_map(progs, |p| {
        let exe = dir.join(format!("{}.host", p.name));
        host_build(&cc, p, "-O2", extra, &exe)?;
        host_run(&exe)
    })
}

/// Compiles every program with dspcc over the matrix and compares with the references.
fn compare_with_dsp(
    what: &str,
    progs: &[Program],
    references: &[Result<Outcome, String>],
    dir: &Path,
    keep: impl Fn(&str) -> bool,
) {
    let mut jobs = Vec::new();
    let mut failures = Vec::new();
    let runs: Vec<(String, u8)> = matrix().into_iter().filter(|(m, _)| keep(m)).collect();
    for (p, r) in progs.iter().zip(references) {
        match r {
            Ok(reference) => {
                for (machine, level) in &runs {
                    jobs.push((p, reference, machine.as_str(), *level));
                }
            }
            Err(e) => failures.push(format!("{}: host reference: {e}", p.name)),
        }
    }
    let results = parallel_map(&jobs, |&(p, reference, machine, level)| {
        let name = machine_label(machine);
        let exe = dir.join(format!("{}.{name}.O{level}", p.name));
        let label = format!("{} on {name} at -O{level}", p.name);
        if let Err(e) = dsp_build(p, machine, level, &exe) {
            return Some(format!("{label}: dspcc: {e}"));
        }
        match dsp_run(machine, &exe) {
            Err(e) => Some(format!("{label}: {e}")),
            Ok(actual) => difference(reference, &actual).map(|d| format!("{label}: {d}")),
        }
    });
    failures.extend(results.into_iter().flatten());
    report(what, jobs.len(), failures);
}

#[test]
fn corpus_has_at_least_80_well_formed_programs() {
    let progs = corpus("c");
    if std::env::var("DIFF_FILTER").is_ok() {
        return;
    }
    assert!(
        progs.len() >= 80,
        "only {} programs in tests/c",
        progs.len()
    );
    for p in progs.iter().chain(corpus("c/fma").iter()) {
        assert!(
            p.has_topic,
            "{}: the first line must be `// {}: <topic>`",
            p.src.display(),
            p.name
        );
        assert!(
            (30..=200).contains(&p.lines),
            "{}: {} lines (30 to 200 wanted)",
            p.src.display(),
            p.lines
        );
    }
}

#[test]
fn host_builds_agree_at_o0_and_o2_and_exit_as_declared() {
    let progs = corpus("c");
    let dir = scratch("differential-host");
    let cc = host_cc();
    let clang = have("clang-19");
    let results = parallel_map(&progs, |p| -> Result<(), String> {
        let mut builds = vec![(cc.as_str(), "-O0"), (cc.as_str(), "-O2")];
        if clang {
            builds.push(("clang-19", "-O2"));
        }
        let mut first: Option<(String, Outcome)> = None;
        for (compiler, opt) in builds {
            let exe = dir.join(format!("{}.{compiler}{opt}", p.name));
            host_build(compiler, p, opt, &["-Wall", "-Wextra", "-Werror"], &exe)?;
            let out = host_run(&exe)?;
            let label = format!("{compiler} {opt}");
            if out.status != Some(p.expect_exit) || out.timed_out {
                return Err(format!(
                    "{label}: exit status {:?}, declared {}",
                    out.status, p.expect_exit
                ));
            }
            if out.stdout.is_empty() {
                return Err(format!("{label}: printed nothing"));
            }
            match &first {
                None => first = Some((label, out)),
                Some((l0, o0)) => {
                    if let Some(d) = difference(o0, &out) {
                        return Err(format!("{label} disagrees with {l0}: {d}"));
                    }
                }
            }
        }
        Ok(())
    });
    let failures: Vec<String> = progs
        .iter()
        .zip(results)
        .filter_map(|(p, r)| r.err().map(|e| format!("{}: {e}", p.name)))
        .collect();
    report("host corpus", progs.len(), failures);
}

/// Whether the host CPU has FMA instructions (to check the contracted builds natively).
fn host_has_fma() -> bool {
    std::fs::read_to_string("/proc/cpuinfo")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("flags") && l.split_whitespace().any(|f| f == "fma"))
        })
        .unwrap_or(false)
}

#[test]
fn fma_references_agree_on_the_host() {
    let progs = corpus("c/fma");
    let dir = scratch("differential-fma-host");
    let cc = host_cc();
    let native = have("clang-19") && host_has_fma();
    let results = parallel_map(&progs, |p| -> Result<(), String> {
        let mut outs = Vec::new();
        for opt in ["-O0", "-O2"] {
            let exe = dir.join(format!("{}.ref{opt}", p.name));
            host_build(
                &cc,
                p,
                opt,
                &["-DREF_FMA", "-Wall", "-Wextra", "-Werror"],
                &exe,
            )?;
            outs.push((format!("REF_FMA {opt}"), host_run(&exe)?));
        }
        if native {
            // clang's per-expression contraction on a CPU with FMA: what the DSP build does.
            let exe = dir.join(format!("{}.native", p.name));
            let mut cmd = Command::new("clang-19");
            cmd.args(["-m32", "-std=c11", "-msse2", "-mfpmath=sse", "-O2", "-mfma"]);
            // The program's contraction flag only: its other DSP flags (our
            // optimizations' switches) mean nothing to the host's clang.
            cmd.arg("-ffp-contract=off").args(p.dsp_cflags.iter().filter(|f| f.starts_with("-ffp-contract")));
            compile(cmd.arg(&p.src).arg("-o").arg(&exe).arg("-lm"))?;
            outs.push(("clang -mfma".into(), host_run(&exe)?));
        }
        let (l0, o0) = &outs[0];
        if o0.status != Some(p.expect_exit) {
            return Err(format!("{l0}: exit status {:?}", o0.status));
        }
        for (l, o) in &outs[1..] {
            if let Some(d) = difference(o0, o) {
                return Err(format!("{l} disagrees with {l0}: {d}"));
            }
        }
        Ok(())
    });
    let failures: Vec<String> = progs
        .iter()
        .zip(results)
        .filter_map(|(p, r)| r.err().map(|e| format!("{}: {e}", p.name)))
        .collect();
    assert!(
        progs.len() >= 2 || std::env::var("DIFF_FILTER").is_ok(),
        "tests/c/fma has too few programs"
    );
    report("host fma references", progs.len(), failures);
}

/// The csmith regression programs (`tests/csmith/SEED.c`) and their expected runs.
fn csmith_set() -> (Vec<Program>, Vec<Outcome>) {
    let mut progs = corpus("csmith");
    let mut expected = Vec::new();
    for p in &mut progs {
        let stdout = std::fs::read(p.src.with_extension("expected"))
            .unwrap_or_else(|_| panic!("{}: missing .expected file", p.src.display()));
        expected.push(Outcome {
            status: Some(0),
            stdout,
            stderr: Vec::new(),
            timed_out: false,
        });
        p.dsp_cflags = vec!["-w".into(), format!("-I{CSMITH_INCLUDE}")];
        // The DSP aligns int64_t at 8 inside structures, i386 at 4; csmith's
        // unions can observe that (seed 42290), so the host build takes the
        // DSP's layout, as scripts/fuzz-csmith's reference does.
        p.host_cflags = p.dsp_cflags.iter().cloned().chain(["-malign-double".into()]).collect();
    }
    (progs, expected)
}

#[test]
fn csmith_regression_outputs_match_the_host() {
    let (progs, expected) = csmith_set();
    let dir = scratch("differential-csmith-host");
    let references = host_references(&progs, &dir, &[]);
    let failures: Vec<String> = progs
        .iter()
        .zip(references.iter().zip(&expected))
        .filter_map(|(p, (r, want))| {
            let problem = match r {
                Err(e) => Some(e.clone()),
                Ok(out) => difference(want, out),
            };
            problem.map(|e| format!("{}: {e}", p.name))
        })
        .collect();
    report("csmith regression set on the host", progs.len(), failures);
}

#[test]
fn dsp_builds_match_the_host() {
    let progs = corpus("c");
    let dir = scratch("differential-dsp");
    let references = host_references(&progs, &dir, &[]);
    compare_with_dsp("differential", &progs, &references, &dir, |_| true);
}

#[test]
fn dsp_contracted_fp_matches_host_fma() {
    let progs = corpus("c/fma");
    let dir = scratch("differential-fma");
    let references = host_references(&progs, &dir, &["-DREF_FMA"]);
    // Without a fused instruction, llvm.fmuladd is a multiply and an add.
    compare_with_dsp("contracted fp", &progs, &references, &dir, has_fma);
}

#[test]
fn dsp_csmith_regression_set_matches() {
    let (progs, expected) = csmith_set();
    let dir = scratch("differential-csmith");
    let references: Vec<Result<Outcome, String>> = expected.into_iter().map(Ok).collect();
    // Shipped machines only (csmith's programs have no floating point).
    let shipped: Vec<&str> = machines();
    compare_with_dsp("csmith regression set", &progs, &references, &dir, |m| {
        shipped.contains(&m) || isa_override().is_some()
    });
}

/// The csmith programs CI fuzzes: the issue asks for at least 50, and a few
/// of seeds 1..55 are skipped (host timeouts, undefined behaviour), so 55.
const CSMITH_CI_PROGRAMS: u32 = 55;

#[test]
fn csmith_fuzz_ci_programs() {
    // The tools of this test's own profile: target/<profile>/dspcc.
    let profile = tool("dspcc")
        .parent()
        .and_then(Path::file_name)
        .map(|p| p.to_string_lossy().into_owned());
    let out = run_limited(
        Command::new(root().join("scripts/fuzz-csmith"))
            .arg(CSMITH_CI_PROGRAMS.to_string())
            .arg("1")
            .env("PROFILE", profile.unwrap_or_else(|| "release".into())),
        Duration::from_secs(4 * 3600),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status == Some(0) && !out.timed_out,
        "scripts/fuzz-csmith {CSMITH_CI_PROGRAMS} 1 failed ({:?}):\n{}{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    // "fuzz-csmith: all N compared programs match (seeds …)"
    let stdout = text(&out.stdout);
    let compared: u32 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("fuzz-csmith: all ")?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no summary line in:\n{stdout}"));
    assert!(compared >= 50, "only {compared} csmith programs were compared:\n{stdout}");
}

#[test]
fn matrix_covers_the_default_machine_at_every_level() {
    if isa_override().is_some() {
        return;
    }
    let m = matrix();
    for level in LEVELS {
        assert!(m.contains(&(isa_tablegen::builtin::DEFAULT.to_string(), level)));
    }
    for machine in machines() {
        assert!(m.contains(&(machine.to_string(), 2)), "{machine} at -O2 missing");
    }
    let fixtures = test_machines();
    assert!(fixtures.iter().any(|f| f.ends_with("ftm_nofpu.isa")), "{fixtures:?}");
    for f in &fixtures {
        assert!(m.contains(&(f.clone(), 2)), "{f} at -O2 missing");
        assert!(!has_fma(f) || !f.ends_with("ftm_nofpu.isa"), "ftm_nofpu must have no floating point");
    }
}

#[test]
fn differences_name_the_first_differing_line() {
    let e = Outcome {
        status: Some(0),
        stdout: b"a\nb\nc\n".to_vec(),
        stderr: Vec::new(),
        timed_out: false,
    };
    assert_eq!(difference(&e, &e.clone()), None);
    let mut a = e.clone();
    a.stdout = b"a\nB\nc\n".to_vec();
    a.status = Some(125);
    let d = difference(&e, &a).unwrap();
    assert!(
        d.contains("line 2") && d.contains("\"B\"") && d.contains("fault"),
        "{d}"
    );
}

//! `dsp-fuzz-tools` (run through `scripts/fuzz-tools`): a mutation fuzzer
//! of the toolchain's command-line tools over their real inputs.
//!
//! For each tool it builds a corpus of real inputs (the shipped and test
//! `.isa` files, the tests' assembly and `dspcc -S` output, objects,
//! executables and archives built from `tests/c`, `.ll` files from
//! `dspcc -S -emit-llvm`, the C programs themselves), then runs the tool on
//! `--count` inputs, each a mutation of a corpus file (bit flips,
//! truncation, splicing, huge numbers, deep nesting, long lines, non-UTF-8
//! and NUL bytes, ELF and `ar` size/offset fields past the file or at
//! gigabytes) or a structure-aware one (random assembly from the machine's
//! instruction list, IR and C from small grammars, `.isa` declarations
//! copied, dropped and pushed to extremes). Every run has a time and a
//! memory limit; a panic, a death by signal, a timeout or a memory blow-up
//! is a finding, kept under `--out` with a reproducer reduced by delta
//! debugging, its command line and the tool's stderr. A clean non-zero exit
//! with an `error:` message is not a finding.
//!
//! The inputs depend only on `--seed` (and the corpus): the same seed runs
//! the same inputs. Exit status 1 when anything was found.

mod gen;
mod mutate;
mod reduce;
mod run;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mutate::R;
use run::{Kind, Limits, Outcome};

const USAGE: &str = "usage: dsp-fuzz-tools [--tool T[,T...]] [--count N] [--seed S] [--out DIR] [--jobs J]
                      [--time SECONDS] [--mem MIB] [--corpus K] [--reduce N]
  --tool     isa-tablegen, dsp-as, dsp-objdump, dsp-ld, dsp-ar, dsp-sim, dsp-llc, dspcc (default: all)
  --count    inputs per tool (default 200)
  --seed     the seed the inputs are drawn from (default 1)
  --out      where the corpus, the scratch folders and the findings go (default target/fuzz-tools/SEED)
  --jobs     runs at a time (default 2)
  --time     CPU seconds one run (the tool and what it runs) may take (default 5; 4 times that of wall-clock time)
  --mem      MiB of address space one run may use (default 1024)
  --corpus   C programs of tests/c the corpus is built from (default 8)
  --reduce   findings per tool and kind that are reduced (default 3; the others are kept as they are)";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tool {
    IsaTablegen,
    As,
    Objdump,
    Ld,
    Ar,
    Sim,
    Llc,
    Cc,
}

const TOOLS: &[Tool] = &[Tool::IsaTablegen, Tool::As, Tool::Objdump, Tool::Ld, Tool::Ar, Tool::Sim, Tool::Llc, Tool::Cc];

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::IsaTablegen => "isa-tablegen",
            Tool::As => "dsp-as",
            Tool::Objdump => "dsp-objdump",
            Tool::Ld => "dsp-ld",
            Tool::Ar => "dsp-ar",
            Tool::Sim => "dsp-sim",
            Tool::Llc => "dsp-llc",
            Tool::Cc => "dspcc",
        }
    }
}

struct Args {
    tools: Vec<Tool>,
    count: usize,
    seed: u64,
    out: PathBuf,
    jobs: usize,
    limits: Limits,
    corpus: usize,
    reduce: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        tools: TOOLS.to_vec(),
        count: 200,
        seed: 1,
        out: PathBuf::new(),
        jobs: 2,
        limits: Limits { time: Duration::from_secs(5), mem_bytes: 1 << 30 },
        corpus: 8,
        reduce: 3,
    };
    let mut out = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if key == "-h" || key == "--help" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let mut value = || inline.clone().or_else(|| it.next()).ok_or(format!("{key} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|_| format!("{key}: not a number: '{v}'"));
        match key.as_str() {
            "--tool" => {
                let v = value()?;
                a.tools = v
                    .split(',')
                    .map(|t| TOOLS.iter().copied().find(|x| x.name() == t).ok_or(format!("unknown tool '{t}'")))
                    .collect::<Result<_, _>>()?;
            }
            "--count" => a.count = num(value()?)? as usize,
            "--seed" => a.seed = num(value()?)?,
            "--out" => out = Some(PathBuf::from(value()?)),
            "--jobs" => a.jobs = (num(value()?)? as usize).max(1),
            "--time" => a.limits.time = Duration::from_secs_f64(value()?.parse().map_err(|_| "--time: not a number")?),
            "--mem" => a.limits.mem_bytes = num(value()?)? << 20,
            "--corpus" => a.corpus = (num(value()?)? as usize).max(1),
            "--reduce" => a.reduce = num(value()?)? as usize,
            _ => return Err(format!("unknown argument '{arg}'")),
        }
    }
    a.out = out.unwrap_or_else(|| root().join("target/fuzz-tools").join(a.seed.to_string()));
    Ok(a)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

/// The built tools: next to this binary.
fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("own path");
    exe.parent().unwrap().join(name)
}

// ------------------------------------------------------------------ corpus

struct Corpus {
    isa: Vec<Vec<u8>>,
    asm: Vec<Vec<u8>>,
    obj: Vec<Vec<u8>>,
    exe: Vec<Vec<u8>>,
    ar: Vec<Vec<u8>>,
    ll: Vec<Vec<u8>>,
    c: Vec<Vec<u8>>,
    ir_header: String,
    machine: isa_tablegen::Machine,
    /// The shipped machines' text, and corpus files on disk, for the runs
    /// of a tool with a varied machine (`--isa` the input).
    machines: Vec<Vec<u8>>,
    asm_paths: Vec<PathBuf>,
    ll_paths: Vec<PathBuf>,
    /// Files the commands name besides the input.
    crt0: PathBuf,
    libc: PathBuf,
    libm: PathBuf,
    extra_obj: PathBuf,
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == ext)).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn quiet(cmd: &mut Command) -> bool {
    cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).status().is_ok_and(|s| s.success())
}

fn build_corpus(args: &Args) -> Result<Corpus, String> {
    let root = root();
    let dir = args.out.join("corpus");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let runtime = root.join("target/runtime/ftm");
    let (crt0, libc, libm) = (runtime.join("crt0.o"), runtime.join("libc.a"), runtime.join("libm.a"));
    for f in [&crt0, &libc, &libm] {
        if !f.exists() {
            return Err(format!("{} is missing: run scripts/build-runtime first", f.display()));
        }
    }
    let mut c = Corpus {
        isa: vec![],
        asm: vec![],
        obj: vec![],
        exe: vec![],
        ar: vec![read(&libm)?],
        ll: vec![],
        c: vec![],
        ir_header: String::new(),
        machine: isa_tablegen::Machine::load("ftm").map_err(|e| e.to_string())?,
        machines: vec![],
        asm_paths: vec![],
        ll_paths: vec![],
        crt0,
        libc,
        libm,
        extra_obj: PathBuf::new(),
    };
    for f in files(&root.join("isa-tablegen/machines"), "isa") {
        c.machines.push(read(&f)?);
    }
    for d in ["isa-tablegen/machines", "tests/machines", "isa-tablegen/tests/good", "vliw-backend/modsched/tests/machines"] {
        for f in files(&root.join(d), "isa") {
            c.isa.push(read(&f)?);
        }
    }
    let mut asm_files = files(&root.join("tests/asm"), "s");
    asm_files.push(root.join("vliw-backend/runtime/crt0.s"));
    asm_files.extend(files(&root.join("vliw-backend/runtime/libprint"), "s"));
    asm_files.push(root.join("vliw-backend/examples/dotprod.s"));
    for (i, f) in asm_files.iter().enumerate() {
        c.asm.push(read(f)?);
        c.asm_paths.push(f.clone());
        let o = dir.join(format!("asm{i}.o"));
        if quiet(Command::new(bin("dsp-as")).arg("-o").arg(&o).arg(f)) {
            c.obj.push(read(&o)?);
        }
    }
    // C programs of tests/c: the small ones, spread over the alphabet.
    let mut cs: Vec<PathBuf> =
        files(&root.join("tests/c"), "c").into_iter().filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= 3000)).collect();
    let step = (cs.len() / args.corpus.max(1)).max(1);
    cs = cs.into_iter().step_by(step).take(args.corpus).collect();
    let dspcc = bin("dspcc");
    let mut objs = vec![];
    for (i, f) in cs.iter().enumerate() {
        c.c.push(read(f)?);
        let base = dir.join(format!("c{i}"));
        let p = |ext: &str| base.with_extension(ext);
        let opt = ["-O0", "-O1", "-O2", "-O3"][i % 4];
        if quiet(Command::new(&dspcc).args([opt, "-S", "-w", "-o"]).arg(p("s")).arg(f)) {
            c.asm.push(read(&p("s"))?);
            if quiet(Command::new(bin("dsp-as")).arg("-o").arg(p("o")).arg(p("s"))) {
                c.obj.push(read(&p("o"))?);
                objs.push(p("o"));
                if quiet(Command::new(&dspcc).arg("-o").arg(p("exe")).arg(p("o"))) {
                    c.exe.push(read(&p("exe"))?);
                }
            }
        }
        if quiet(Command::new(&dspcc).args([opt, "-S", "-emit-llvm", "-w", "-o"]).arg(p("ll")).arg(f)) {
            c.ll.push(read(&p("ll"))?);
            c.ll_paths.push(p("ll"));
        }
    }
    if objs.len() >= 2 {
        let a = dir.join("small.a");
        if quiet(Command::new(bin("dsp-ar")).arg("rcs").arg(&a).args(&objs[..objs.len().min(4)])) {
            c.ar.push(read(&a)?);
        }
        c.extra_obj = objs[0].clone();
    }
    if let Some(ll) = c.ll.first() {
        let text = String::from_utf8_lossy(ll);
        for l in text.lines().filter(|l| l.starts_with("target ")) {
            c.ir_header.push_str(l);
            c.ir_header.push('\n');
        }
    }
    for (what, v) in [("asm", &c.asm), ("obj", &c.obj), ("exe", &c.exe), ("ll", &c.ll), ("c", &c.c), ("isa", &c.isa)] {
        if v.is_empty() {
            return Err(format!("no {what} input could be built for the corpus (are the tools and the runtime built?)"));
        }
    }
    Ok(c)
}

// ------------------------------------------------------------------ cases

struct Case {
    input: Vec<u8>,
    ext: &'static str,
    /// "{in}" is the input's path, "{dir}" the run's scratch folder.
    args: Vec<String>,
    how: &'static str,
}

fn case_rng(seed: u64, tool: Tool, index: usize) -> R {
    let mut z = seed ^ (tool as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (index as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

fn pick_one<'a>(rng: &mut R, v: &'a [Vec<u8>]) -> &'a [u8] {
    &v[rng.gen_range(0..v.len())]
}

fn s(x: &str) -> String {
    x.to_string()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// The largest input a case may have (mutations stop there too): a tool
/// that needs more than the memory limit for a 1.5 GB file is no finding,
/// and a parent holding large inputs would lend its pages to its children's
/// maximum RSS at fork time.
const MAX_INPUT: usize = mutate::MAX_LEN;

fn make_case(tool: Tool, rng: &mut R, c: &Corpus) -> Case {
    let mut case = make_case_uncapped(tool, rng, c);
    case.input.truncate(MAX_INPUT);
    case
}

fn make_case_uncapped(tool: Tool, rng: &mut R, c: &Corpus) -> Case {
    let text_mut = |rng: &mut R, v: &[Vec<u8>]| {
        let a = pick_one(rng, v).to_vec();
        let b = pick_one(rng, v).to_vec();
        mutate::mutate(rng, &a, &b, true)
    };
    match tool {
        Tool::IsaTablegen => {
            let (input, how) = if rng.gen_bool(0.4) {
                let base = String::from_utf8_lossy(pick_one(rng, &c.isa)).into_owned();
                (gen::mutate_isa(rng, &base).into_bytes(), "declarations")
            } else {
                (text_mut(rng, &c.isa), "bytes")
            };
            let cmd = if rng.gen_bool(0.1) { "doc" } else { "check" };
            Case { input, ext: "isa", args: vec![s(cmd), s("{in}")], how }
        }
        Tool::As if rng.gen_bool(0.15) => {
            // A real source on a varied machine.
            let base = String::from_utf8_lossy(pick_one(rng, &c.machines)).into_owned();
            let input = gen::vary_isa(rng, &base).into_bytes();
            let src = path(&c.asm_paths[rng.gen_range(0..c.asm_paths.len())]);
            Case { input, ext: "isa", args: vec![s("--isa"), s("{in}"), s("-o"), s("{dir}/out.o"), src], how: "machine" }
        }
        Tool::As => {
            let (input, how) = if rng.gen_bool(0.35) {
                (gen::gen_asm(rng, &c.machine).into_bytes(), "generated")
            } else {
                (text_mut(rng, &c.asm), "bytes")
            };
            Case { input, ext: "s", args: vec![s("--isa"), s("ftm"), s("-o"), s("{dir}/out.o"), s("{in}")], how }
        }
        Tool::Objdump => {
            let pool = match rng.gen_range(0..4) {
                0 | 1 => &c.obj,
                2 => &c.exe,
                _ => &c.ar,
            };
            let (input, how) = binary_mutation(rng, pool);
            let flags: &[&str] = [&["-d"][..], &["-h"], &["-t"], &["-r"], &["-d", "-h", "-t", "-r"]][rng.gen_range(0..5)];
            let mut args: Vec<String> = flags.iter().map(|f| s(f)).collect();
            args.push(s("{in}"));
            Case { input, ext: "o", args, how }
        }
        Tool::Ld => {
            if rng.gen_bool(0.7) {
                let (input, how) = binary_mutation(rng, &c.obj);
                Case { input, ext: "o", args: vec![s("-o"), s("{dir}/a.out"), path(&c.crt0), s("{in}"), path(&c.libc)], how }
            } else {
                let (input, how) = binary_mutation(rng, &c.ar);
                let args = vec![s("-o"), s("{dir}/a.out"), path(&c.crt0), path(&c.extra_obj), s("{in}"), path(&c.libc), path(&c.libm)];
                Case { input, ext: "a", args, how }
            }
        }
        Tool::Ar => {
            let (input, how) = binary_mutation(rng, &c.ar);
            let args: Vec<String> = match rng.gen_range(0..7) {
                0 => vec![s("t"), s("{in}")],
                1 => vec![s("tv"), s("{in}")],
                2 => vec![s("p"), s("{in}")],
                3 => vec![s("x"), s("{in}")],
                4 => vec![s("s"), s("{in}")],
                5 => vec![s("r"), s("{in}"), s("{dir}/extra.o")],
                _ => vec![s("d"), s("{in}"), s("c1.o")],
            };
            Case { input, ext: "a", args, how }
        }
        Tool::Sim => {
            let (input, how) = binary_mutation(rng, &c.exe);
            Case { input, ext: "exe", args: vec![s("--max-cycles"), s("5000000"), s("--no-files"), s("{in}")], how }
        }
        Tool::Llc if rng.gen_bool(0.2) => {
            // A real module compiled for a varied machine.
            let base = String::from_utf8_lossy(pick_one(rng, &c.machines)).into_owned();
            let input = gen::vary_isa(rng, &base).into_bytes();
            let ll = path(&c.ll_paths[rng.gen_range(0..c.ll_paths.len())]);
            let args = vec![s("--isa"), s("{in}"), format!("-O{}", rng.gen_range(0..4)), s("-S"), ll, s("-o"), s("{dir}/out.s")];
            Case { input, ext: "isa", args, how: "machine" }
        }
        Tool::Llc => {
            let (input, how) = if rng.gen_bool(0.4) {
                (gen::gen_ir(rng, &c.ir_header).into_bytes(), "generated")
            } else {
                (text_mut(rng, &c.ll), "bytes")
            };
            let mut args = vec![format!("-O{}", rng.gen_range(0..4))];
            let out = if rng.gen_bool(0.5) {
                args.push(s("-S"));
                "{dir}/out.s"
            } else {
                "{dir}/out.o"
            };
            args.extend([s("{in}"), s("-o"), s(out)]);
            Case { input, ext: "ll", args, how }
        }
        Tool::Cc => {
            let (input, how) = if rng.gen_bool(0.4) {
                (gen::gen_c(rng).into_bytes(), "generated")
            } else {
                (text_mut(rng, &c.c), "bytes")
            };
            let args = vec![format!("-O{}", rng.gen_range(0..4)), s("-c"), s("-w"), s("{in}"), s("-o"), s("{dir}/out.o")];
            Case { input, ext: "c", args, how }
        }
    }
}

fn binary_mutation(rng: &mut R, pool: &[Vec<u8>]) -> (Vec<u8>, &'static str) {
    let a = pick_one(rng, pool).to_vec();
    match rng.gen_range(0..10) {
        0..=3 => {
            let mut d = a;
            for _ in 0..1 + rng.gen_range(0..2) {
                d = if d.starts_with(b"!<arch>\n") { mutate::ar_field(rng, d) } else { mutate::elf_field(rng, d) };
            }
            (d, "fields")
        }
        _ => {
            let b = pick_one(rng, pool).to_vec();
            (mutate::mutate(rng, &a, &b, false), "bytes")
        }
    }
}

// ------------------------------------------------------------------ running

/// A run that found something; its input is made again from the seed when
/// it is kept (inputs are not held in memory: a child's maximum RSS counts
/// the pages of its parent at fork time).
struct Finding {
    index: usize,
    outcome: Outcome,
}

#[derive(Default)]
struct Table {
    inputs: usize,
    /// Exit status 0: the input was accepted whole.
    ok: usize,
    kinds: BTreeMap<Kind, usize>,
    max_secs: f64,
    max_cpu: f64,
    slowest: usize,
    max_rss_kb: u64,
    wall: f64,
}

fn resolve(args: &[String], input: &Path, dir: &Path) -> Vec<String> {
    args.iter().map(|a| a.replace("{in}", &path(input)).replace("{dir}", &path(dir))).collect()
}

/// Prepares a scratch folder: what commands name besides the input.
fn scratch(dir: &Path, extra_obj: &Path) {
    let _ = std::fs::create_dir_all(dir);
    for f in files(&root().join("isa-tablegen/machines"), "isa") {
        let _ = std::fs::copy(&f, dir.join(f.file_name().unwrap()));
    }
    if extra_obj.exists() {
        let _ = std::fs::copy(extra_obj, dir.join("extra.o"));
    }
}

fn run_case(tool: Tool, case: &Case, dir: &Path, limits: &Limits, once: bool) -> Outcome {
    // What the last run left (an extracted member, an output) goes first.
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let name = e.file_name();
            let keep = name.to_string_lossy().ends_with(".isa") || name == "extra.o";
            if !keep {
                let p = e.path();
                if p.is_dir() {
                    let _ = std::fs::remove_dir_all(&p);
                } else {
                    let _ = std::fs::remove_file(&p);
                }
            }
        }
    }
    let input = dir.join(format!("in.{}", case.ext));
    std::fs::write(&input, &case.input).expect("scratch input");
    let args = resolve(&case.args, &input, dir);
    let program = bin(tool.name());
    let mut out = if once {
        run::run_once(&program, &args, dir, limits, tool == Tool::Cc)
    } else {
        run::run(&program, &args, dir, limits, tool == Tool::Cc)
    };
    if tool == Tool::Sim && out.kind == Kind::Quiet {
        // The simulated program's own exit status.
        out.kind = Kind::Clean;
    }
    out
}

fn fuzz_tool(tool: Tool, args: &Args, c: &Corpus) -> (Table, Vec<Finding>) {
    let next = AtomicUsize::new(0);
    let table = Mutex::new(Table::default());
    let findings = Mutex::new(Vec::new());
    let start = Instant::now();
    let log = std::env::var_os("FUZZ_TOOLS_LOG")
        .and_then(|f| std::fs::OpenOptions::new().create(true).append(true).open(f).ok())
        .map(Mutex::new);
    let log = log.as_ref();
    std::thread::scope(|sc| {
        for j in 0..args.jobs {
            let dir = args.out.join("work").join(format!("{}-{j}", tool.name()));
            let (next, table, findings) = (&next, &table, &findings);
            sc.spawn(move || {
                scratch(&dir, &c.extra_obj);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= args.count {
                        break;
                    }
                    let mut rng = case_rng(args.seed, tool, i);
                    let case = make_case(tool, &mut rng, c);
                    let out = run_case(tool, &case, &dir, &args.limits, false);
                    {
                        let mut t = table.lock().unwrap();
                        t.inputs += 1;
                        t.ok += out.ok as usize;
                        *t.kinds.entry(out.kind).or_default() += 1;
                        t.max_cpu = t.max_cpu.max(out.cpu);
                        if out.secs > t.max_secs {
                            t.max_secs = out.secs;
                            t.slowest = i;
                        }
                        t.max_rss_kb = t.max_rss_kb.max(out.max_rss_kb);
                    }
                    if let Some(log) = log {
                        // FUZZ_TOOLS_LOG=FILE: one line per run.
                        let first = String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").chars().take(160).collect::<String>();
                        let line = format!("{}\t{i}\t{}\t{}\t{}\t{:.2}\t{first}\n", tool.name(), case.how, out.kind.name(), if out.ok { "ok" } else { "err" }, out.secs);
                        use std::io::Write;
                        let _ = log.lock().unwrap().write_all(line.as_bytes());
                    }
                    if out.kind.is_finding() || out.kind == Kind::Quiet {
                        let first = String::from_utf8_lossy(&out.stderr).lines().take(3).collect::<Vec<_>>().join(" | ");
                        eprintln!("  {} #{i} ({}): {} [{}] {}", tool.name(), case.how, out.kind.name(), out.status, first.chars().take(200).collect::<String>());
                        drop(case);
                        findings.lock().unwrap().push(Finding { index: i, outcome: out });
                    }
                }
            });
        }
    });
    let mut t = table.into_inner().unwrap();
    t.wall = start.elapsed().as_secs_f64();
    let mut f = findings.into_inner().unwrap();
    f.sort_by_key(|x| x.index);
    (t, f)
}

/// Keeps every finding under out/findings/TOOL/KIND-INDEX/, the first few
/// of each signature reduced.
fn keep_findings(tool: Tool, findings: &[Finding], args: &Args, c: &Corpus) {
    let extra_obj = &c.extra_obj;
    let mut reduced: BTreeMap<String, usize> = BTreeMap::new();
    let dir = args.out.join("work").join(format!("{}-reduce", tool.name()));
    for f in findings {
        let case = make_case(tool, &mut case_rng(args.seed, tool, f.index), c);
        let kind = f.outcome.kind;
        let fdir = args.out.join("findings").join(tool.name()).join(format!("{}-{}", kind.name(), f.index));
        // The side files the command names ({dir}/extra.o, the shipped
        // machines a .isa's `base` finds), so that `cmd` runs as it is.
        scratch(&fdir, extra_obj);
        let ext = case.ext;
        let _ = std::fs::write(fdir.join(format!("input.{ext}")), &case.input);
        let _ = std::fs::write(fdir.join("input.stderr"), &f.outcome.stderr);
        let n = reduced.entry(f.outcome.signature.clone()).or_default();
        let mut min = case.input.clone();
        let mut min_out = f.outcome.clone();
        if *n < args.reduce && kind.is_finding() {
            *n += 1;
            scratch(&dir, extra_obj);
            let budget = if kind == Kind::Timeout {
                reduce::Budget { runs: 60, time: Duration::from_secs(240) }
            } else {
                reduce::Budget { runs: 2000, time: Duration::from_secs(180) }
            };
            let t0 = Instant::now();
            let mut last = None;
            min = reduce::reduce(&case.input, &budget, &mut |cand| {
                let case = Case { input: cand.to_vec(), ext, args: case.args.clone(), how: case.how };
                let o = run_case(tool, &case, &dir, &args.limits, true);
                let same = o.kind == kind && (kind != Kind::Panic || o.signature == f.outcome.signature);
                if same {
                    last = Some(o);
                }
                same
            });
            if let Some(o) = last {
                min_out = o;
            }
            eprintln!("  {} #{}: reduced {} -> {} bytes in {:.0} s", tool.name(), f.index, case.input.len(), min.len(), t0.elapsed().as_secs_f64());
        }
        let min_path = fdir.join(format!("min.{ext}"));
        let _ = std::fs::write(&min_path, &min);
        let _ = std::fs::write(fdir.join("min.stderr"), &min_out.stderr);
        let cmd = resolve(&case.args, &min_path, &fdir);
        let line = std::iter::once(path(&bin(tool.name()))).chain(cmd.into_iter().map(|a| shell_quote(&a))).collect::<Vec<_>>().join(" ");
        let note = format!(
            "# {} ({}): {}; {:.2} s, {} MiB\n# limits: {} s of CPU, {} MiB of address space (prlimit --as)\ncd {} && {line}\n",
            kind.name(),
            f.outcome.signature,
            min_out.status,
            min_out.secs,
            min_out.max_rss_kb / 1024,
            args.limits.time.as_secs_f64(),
            args.limits.mem_bytes >> 20,
            path(&fdir),
        );
        let _ = std::fs::write(fdir.join("cmd"), note);
    }
}

fn shell_quote(a: &str) -> String {
    if a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+".contains(c)) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fuzz-tools: error: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let t0 = Instant::now();
    let corpus = match build_corpus(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fuzz-tools: error: {e}");
            std::process::exit(2);
        }
    };
    eprintln!(
        "fuzz-tools: seed {}, {} inputs per tool, corpus: {} .isa, {} .s, {} .o, {} executables, {} .a, {} .ll, {} .c ({:.0} s)",
        args.seed,
        args.count,
        corpus.isa.len(),
        corpus.asm.len(),
        corpus.obj.len(),
        corpus.exe.len(),
        corpus.ar.len(),
        corpus.ll.len(),
        corpus.c.len(),
        t0.elapsed().as_secs_f64()
    );
    if let Ok(v) = std::env::var("FUZZ_TOOLS_SHOW") {
        // FUZZ_TOOLS_SHOW=INDEX: print that input of the first tool and
        // how it was made, run nothing.
        let i: usize = v.parse().unwrap_or(0);
        let tool = args.tools[0];
        let case = make_case(tool, &mut case_rng(args.seed, tool, i), &corpus);
        eprintln!("{} #{i} ({}): {:?}", tool.name(), case.how, case.args);
        use std::io::Write;
        let _ = std::io::stdout().write_all(&case.input);
        return;
    }
    let _ = std::fs::remove_dir_all(args.out.join("findings"));
    let mut rows = Vec::new();
    let mut total = 0usize;
    for &tool in &args.tools {
        let (t, f) = fuzz_tool(tool, &args, &corpus);
        let n = f.iter().filter(|x| x.outcome.kind.is_finding()).count();
        total += n;
        if !f.is_empty() {
            keep_findings(tool, &f, &args, &corpus);
        }
        eprintln!("fuzz-tools: {}: {} inputs, {} findings ({:.0} s; slowest: #{}, {:.2} s)", tool.name(), t.inputs, n, t.wall, t.slowest, t.max_secs);
        rows.push((tool, t));
    }
    println!();
    println!("{:<13} {:>7} {:>6} {:>6} {:>6} {:>7} {:>6} {:>6} {:>6} {:>9} {:>8} {:>9} {:>7}", "tool", "inputs", "ok", "panic", "signal", "timeout", "memory", "clang", "quiet", "max time", "max CPU", "max RSS", "wall");
    for (tool, t) in &rows {
        let k = |kind| t.kinds.get(&kind).copied().unwrap_or(0);
        println!(
            "{:<13} {:>7} {:>6} {:>6} {:>6} {:>7} {:>6} {:>6} {:>6} {:>8.2}s {:>7.2}s {:>5} MiB {:>6.0}s",
            tool.name(),
            t.inputs,
            t.ok,
            k(Kind::Panic),
            k(Kind::Signal),
            k(Kind::Timeout),
            k(Kind::Memory),
            k(Kind::Clang),
            k(Kind::Quiet),
            t.max_secs,
            t.max_cpu,
            t.max_rss_kb / 1024,
            t.wall
        );
    }
    println!(
        "fuzz-tools: seed {}: {} findings in {:.0} s{}",
        args.seed,
        total,
        t0.elapsed().as_secs_f64(),
        if total > 0 { format!(" (reproducers in {})", args.out.join("findings").display()) } else { String::new() }
    );
    std::process::exit(if total > 0 { 1 } else { 0 });
}

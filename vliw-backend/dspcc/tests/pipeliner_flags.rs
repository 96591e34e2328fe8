//! dspcc's software-pipeliner flags end to end (clang-19, the pass plugin,
//! dsp-llc, dsp-as, dsp-ld and dsp-sim next to dspcc, as
//! `cargo build --workspace --release` leaves them; skipped when they are
//! not there): `-Rpass=sms`/`-Rpass-missed=sms`/`-Rpass-analysis=sms`
//! remarks with FILE:LINE:COL from `-c`, `-S` and full links,
//! `--pipeline-report=FILE.json` from one input and merged in input order
//! from several, `--modulo-scheduler=ims|ilp`, `-fmodulo-sched` and
//! `-fno-modulo-sched`, `-O1`, `-v`, errors, and a linked program with
//! pipelined loops run under `dsp-sim --strict`.

#[path = "../../llc/tests/common/json.rs"]
mod json;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Line 3: a loop to pipeline; line 7: a loop with a call.
const K_C: &str = "\
void scale(int *restrict b, const int *restrict a, int n) {
  int j;
  for (j = 0; j < n; j++) b[j] = a[j] * 26;
}
int g(int);
void calls(int *restrict b, const int *restrict a, int n) {
  for (int j = 0; j < n; j++) b[j] = g(a[j]);
}
";

/// Two loops: the first at line 2, the second at line 5.
const T_C: &str = "\
void add(int *restrict c, const int *restrict a, const int *restrict b, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
void shift(short *restrict d, const short *restrict s, int n) {
  for (int i = 0; i < n; i++) d[i] = (short)(s[i] >> 2);
}
";

/// scale() over trip counts 0..=40, hashed into the exit status.
const RUN_C: &str = "\
int a[64], b[64];
__attribute__((noinline)) void scale(int *restrict b, const int *restrict a, int n) {
  for (int j = 0; j < n; j++) b[j] = a[j] * 26;
}
int main(void) {
  unsigned h = 0;
  for (int n = 0; n <= 40; n++) {
    for (int i = 0; i < 64; i++) { a[i] = i * 7 - n; b[i] = n; }
    scale(b, a, n);
    for (int i = 0; i < 64; i++) h = h * 31u + (unsigned)b[i];
  }
  return (int)(h % 251u);
}
";

fn expected_run() -> i32 {
    let mut h: u32 = 0;
    for n in 0..=40i32 {
        let a: Vec<i32> = (0..64).map(|i| i * 7 - n).collect();
        let mut b = vec![n; 64];
        for j in 0..n as usize {
            b[j] = a[j].wrapping_mul(26);
        }
        for x in b {
            h = h.wrapping_mul(31).wrapping_add(x as u32);
        }
    }
    (h % 251) as i32
}

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_dspcc")).parent().unwrap().to_path_buf()
}

/// Whether the toolchain dspcc runs is built; panics when dsp-llc is older
/// than its pipeliner flags (a stale build would fail every test below).
fn toolchain_ready() -> bool {
    let dir = bin_dir();
    let missing: Vec<&str> = ["dsp-llc", "dsp-as", "dsp-ld", "dsp-sim", "libdsp_opt_passes.so"]
        .into_iter()
        .filter(|t| !dir.join(t).exists())
        .collect();
    if !missing.is_empty() || Command::new("clang-19").arg("--version").output().is_err() {
        eprintln!("skipped: clang-19 or {missing:?} not found in {} (cargo build --workspace --release)", dir.display());
        return false;
    }
    let help = Command::new(dir.join("dsp-llc")).arg("--help").output().unwrap();
    assert!(
        String::from_utf8_lossy(&help.stdout).contains("--pipeline-report"),
        "{}/dsp-llc is older than its pipeliner flags: cargo build --release -p dsp-llc",
        dir.display()
    );
    true
}

/// A fresh directory for a test, with a stand-in runtime (headers only)
/// and crt0.s for links with -nostdlib.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dspcc-pipeliner-{}/{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for m in ["include", "ftm", "ftm8", "ftm32"] {
        std::fs::create_dir_all(dir.join("rt").join(m)).unwrap();
    }
    std::fs::write(dir.join("crt0.s"), include_str!("../../runtime/crt0.s")).unwrap();
    dir
}

fn dspcc(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dspcc"));
    c.current_dir(dir).env("DSPCC_RUNTIME", dir.join("rt"));
    c
}

fn ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Our remarks (clang's own, which -Rpass=.* also asks for, left out).
fn sms_remarks(out: &Output) -> Vec<String> {
    stderr(out).lines().filter(|l| l.ends_with("=sms]")).map(String::from).collect()
}

fn read_report(path: &Path) -> Vec<json::Json> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v = json::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let json::Json::Arr(records) = v else { panic!("not an array: {text}") };
    for r in &records {
        json::check_record(r).unwrap_or_else(|e| panic!("{e}"));
    }
    records
}

fn pipelined(records: &[json::Json]) -> usize {
    records.iter().filter(|r| r.bool("pipelined") == Some(true)).count()
}

#[test]
fn remarks_from_compile_assemble_and_link() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("remarks");
    std::fs::write(dir.join("k.c"), K_C).unwrap();
    // -c: pipelined and missed loops at their lines.
    let out = ok(dspcc(&dir).args(["-O2", "-c", "k.c", "-Rpass=sms", "-Rpass-missed=sms"]));
    let r = sms_remarks(&out);
    assert!(r.iter().any(|l| l.starts_with("k.c:3:") && l.contains(": remark: loop software pipelined: II=")), "{r:?}");
    assert!(r.iter().any(|l| l.starts_with("k.c:7:") && l.contains(": remark: loop not software pipelined: ")), "{r:?}");
    assert!(r.iter().all(|l| l.starts_with("k.c:3:") == l.contains("[-Rpass=sms]")), "{r:?}");
    assert!(dir.join("k.o").exists());
    // -S: remarks too, and the comment block in the assembly.
    let out = ok(dspcc(&dir).args(["-O3", "-S", "k.c", "-Rpass=.*"]));
    assert!(sms_remarks(&out).iter().any(|l| l.contains("loop software pipelined")), "{}", stderr(&out));
    let s = std::fs::read_to_string(dir.join("k.s")).unwrap();
    assert!(s.contains("SOFTWARE PIPELINE INFORMATION") && s.contains("Loop source line           : k.c:3"), "{s}");
    // A full link: remarks, and the program runs.
    std::fs::write(dir.join("run.c"), RUN_C).unwrap();
    let out = ok(dspcc(&dir).args(["-O2", "-ffreestanding", "-nostdlib", "crt0.s", "run.c", "-o", "prog", "-Rpass=sms", "-Rpass-analysis=sms"]));
    let r = sms_remarks(&out);
    assert!(r.iter().any(|l| l.starts_with("run.c:3:") && l.contains("loop software pipelined")), "{r:?}");
    assert!(r.iter().any(|l| l.starts_with("run.c:3:") && l.contains("remark: in function 'scale': ResMII=")), "{r:?}");
    let run = Command::new(bin_dir().join("dsp-sim")).args(["--strict", "--max-cycles", "5000000"]).arg(dir.join("prog")).output().unwrap();
    assert_eq!(run.status.code(), Some(expected_run()), "{}", stderr(&run));
    // Other pass names: none of ours.
    let out = ok(dspcc(&dir).args(["-O2", "-c", "k.c", "-Rpass=loop-unroll", "-Rpass-missed=gvn"]));
    assert!(sms_remarks(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn reports_of_one_and_of_several_inputs() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("report");
    std::fs::write(dir.join("k.c"), K_C).unwrap();
    std::fs::write(dir.join("t.c"), T_C).unwrap();
    // One input: dsp-llc writes the file; FILE:LINE without -g or -Rpass.
    ok(dspcc(&dir).args(["-O2", "-c", "k.c", "--pipeline-report=one.json"]));
    let one = read_report(&dir.join("one.json"));
    assert!(pipelined(&one) >= 1 && one.len() > pipelined(&one), "{one:?}");
    assert!(one.iter().all(|r| r.str("file") == Some("k.c")), "{one:?}");
    assert!(one.iter().any(|r| r.str("function") == Some("calls") && r.num("line") == Some(7.0) && r.str("reason").is_some()), "{one:?}");
    // Reports and remarks change no code (line tables only locate).
    ok(dspcc(&dir).args(["-O2", "-c", "k.c", "-o", "plain.o"]));
    ok(dspcc(&dir).args(["-O2", "-c", "k.c", "-o", "remarks.o", "-Rpass=.*", "-Rpass-analysis=.*"]));
    let plain = std::fs::read(dir.join("plain.o")).unwrap();
    assert!(plain == std::fs::read(dir.join("k.o")).unwrap() && plain == std::fs::read(dir.join("remarks.o")).unwrap());
    // Several: merged in input order (t.c's records, then k.c's).
    ok(dspcc(&dir).args(["-O2", "-c", "t.c", "k.c", "--pipeline-report", "all.json"]));
    let all = read_report(&dir.join("all.json"));
    let files: Vec<&str> = all.iter().filter_map(|r| r.str("file")).collect();
    let first_k = files.iter().position(|f| *f == "k.c").expect("k.c records");
    assert!(first_k > 0 && files[..first_k].iter().all(|f| *f == "t.c") && files[first_k..].iter().all(|f| *f == "k.c"), "{files:?}");
    let lines: Vec<f64> = all[..first_k].iter().filter_map(|r| r.num("line")).collect();
    assert!(lines.contains(&2.0) && lines.contains(&5.0), "{lines:?}");
    assert_eq!(all.len() - first_k, one.len());
    // A program without loops: an empty array.
    std::fs::write(dir.join("flat.c"), "int f(int x) { return x * 3; }\n").unwrap();
    ok(dspcc(&dir).args(["-O2", "-S", "flat.c", "--pipeline-report=flat.json"]));
    assert_eq!(std::fs::read_to_string(dir.join("flat.json")).unwrap().trim(), "[]");
}

#[test]
fn scheduler_and_on_off_switches() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("switches");
    std::fs::write(dir.join("k.c"), K_C).unwrap();
    let report = |args: &[&str]| {
        let _ = std::fs::remove_file(dir.join("r.json"));
        ok(dspcc(&dir).args(["-c", "k.c", "--pipeline-report=r.json"]).args(args));
        read_report(&dir.join("r.json"))
    };
    for (args, name) in [(&["-O2"][..], "sms"), (&["-O2", "--modulo-scheduler=ims"], "ims"), (&["-O3", "--modulo-scheduler", "ilp", "--ilp-time-limit=1"], "ilp")] {
        let r = report(args);
        assert!(pipelined(&r) >= 1, "{args:?}: {r:?}");
        assert!(r.iter().filter(|x| x.bool("pipelined") == Some(true)).all(|x| x.str("scheduler") == Some(name)), "{args:?}: {r:?}");
    }
    for args in [&["-O2", "-fno-modulo-sched"][..], &["-O3", "-fmodulo-sched", "-fno-modulo-sched"], &["-O1"], &["-O0", "-fmodulo-sched"]] {
        assert_eq!(pipelined(&report(args)), 0, "{args:?}");
    }
    for args in [&["-O1", "-fmodulo-sched"][..], &["-O3"], &["-O2", "-fno-modulo-sched", "-fmodulo-sched"]] {
        assert!(pipelined(&report(args)) >= 1, "{args:?}");
    }
    // -O1: no comment block in -S output either.
    ok(dspcc(&dir).args(["-O1", "-S", "k.c"]));
    assert!(!std::fs::read_to_string(dir.join("k.s")).unwrap().contains("SOFTWARE PIPELINE"));
}

#[test]
fn verbose_shows_the_flags_and_bad_ones_fail() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("verbose");
    std::fs::write(dir.join("k.c"), K_C).unwrap();
    let out = ok(dspcc(&dir).args(["-v", "-O2", "-c", "k.c", "-Rpass=sms", "--modulo-scheduler=ims", "-fno-modulo-sched", "--pipeline-report=v.json"]));
    let e = stderr(&out);
    let llc = e.lines().find(|l| l.contains("dsp-llc\"")).unwrap_or_else(|| panic!("{e}"));
    for f in ["\"--no-pipeline\"", "\"--modulo-scheduler=ims\"", "\"-Rpass=sms\"", "\"--pipeline-report=v.json\""] {
        assert!(llc.contains(f), "{f} in {llc}");
    }
    let clang = e.lines().find(|l| l.contains("\"-emit-llvm\"")).unwrap_or_else(|| panic!("{e}"));
    assert!(clang.contains("\"-Rpass=sms\"") && !clang.contains("modulo"), "{clang}");
    for (args, msg) in [
        (&["-Rfoo", "-c", "k.c"][..], "dspcc: error: unknown argument: '-Rfoo'\n"),
        (&["--modulo-scheduler=list", "-c", "k.c"], "dspcc: error: invalid value 'list' in '--modulo-scheduler=list' (expected sms, ims or ilp)\n"),
        (&["--ilp-time-limit=never", "-c", "k.c"], "dspcc: error: invalid value 'never' in '--ilp-time-limit=never' (expected a positive number of seconds)\n"),
        (&["--pipeline-report"], "dspcc: error: argument to '--pipeline-report' is missing (expected 1 value)\n"),
    ] {
        let out = dspcc(&dir).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&out), msg, "{args:?}");
    }
    // An invalid regex: clang's error.
    let out = dspcc(&dir).args(["-Rpass=(", "-c", "k.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("in pattern '-Rpass=('"), "{}", stderr(&out));
    // Unused without a backend run, like clang.
    let out = ok(dspcc(&dir).args(["-E", "k.c", "-o", "k.i", "--pipeline-report=x.json"]));
    assert!(stderr(&out).contains("dspcc: warning: argument unused during compilation: '--pipeline-report=x.json'"), "{}", stderr(&out));
    assert!(!dir.join("x.json").exists());
}

/// The same input gives the same assembly, run after run: the pipeliner's
/// choices must not follow a HashMap's per-process order (the dependence
/// graph's edge order once did, and with it the schedules of
/// `dynamic_programming.c`; the file named in a pressure report did in
/// `loop_ifconvert.c`). Three compilations of each, byte-compared.
#[test]
fn assembly_is_reproducible() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("reproducible");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/c");
    for name in ["dynamic_programming.c", "loop_ifconvert.c"] {
        let src = corpus.join(name);
        let runs: Vec<Vec<u8>> = (0..3)
            .map(|k| {
                let out = dir.join(format!("{name}.{k}.s"));
                // The real runtime's headers (scripts/build-runtime).
                ok(Command::new(env!("CARGO_BIN_EXE_dspcc")).args(["-O2", "-S", "-o"]).arg(&out).arg(&src));
                std::fs::read(&out).unwrap()
            })
            .collect();
        assert!(runs.windows(2).all(|w| w[0] == w[1]), "{name}: the assembly differs between runs");
    }
}

/// A loop that is one recurrence (II = RecMII = the period of one iteration
/// alone) is left unpipelined with a remark saying why; with
/// `-fmodulo-sched-all-loops` it is pipelined (in one stage: nothing to
/// overlap, which is why it is left alone by default).
#[test]
fn unprofitable_loops_are_left_alone_unless_asked() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("unprofitable");
    std::fs::write(
        dir.join("u.c"),
        "float iterate(float x, int n) {\n  float s = 0.0f;\n  for (int i = 0; i < n; i++) s = s * x + 1.0f;\n  return s;\n}\n",
    )
    .unwrap();
    let out = ok(dspcc(&dir).args(["-O2", "-S", "-o", "u.s", "u.c", "-Rpass=sms", "-Rpass-missed=sms"]));
    let r = sms_remarks(&out);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].starts_with("u.c:3:3: remark: loop not software pipelined: not profitable:"), "{r:?}");
    let out =
        ok(dspcc(&dir).args(["-O2", "-S", "-o", "u.s", "u.c", "-Rpass=sms", "-Rpass-missed=sms", "-fmodulo-sched-all-loops"]));
    let r = sms_remarks(&out);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].starts_with("u.c:3:3: remark: loop software pipelined:"), "{r:?}");
}

/// A vectorized loop whose divides run per lane builds its result vector
/// through the scratch slot: that slot is the compiler's own, so it does
/// not depend on the loads of `x` and `y` (unknown pointers) and the loop
/// runs at its MII (the divider's busy cycles).
#[test]
fn scratch_slot_accesses_do_not_depend_on_program_memory() {
    if !toolchain_ready() {
        return;
    }
    let dir = scratch("scratch-object");
    std::fs::write(
        dir.join("d.c"),
        "void fdiv(float *z, const float *x, const float *y, int n) {\n  for (int i = 0; i < n; i++) z[i] = x[i] / y[i] + 1.0f;\n}\n",
    )
    .unwrap();
    let out = ok(dspcc(&dir).args(["-O2", "-c", "d.c", "-o", "d.o", "-Rpass=sms"]));
    let remarks = sms_remarks(&out);
    let at_mii = remarks.iter().any(|r| {
        let num = |key: &str| r.split(key).nth(1).and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next()).and_then(|s| s.parse::<u32>().ok());
        r.contains("loop software pipelined") && num("II=").is_some() && num("II=") == num("ResMII=")
    });
    assert!(at_mii, "{remarks:?}");
}

/// The assembly of benchmark kernel `name` (vliw-backend/bench/kernels) at
/// `size`, compiled at -O2 for the default machine in scratch directory
/// `test`; `None` (skipped) when that machine's runtime is not built: the
/// kernels include the C library's headers, as scripts/build-runtime
/// leaves them.
fn bench_kernel_s(test: &str, name: &str, size: u32) -> Option<String> {
    let dir = scratch(test);
    let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/kernels");
    let src = kernels.join(format!("{name}.c"));
    let out = dspcc(&dir).env_remove("DSPCC_RUNTIME").args(["-O2", "-S", &format!("-DSIZE={size}"), "-I"]).arg(&kernels).arg(&src).args(["-o", "k.s"]).output().unwrap();
    if String::from_utf8_lossy(&out.stderr).contains("runtime file not found") {
        eprintln!("skipped: the default machine's runtime is not built (scripts/build-runtime)");
        return None;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    Some(std::fs::read_to_string(dir.join("k.s")).unwrap())
}

#[test]
fn allocation_failure_first_retries_with_a_register_per_kernel_copy() {
    if !toolchain_ready() {
        return;
    }
    // The 3x3 convolution of scripts/bench-egg at 64 columns on ftm: at II 5
    // (its ResMII) its vector values' shared copies (modulo variable
    // expansion) leave ranges with holes that the allocator cannot fit in
    // the 32 vector registers (the report's note says so); with a register
    // per kernel copy it can, so the loop keeps II 5 instead of going to 6.
    let Some(s) = bench_kernel_s("whole-copies", "conv2d", 64) else { return };
    let block = s.split("SOFTWARE PIPELINE INFORMATION").find(|b| b.contains("a register per kernel copy for every value of file 'v'")).unwrap_or_else(|| panic!("{s}"));
    assert!(block.contains("#   ii = 5   Schedule found"), "{block}");
}

#[test]
fn zero_accumulators_are_made_on_several_units() {
    if !toolchain_ready() {
        return;
    }
    // The matrix product of scripts/bench-egg at 64 on ftm keeps 16 vector
    // sums: their zeros before each pipeline are not 16 copies queued on
    // the one vector ALU but copies, broadcasts of the zero register and
    // zero times zero on the multiply units, whichever lands first.
    let Some(s) = bench_kernel_s("zero-inits", "matmul", 64) else { return };
    // The 16 sums' loop (4 rows of 4 vectors): its report, then its set-up.
    let at = s.find("Resource bound (ResMII)    : 6 (vmac)").unwrap_or_else(|| panic!("{s}"));
    let setup: String = s[at..].lines().skip_while(|l| l.starts_with('#')).take(24).collect::<Vec<_>>().join("\n");
    let count = |needle: &str| setup.matches(needle).count();
    assert!(setup.lines().any(|l| l.contains("vbcast") && l.contains(", r0")), "no broadcast of the zero register:\n{setup}");
    assert!(count("vmul ") > 0, "no zero times zero:\n{setup}");
    assert!(count("vmov ") < 16, "the zeros all copied:\n{setup}");
}

#[test]
fn three_kernel_copies_divide_the_trip_count_by_a_multiply() {
    if !toolchain_ready() {
        return;
    }
    // The FFT of scripts/bench-egg at 256 on ftm has loops whose values
    // need at most 3 registers: 3 kernel copies, not 4, with the pass
    // count and remainder from ftm's unsigned high multiply by
    // ⌈2^33 / 3⌉ = 0xaaaaaaab (-1431655765 as li's signed immediate).
    let Some(s) = bench_kernel_s("three-copies", "fft", 256) else { return };
    let blocks: Vec<&str> = s.split("SOFTWARE PIPELINE INFORMATION").skip(1).filter(|b| b.contains("Kernel copies (unroll)     : 3\n")).collect();
    assert!(!blocks.is_empty(), "{s}");
    for b in blocks {
        let code: String = b.lines().skip(1).skip_while(|l| l.starts_with('#')).take(24).collect::<Vec<_>>().join("\n");
        assert!(code.contains("li") && code.contains("-1431655765") && code.contains("mulhu"), "{code}");
    }
}

#[test]
fn allocation_failure_at_the_exact_estimate_retries_with_slack() {
    if !toolchain_ready() {
        return;
    }
    // The IIR of scripts/bench at 256 on ftm: its loop allocates at no II
    // the raises reach with the exact register estimate and no invariant
    // reloaded; with a cycle of slack per value the estimate reloads 11
    // invariants and the loop stays pipelined.
    let Some(s) = bench_kernel_s("slack", "iir", 256) else { return };
    let block = s.split("SOFTWARE PIPELINE INFORMATION").nth(1).unwrap_or_else(|| panic!("{s}"));
    let block: String = block.lines().skip(1).take_while(|l| l.starts_with('#')).collect::<Vec<_>>().join("\n");
    assert!(!block.contains("Not pipelined"), "{block}");
    assert!(block.contains("a cycle of slack per value") && block.contains("reloaded in it"), "{block}");
}

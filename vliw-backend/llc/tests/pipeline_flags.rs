//! dsp-llc's software-pipeliner flags from the outside, on C compiled by
//! clang-19 (skipped where it is not installed): `-Rpass=sms`,
//! `-Rpass-missed=sms` and `-Rpass-analysis=sms` remarks with the loop's
//! FILE:LINE:COL (clang tracks source locations when given a remark flag,
//! as dspcc does), `--pipeline-report=FILE.json` (parsed, every record
//! checked), `--modulo-scheduler=sms|ims|ilp`, `--no-pipeline`, `-O1`
//! (nothing pipelined, unless `--pipeline`), the `-S` comment block,
//! pipelined code running like the ordinary loops under `dsp-sim --strict`,
//! and address rebasing (`--no-pipeline-rebase`).

#[path = "common/json.rs"]
mod json;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use isa_tablegen::Machine;

const CRT0: &str = include_str!("../../runtime/crt0.s");

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

thread_local! {
    /// Each test's own directory, where dsp-llc runs (so that source paths
    /// are shown relative to it, as clang shows them).
    static DIR: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
}

fn llc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dsp-llc"));
    c.current_dir(tmp(""));
    c
}

fn tmp(name: &str) -> PathBuf {
    let dir = DIR.with(|d| d.borrow().clone()).expect("bitcode() first");
    dir.join(name)
}

/// `src` compiled by clang-19 at -O2 to bitcode (named `name`, so the
/// remarks say `name:LINE:COL`) in a directory of the test `test`, or `None`
/// without clang-19. Unrolling and vectorization are off so the loops stay
/// one operation per element.
fn bitcode(test: &str, name: &str, src: &str) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("dsp-llc-pipeline-flags-{}/{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    DIR.with(|d| *d.borrow_mut() = Some(dir));
    if Command::new("clang-19").arg("--version").output().is_err() {
        eprintln!("clang-19 not found: skipped");
        return None;
    }
    let c = tmp(name);
    std::fs::write(&c, src).unwrap();
    let bc = c.with_extension("bc");
    let out = Command::new("clang-19")
        .current_dir(tmp(""))
        .args(["--target=hexagon-unknown-elf", "-fsigned-char", "-ffreestanding", "-O2", "-fno-unroll-loops", "-fno-vectorize"])
        .args(["-Rpass=sms", "-c", "-emit-llvm", "-o"])
        .arg(&bc)
        .arg(name)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(bc)
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The report written by `dsp-llc ARGS --pipeline-report=…`, parsed and checked.
fn report(bc: &Path, args: &[&str]) -> Vec<json::Json> {
    let file = tmp(&format!("report-{}.json", args.join("_").replace(['/', '='], "-")));
    let _ = std::fs::remove_file(&file);
    let mut flag = std::ffi::OsString::from("--pipeline-report=");
    flag.push(&file);
    run(llc().args(args).arg(flag).arg("-o").arg(tmp("r.o")).arg(bc));
    let text = std::fs::read_to_string(&file).unwrap();
    let v = json::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let json::Json::Arr(records) = v else { panic!("not an array: {text}") };
    for r in &records {
        json::check_record(r).unwrap_or_else(|e| panic!("{e}"));
    }
    records
}

fn pipelined(records: &[json::Json]) -> Vec<&json::Json> {
    records.iter().filter(|r| r.bool("pipelined") == Some(true)).collect()
}

#[test]
fn remarks_name_the_loop_and_say_why() {
    let Some(bc) = bitcode("remarks", "k.c", K_C) else { return };
    let o = tmp("k.o");
    // -Rpass=sms: the pipelined loop, at its line, and nothing else.
    let out = run(llc().args(["-O2", "-Rpass=sms", "-o"]).arg(&o).arg(&bc));
    let e = stderr(&out);
    let lines: Vec<&str> = e.lines().collect();
    assert!(!lines.is_empty(), "no remark");
    for l in &lines {
        assert!(l.starts_with("k.c:3:") && l.contains(": remark: loop software pipelined: II="), "{e}");
        assert!(l.contains("(ResMII=") && l.contains("RecMII=") && l.contains(" stages, MaxLive=") && l.ends_with("kernel copies [-Rpass=sms]"), "{e}");
    }
    // -Rpass-missed=sms: the loop with a call, and why.
    let out = run(llc().args(["-O2", "-Rpass-missed=sms", "-o"]).arg(&o).arg(&bc));
    let e = stderr(&out);
    assert!(!e.is_empty(), "no missed remark");
    for l in e.lines() {
        let (at, why) = l.split_once(": remark: loop not software pipelined: ").unwrap_or_else(|| panic!("{e}"));
        assert!(at.starts_with("k.c:7:"), "{e}");
        assert!(why.ends_with(" [-Rpass-missed=sms]") && why.len() > " [-Rpass-missed=sms]".len() + 5, "{e}");
    }
    // Regexes: anything matching 'sms' counts; other names match nothing.
    let out = run(llc().args(["-O2", "-Rpass=.*", "-Rpass-missed=^s.s$", "-o"]).arg(&o).arg(&bc));
    let e = stderr(&out);
    assert!(e.contains("loop software pipelined") && e.contains("loop not software pipelined"), "{e}");
    let out = run(llc().args(["-O2", "-Rpass=loop-vectorize", "-Rpass-missed=pipeliner", "-Rpass-analysis=regalloc", "-o"]).arg(&o).arg(&bc));
    assert_eq!(stderr(&out), "");
    // -Rpass-analysis=sms: the bounds and the scheduler.
    let out = run(llc().args(["-O2", "-Rpass-analysis=sms", "-o"]).arg(&o).arg(&bc));
    let e = stderr(&out);
    assert!(e.lines().any(|l| l.starts_with("k.c:3:") && l.contains("remark: in function 'scale': ResMII=") && l.contains("scheduler sms")), "{e}");
    assert!(e.lines().all(|l| l.ends_with("[-Rpass-analysis=sms]")), "{e}");
    // Without a remark flag, nothing.
    assert_eq!(stderr(&run(llc().args(["-O2", "-o"]).arg(&o).arg(&bc))), "");
}

#[test]
fn bad_flags_are_usage_errors() {
    let Some(bc) = bitcode("bad", "bad.c", "int f(int x) { return x; }\n") else { return };
    for (args, msg) in [
        (&["-Rpass=("][..], "dsp-llc: error: in pattern '-Rpass=('"),
        (&["-Rfoo"], "dsp-llc: error: unknown remark flag '-Rfoo'"),
        (&["--modulo-scheduler=top-down"], "invalid value 'top-down'"),
        (&["--ilp-time-limit=0"], "invalid value '0'"),
    ] {
        let out = llc().args(args).arg("-o").arg(tmp("bad.o")).arg(&bc).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(msg), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn json_report_has_a_record_per_innermost_loop() {
    let Some(bc) = bitcode("json", "k.c", K_C) else { return };
    let records = report(&bc, &["-O2"]);
    let ok = pipelined(&records);
    assert!(!ok.is_empty(), "{records:?}");
    for r in &ok {
        assert_eq!((r.str("function"), r.str("file"), r.num("line")), (Some("scale"), Some("k.c"), Some(3.0)), "{r:?}");
        assert_eq!(r.str("scheduler"), Some("sms"));
    }
    let missed: Vec<_> = records.iter().filter(|r| r.bool("pipelined") == Some(false)).collect();
    assert!(!missed.is_empty(), "{records:?}");
    for r in &missed {
        assert_eq!((r.str("function"), r.num("line")), (Some("calls"), Some(7.0)), "{r:?}");
    }
    // A module without loops: an empty array, still written.
    let Some(flat) = bitcode("json", "flat.c", "int f(int x) { return x * 3; }\n") else { return };
    assert!(report(&flat, &["-O2"]).is_empty());
}

#[test]
fn each_scheduler_says_it_scheduled() {
    let Some(bc) = bitcode("schedulers", "k.c", K_C) else { return };
    for (args, name) in [
        (&["-O2", "--modulo-scheduler=sms"][..], "sms"),
        (&["-O3", "--modulo-scheduler=ims"], "ims"),
        (&["-O2", "--modulo-scheduler", "ilp", "--ilp-time-limit=1"], "ilp"),
    ] {
        let records = report(&bc, args);
        let ok = pipelined(&records);
        assert!(!ok.is_empty(), "{args:?}: {records:?}");
        assert!(ok.iter().all(|r| r.str("scheduler") == Some(name)), "{args:?}: {records:?}");
    }
    // The remarks of -Rpass-analysis name it too.
    let out = run(llc().args(["--modulo-scheduler=ims", "-Rpass-analysis=sms", "-o"]).arg(tmp("ims.o")).arg(&bc));
    assert!(stderr(&out).contains("scheduler ims"), "{}", stderr(&out));
}

#[test]
fn levels_and_switches() {
    let Some(bc) = bitcode("levels", "k.c", K_C) else { return };
    // Nothing at -O0 and -O1, or with --no-pipeline.
    for args in [&["-O0"][..], &["-O1"], &["-O2", "--no-pipeline"], &["-O3", "--pipeline", "--no-pipeline"], &["-O0", "--pipeline"]] {
        assert!(pipelined(&report(&bc, args)).is_empty(), "{args:?}");
    }
    // --pipeline: also at -O1; the last switch counts.
    for args in [&["-O1", "--pipeline"][..], &["-O2", "--no-pipeline", "--pipeline"]] {
        assert!(!pipelined(&report(&bc, args)).is_empty(), "{args:?}");
    }
    // -S: the comment block before the pipelined loop, at -O2 only.
    let s = tmp("k.s");
    run(llc().args(["-O2", "-S", "-o"]).arg(&s).arg(&bc));
    let text = std::fs::read_to_string(&s).unwrap();
    assert!(text.contains("# SOFTWARE PIPELINE INFORMATION"), "{text}");
    assert!(text.contains("Loop source line           : k.c:3") && text.contains("Schedule found with"), "{text}");
    assert!(text.contains("Not pipelined: "), "{text}");
    run(llc().args(["-O1", "-S", "-o"]).arg(&s).arg(&bc));
    assert!(!std::fs::read_to_string(&s).unwrap().contains("SOFTWARE PIPELINE INFORMATION"));
}

/// scale() over trip counts 0..=40 (several of each stage count and the
/// small counts the guard sends to the ordinary loop), hashed.
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

fn expected() -> i32 {
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

fn run_object(m: &Machine, obj: &Path) -> i32 {
    let crt0 = dsp_mc::assemble(m, CRT0, "crt0.s").unwrap();
    let main = dsp_obj::read_object(&std::fs::read(obj).unwrap()).unwrap();
    let inputs = [dsp_ld::Input::object("crt0.o", crt0), dsp_ld::Input::object("main.o", main)];
    let opts = dsp_ld::LinkOptions { machine: Some(m.clone()), ..dsp_ld::LinkOptions::default() };
    let exe = dsp_ld::link(&inputs, &opts).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let config = dsp_sim::Config { strict: true, max_cycles: Some(5_000_000), ..dsp_sim::Config::default() };
    let mut sim = dsp_sim::Sim::new(m, &exe, config).unwrap();
    match sim.run() {
        dsp_sim::Outcome::Exit(s) => s,
        other => panic!("{}: {other:?}", m.name),
    }
}

#[test]
fn pipelined_code_runs_like_ordinary_loops() {
    let Some(bc) = bitcode("run", "run.c", RUN_C) else { return };
    let want = expected();
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        for args in [&["-O1"][..], &["-O1", "--pipeline"], &["-O2"], &["-O2", "--no-pipeline"], &["-O3", "--modulo-scheduler=ims"]] {
            let o = tmp(&format!("run-{name}-{}.o", args.join("")));
            let records = report(&bc, &[&["--isa", name][..], args].concat());
            let on = args.contains(&"--pipeline") || (args[0] != "-O1" && !args.contains(&"--no-pipeline"));
            assert_eq!(!pipelined(&records).is_empty(), on, "{name} {args:?}: {records:?}");
            run(llc().args(["--isa", name]).args(args).arg("-o").arg(&o).arg(&bc));
            assert_eq!(run_object(&m, &o), want, "{name} {args:?}");
        }
    }
}

/// `b[i * s] += a[i * s]` through pointers that may be one array: a
/// dependence from each iteration's store to the next one's loads bounds
/// the loop, unless the loop is marked `dsp.loop.independent` (what
/// dsp-interchange proves under its run-time guard).
fn strided_ir(independent: bool) -> String {
    let md = if independent { ", !llvm.loop !0" } else { "" };
    format!(
        r#"target datalayout = "e-m:e-p:32:32:32-a:0-n16:32-i64:64:64-i32:32:32-i16:16:16-i1:8:8-f32:32:32-f64:64:64-v32:32:32-v64:64:64-v512:512:512-v1024:1024:1024-v2048:2048:2048"
target triple = "hexagon-unknown-unknown-elf"
define void @f(ptr %a, ptr %b, i32 %s, i32 %n) {{
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %l, label %x
l:
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  %o = mul i32 %i, %s
  %pa = getelementptr inbounds i32, ptr %a, i32 %o
  %pb = getelementptr inbounds i32, ptr %b, i32 %o
  %va = load i32, ptr %pa, align 4
  %vb = load i32, ptr %pb, align 4
  %m = mul i32 %va, %vb
  %r = add i32 %m, %vb
  store i32 %r, ptr %pb, align 4
  %i1 = add nuw nsw i32 %i, 1
  %e = icmp eq i32 %i1, %n
  br i1 %e, label %x, label %l{md}
x:
  ret void
}}
!0 = distinct !{{!0, !1}}
!1 = !{{!"dsp.loop.independent"}}
"#
    )
}

#[test]
fn a_loop_marked_independent_has_no_recurrence_through_memory() {
    let Some(_) = bitcode("independent", "unused.c", "int f(int x) { return x; }\n") else { return };
    let rec = |independent: bool| {
        let ll = tmp(&format!("s{independent}.ll"));
        std::fs::write(&ll, strided_ir(independent)).unwrap();
        let records = report(&ll, &["-O2"]);
        let ok = pipelined(&records);
        assert_eq!(ok.len(), 1, "{records:?}");
        ok[0].num("rec_mii").unwrap()
    };
    let (plain, marked) = (rec(false), rec(true));
    assert!(plain > 1.0, "a store to b and the next iteration's load of b (or a): {plain}");
    assert_eq!(marked, 1.0, "only the counter's recurrence");
}

/// `x[j]` loaded early and stored after a chain of multiplies: without
/// rebasing, the address of iteration j lives from the load to the store.
const REBASE_C: &str = "\
int x[64], y[64];
__attribute__((noinline)) void chain(int *restrict x, const int *restrict y, int n) {
  for (int j = 0; j < n; j++) x[j] = (((x[j] * 3 + y[j]) * 5 + 11) * 7 + 13) * 9;
}
int main(void) {
  unsigned h = 0;
  for (int n = 0; n <= 40; n++) {
    for (int i = 0; i < 64; i++) { x[i] = i * 7 - n; y[i] = n - i; }
    chain(x, y, n);
    for (int i = 0; i < 64; i++) h = h * 31u + (unsigned)x[i];
  }
  return (int)(h % 251u);
}
";

fn rebase_expected() -> i32 {
    let mut h: u32 = 0;
    for n in 0..=40i32 {
        let mut x: Vec<i32> = (0..64).map(|i| i * 7 - n).collect();
        let y: Vec<i32> = (0..64).map(|i| n - i).collect();
        for j in 0..n as usize {
            let a = x[j].wrapping_mul(3).wrapping_add(y[j]).wrapping_mul(5).wrapping_add(11);
            x[j] = a.wrapping_mul(7).wrapping_add(13).wrapping_mul(9);
        }
        for v in x {
            h = h.wrapping_mul(31).wrapping_add(v as u32);
        }
    }
    (h % 251) as i32
}

#[test]
fn rebased_addresses_need_fewer_kernel_copies_and_run_the_same() {
    let Some(bc) = bitcode("rebase", "r.c", REBASE_C) else { return };
    let want = rebase_expected();
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        let mut copies = Vec::new();
        for args in [&["-O2"][..], &["-O2", "--no-pipeline-rebase"], &["-O3", "--modulo-scheduler=ims"]] {
            let all = [&["--isa", name][..], args].concat();
            let records = report(&bc, &all);
            let p: Vec<_> = pipelined(&records).into_iter().filter(|r| r.str("function") == Some("chain")).collect();
            assert_eq!(p.len(), 1, "{name} {args:?}: {records:?}");
            let notes = format!("{:?}", p[0]);
            assert_eq!(notes.contains("address rebasing: "), !args.contains(&"--no-pipeline-rebase"), "{name} {args:?}: {notes}");
            copies.push(p[0].num("kernel_copies").unwrap());
            let o = tmp(&format!("r-{name}-{}.o", args.join("")));
            run(llc().args(&all).arg("-o").arg(&o).arg(&bc));
            assert_eq!(run_object(&m, &o), want, "{name} {args:?}");
        }
        // 8 copies without (the address lives from the load to the store), 2 with.
        assert!(copies[0] < copies[1], "{name}: {copies:?}");
    }
}

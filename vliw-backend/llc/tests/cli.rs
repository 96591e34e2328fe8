//! dsp-llc as a command: LLVM IR (text and bitcode) to assembly and objects,
//! linked with crt0 and run on `dsp-sim --strict` on every shipped machine at
//! every -O level; error and usage exit statuses.

use std::path::{Path, PathBuf};
use std::process::Command;

use isa_tablegen::Machine;

const CRT0: &str = include_str!("../../runtime/crt0.s");

/// Sum of squares 0..=10 through a loop with phis: 385, exit status 129.
const LOOP_LL: &str = r#"
target datalayout = "e-m:e-p:32:32:32-a:0-n16:32-i64:64:64-i32:32:32-i16:16:16-i1:8:8-f32:32:32-f64:64:64-v32:32:32-v64:64:64-v512:512:512-v1024:1024:1024-v2048:2048:2048"
target triple = "hexagon-unknown-unknown-elf"

@table = internal global [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4

define internal i32 @square(i32 %x) {
  %r = mul i32 %x, %x
  ret i32 %r
}

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %sq = call i32 @square(i32 %i)
  %s1 = add i32 %s, %sq
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 11
  br i1 %c, label %loop, label %exit
exit:
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 3
  %t = load i32, ptr %p, align 4
  %r = sub i32 %s1, %t
  %r2 = add i32 %r, 4
  ret i32 %r2
}
"#;

fn llc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dsp-llc"))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsp-llc-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run_object(m: &Machine, obj: &Path) -> (i32, String) {
    let crt0 = dsp_mc::assemble(m, CRT0, "crt0.s").unwrap();
    let bytes = std::fs::read(obj).unwrap();
    let main = dsp_obj::read_object(&bytes).unwrap();
    let inputs = [
        dsp_ld::Input::object("crt0.o", crt0),
        dsp_ld::Input::object("main.o", main),
    ];
    let opts = dsp_ld::LinkOptions {
        machine: Some(m.clone()),
        ..dsp_ld::LinkOptions::default()
    };
    let exe = dsp_ld::link(&inputs, &opts).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let config = dsp_sim::Config {
        strict: true,
        max_cycles: Some(1_000_000),
        ..dsp_sim::Config::default()
    };
    let mut sim = dsp_sim::Sim::new(m, &exe, config).unwrap();
    match sim.run() {
        dsp_sim::Outcome::Exit(s) => (s, String::from_utf8_lossy(&sim.core.stdout).into_owned()),
        other => panic!("{}: {other:?}", m.name),
    }
}

#[test]
fn text_ir_to_objects_that_run_on_every_machine_and_level() {
    let ll = tmp("loop.ll");
    std::fs::write(&ll, LOOP_LL).unwrap();
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        for level in 0..=3 {
            let obj = tmp(&format!("loop-{name}-{level}.o"));
            let out = llc()
                .args(["--isa", name, &format!("-O{level}"), "-o"])
                .arg(&obj)
                .arg(&ll)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name} -O{level}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let (status, _) = run_object(&m, &obj);
            assert_eq!(status, 385 & 0xff, "{name} -O{level}");
        }
    }
}

#[test]
fn assembly_output_and_statistics() {
    let ll = tmp("asm.ll");
    std::fs::write(&ll, LOOP_LL).unwrap();
    let s = tmp("asm.s");
    let out = llc()
        .args(["-S", "--stats", "-o"])
        .arg(&s)
        .arg(&ll)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&s).unwrap();
    assert!(
        text.contains("\t.globl main") && text.contains("square:") && text.contains("table:"),
        "{text}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bundles") && stderr.contains("main"),
        "{stderr}"
    );
    // The text reassembles.
    let m = Machine::load("ftm").unwrap();
    dsp_mc::assemble(&m, &text, "asm.s").unwrap();
    // OUT ending in .s implies assembly; --print-mir dumps both stages.
    let out = llc()
        .args(["--print-mir", "-o"])
        .arg(&s)
        .arg(&ll)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("after instruction selection")
            && stderr.contains("after register allocation"),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(&s).unwrap().contains("main:"));
}

#[test]
fn bitcode_input_from_clang() {
    // Only where clang-19 is installed (scripts/install-deps installs it).
    if Command::new("clang-19").arg("--version").output().is_err() {
        eprintln!("clang-19 not found: skipped");
        return;
    }
    let c = tmp("t.c");
    std::fs::write(&c, "static int tab[5] = {3, 1, 4, 1, 5};\nint main(void) {\n  int s = 0;\n  for (int i = 0; i < 5; i++) s = s * 10 + tab[i];\n  return s % 251;\n}\n").unwrap();
    let bc = tmp("t.bc");
    let st = Command::new("clang-19")
        .args([
            "--target=hexagon-unknown-elf",
            "-fsigned-char",
            "-ffreestanding",
            "-O2",
            "-c",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&c)
        .status()
        .unwrap();
    assert!(st.success());
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        let obj = tmp(&format!("t-{name}.o"));
        let out = llc()
            .args(["--isa", name, "-o"])
            .arg(&obj)
            .arg(&bc)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(run_object(&m, &obj).0, 31415 % 251, "{name}");
    }
}

#[test]
fn errors_and_usage() {
    // A missing input: error, status 1.
    let out = llc().arg(tmp("missing.ll")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.ll"));
    // Invalid IR: the parser's message, status 1.
    let bad = tmp("bad.ll");
    std::fs::write(&bad, "define i32 @f( {\n").unwrap();
    let out = llc().arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.ll"));
    // An unknown machine: status 1.
    let ll = tmp("ok.ll");
    std::fs::write(&ll, LOOP_LL).unwrap();
    let out = llc().args(["--isa", "nosuch"]).arg(&ll).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    // Usage errors: status 2.
    assert_eq!(
        llc().arg("--bogus").output().unwrap().status.code(),
        Some(2)
    );
    assert_eq!(
        llc().args(["-O7"]).arg(&ll).output().unwrap().status.code(),
        Some(2)
    );
    assert_eq!(llc().output().unwrap().status.code(), Some(2));
}

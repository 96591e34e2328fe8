//! The plugin as LLVM loads it: `opt-19 -load-pass-plugin=libdsp_opt_passes.so
//! -passes=…` on IR files, and `clang-19 -fpass-plugin=…` on C, with the
//! output IR checked FileCheck-style (expected lines, in order).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The plugin next to the test binary's profile directory.
fn plugin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let p = dir.join("libdsp_opt_passes.so");
    assert!(p.exists(), "{} not built", p.display());
    p
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/opt-passes-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// Runs `opt-19 -passes=PASSES` with the plugin on `ir`; returns the output IR.
fn opt(passes: &str, ir: &str, extra: &[&str]) -> String {
    let dir = scratch(&format!("opt-{}", passes.replace([',', '<', '>'], "_")));
    let input = dir.join(format!("in-{}.ll", std::process::id()));
    std::fs::write(&input, ir).unwrap();
    let out = run(Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .arg(format!("-passes={passes}"))
        .args(extra)
        .args(["-S", "-o", "-"])
        .arg(&input));
    assert!(
        out.status.success(),
        "opt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn check(text: &str, lines: &[&str]) {
    let mut at = 0;
    for l in lines {
        match text[at..].find(l) {
            Some(i) => at += i + l.len(),
            None => panic!("CHECK '{l}' not found (in order) in:\n{text}"),
        }
    }
}

fn check_not(text: &str, needle: &str) {
    assert!(
        !text
            .lines()
            .any(|l| !l.starts_with("declare") && l.contains(needle)),
        "CHECK-NOT '{needle}' found in:\n{text}"
    );
}

/// A `.isa` file: the default machine without the instructions of `ops`.
fn machine_without(dir: &Path, ops: &[&str]) -> PathBuf {
    let (_, text) = isa_tablegen::builtin::source("ftm").unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !ops.iter().any(|op| l.contains(&format!("= {op}("))))
        .collect();
    let path = dir.join("reduced.isa");
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    path
}

#[test]
fn lower_overflow() {
    let out = opt(
        "dsp-lower-overflow",
        "declare {i32, i1} @llvm.umul.with.overflow.i32(i32, i32)\n\
         define i32 @f(i32 %a, i32 %b) {\n  %s = call {i32, i1} @llvm.umul.with.overflow.i32(i32 %a, i32 %b)\n\
           %r = extractvalue {i32, i1} %s, 0\n  %o = extractvalue {i32, i1} %s, 1\n  %z = zext i1 %o to i32\n  %t = add i32 %r, %z\n  ret i32 %t\n}\n",
        &[],
    );
    check(
        &out,
        &[
            "zext i32 %a to i64",
            "zext i32 %b to i64",
            "mul i64",
            "trunc i64",
            "lshr i64",
            "icmp ne i64",
        ],
    );
    check_not(&out, "with.overflow");
}

#[test]
fn lower_minmax_follows_the_machine() {
    let ir = "declare i32 @llvm.smax.i32(i32, i32)\ndeclare i64 @llvm.umin.i64(i64, i64)\n\
              define i64 @f(i32 %a, i32 %b, i64 %c, i64 %d) {\n  %m = call i32 @llvm.smax.i32(i32 %a, i32 %b)\n\
                %w = sext i32 %m to i64\n  %n = call i64 @llvm.umin.i64(i64 %c, i64 %w)\n  ret i64 %n\n}\n";
    let out = opt("dsp-lower-minmax", ir, &[]);
    check(
        &out,
        &[
            "call i32 @llvm.smax.i32(i32 %a, i32 %b)",
            "icmp ult i64 %c",
            "select i1",
        ],
    );
    let dir = scratch("minmax-isa");
    let isa = machine_without(&dir, &["max.i32"]);
    let out = opt(
        "dsp-lower-minmax",
        ir,
        &[&format!("-dsp-isa={}", isa.display())],
    );
    check(
        &out,
        &["icmp sgt i32 %a, %b", "select i1", "icmp ult i64 %c"],
    );
    check_not(&out, "call i32 @llvm.smax");
}

#[test]
fn expand_intrinsics_memcpy_and_rotate() {
    let out = opt(
        "dsp-expand-intrinsics",
        "declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)\ndeclare i32 @llvm.fshl.i32(i32, i32, i32)\n\
         define i32 @f(ptr %d, ptr %s, i32 %x, i32 %n) {\n  call void @llvm.memcpy.p0.p0.i32(ptr align 4 %d, ptr align 4 %s, i32 8, i1 false)\n\
           %r = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 %n)\n  ret i32 %r\n}\n",
        &[],
    );
    check(
        &out,
        &[
            "load i32, ptr %s, align 4",
            "store i32",
            "getelementptr inbounds i8, ptr %s, i32 4",
            "load i32",
            "store i32",
            "and i32 %n, 31",
            "shl i32 %x",
            "lshr i32 %x, 1",
            "or i32",
        ],
    );
    check_not(&out, "@llvm.memcpy");
    check_not(&out, "@llvm.fshl");
}

#[test]
fn canon_loops() {
    let out = opt(
        "dsp-canon-loops",
        "define i32 @f(i32 %n, i1 %c) {\nentry:\n  br i1 %c, label %done, label %loop\n\
         loop:\n  %i = phi i32 [ 0, %entry ], [ %i1, %a ], [ %i2, %b ]\n  %odd = trunc i32 %i to i1\n  br i1 %odd, label %a, label %b\n\
         a:\n  %i1 = add i32 %i, 3\n  %ca = icmp slt i32 %i1, %n\n  br i1 %ca, label %loop, label %done\n\
         b:\n  %i2 = add i32 %i, 1\n  br label %loop\n\
         done:\n  %r = phi i32 [ 0, %entry ], [ %i1, %a ]\n  ret i32 %r\n}\n",
        &[],
    );
    check(
        &out,
        &[
            "br i1 %c, label %done, label %loop.preheader",
            "loop.preheader:",
            "br label %loop",
            "%i = phi i32 [ 0, %loop.preheader ], [ %i.merge, %loop.backedge ]",
            "br i1 %ca, label %loop.backedge, label %done.loopexit",
            "br label %loop.backedge",
            "loop.backedge:",
            "%i.merge = phi i32 [ %i1, %a ], [ %i2, %b ]",
            "done.loopexit:",
            "%r = phi i32 [ 0, %entry ], [ %i1, %done.loopexit ]",
        ],
    );
}

#[test]
fn registered_at_the_optimizer_last_extension_point() {
    let out = run(Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args([
            "-passes=default<O2>",
            "-print-pipeline-passes",
            "-disable-output",
            "/dev/null",
        ]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The function-level vectorizer first, the clean-up after our passes,
    // predictive commoning (from -O2), the vector division and square
    // root, then the preparation for the backend, after the last function
    // pass of the default pipeline.
    assert!(text.contains("),dsp-wfv<all>,function(early-cse<memssa>,instcombine<"), "{text}");
    assert!(text.contains(">,loop-mssa(licm<allowspeculation>),simplifycfg<"), "{text}");
    assert!(text.contains(">),dsp-predcom,dsp-vector-fdiv,dsp-prepare,"), "{text}");
    // -dsp-late-cleanup=false: no clean-up; -dsp-predcom=false: no
    // predictive commoning.
    let out = run(Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args(["-dsp-late-cleanup=false", "-passes=default<O2>", "-print-pipeline-passes", "-disable-output", "/dev/null"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("),dsp-wfv<all>,dsp-predcom,dsp-vector-fdiv,dsp-prepare,"));
    let out = run(Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args(["-dsp-late-cleanup=false", "-dsp-predcom=false", "-passes=default<O2>", "-print-pipeline-passes", "-disable-output", "/dev/null"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("),dsp-wfv<all>,dsp-vector-fdiv,dsp-prepare,"));
    // At -O1, none either.
    let out = run(Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args(["-dsp-late-cleanup=false", "-passes=default<O1>", "-print-pipeline-passes", "-disable-output", "/dev/null"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("dsp-predcom"));
    // The vectorizer's parameters parse in -passes=; unknown ones do not.
    for (params, ok) in [("naive;auto", true), ("mem", true), ("fast", false)] {
        let out = run(Command::new("opt-19")
            .arg(format!("-load-pass-plugin={}", plugin().display()))
            .args([&format!("-passes=dsp-wfv<{params}>"), "-disable-output", "/dev/null"]));
        assert_eq!(out.status.success(), ok, "{params}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn unknown_machine_is_an_error() {
    let dir = scratch("bad-isa");
    let input = dir.join("in.ll");
    std::fs::write(&input, "define void @f() {\n  ret void\n}\n").unwrap();
    let out = run(Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .args([
            "-passes=dsp-expand-intrinsics",
            "-dsp-isa=nosuch",
            "-disable-output",
        ])
        .arg(&input));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("dsp-opt-passes: error: dsp-expand-intrinsics: machine 'nosuch'"),
        "{err}"
    );
}

const C_SOURCE: &str = r#"
typedef struct { int a, b, c; } S;
int ovf(int a, int b, int *o) { int r; *o = __builtin_smul_overflow(a, b, &r); return r; }
long long mn(long long a, long long b) { return a < b ? a : b; }
unsigned rot(unsigned x, unsigned n) { return (x << (n & 31)) | (x >> ((32 - n) & 31)); }
void cp(S *d, const S *s) { *d = *s; }
int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { if (a[i] < 0) continue; s += a[i]; } return s; }
"#;

fn clang(level: &str, env_isa: Option<&Path>) -> String {
    let dir = scratch(&format!("clang{level}{}", env_isa.is_some()));
    let src = dir.join("t.c");
    std::fs::write(&src, C_SOURCE).unwrap();
    let mut cmd = Command::new("clang-19");
    cmd.args([
        "--target=hexagon-unknown-elf",
        "-fsigned-char",
        "-ffreestanding",
        level,
        "-S",
        "-emit-llvm",
        "-o",
        "-",
    ])
    .arg(format!("-fpass-plugin={}", plugin().display()))
    .arg(&src);
    if let Some(isa) = env_isa {
        cmd.env("DSP_ISA", isa);
    }
    let out = run(&mut cmd);
    assert!(
        out.status.success(),
        "clang failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn clang_runs_the_passes_at_every_level() {
    for level in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        let out = clang(level, None);
        check_not(&out, "with.overflow");
        check_not(&out, "@llvm.fshl");
        check_not(&out, "@llvm.smin.i64");
        check_not(&out, "@llvm.memcpy");
    }
}

#[test]
fn clang_takes_the_machine_from_dsp_isa() {
    let dir = scratch("clang-env-isa");
    let isa = machine_without(&dir, &["min.i32", "max.i32"]);
    let c = "int clampi(int x) { return x < 0 ? 0 : x > 255 ? 255 : x; }\n";
    let src = dir.join("c.c");
    std::fs::write(&src, c).unwrap();
    let compile = |env: Option<&Path>| {
        let mut cmd = Command::new("clang-19");
        cmd.args([
            "--target=hexagon-unknown-elf",
            "-O2",
            "-S",
            "-emit-llvm",
            "-o",
            "-",
        ])
        .arg(format!("-fpass-plugin={}", plugin().display()))
        .arg(&src);
        if let Some(e) = env {
            cmd.env("DSP_ISA", e);
        }
        String::from_utf8(run(&mut cmd).stdout).unwrap()
    };
    check(&compile(None), &["@llvm.smax.i32", "@llvm.smin.i32"]);
    let reduced = compile(Some(&isa));
    check_not(&reduced, "call i32 @llvm.smax");
    check_not(&reduced, "call i32 @llvm.smin");
    check(&reduced, &["icmp", "select"]);
}

const LOOPY_C: &str = r#"
int g(int);
int loops(int *a, int n, int m) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] < 0) continue;
        if (a[i] == 99) break;
        for (int j = 0; j < m; j++) {
            if (a[j] == i) goto out;
            s += a[j] * i;
            if (s > 1000) continue;
            s -= g(j);
        }
        while (s > 10 && a[s & 7]) { s /= 2; if (s == 17) break; }
    }
out:
    do { s += g(s); } while (s & 1);
    switch (n) { case 1: while (g(s)) s++; break; case 2: for (;;) { if (g(s)) return s; s--; } default: break; }
    return s;
}
"#;

#[test]
fn every_loop_clang_leaves_is_canonical() {
    use inkwell::llvm_sys::core::*;
    use inkwell::llvm_sys::ir_reader::LLVMParseIRInContext;
    let dir = scratch("canonical");
    let src = dir.join("loops.c");
    std::fs::write(&src, LOOPY_C).unwrap();
    for level in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        for with_plugin in [false, true] {
            let mut cmd = Command::new("clang-19");
            cmd.args([
                "--target=hexagon-unknown-elf",
                level,
                "-S",
                "-emit-llvm",
                "-o",
                "-",
            ])
            .arg(&src);
            if with_plugin {
                cmd.arg(format!("-fpass-plugin={}", plugin().display()));
            }
            let out = run(&mut cmd);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = out.stdout;
            let problems = unsafe {
                let ctx = LLVMContextCreate();
                let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                    text.as_ptr() as *const _,
                    text.len(),
                    c"loops".as_ptr(),
                );
                let mut m = std::ptr::null_mut();
                let mut msg = std::ptr::null_mut();
                assert_eq!(
                    LLVMParseIRInContext(ctx, buf, &mut m, &mut msg),
                    0,
                    "clang's IR does not parse"
                );
                let p = dsp_opt_passes::loops::non_canonical(m);
                LLVMDisposeModule(m);
                LLVMContextDispose(ctx);
                p
            };
            if with_plugin {
                assert!(problems.is_empty(), "{level}: {problems:?}");
            } else if level == "-O2" {
                // Without our pass, LLVM's pipeline leaves loops that are not
                // canonical (its last SimplifyCFG folds empty preheaders).
                assert!(
                    !problems.is_empty(),
                    "LLVM left every loop canonical; the test lost its point"
                );
            }
        }
    }
}

#[test]
fn wide_bit_field_units_are_split_by_clang_at_every_level() {
    let dir = scratch("wide-bitfields");
    let src = dir.join("bf.c");
    std::fs::write(
        &src,
        "#pragma pack(push, 1)\nstruct S { signed a : 31; unsigned b : 23; signed c : 17; volatile unsigned d : 9; };\n#pragma pack(pop)\n\
         struct S g = { -5, 77, -3, 300 };\nint f(struct S *s, int v) { s->b += v; s->c = s->a ^ v; g.d = s->c; return s->a + s->b + g.c; }\n",
    )
    .unwrap();
    for level in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        let out = run(Command::new("clang-19")
            .args([
                "--target=hexagon-unknown-elf",
                level,
                "-S",
                "-emit-llvm",
                "-o",
                "-",
            ])
            .arg(format!("-fpass-plugin={}", plugin().display()))
            .arg(&src));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let wide: Vec<&str> = text
            .lines()
            .filter(|l| {
                !l.starts_with("%struct")
                    && !l.starts_with('@')
                    && (l.contains(" i80") || l.contains(" i72"))
            })
            .collect();
        assert!(wide.is_empty(), "{level}: {wide:?}");
    }
}

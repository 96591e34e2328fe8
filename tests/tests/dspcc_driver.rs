//! The `dspcc` driver from the outside, on every shipped machine: flag
//! errors, `-E` and our predefined macros, `-emit-llvm` and the vector width,
//! `-v`/`-###` command listings, dependency files, and assembling and linking
//! with a runtime. C programs run against the hand-written assembly runtime
//! (crt0, libprint) and against the C library, which scripts/test builds
//! (scripts/build-runtime) before the tests run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dsp_e2e_tests::{machines, run, run_ok, tool};

/// This checkout (from this file's own crate, so that a library built from
/// another checkout sharing the target directory cannot redirect it).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/e2e").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dspcc` run in `dir` with a stand-in runtime (`dir/rt/include` with a
/// two-line `stdio.h` and `stdint.h`), so the compile-only tests need
/// neither a built runtime nor the C library's real headers.
fn dspcc(dir: &Path) -> Command {
    let include = dir.join("rt/include");
    if !include.is_dir() {
        std::fs::create_dir_all(&include).unwrap();
        std::fs::write(include.join("stdio.h"), "int printf(const char *, ...);\n").unwrap();
        std::fs::write(include.join("stdint.h"), "typedef int int32_t;\n").unwrap();
    }
    let mut c = Command::new(tool("dspcc"));
    c.current_dir(dir).env("DSPCC_RUNTIME", dir.join("rt"));
    c
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const LOOP_C: &str = "void axpy(int *restrict y, const int *restrict x, int a, int n) {\n  for (int i = 0; i < n; i++)\n    y[i] += a * x[i];\n}\n";

#[test]
fn version_and_help() {
    let dir = scratch("dspcc-version");
    let out = run_ok(dspcc(&dir).arg("--version"));
    assert!(stdout(&out).starts_with("dspcc version "), "{}", stdout(&out));
    let out = run_ok(dspcc(&dir).arg("--help"));
    assert!(stdout(&out).contains("--isa=NAME|FILE"));
    let out = run_ok(dspcc(&dir).arg("-dumpmachine"));
    assert_eq!(stdout(&out), "dsp-unknown-elf\n");
}

#[test]
fn unknown_and_bad_flags_are_clang_style_errors() {
    let dir = scratch("dspcc-flags");
    write(&dir, "x.c", "int x;\n");
    write(&dir, "x.o", "");
    for (args, msg) in [
        (&["-foo", "-c", "x.c"][..], "dspcc: error: unknown argument: '-foo'\n"),
        (&["-foo", "x.o"], "dspcc: error: unknown argument: '-foo'\n"),
        (&["--bogus", "x.c"], "dspcc: error: unknown argument: '--bogus'\n"),
        (&["-q", "x.c"], "dspcc: error: unknown argument: '-q'\n"),
        (&["-mavx", "x.c"], "dspcc: error: unsupported option '-mavx' for target 'dsp'\n"),
        (&["-c", "x.c", "-o"], "dspcc: error: argument to '-o' is missing (expected 1 value)\n"),
        (&["-x", "fortran", "x.c"], "dspcc: error: language not recognized: 'fortran'\n"),
        (&["-c"], "dspcc: error: no input files\n"),
        (&["-c", "nosuch.c"], "dspcc: error: no such file or directory: 'nosuch.c'\n"),
        (&["-c", "x.c", "x.c", "-o", "y.o"], "dspcc: error: cannot specify -o when generating multiple output files\n"),
        (&["-emit-llvm", "x.c"], "dspcc: error: -emit-llvm cannot be used when linking\n"),
        (&["-O9x", "x.c"], "dspcc: error: invalid integral value '9x' in '-O9x'\n"),
    ] {
        let out = run(dspcc(&dir).args(args));
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), msg, "{args:?}");
    }
    let out = run(dspcc(&dir).args(["--isa=nosuch", "-c", "x.c"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("dspcc: error: --isa=nosuch: "), "{}", stderr(&out));
}

#[test]
fn preprocessing_defines_our_macros_instead_of_hexagons() {
    let dir = scratch("dspcc-macros");
    for m in machines() {
        let lanes = isa_tablegen::Machine::load(m).unwrap().vector_lanes(32).unwrap();
        let out = run_ok(dspcc(&dir).args([&format!("--isa={m}"), "-E", "-dM", "-x", "c", "/dev/null"]));
        let text = stdout(&out);
        assert!(text.contains("#define __dsp__ 1\n"), "{text}");
        assert!(text.contains(&format!("#define __DSP_ISA__ \"{m}\"\n")), "{text}");
        assert!(text.contains(&format!("#define __DSP_LANES__ {lanes}\n")), "{text}");
        assert!(!text.contains("#define __CHAR_UNSIGNED__"), "char is signed");
        for gone in ["__hexagon__", "__HEXAGON", "__qdsp6__", "__QDSP6", "__HVX"] {
            assert!(!text.contains(gone), "{m}: {gone} still defined");
        }
    }
}

#[test]
fn preprocessing_finds_the_runtime_headers() {
    let dir = scratch("dspcc-headers");
    write(&dir, "h.c", "#include <stdio.h>\n#include <stdint.h>\nint main(void) { printf(\"%d\\n\", (int)sizeof(int32_t)); return 0; }\n");
    let out = run_ok(dspcc(&dir).args(["-E", "h.c", "-o", "h.i"]));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("h.i")).unwrap();
    assert!(text.contains("printf"), "{text}");
    assert!(text.contains("rt/include/stdio.h"), "{text}");
}

#[test]
fn emit_llvm_targets_the_machines_lane_count() {
    let dir = scratch("dspcc-emit-llvm");
    write(&dir, "axpy.c", LOOP_C);
    for m in machines() {
        let lanes = isa_tablegen::Machine::load(m).unwrap().vector_lanes(32).unwrap();
        let ll = format!("axpy-{m}.ll");
        run_ok(dspcc(&dir).args([&format!("--isa={m}"), "-O2", "-S", "-emit-llvm", "axpy.c", "-o", &ll]));
        let text = std::fs::read_to_string(dir.join(&ll)).unwrap();
        assert!(text.contains("target triple = \"hexagon-unknown-unknown-elf\""), "{text}");
        assert!(text.contains(&format!("<{lanes} x i32>")), "{m}: no <{lanes} x i32> in\n{text}");
        assert!(!text.contains("llvm.hexagon"), "{m}: target intrinsics in\n{text}");
        // Bitcode with -c.
        let bc = format!("axpy-{m}.bc");
        run_ok(dspcc(&dir).args([&format!("--isa={m}"), "-O2", "-c", "-emit-llvm", "axpy.c", "-o", &bc]));
        let bytes = std::fs::read(dir.join(&bc)).unwrap();
        assert_eq!(&bytes[..4], b"BC\xc0\xde", "{m}: not bitcode");
    }
    // -O0 does not vectorize; the plugin's passes still run (no with.overflow left).
    write(&dir, "ovf.c", "int f(int a, int b, int *o) { int r; *o = __builtin_add_overflow(a, b, &r); return r; }\n");
    let out = run_ok(dspcc(&dir).args(["-O0", "-S", "-emit-llvm", "ovf.c", "-o", "-"]));
    assert!(!stdout(&out).contains("with.overflow"), "{}", stdout(&out));
    assert!(stdout(&out).contains("define"), "{}", stdout(&out));
}

#[test]
fn verbose_lists_every_command_and_dry_run_runs_nothing() {
    let dir = scratch("dspcc-verbose");
    write(&dir, "axpy.c", LOOP_C);
    let out = run_ok(dspcc(&dir).args(["-v", "--isa=ftm8", "-O2", "-S", "-emit-llvm", "axpy.c"]));
    let err = stderr(&out);
    assert!(err.starts_with("dspcc version "), "{err}");
    let clang_line = err.lines().find(|l| l.starts_with(" \"") && l.contains("clang")).unwrap_or_else(|| panic!("{err}"));
    for needle in ["\"--target=hexagon-unknown-elf\"", "\"-fsigned-char\"", "\"-nostdinc\"", "\"-U__hexagon__\"", "\"-D__DSP_LANES__=8\"", "\"-force-vector-width=8\"", "libdsp_opt_passes.so\"", "\"-dsp-isa=ftm8\"", "\"-emit-llvm\""] {
        assert!(clang_line.contains(needle), "{needle} missing in {clang_line}");
    }
    assert!(dir.join("axpy.ll").exists());

    let out = run_ok(dspcc(&dir).args(["-###", "-O3", "axpy.c", "-o", "prog"]));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].contains("clang") && lines[0].contains("\"-O3\""), "{err}");
    assert!(lines[1].contains("dsp-llc\" \"--isa\" \"ftm\" \"-O3\""), "{err}");
    assert!(lines[2].contains("dsp-ld\" \"--isa\" \"ftm\" \"-o\" \"prog\"") && lines[2].contains("crt0.o") && lines[2].contains("libc.a"), "{err}");
    assert!(!dir.join("prog").exists());
}

#[test]
fn dependency_files() {
    let dir = scratch("dspcc-deps");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    write(&dir, "inc/local.h", "#define N 4\n");
    write(&dir, "d.c", "#include <stdio.h>\n#include \"local.h\"\nint n = N;\n");
    run_ok(dspcc(&dir).args(["-MD", "-Iinc", "-c", "-emit-llvm", "d.c", "-o", "obj/d.bc"]));
    let dep = std::fs::read_to_string(dir.join("obj/d.d")).unwrap();
    assert!(dep.starts_with("obj/d.bc: d.c"), "{dep}");
    assert!(dep.contains("inc/local.h") && dep.contains("stdio.h"), "{dep}");
    run_ok(dspcc(&dir).args(["-MMD", "-MF", "user.d", "-MT", "target", "-Iinc", "-S", "-emit-llvm", "d.c"]));
    let dep = std::fs::read_to_string(dir.join("user.d")).unwrap();
    assert!(dep.starts_with("target: d.c"), "{dep}");
    assert!(dep.contains("inc/local.h") && !dep.contains("stdio.h"), "{dep}");
    let out = run_ok(dspcc(&dir).args(["-MM", "-Iinc", "d.c"]));
    assert!(stdout(&out).starts_with("d.o: d.c inc/local.h"), "{}", stdout(&out));
}

/// A runtime directory for `machine` made of the hand-written assembly
/// runtime (crt0 and libprint), enough to link assembly programs.
fn asm_runtime(dir: &Path, machine: &str) -> PathBuf {
    let rt = dir.join("runtime");
    let lib = rt.join(machine);
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::create_dir_all(rt.join("include")).unwrap();
    let src = root().join("vliw-backend/runtime");
    run_ok(Command::new(tool("dsp-as")).args(["--isa", machine, "-o"]).arg(lib.join("crt0.o")).arg(src.join("crt0.s")));
    let mut members = Vec::new();
    for name in ["print_int", "print_hex", "puts"] {
        let o = lib.join(format!("{name}.o"));
        run_ok(Command::new(tool("dsp-as")).args(["--isa", machine, "-o"]).arg(&o).arg(src.join(format!("libprint/{name}.s"))));
        members.push(o);
    }
    for a in ["libc.a", "libm.a"] {
        let _ = std::fs::remove_file(lib.join(a));
        run_ok(Command::new(tool("dsp-ar")).arg("rcs").arg(lib.join(a)).args(&members));
    }
    rt
}

const MAIN_CALLS_GREET: &str = "        .text\n        .globl main\nmain:\n        addi r1, r1, -16\n        .wait addi\n        stw r31, r1, 0\n        call greet\n        .nop_delay\n        ldw r31, r1, 0\n        .wait ldw\n        { addi r1, r1, 16 ; li r4, 0 }\n        jmp r31\n        .nop_delay\n";

#[test]
fn assembly_programs_assemble_link_and_run() {
    for m in machines() {
        let dir = scratch(&format!("dspcc-asm-{m}"));
        let rt = asm_runtime(&dir, m);
        let hello = root().join("tests/asm/hello.s");
        // One step: .s to executable.
        let out = run_ok(dspcc(&dir).env("DSPCC_RUNTIME", &rt).args([&format!("--isa={m}"), "-v", "-o", "hello"]).arg(&hello));
        assert!(stderr(&out).contains("dsp-as\" \"--isa\""), "{}", stderr(&out));
        assert!(stderr(&out).contains("dsp-ld\" \"--isa\""), "{}", stderr(&out));
        let run_out = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("hello")));
        assert_eq!(stdout(&run_out), "hello, world\n", "{m}");
        // Separate steps: main.s calls greet() from a library archive found by -L/-l.
        let greet = std::fs::read_to_string(&hello).unwrap().replace("main", "greet");
        write(&dir, "greet.s", &greet);
        write(&dir, "main.s", MAIN_CALLS_GREET);
        run_ok(dspcc(&dir).env("DSPCC_RUNTIME", &rt).args([&format!("--isa={m}"), "-c", "main.s", "greet.s"]));
        assert!(dir.join("main.o").exists() && dir.join("greet.o").exists());
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        run_ok(Command::new(tool("dsp-ar")).arg("rcs").arg(dir.join("lib/libgreet.a")).arg(dir.join("greet.o")));
        run_ok(dspcc(&dir).env("DSPCC_RUNTIME", &rt).args([&format!("--isa={m}"), "main.o", "-Llib", "-lgreet", "-o", "hello2"]));
        let run_out = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("hello2")));
        assert_eq!(stdout(&run_out), "hello, world\n", "{m}");
    }
}

#[test]
fn failing_tools_are_reported_with_their_role() {
    let dir = scratch("dspcc-fail");
    let rt = asm_runtime(&dir, "ftm");
    write(&dir, "bad.s", "        .text\n        bogus r1\n");
    let out = run(dspcc(&dir).env("DSPCC_RUNTIME", &rt).args(["-c", "bad.s"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("dspcc: error: assembler command failed with exit code 1 (use -v to see invocation)"), "{}", stderr(&out));
    write(&dir, "undef.s", "        .text\n        .globl main\nmain:\n        call nowhere\n        .nop_delay\n");
    let out = run(dspcc(&dir).env("DSPCC_RUNTIME", &rt).args(["undef.s"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("dspcc: error: linker command failed with exit code 1"), "{}", stderr(&out));
    // A C error stops that input and the link; clang's diagnostics come through.
    write(&dir, "err.c", "int f(void) { return x; }\n");
    let out = run(dspcc(&dir).args(["-c", "err.c"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("err.c:1:22: error: use of undeclared identifier 'x'"), "{}", stderr(&out));
}

#[test]
fn c_programs_compile_link_and_run_on_every_machine() {
    for m in machines() {
        let dir = scratch(&format!("dspcc-hello-c-{m}"));
        write(&dir, "hello.c", "#include <stdio.h>\nint main(void) { printf(\"hello %d\\n\", __DSP_LANES__); return 0; }\n");
        let mut c = Command::new(tool("dspcc"));
        c.current_dir(&dir).args([&format!("--isa={m}"), "-O2", "hello.c", "-o", "hello"]);
        run_ok(&mut c);
        let lanes = isa_tablegen::Machine::load(m).unwrap().vector_lanes(32).unwrap();
        let out = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("hello")));
        assert_eq!(stdout(&out), format!("hello {lanes}\n"));
    }
}

#[test]
fn c_to_assembly_and_objects() {
    let dir = scratch("dspcc-c-objects");
    write(&dir, "axpy.c", LOOP_C);
    for level in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        run_ok(dspcc(&dir).args([level, "-S", "axpy.c"]));
        assert!(std::fs::read_to_string(dir.join("axpy.s")).unwrap().contains("axpy"));
        run_ok(dspcc(&dir).args([level, "-c", "axpy.c"]));
        run_ok(Command::new(tool("dsp-objdump")).arg("-t").arg(dir.join("axpy.o")));
    }
}

/// C calling the assembly runtime's print routines: needs only dsp-llc, not the C library.
const C_WITH_LIBPRINT: &str = r#"
void print_int(int);
int a[100], b[100];
long long bigger(long long x, long long y) { return x < y ? y : x; }
int main(void) {
  for (int i = 0; i < 100; i++) { a[i] = i * 3 - 50; b[i] = 7 - i; }
  int s = 0;
  for (int i = 0; i < 100; i++) s += a[i] * b[i];
  print_int(s);
  int r;
  print_int(__builtin_mul_overflow(s, 100000, &r));
  print_int((int)bigger(s, 5));
  unsigned x = 0x12345678;
  print_int((int)((x << 8) | (x >> 24)));
  print_int(__builtin_popcount(s));
  return s & 0x7f;
}
"#;

#[test]
fn c_with_the_assembly_runtime_runs_at_every_level_on_every_machine() {
    // -668600, overflow 1, max 5, rotate 878082066, popcount 20; exit -668600 & 0x7f = 72.
    let want = "-6686001587808206620";
    for m in machines() {
        let dir = scratch(&format!("dspcc-c-libprint-{m}"));
        let rt = asm_runtime(&dir, m);
        write(&dir, "v.c", C_WITH_LIBPRINT);
        for level in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
            run_ok(dspcc(&dir).env("DSPCC_RUNTIME", &rt).args([&format!("--isa={m}"), level, "v.c", "-o", "v"]));
            let out = run(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("v")));
            assert_eq!(stdout(&out), want, "{m} {level}: {}", stderr(&out));
            assert_eq!(out.status.code(), Some(72), "{m} {level}");
        }
    }
}

#[test]
fn cc_dspcc_make_builds_a_multi_file_project_with_an_archive() {
    for m in machines() {
        let dir = scratch(&format!("dspcc-make-{m}"));
        let rt = asm_runtime(&dir, m);
        write(&dir, "vec.h", "int dot(const int *a, const int *b, int n);\nint sum(const int *a, int n);\n");
        write(&dir, "dot.c", "#include \"vec.h\"\nint dot(const int *a, const int *b, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }\n");
        write(&dir, "sum.c", "#include \"vec.h\"\nint sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }\n");
        write(&dir, "main.c", "#include \"vec.h\"\nvoid print_int(int);\nint x[64], y[64];\nint main(void) {\n  for (int i = 0; i < 64; i++) { x[i] = i; y[i] = 64 - i; }\n  print_int(dot(x, y, 64));\n  print_int(sum(x, 64));\n  return 0;\n}\n");
        write(
            &dir,
            "Makefile",
            "CFLAGS = -O2 -Wall -MMD -MP\nall: prog\nprog: main.o libvec.a\n\t$(CC) $(CFLAGS) -o $@ main.o -L. -lvec\nlibvec.a: dot.o sum.o\n\t$(AR) rcs $@ $^\n-include *.d\n",
        );
        let make = |extra: &[&str]| {
            let mut c = Command::new("make");
            c.current_dir(&dir)
                .env("DSPCC_RUNTIME", &rt)
                .arg(format!("CC={} --isa={m}", tool("dspcc").display()))
                .arg(format!("AR={}", tool("dsp-ar").display()))
                .args(extra);
            run_ok(&mut c)
        };
        make(&[]);
        let out = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("prog")));
        let (dot, sum): (i32, i32) = ((0..64).map(|i| i * (64 - i)).sum(), (0..64).sum());
        assert_eq!(stdout(&out), format!("{dot}{sum}"), "{m}");
        // Up to date; then touching the header rebuilds through the depfiles.
        let again = make(&["-q"]);
        assert!(again.status.success());
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
        std::fs::File::options().write(true).open(dir.join("vec.h")).unwrap().set_modified(later).unwrap();
        let q = run(Command::new("make").current_dir(&dir).arg(format!("CC={}", tool("dspcc").display())).arg("-q"));
        assert!(!q.status.success(), "{m}: header change not seen by make");
    }
}

/// The same compile gives the same code every time: no pass may emit
/// instructions in the order of a hash map or of pointer addresses, which
/// change from run to run (a column kernel's masked tail once came out in
/// one of four orders, moving its cycle count). Nondeterminism shows up
/// only sometimes, so each program is compiled several times.
#[test]
fn output_is_the_same_on_every_run() {
    let dir = scratch("dspcc-deterministic");
    let poly = root().join("vliw-backend/bench/poly");
    let progs = [(poly.join("syrk.c"), "-DMEDIUM"), (poly.join("fdtd-2d.c"), "-DMEDIUM"), (root().join("tests/c/egg_loops.c"), "-DUNUSED")];
    for (src, define) in &progs {
        let mut first: Option<Vec<u8>> = None;
        for k in 0..5 {
            let out = dir.join(format!("out{k}.s"));
            run_ok(Command::new(tool("dspcc")).args(["-O3", "-S", "-w", define]).arg("-I").arg(&poly).arg(src).arg("-o").arg(&out));
            let text = std::fs::read(&out).unwrap();
            match &first {
                None => first = Some(text),
                Some(f) => assert!(*f == text, "{}: run {k} gave different assembly from run 0", src.display()),
            }
        }
    }
}

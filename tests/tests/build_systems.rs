//! The toolchain as build systems use it: `dsp-ar`/`dsp-ranlib`
//! operations, `dsp-ld`'s GNU options (`--gc-sections`, `-Map=`, groups,
//! `--defsym`, ignored and rejected ones), `dspcc`'s build-system flags and
//! queries, and the projects of tests/projects/ built with `CC=dspcc` and
//! run on the simulator: a Makefile project, a configure-style project and,
//! when cmake is installed, a CMake project run through ctest. Needs the C
//! runtime (scripts/build-runtime).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dsp_e2e_tests::{root, run, run_ok, tool};

fn scratch(name: &str) -> PathBuf {
    dsp_e2e_tests::scratch(&format!("build-systems/{name}"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn dspcc(dir: &Path) -> Command {
    let mut c = Command::new(tool("dspcc"));
    c.current_dir(dir);
    c
}

fn in_dir(dir: &Path, name: &str) -> Command {
    let mut c = Command::new(tool(name));
    c.current_dir(dir);
    c
}

/// Copies a project of tests/projects/ into a scratch directory.
fn project(name: &str, to: &Path) {
    for e in std::fs::read_dir(root().join("tests/projects").join(name)).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

fn objects(dir: &Path) {
    write(dir, "a1.c", "int b(void);\nint a(void) { return b() + 1; }\n");
    write(dir, "a2.c", "int a2(void) { return 40; }\n");
    write(dir, "b.c", "int a2(void);\nint b(void) { return a2() + 1; }\n");
    write(dir, "main.c", "int a(void);\nint main(void) { return a(); }\n");
    run_ok(dspcc(dir).args(["-O1", "-c", "a1.c", "a2.c", "b.c", "main.c"]));
}

fn status(o: &Output) -> Option<i32> {
    o.status.code()
}

#[test]
fn ar_operations_and_ranlib() {
    let dir = scratch("ar");
    objects(&dir);
    let ar = |args: &[&str]| run(in_dir(&dir, "dsp-ar").args(args));
    let list = |a: &str| text(&run_ok(in_dir(&dir, "dsp-ar").args(["t", a])).stdout);
    // CMake's rule: qc then ranlib.
    assert_eq!(status(&ar(&["qc", "lib.a", "a1.o", "a2.o"])), Some(0));
    run_ok(in_dir(&dir, "dsp-ranlib").arg("lib.a"));
    assert_eq!(list("lib.a"), "a1.o\na2.o\n");
    // q appends even an existing name; r replaces it.
    ar(&["q", "lib.a", "a1.o"]);
    assert_eq!(list("lib.a"), "a1.o\na2.o\na1.o\n");
    let out = ar(&["rv", "lib.a", "a2.o", "b.o"]);
    assert_eq!(text(&out.stdout), "r - a2.o\na - b.o\n");
    let out = ar(&["ruv", "lib.a", "b.o"]);
    assert_eq!(text(&out.stdout), "", "u: unchanged members stay");
    let out = ar(&["dv", "lib.a", "a1.o"]);
    assert_eq!(text(&out.stdout), "d - a1.o\n");
    assert_eq!(list("lib.a"), "a2.o\na1.o\nb.o\n");
    assert!(text(&ar(&["tv", "lib.a"]).stdout).contains("0/0"));
    // c silences the creation message; s alone writes the index; -rcs form.
    let out = ar(&["r", "new.a", "b.o"]);
    assert_eq!(text(&out.stderr), "dsp-ar: creating new.a\n");
    assert_eq!(status(&ar(&["-rcs", "new2.a", "b.o"])), Some(0));
    assert_eq!(status(&ar(&["s", "new2.a"])), Some(0));
    std::fs::create_dir_all(dir.join("x")).unwrap();
    run_ok(in_dir(&dir.join("x"), "dsp-ar").args(["xv", "../new2.a"]));
    assert_eq!(std::fs::read(dir.join("x/b.o")).unwrap(), std::fs::read(dir.join("b.o")).unwrap());
    assert_eq!(ar(&["p", "new2.a"]).stdout, std::fs::read(dir.join("b.o")).unwrap());
    let out = ar(&["z", "lib.a"]);
    assert_eq!(status(&out), Some(2));
    assert!(text(&out.stderr).starts_with("dsp-ar: error: unknown operation 'z'"), "{}", text(&out.stderr));
    let out = ar(&["t", "missing.a"]);
    assert_eq!(status(&out), Some(1));
    assert!(text(&out.stderr).starts_with("dsp-ar: error: missing.a: "));
    assert_eq!(status(&run(in_dir(&dir, "dsp-ranlib").arg("-x"))), Some(2));
}

#[test]
fn ld_groups_defsym_map_and_gnu_options() {
    let dir = scratch("ld");
    objects(&dir);
    run_ok(in_dir(&dir, "dsp-ar").args(["rcs", "liba.a", "a1.o", "a2.o"]));
    run_ok(in_dir(&dir, "dsp-ar").args(["rcs", "libb.a", "b.o"]));
    let rt = root().join("target/runtime/ftm");
    let crt0 = rt.join("crt0.o");
    let libc = rt.join("libc.a");
    let ld = || {
        let mut c = in_dir(&dir, "dsp-ld");
        c.arg("-o").arg("prog").arg(&crt0).arg("main.o");
        c
    };
    // Without a group, b's need for a2 comes too late.
    let out = run(ld().args(["liba.a", "libb.a"]).arg(&libc));
    assert_eq!(status(&out), Some(1));
    assert!(text(&out.stderr).contains("dsp-ld: error: undefined symbol 'a2'"), "{}", text(&out.stderr));
    for (start, end) in [("--start-group", "--end-group"), ("-(", "-)")] {
        run_ok(ld().args([start, "liba.a", "libb.a", end]).arg(&libc).args(["-Map=prog.map", "-O1", "--as-needed", "-E", "--no-undefined", "-z", "relro", "--hash-style=gnu", "-static"]));
        let sim = run(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("prog")));
        assert_eq!(status(&sim), Some(42), "{start}");
        assert!(std::fs::read_to_string(dir.join("prog.map")).unwrap().contains("main"));
    }
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(dir.join("prog")).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o755);
    // --defsym: a value, and a symbol plus an offset.
    write(&dir, "ds.c", "#include <stdio.h>\nextern char answer[], alias[];\nint main(void) { printf(\"%lu %d\\n\", (unsigned long)answer, alias == (char *)main + 4); return 0; }\n");
    run_ok(dspcc(&dir).args(["-O1", "ds.c", "-o", "ds", "-Wl,--defsym=answer=0x2a", "-Xlinker", "--defsym", "-Xlinker", "alias=main+4"]));
    let sim = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join("ds")));
    assert_eq!(text(&sim.stdout), "42 1\n");
    // Shared-object options: a clear error naming the linker.
    for args in [&["-shared"][..], &["-rpath", "/x"], &["-soname", "x.so"], &["-pie"]] {
        let out = run(ld().args(args).arg(&libc));
        assert_eq!(status(&out), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.starts_with(&format!("dsp-ld: error: {} is not supported", args[0])) && err.contains("static target"), "{err}");
    }
    let out = run(ld().arg("--bogus"));
    assert_eq!(status(&out), Some(2));
    assert!(text(&out.stderr).starts_with("dsp-ld: error: unknown option '--bogus'"));
    // dspcc keeps -Wl,--start-group in its place among the inputs.
    run_ok(dspcc(&dir).args(["main.o", "-Wl,--start-group", "liba.a", "libb.a", "-Wl,--end-group", "-o", "prog2"]));
}

#[test]
fn gc_sections_drops_unreferenced_functions_and_data() {
    let dir = scratch("gc");
    write(&dir, "gc.c", "#include <stdio.h>\nint unused_table[1000] = {1};\n__attribute__((noinline)) int used_fn(int x) { return x * 3; }\nint unused_fn(int x) { return unused_table[x]; }\nint main(void) { printf(\"%d\\n\", used_fn(14)); return 0; }\n");
    let symbols = |exe: &str, gc: bool| {
        let mut c = dspcc(&dir);
        c.args(["-O1", "-ffunction-sections", "-fdata-sections", "gc.c", "-o", exe]);
        if gc {
            c.arg("-Wl,--gc-sections,-Map=gc.map");
        }
        run_ok(&mut c);
        let sim = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(dir.join(exe)));
        assert_eq!(text(&sim.stdout), "42\n");
        let size = std::fs::metadata(dir.join(exe)).unwrap().len();
        (text(&run_ok(in_dir(&dir, "dsp-objdump").args(["-t", exe])).stdout), size)
    };
    let (all, big) = symbols("keep", false);
    assert!(all.contains("unused_fn") && all.contains("unused_table"));
    let (kept, small) = symbols("gc", true);
    assert!(!kept.contains("unused_fn") && !kept.contains("unused_table"), "{kept}");
    assert!(kept.contains("used_fn") && kept.contains("printf"));
    assert!(small + 4000 < big, "{small} vs {big}");
    assert!(dir.join("gc.map").exists());
}

#[test]
fn driver_flags_and_queries() {
    let dir = scratch("driver");
    let clang = Command::new("clang-19").arg("-dumpversion").output().map(|o| text(&o.stdout)).unwrap_or_default();
    let out = run_ok(dspcc(&dir).arg("-dumpversion"));
    assert_eq!(text(&out.stdout), clang);
    assert!(text(&run_ok(dspcc(&dir).arg("--version")).stdout).starts_with(&format!("dspcc version {}", clang.trim())));
    assert_eq!(text(&run_ok(dspcc(&dir).arg("-dumpmachine")).stdout), "dsp-unknown-elf\n");
    let prog = |name: &str| text(&run_ok(dspcc(&dir).arg(format!("-print-prog-name={name}"))).stdout);
    assert!(prog("ld").trim_end().ends_with("/dsp-ld"));
    assert!(prog("ar").trim_end().ends_with("/dsp-ar"));
    assert!(prog("ranlib").trim_end().ends_with("/dsp-ranlib"));
    let libc = text(&run_ok(dspcc(&dir).arg("-print-file-name=libc.a")).stdout);
    assert!(Path::new(libc.trim_end()).is_file(), "{libc}");
    assert_eq!(text(&run_ok(dspcc(&dir).arg("-print-file-name=libnothing.a")).stdout), "libnothing.a\n");
    assert!(text(&run_ok(dspcc(&dir).arg("-print-search-dirs")).stdout).contains("libraries: ="));
    let cmake = text(&run_ok(dspcc(&dir).arg("-print-cmake-toolchain")).stdout);
    assert!(Path::new(cmake.trim_end()).is_file(), "{cmake}");
    write(&dir, "hello.c", "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n");
    let out = run_ok(dspcc(&dir).args(["-m32", "-fPIC", "-fPIE", "-pie", "--sysroot=/nowhere", "-pthread", "-O2", "hello.c", "-o", "hello", "-lpthread", "-ldl", "-lrt", "-lm"]));
    assert_eq!(text(&out.stderr), "");
    let out = run_ok(dspcc(&dir).args(["-march=native", "-mtune=generic", "-c", "hello.c"]));
    assert!(text(&out.stderr).contains("dspcc: warning: argument '-march=native' has no effect on target 'dsp'"), "{}", text(&out.stderr));
    let out = run(dspcc(&dir).args(["-shared", "hello.c", "-o", "libx.so"]));
    assert_eq!(status(&out), Some(1));
    assert_eq!(text(&out.stderr), "dspcc: error: -shared is not supported: 'dsp' is a static target (no shared libraries)\n");
}

#[test]
fn makefile_project() {
    let dir = scratch("make");
    project("make-demo", &dir);
    let sim = format!("{} --strict", tool("dsp-sim").display());
    let vars = [
        format!("CC={}", tool("dspcc").display()),
        format!("AR={}", tool("dsp-ar").display()),
        format!("RANLIB={}", tool("dsp-ranlib").display()),
        format!("RUN={sim}"),
    ];
    let out = run(Command::new("make").current_dir(&dir).args(&vars).arg("check"));
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("check: ok"));
}

#[test]
fn configure_style_project() {
    let dir = scratch("configure");
    project("configure-demo", &dir);
    let out = run(Command::new("sh")
        .current_dir(&dir)
        .arg("./configure")
        .env("CC", tool("dspcc"))
        .env("AR", tool("dsp-ar"))
        .env("RUN", format!("{} --strict", tool("dsp-sim").display())));
    let log = text(&out.stdout);
    assert!(out.status.success(), "{log}{}", text(&out.stderr));
    // With DSP executables registered with binfmt_misc (scripts/binfmt-dsp)
    // the test programs run directly: not cross compiling, as with qemu-user.
    let binfmt = Path::new("/proc/sys/fs/binfmt_misc/dsp-elf").exists();
    let cross = if binfmt { "no" } else { "yes" };
    assert!(log.contains(&format!("checking whether we are cross compiling... {cross}")), "{log}");
    assert!(log.contains("checking for fcntl.h... yes") && log.contains("checking for sigaction... yes"), "{log}");
    let out = run(Command::new("make").current_dir(&dir).arg("check"));
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
}

#[test]
fn cmake_project_runs_its_tests_through_ctest() {
    if Command::new("cmake").arg("--version").output().is_err() {
        eprintln!("cmake is not installed (scripts/install-deps installs it): skipped");
        return;
    }
    let dir = scratch("cmake");
    let toolchain = text(&run_ok(Command::new(tool("dspcc")).arg("-print-cmake-toolchain")).stdout);
    let bin = tool("dspcc").parent().unwrap().to_path_buf();
    let out = run(Command::new("cmake")
        .current_dir(&dir)
        .arg(format!("-DCMAKE_TOOLCHAIN_FILE={}", toolchain.trim_end()))
        .arg(format!("-DDSP_TOOLCHAIN_BIN={}", bin.display()))
        .arg(root().join("tests/projects/cmake-demo")));
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let out = run(Command::new("cmake").current_dir(&dir).args(["--build", "."]));
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let out = run(Command::new("ctest").current_dir(&dir).arg("--output-on-failure"));
    let log = text(&out.stdout);
    assert!(out.status.success() && log.contains("100% tests passed, 0 tests failed out of 2"), "{log}");
    let exe = std::fs::read(dir.join("ring_test")).unwrap();
    assert!(dsp_obj_magic(&exe), "ring_test is a DSP executable");
}

/// An ELF file that is not the host's (the DSP's e_machine).
fn dsp_obj_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF") && bytes.get(18..20) != Some(&[0x3e, 0][..])
}

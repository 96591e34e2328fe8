//! Command-line tests of `dsp-ld` and `dsp-ar`: archives made by dsp-ar and
//! found with -L/-l, the link map, and the exit codes (0 ok, 1 link error,
//! 2 usage error).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use isa_tablegen::Machine;

const CRT0: &str = include_str!("../../runtime/crt0.s");

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dsp-ld-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn asm(m: &Machine, dir: &Path, name: &str, src: &str) {
    let obj = dsp_mc::assemble(m, src, name).unwrap_or_else(|e| panic!("{e:?}"));
    std::fs::write(dir.join(name), dsp_obj::write_object(&obj).unwrap()).unwrap();
}

fn run(exe: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

const LD: &str = env!("CARGO_BIN_EXE_dsp-ld");
const AR: &str = env!("CARGO_BIN_EXE_dsp-ar");

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn link_with_library_and_map() {
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        let dir = tmpdir(name);
        asm(&m, &dir, "crt0.o", CRT0);
        asm(&m, &dir, "main.o", ".text\n.globl main\n.type main, @function\nmain: call helper\n.nop_delay\njmp r31\n.nop_delay\n");
        asm(
            &m,
            &dir,
            "helper.o",
            ".text\n.globl helper\n.type helper, @function\nhelper: jmp r31\n.nop_delay\n",
        );
        asm(
            &m,
            &dir,
            "unused.o",
            ".text\n.globl unused\n.type unused, @function\nunused: jmp r31\n.nop_delay\n",
        );
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        let o = run(AR, &dir, &["rcs", "lib/libh.a", "helper.o", "unused.o"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = run(AR, &dir, &["t", "lib/libh.a"]);
        assert_eq!(String::from_utf8_lossy(&o.stdout), "helper.o\nunused.o\n");

        let o = run(
            LD,
            &dir,
            &[
                "-o", "prog", "--map", "prog.map", "crt0.o", "main.o", "-L", "lib", "-l", "h",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let exe = dsp_obj::read_executable(&std::fs::read(dir.join("prog")).unwrap()).unwrap();
        assert!(exe.symbols.iter().any(|s| s.name == "helper"));
        assert!(exe.symbols.iter().all(|s| s.name != "unused"));
        let map = std::fs::read_to_string(dir.join("prog.map")).unwrap();
        assert!(map.contains("lib/libh.a(helper.o)(.text)"), "{map}");

        // -l before the object that needs it: the library is not searched again.
        let o = run(LD, &dir, &["-L", "lib", "-l", "h", "crt0.o", "main.o"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).starts_with(
                "dsp-ld: error: undefined symbol 'helper' (referenced from main.o(.text+0x0))"
            ),
            "{}",
            stderr(&o)
        );

        // dsp-ar x extracts.
        let out = dir.join("x");
        std::fs::create_dir_all(&out).unwrap();
        let o = run(AR, &out, &["x", "../lib/libh.a", "unused.o"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            std::fs::read(out.join("unused.o")).unwrap(),
            std::fs::read(dir.join("unused.o")).unwrap()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn exit_codes() {
    let m = Machine::load("ftm").unwrap();
    let dir = tmpdir("codes");
    asm(&m, &dir, "crt0.o", CRT0);
    std::fs::write(dir.join("bad.o"), b"\x7fELF\x01\x01").unwrap();
    let o = run(LD, &dir, &["crt0.o"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("dsp-ld: error: undefined symbol 'main' (referenced from crt0.o(.text+0x"),
        "{e}"
    );
    assert!(e.ends_with("))\n") && e.lines().count() == 1, "{e}");
    let o = run(LD, &dir, &["bad.o"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("dsp-ld: error: bad.o: truncated file"),
        "{}",
        stderr(&o)
    );
    let o = run(LD, &dir, &["missing.o"]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(LD, &dir, &["-l", "nosuch", "crt0.o"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot find -lnosuch"));
    assert_eq!(run(LD, &dir, &[]).status.code(), Some(2));
    assert_eq!(run(LD, &dir, &["--bogus", "crt0.o"]).status.code(), Some(2));
    assert_eq!(
        run(LD, &dir, &["--stack-size", "lots", "crt0.o"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(AR, &dir, &["z", "a.a"]).status.code(), Some(2));
    assert_eq!(run(AR, &dir, &["qc", "empty.a"]).status.code(), Some(0), "GNU ar: q without files makes an empty archive");
    let o = run(LD, &dir, &["--isa", "nosuchmachine", "crt0.o"]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

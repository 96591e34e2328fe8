//! The `dsp-as` and `dsp-objdump` commands: outputs, exit codes, archives,
//! executables, machine checks, and `dsp-objdump -d | dsp-as` giving a
//! byte-identical object.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dsp_obj::{read_object, write_archive, write_executable, write_object, ArchiveMember, Executable, Segment, SegmentFlags};

const AS: &str = env!("CARGO_BIN_EXE_dsp-as");
const OBJDUMP: &str = env!("CARGO_BIN_EXE_dsp-objdump");

const PROGRAM: &str = "\
        .text
        .globl main
        .type main, @function
main:
        addi r1, r1, -16
        { ldw r5, r1, 0 ; mul r6, r7, r8 }
loop:   { (p1) add r2, r2, r3 ; (!p2) br loop }
        .nop_delay
        li r4, msg+4
        call printf
        .nop_delay
        .size main, .-main
        .data
        .align 4
tbl:    .word 1, 2, tbl+4
msg:    .asciz \"hi there\\n\"
        .bss
buf:    .zero 64
";

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dsp-mc-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &str, args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut c = Command::new(cmd);
    c.args(args).current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    if let Some(s) = stdin {
        use std::io::Write;
        // A tool that rejects its input may exit before reading all of it:
        // a broken pipe here is its answer, not the test's failure.
        let _ = child.stdin.take().unwrap().write_all(s.as_bytes());
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn assemble_dump_reassemble_is_byte_identical() {
    let d = tmpdir("roundtrip");
    std::fs::write(d.join("prog.s"), PROGRAM).unwrap();
    let out = run(AS, &["prog.s"], &d, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let obj = std::fs::read(d.join("prog.o")).expect("default output prog.o");
    let dump = run(OBJDUMP, &["-d", "prog.o"], &d, None);
    assert!(dump.status.success(), "{}", text(&dump.stderr));
    let listing = text(&dump.stdout);
    assert!(listing.contains("\tcall printf"), "{listing}");
    assert!(listing.contains("\tli r4, msg+4"), "{listing}");
    assert!(listing.contains("{ (p1) add r2, r2, r3 ; (!p2) br loop }"), "{listing}");
    std::fs::write(d.join("again.s"), &listing).unwrap();
    let out = run(AS, &["-o", "again.o", "again.s"], &d, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(d.join("again.o")).unwrap(), obj, "reassembled object differs");
    // Every table at once is still valid assembly.
    let all = run(OBJDUMP, &["-d", "-h", "-t", "-r", "prog.o"], &d, None);
    let all_text = text(&all.stdout);
    for want in ["# Sections:", "# SYMBOL TABLE:", "R_DSP_IMM", "R_DSP_PCREL", "R_DSP_32", "msg+0x4", "*UND*"] {
        assert!(all_text.contains(want), "missing {want}:\n{all_text}");
    }
    std::fs::write(d.join("all.s"), &all_text).unwrap();
    let out = run(AS, &["-o", "all.o", "all.s"], &d, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(d.join("all.o")).unwrap(), obj);
}

#[test]
fn stdin_isa_and_errors() {
    let d = tmpdir("stdin");
    let out = run(AS, &["--isa", "ftm32", "-o", "s.o", "-"], &d, Some("nop\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let obj = read_object(&std::fs::read(d.join("s.o")).unwrap()).unwrap();
    assert_eq!(obj.machine.name, "ftm32");
    let out = run(AS, &["-"], &d, Some("  nop\n  bogus r1\n  add r1\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:2:3: error: unknown instruction 'bogus'\n<stdin>:3:3: error: 'add' takes 3 operands (rd, ra, rb), got 1\n"
    );
    assert!(!d.join("a.o").exists());
    // Usage errors exit 2.
    assert_eq!(run(AS, &[], &d, None).status.code(), Some(2));
    assert_eq!(run(AS, &["--bogus", "x.s"], &d, None).status.code(), Some(2));
    assert_eq!(run(OBJDUMP, &["x.o"], &d, None).status.code(), Some(2));
    // Missing files and unknown machines exit 1.
    assert_eq!(run(AS, &["missing.s"], &d, None).status.code(), Some(1));
    assert_eq!(run(AS, &["--isa", "nosuch", "-"], &d, Some("nop\n")).status.code(), Some(1));
    assert_eq!(run(OBJDUMP, &["-d", "missing.o"], &d, None).status.code(), Some(1));
}

#[test]
fn objdump_checks_the_machine_fingerprint() {
    let d = tmpdir("fingerprint");
    std::fs::write(d.join("p.s"), "nop\n").unwrap();
    assert!(run(AS, &["p.s"], &d, None).status.success());
    let mut obj = read_object(&std::fs::read(d.join("p.o")).unwrap()).unwrap();
    obj.machine.fingerprint ^= 1;
    std::fs::write(d.join("p.o"), write_object(&obj).unwrap()).unwrap();
    let out = run(OBJDUMP, &["-d", "p.o"], &d, None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("fingerprint"), "{}", text(&out.stderr));
    // --isa overrides the check.
    let out = run(OBJDUMP, &["-d", "--isa", "ftm", "p.o"], &d, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\tnop"));
}

#[test]
fn objdump_reads_archives_and_executables() {
    let d = tmpdir("archive");
    std::fs::write(d.join("a.s"), "\t.globl fa\nfa:\tnop\n").unwrap();
    std::fs::write(d.join("b.s"), "\t.globl fb\nfb:\tli r4, 7\n").unwrap();
    assert!(run(AS, &["a.s"], &d, None).status.success());
    assert!(run(AS, &["b.s"], &d, None).status.success());
    let members: Vec<ArchiveMember> = ["a.o", "b.o"]
        .iter()
        .map(|n| ArchiveMember { name: n.to_string(), data: std::fs::read(d.join(n)).unwrap() })
        .collect();
    std::fs::write(d.join("lib.a"), write_archive(&members)).unwrap();
    let out = run(OBJDUMP, &["-d", "-t", "lib.a"], &d, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("lib.a(a.o)") && s.contains("lib.a(b.o)"), "{s}");
    assert!(s.contains("fa:") && s.contains("\tli r4, 7"), "{s}");

    let obj = read_object(&members[1].data).unwrap();
    let exe = Executable {
        machine: obj.machine.clone(),
        entry: 0x1000,
        segments: vec![Segment {
            name: ".text".into(),
            addr: 0x1000,
            data: obj.sections[0].data.clone(),
            mem_size: obj.sections[0].size,
            flags: SegmentFlags { read: true, write: false, exec: true },
        }],
        symbols: vec![],
    };
    std::fs::write(d.join("x.exe"), write_executable(&exe).unwrap()).unwrap();
    let out = run(OBJDUMP, &["-d", "-h", "x.exe"], &d, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("# 00001000: ") && s.contains("\tli r4, 7") && s.contains("r-x"), "{s}");
}

/// Issue 14, item 5: a non-UTF-8 source (or machine file) is an `error:` at
/// the line and column of its first bad byte, not "stream did not contain
/// valid UTF-8"; control characters in messages are escaped.
#[test]
fn non_utf8_input_and_control_characters() {
    let dir = tmpdir("utf8");
    let src = dir.join("bad.s");
    std::fs::write(&src, b"\t.data\n\t.byte 1\n\t.by\xffte 2\n").unwrap();
    let out = Command::new(AS).arg(&src).arg("-o").arg(dir.join("bad.o")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err, format!("{}:3:5: error: invalid UTF-8 (byte 0xff)\n", src.display()));

    let isa = dir.join("bad.isa");
    std::fs::write(&isa, b"machine x \"a\"\n# caf\xc3\xa9 \xfe\n").unwrap();
    std::fs::write(dir.join("ok.s"), "\tnop\n").unwrap();
    let out = Command::new(AS).arg("--isa").arg(&isa).arg(dir.join("ok.s")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("{}:2:8: error: invalid UTF-8 (byte 0xfe)", isa.display())), "{err}");

    std::fs::write(&src, b"\t.data\nx\x00y:\t.byte 1\n\tnop\x1b[2J\n").unwrap();
    let out = Command::new(AS).arg(&src).arg("-o").arg(dir.join("bad.o")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stderr.iter().any(|&b| b < 0x20 && b != b'\n'), "{:?}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":2:2: error: unexpected character '\\x00'"), "{err}");
    assert!(err.contains(":3:5: error: unexpected character '\\x1b'"), "{err}");
}

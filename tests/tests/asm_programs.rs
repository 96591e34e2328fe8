//! Hand-written assembly programs (tests/asm/*.s), linked with crt0 and the
//! libprint.a archive, run on `dsp-sim` for every shipped machine. Each run's
//! exit status, cycle count, stdout and stderr must equal its golden file
//! `tests/asm/expected/NAME.MACHINE.MODE.txt` exactly (with the machine's
//! data caches), and run with `--ideal-memory`, its golden file
//! `tests/asm/expected/ideal/NAME.MACHINE.MODE.txt` (the cycle counts of
//! the simulator before it modelled caches, kept unchanged).
//!
//! A program's first lines may say `# modes: strict relaxed` (default: strict
//! only); `relaxed` runs without `--strict`.

use std::path::{Path, PathBuf};
use std::process::Command;

use dsp_e2e_tests::*;

struct Built {
    crt0: PathBuf,
    lib_dir: PathBuf,
}

/// Assembles crt0 and the print library (as an archive) for a machine.
fn build_support(machine: &str, dir: &Path) -> Built {
    let crt0 = dir.join("crt0.o");
    assemble(machine, &root().join("vliw-backend/runtime/crt0.s"), &crt0);
    let mut members = Vec::new();
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(root().join("vliw-backend/runtime/libprint"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    srcs.sort();
    for src in srcs {
        let obj = dir.join(src.file_stem().unwrap()).with_extension("o");
        assemble(machine, &src, &obj);
        members.push(obj);
    }
    run_ok(Command::new(tool("dsp-ar")).arg("rcs").arg(dir.join("libprint.a")).args(&members));
    Built { crt0, lib_dir: dir.to_path_buf() }
}

fn modes(src: &str) -> Vec<&'static str> {
    for line in src.lines().take_while(|l| l.starts_with('#')) {
        if let Some(m) = line.strip_prefix("# modes:") {
            return m
                .split_whitespace()
                .map(|m| match m {
                    "strict" => "strict",
                    "relaxed" => "relaxed",
                    other => panic!("unknown mode {other}"),
                })
                .collect();
        }
    }
    vec!["strict"]
}

/// Links `obj` into an executable and runs it; returns the golden-file text.
fn link_and_run(built: &Built, obj: &Path, exe: &Path, strict: bool) -> String {
    link_and_run_with(built, obj, exe, strict, false)
}

fn link_and_run_with(built: &Built, obj: &Path, exe: &Path, strict: bool, ideal: bool) -> String {
    let map = exe.with_extension("map");
    run_ok(
        Command::new(tool("dsp-ld"))
            .arg("-o")
            .arg(exe)
            .arg("--map")
            .arg(&map)
            .arg(&built.crt0)
            .arg(obj)
            .arg("-L")
            .arg(&built.lib_dir)
            .arg("-lprint"),
    );
    let json = exe.with_extension("json");
    let mut cmd = Command::new(tool("dsp-sim"));
    if strict {
        cmd.arg("--strict");
    }
    if ideal {
        cmd.arg("--ideal-memory");
    }
    cmd.arg("--stats-json").arg(&json).arg(exe);
    let out = run(&mut cmd);
    let cycles = std::fs::read_to_string(&json)
        .ok()
        .and_then(|j| json_number(&j, "cycles"))
        .map(|c| c.to_string())
        .unwrap_or_else(|| "none".into());
    format!(
        "exit: {}\ncycles: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().map(|c| c.to_string()).unwrap_or_else(|| "signal".into()),
        cycles,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/asm"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    v.sort();
    v
}

#[test]
fn programs_match_their_golden_runs_on_every_machine() {
    let progs = programs();
    assert!(progs.len() >= 10);
    for machine in machines() {
        let dir = scratch(&format!("asm-{machine}"));
        let built = build_support(machine, &dir);
        for src in &progs {
            let name = src.file_stem().unwrap().to_str().unwrap();
            let obj = dir.join(format!("{name}.o"));
            assemble(machine, src, &obj);
            let text = std::fs::read_to_string(src).unwrap();
            for mode in modes(&text) {
                let exe = dir.join(format!("{name}.{mode}"));
                for (ideal, sub) in [(false, ""), (true, "ideal/")] {
                    let actual = link_and_run_with(&built, &obj, &exe, mode == "strict", ideal);
                    let golden = root().join(format!("tests/asm/expected/{sub}{name}.{machine}.{mode}.txt"));
                    check_golden(&golden, &actual);
                }
            }
        }
    }
}

#[test]
fn the_demo_kernel_agrees_scalar_and_simd_on_every_machine() {
    for machine in machines() {
        let dir = scratch(&format!("demo-{machine}"));
        let built = build_support(machine, &dir);
        let obj = dir.join("dotprod.o");
        assemble(machine, &root().join("vliw-backend/examples/dotprod.s"), &obj);
        let exe = dir.join("dotprod");
        for (ideal, sub) in [(false, ""), (true, "ideal/")] {
            let actual = link_and_run_with(&built, &obj, &exe, true, ideal);
            assert!(actual.starts_with("exit: 0\n"), "{machine}: {actual}");
            assert!(actual.contains("scalar dot = 13487360 cycles="), "{machine}: {actual}");
            assert!(actual.contains("vector dot = 13487360 cycles="), "{machine}: {actual}");
            check_golden(&root().join(format!("tests/asm/expected/{sub}dotprod.{machine}.strict.txt")), &actual);
        }
    }
}

#[test]
fn archive_members_are_linked_only_when_needed() {
    let machine = machines()[0];
    let dir = scratch("archive-on-demand");
    let built = build_support(machine, &dir);
    let obj = dir.join("calls.o");
    assemble(machine, &root().join("tests/asm/calls.s"), &obj);
    let exe = dir.join("calls");
    link_and_run(&built, &obj, &exe, true);
    let map = std::fs::read_to_string(exe.with_extension("map")).unwrap();
    assert!(map.contains("print_int") && map.contains("puts"), "{map}");
    assert!(!map.contains("print_hex"), "print_hex.o was pulled in without being needed:\n{map}");
}

#[test]
fn disassembly_reassembles_to_identical_bytes() {
    for machine in machines() {
        let dir = scratch(&format!("roundtrip-{machine}"));
        let mut srcs = programs();
        srcs.push(root().join("vliw-backend/examples/dotprod.s"));
        srcs.push(root().join("vliw-backend/runtime/crt0.s"));
        for lib in std::fs::read_dir(root().join("vliw-backend/runtime/libprint")).unwrap() {
            srcs.push(lib.unwrap().path());
        }
        for src in srcs {
            let name = src.file_stem().unwrap().to_str().unwrap().to_string();
            let first = dir.join(format!("{name}.o"));
            assemble(machine, &src, &first);
            let dump = run_ok(Command::new(tool("dsp-objdump")).arg("-d").arg(&first)).stdout;
            let again_src = dir.join(format!("{name}.dis.s"));
            std::fs::write(&again_src, &dump).unwrap();
            let again = dir.join(format!("{name}.dis.o"));
            assemble(machine, &again_src, &again);
            assert!(
                std::fs::read(&first).unwrap() == std::fs::read(&again).unwrap(),
                "{machine}: {name}: the reassembled disassembly is not byte-identical to the object"
            );
        }
    }
}

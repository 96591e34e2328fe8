//! The polyhedral differential suite (issue 12): each program of
//! `tests/c/poly/` (matmul, jacobi-1d/2d, seidel-2d, lu, an if/else nest,
//! parametric nests at sizes 0, 1, 2, odd and past a tile) built by the host
//! `cc -m32` and by `dspcc -O3 -fpolyhedral` with the program's small tile
//! sizes (its `// dsp-cflags:` line, so that tiles are partial and many),
//! run on `dsp-sim --strict` on every shipped machine (`ftm`, `ftm8`,
//! `ftm32`: different lanes, so different tile sizes and vector code): stdout and exit status must be
//! identical, and `-Rpass=pluto` must say that its kernel was transformed
//! (a program the pass would leave alone tests nothing).
//! `DIFF_FILTER=SUBSTRING` restricts the programs by name.

use std::path::PathBuf;
use std::process::Command;

use dsp_e2e_tests::{machines, root, run, scratch, tool};

/// Host flags of the differential suite's references.
const HOST_FLAGS: &[&str] = &["-m32", "-std=c11", "-msse2", "-mfpmath=sse", "-ffp-contract=off", "-O2"];

fn programs() -> Vec<PathBuf> {
    let filter = std::env::var("DIFF_FILTER").unwrap_or_default();
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/c/poly"))
        .expect("tests/c/poly")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c") && p.file_stem().unwrap().to_string_lossy().contains(&filter))
        .collect();
    v.sort();
    v
}

fn dsp_cflags(src: &PathBuf) -> Vec<String> {
    let text = std::fs::read_to_string(src).unwrap();
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.split_once("dsp-cflags:").map(|(_, v)| v.split_whitespace().map(String::from).collect()))
        .unwrap_or_default()
}

/// One program on every machine: `Err` with what differs.
fn check(src: &PathBuf, dir: &std::path::Path) -> Result<(), String> {
    let name = src.file_stem().unwrap().to_string_lossy().into_owned();
    let host = dir.join(format!("{name}.host"));
    let out = run(Command::new("cc").args(HOST_FLAGS).arg(src).arg("-o").arg(&host).arg("-lm"));
    if !out.status.success() {
        return Err(format!("host build: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let reference = run(&mut Command::new(&host));
    for m in machines() {
        check_on(src, dir, m, &reference).map_err(|e| format!("on {m}: {e}"))?;
    }
    Ok(())
}

fn check_on(src: &PathBuf, dir: &std::path::Path, machine: &str, reference: &std::process::Output) -> Result<(), String> {
    let name = src.file_stem().unwrap().to_string_lossy().into_owned();
    let exe = dir.join(format!("{name}.{machine}"));
    let build = run(Command::new(tool("dspcc")).arg(format!("--isa={machine}")).args(["-O3", "-ffp-contract=off", "-Rpass=pluto", "-Rpass-missed=pluto"]).args(dsp_cflags(src)).arg(src).arg("-o").arg(&exe).arg("-lm"));
    let remarks = String::from_utf8_lossy(&build.stderr).into_owned();
    if !build.status.success() {
        return Err(format!("dspcc: {remarks}"));
    }
    if !remarks.lines().any(|l| l.contains("remark: SCoP") && l.contains(" transformed:")) {
        return Err(format!("no SCoP transformed:\n{remarks}"));
    }
    let actual = run(Command::new(tool("dsp-sim")).args(["--isa", machine, "--strict", "--max-cycles", "2000000000"]).arg(&exe));
    if actual.status.code() != reference.status.code() {
        return Err(format!("exit status {:?}, host {:?}: {}", actual.status.code(), reference.status.code(), String::from_utf8_lossy(&actual.stderr)));
    }
    if actual.stdout != reference.stdout {
        let (a, r) = (String::from_utf8_lossy(&actual.stdout), String::from_utf8_lossy(&reference.stdout));
        let line = a.lines().zip(r.lines()).position(|(x, y)| x != y).unwrap_or(a.lines().count().min(r.lines().count()));
        return Err(format!("stdout differs from line {}: dsp {:?}, host {:?}", line + 1, a.lines().nth(line), r.lines().nth(line)));
    }
    Ok(())
}

#[test]
fn polyhedral_programs_match_the_host() {
    let progs = programs();
    if std::env::var("DIFF_FILTER").is_err() {
        assert!(progs.len() >= 7, "only {} programs in tests/c/poly", progs.len());
    }
    let dir = scratch("polyhedral");
    let failures: Vec<String> = progs.iter().filter_map(|p| check(p, &dir).err().map(|e| format!("{}: {e}", p.display()))).collect();
    assert!(failures.is_empty(), "{} of {} programs fail:\n{}", failures.len(), progs.len(), failures.join("\n"));
}

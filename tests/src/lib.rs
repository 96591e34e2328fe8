//! Helpers for the end-to-end tests in `tests/tests/`: locating the built
//! command-line tools, running them, and comparing runs with golden files.
//!
//! Golden files live in `tests/asm/expected/NAME.MACHINE.MODE.txt`. Set
//! `BLESS=1` to (re)write them from the current tools; review the diff.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A built binary of the workspace (same profile as the running test).
pub fn tool(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test> → target/<profile>/<name>
    let dir = exe.parent().and_then(Path::parent).expect("target dir");
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is not built; run `cargo build --workspace` (scripts/test does) first",
        path.display()
    );
    path
}

/// Runs a command, returning its output; panics only if it cannot start.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// Runs a command that must succeed.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(
        out.status.success(),
        "{cmd:?} failed with {}:\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A scratch folder unique to one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target").join("e2e").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The shipped machines.
pub fn machines() -> Vec<&'static str> {
    isa_tablegen::builtin::names().collect()
}

/// Assembles `src` for `machine` into `out`.
pub fn assemble(machine: &str, src: &Path, out: &Path) {
    run_ok(Command::new(tool("dsp-as")).args(["--isa", machine, "-o"]).arg(out).arg(src));
}

/// Reads `"cycles": N` out of a `--stats-json` file.
pub fn json_number(json: &str, key: &str) -> Option<u64> {
    let pat = format!("\"{key}\"");
    let at = json.find(&pat)? + pat.len();
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Compares `actual` with the golden file, or writes it when `BLESS` is set.
pub fn check_golden(path: &Path, actual: &str) {
    if std::env::var_os("BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path)
        .unwrap_or_else(|_| panic!("missing golden file {} (run with BLESS=1 and review)", path.display()));
    assert_eq!(actual, expected, "output differs from {}", path.display());
}

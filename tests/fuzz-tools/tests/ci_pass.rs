//! The CI-sized fuzzing pass: 200 inputs per tool from seed 1 (about two
//! minutes on two cores), every run under the 5 s and 1 GiB limits. Any
//! panic, signal, timeout or memory blow-up fails the test; its reduced
//! reproducer, command line and stderr are in target/fuzz-tools/ci/findings/.
//! `scripts/fuzz-tools --count N --seed S` runs bigger passes.

use std::path::Path;
use std::process::Command;

#[test]
fn fixed_seed_pass_finds_nothing() {
    let exe = Path::new(env!("CARGO_BIN_EXE_dsp-fuzz-tools"));
    let dir = exe.parent().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The tools it runs and the runtime the corpus links with.
    for t in ["isa-tablegen", "dsp-as", "dsp-objdump", "dsp-ld", "dsp-ar", "dsp-sim", "dsp-llc", "dspcc"] {
        assert!(dir.join(t).exists(), "{t} is not built; run `cargo build --workspace --release` (scripts/test does) first");
    }
    assert!(root.join("target/runtime/ftm/libc.a").exists(), "run scripts/build-runtime first (scripts/test does)");
    let out = root.join("target/fuzz-tools/ci");
    let run = Command::new(exe)
        .args(["--count", "200", "--seed", "1", "--corpus", "6", "--reduce", "1", "--out"])
        .arg(&out)
        .output()
        .expect("run dsp-fuzz-tools");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    println!("{stdout}");
    assert!(run.status.success(), "fuzzing found something ({}):\n{stdout}\n{stderr}", run.status);
}

//! Every IR clang produces for our programs lowers: the IR of the whole
//! differential corpus (`tests/c/*.c`, `tests/c/fma/*.c` at -O0…-O3) and of
//! the C runtime (`vliw-backend/runtime`, with the flags
//! `scripts/build-runtime` uses) is written by `dspcc -S -emit-llvm`, every
//! intrinsic it calls is collected, no Hexagon intrinsic other than the one
//! the Hexagon loop idiom pass emits (`llvm.hexagon.M4.pmpyw`, lowered by
//! isel) may appear, and `dsp-llc` must select every module: the corpus
//! for the FPU-less test machine (`tests/machines/ftm_nofpu.isa`: every
//! float operation through runtime routines; the differential test compiles
//! it for the shipped machines), the runtime for `ftm` and for that machine.
//! A construct the backend cannot lower fails the test with dsp-llc's
//! message.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use dsp_e2e_tests::{root, tool};

/// The Hexagon intrinsics the Hexagon IR passes may emit, which isel lowers.
const HEXAGON_LOWERED: &[&str] = &["llvm.hexagon.M4.pmpyw"];
/// The runtime's compile flags (scripts/build-runtime).
const RUNTIME_FLAGS: &[&str] = &["-O2", "-ffreestanding", "-ffp-contract=off"];

/// One IR module to produce and check.
struct Unit {
    src: PathBuf,
    /// dspcc's machine for the IR (macros and vector width depend on it).
    isa: String,
    flags: Vec<String>,
    level: u8,
    /// The machines dsp-llc selects it for.
    machines: Vec<String>,
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// The extra dspcc flags of a corpus program (`// dsp-cflags:`).
fn dsp_cflags(src: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(src).unwrap_or_default();
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.trim_start_matches('/').trim().strip_prefix("dsp-cflags:").map(str::to_string))
        .map(|v| v.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// The intrinsics a module declares.
fn intrinsics(ll: &str) -> Vec<String> {
    ll.lines()
        .filter(|l| l.starts_with("declare "))
        .filter_map(|l| {
            let at = l.find("@llvm.")? + 1;
            let end = l[at..].find('(')? + at;
            Some(l[at..end].trim_matches('"').to_string())
        })
        .collect()
}

/// Produces the IR of one unit and selects it for each machine; Err says why not.
fn check(u: &Unit, dir: &Path, id: usize, seen: &Mutex<BTreeMap<String, usize>>) -> Result<(), String> {
    let stem = u.src.file_stem().unwrap().to_string_lossy().into_owned();
    let ll = dir.join(format!("{id}-{stem}.O{}.ll", u.level));
    let out = Command::new(tool("dspcc"))
        .arg(format!("--isa={}", u.isa))
        .args(&u.flags)
        .arg(format!("-O{}", u.level))
        .args(["-S", "-emit-llvm", "-o"])
        .arg(&ll)
        .arg(&u.src)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("dspcc -emit-llvm failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    let text = std::fs::read_to_string(&ll).map_err(|e| e.to_string())?;
    let names = intrinsics(&text);
    for n in &names {
        if n.starts_with("llvm.hexagon.") && !HEXAGON_LOWERED.contains(&n.as_str()) {
            return Err(format!("Hexagon-specific intrinsic '{n}' in the IR"));
        }
        *seen.lock().unwrap().entry(n.clone()).or_default() += 1;
    }
    for m in &u.machines {
        let obj = dir.join(format!("{id}-{stem}.O{}.o", u.level));
        let out = Command::new(tool("dsp-llc"))
            .args(["--isa", m, &format!("-O{}", u.level), "-o"])
            .arg(&obj)
            .arg(&ll)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("dsp-llc --isa {m} cannot lower it:\n{}", String::from_utf8_lossy(&out.stderr)));
        }
    }
    Ok(())
}

#[test]
fn corpus_and_runtime_ir_lowers_on_every_kind_of_machine() {
    let root = root();
    let nofpu = root.join("tests/machines/ftm_nofpu.isa").display().to_string();
    let dir = root.join("target/e2e/ir-coverage");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut units = Vec::new();
    for src in c_files(&root.join("tests/c")).into_iter().chain(c_files(&root.join("tests/c/fma"))) {
        for level in 0..=3 {
            let mut flags = vec!["-ffp-contract=off".to_string()];
            flags.extend(dsp_cflags(&src));
            units.push(Unit { src: src.clone(), isa: "ftm".into(), flags, level, machines: vec![nofpu.clone()] });
        }
    }
    let rt = root.join("vliw-backend/runtime");
    for sub in ["libc", "libm", "builtins"] {
        for src in c_files(&rt.join(sub)) {
            for isa in ["ftm".to_string(), nofpu.clone()] {
                let flags = RUNTIME_FLAGS.iter().map(|f| f.to_string()).collect();
                units.push(Unit { src: src.clone(), isa: isa.clone(), flags, level: 2, machines: vec![isa] });
            }
        }
    }
    let seen = Mutex::new(BTreeMap::new());
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(u) = units.get(i) else { break };
                if let Err(e) = check(u, &dir, i, &seen) {
                    let what = format!("{} at -O{} (IR for {})", u.src.strip_prefix(&root).unwrap_or(&u.src).display(), u.level, u.isa);
                    failures.lock().unwrap().push(format!("{what}: {e}"));
                }
            });
        }
    });
    let seen = seen.into_inner().unwrap();
    eprintln!("{} modules; intrinsics seen (modules declaring them):", units.len());
    for (n, c) in &seen {
        eprintln!("  {n} {c}");
    }
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {} modules do not lower:\n\n{}", failures.len(), units.len(), failures.join("\n\n"));
    assert!(seen.contains_key("llvm.hexagon.M4.pmpyw"), "crc_bitloops no longer exercises the Hexagon idiom");
}

#[test]
fn intrinsic_names_are_read_from_declarations() {
    let ll = "declare i32 @llvm.ctpop.i32(i32)\ndeclare void @foo()\ndeclare i64 @llvm.hexagon.M4.pmpyw(i32, i32) #1\n";
    assert_eq!(intrinsics(ll), ["llvm.ctpop.i32", "llvm.hexagon.M4.pmpyw"]);
}

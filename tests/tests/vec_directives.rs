//! The vectorization directives end to end (seed 001 §3; frontend-plugin
//! and opt-passes' `wfv::directives`): the IR contract after clang-19's
//! optimizer at -O0…-O3 (the plugin alone, and dspcc's whole clang pipeline
//! with our pass plugin) read back by the reader the vectorizer will use;
//! dspcc loading the plugin by default, `-fno-vec-function`, errors through
//! dspcc; a program with the directives printing the same with and
//! without them on every machine; and the function-vectorization
//! benchmark's programs (`vliw-backend/bench/wfv`, `scripts/bench-wfv`)
//! printing what the host build prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dsp_e2e_tests::{machines, root, run, run_ok, scratch, tool};
use dsp_opt_passes::ir::value_name;
use dsp_opt_passes::wfv::directives::{read_module, Directives, Linear, LoopOrigin, MaskMode, Step};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;

/// Directive loops with unknown trip counts (nothing fully unrolled), one
/// per function, each in a different shape: nested (the inner loop marked),
/// a while loop with a conditional call, a loop in a static function that
/// gets inlined into its caller, an OpenMP simd loop; and one plain loop.
const SRC: &str = "\
#pragma simd declare vec-function uniform(max_iter) nomask
unsigned mandel(float re, float im, unsigned max_iter);
#pragma simd declare vec-function linear(k) uniform(base) alignment(base:64)
float lookup(const float *base, int k, float scale);
#pragma simd declare vec-function mask
int steps(int v, int depth);
#pragma omp declare simd uniform(lo, hi) notinbranch
int clampi(int x, int lo, int hi);
int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

void nested(unsigned *count, int w, int h, unsigned max_iter) {
  for (int y = 0; y < h; ++y) {
#pragma simd vec-function
    for (int x = 0; x < w; ++x)
      count[y * w + x] = mandel(x * 0.25f, y * 0.25f, max_iter);
  }
}

void conditional(int *out, const int *in, int n) {
  int i = 0;
#pragma simd vec-function
  while (i < n) {
    out[i] = in[i] > 0 ? steps(in[i], 0) : -1;
    i++;
  }
}

static void worker(float *out, const float *table, int n) {
#pragma simd vec-function
  for (int k = 0; k < n; k++)
    out[k] = lookup(table, k, 3.0f) + out[k];
}
void caller(float *out, const float *table, int n) { worker(out, table, n); }

void omp(int *restrict out, const int *in, int n) {
#pragma omp simd
  for (int j = 0; j < n; j++)
    out[j] = clampi(in[j], -10, 30);
}

int plain(const int *in, int n) {
  int s = 0;
  for (int j = 0; j < n; j++) s += in[j] * 3;
  return s;
}
";

/// The contract in a module's text, as the vectorizer will read it:
/// (function, variants) and (function, origin) of each marked loop.
struct Read {
    directives: Directives,
    loops: Vec<(String, LoopOrigin)>,
}

fn read(ir: &str) -> Read {
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "ir");
    let m = ctx.create_module_from_ir(buf).unwrap_or_else(|e| panic!("bad IR: {e}\n{ir}"));
    let directives = read_module(m.as_mut_ptr()).unwrap_or_else(|e| panic!("{e}\n{ir}"));
    let loops = directives.loops.iter().map(|l| (value_name(l.function), l.origin)).collect();
    Read { directives, loops }
}

/// What every -O level must still carry.
fn check(r: &Read, what: &str, ir: &str) {
    let d = &r.directives;
    let variant = |f: &str| {
        let v = d.function(f).unwrap_or_else(|| panic!("{what}: no directives on {f}:\n{ir}"));
        assert_eq!(v.variants.len(), 1, "{what}: {f}");
        v.variants[0].clone()
    };
    let m = variant("mandel");
    assert_eq!((m.args, m.uniform.clone(), m.mask), (3, vec![2], MaskMode::Unmasked), "{what}");
    let l = variant("lookup");
    assert_eq!(l.linear, vec![Linear { arg: 1, step: Step::Const(1) }], "{what}");
    assert_eq!((l.uniform.clone(), l.aligned[0].bytes), (vec![0], Some(64)), "{what}");
    assert_eq!(variant("steps").mask, MaskMode::Masked, "{what}");
    let c = variant("clampi");
    assert_eq!((c.uniform.clone(), c.mask), (vec![1, 2], MaskMode::Unmasked), "{what}");
    for (f, origin) in [("nested", LoopOrigin::Simd), ("conditional", LoopOrigin::Simd), ("omp", LoopOrigin::Omp)] {
        assert!(r.loops.contains(&(f.to_string(), origin)), "{what}: no {origin:?} loop in {f}: {:?}\n{ir}", r.loops);
    }
    // The static worker is inlined from -O1 on: its loop goes with it.
    assert!(
        r.loops.iter().any(|(f, o)| (f == "caller" || f == "worker") && *o == LoopOrigin::Simd),
        "{what}: the inlined loop lost its mark: {:?}\n{ir}",
        r.loops
    );
    assert!(!r.loops.iter().any(|(f, _)| f == "plain"), "{what}: a plain loop marked");
    assert!(!ir.contains("llvm.loop.pipeline.initiationinterval"), "{what}: carrier left in the IR");
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `dspcc` in `dir` with a stand-in runtime (headers only: compile-only use).
fn dspcc(dir: &Path) -> Command {
    std::fs::create_dir_all(dir.join("rt/include")).unwrap();
    let mut c = Command::new(tool("dspcc"));
    c.current_dir(dir).env("DSPCC_RUNTIME", dir.join("rt"));
    c
}

#[test]
fn the_contract_survives_clang_at_every_level() {
    let dir = scratch("vec-directives-clang");
    write(&dir, "k.c", SRC);
    let plugin = tool("libdsp_frontend_plugin.so");
    for level in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        let out = run_ok(
            Command::new("clang-19")
                .current_dir(&dir)
                .args(["--target=hexagon-unknown-elf", level, "-fopenmp-simd", "-Wno-pass-failed"])
                .arg(format!("-fplugin={}", plugin.display()))
                .args(["-S", "-emit-llvm", "-o", "-", "k.c"]),
        );
        let ir = String::from_utf8(out.stdout).unwrap();
        check(&read(&ir), &format!("clang {level}"), &ir);
    }
}

#[test]
fn the_contract_survives_dspccs_pipeline_on_every_machine() {
    let dir = scratch("vec-directives-dspcc");
    write(&dir, "k.c", SRC);
    for m in machines() {
        for level in ["-O0", "-O1", "-O2", "-O3"] {
            // Up to the vectorizer (which consumes the contract: a loop it
            // rewrites takes its mark with it, a declaration all of whose
            // calls became variant calls is dropped).
            let out = run_ok(dspcc(&dir).args([&format!("--isa={m}"), level, "-Wno-pass-failed", "-mllvm", "-dsp-wfv=false", "-S", "-emit-llvm", "-o", "-", "k.c"]));
            let ir = String::from_utf8(out.stdout).unwrap();
            check(&read(&ir), &format!("dspcc --isa={m} {level}"), &ir);
        }
    }
}

#[test]
fn dspcc_loads_the_plugin_by_default() {
    let dir = scratch("vec-directives-default");
    write(&dir, "k.c", SRC);
    let out = run_ok(dspcc(&dir).args(["-O2", "-###", "-c", "k.c"]));
    assert!(stderr(&out).contains("libdsp_frontend_plugin.so"), "{}", stderr(&out));
    // -fno-vec-function: nothing reaches the IR.
    let out = run_ok(dspcc(&dir).args(["-O2", "-fno-vec-function", "-S", "-emit-llvm", "-o", "-", "k.c"]));
    let ir = String::from_utf8(out.stdout).unwrap();
    let r = read(&ir);
    assert!(r.directives.functions.is_empty() && r.loops.is_empty(), "{ir}");
    assert!(!ir.contains("initiationinterval"));
    // Errors keep clang's form and fail the compile, with or without the directives honoured.
    write(&dir, "bad.c", "int f(int n);\nvoid g(int *a, int n) {\n#pragma simd vec-function\n  a[0] = f(n);\n}\n#pragma simd declare vec-function uniform(n) linear(q)\nint h(int n, int *p);\n");
    for flags in [&[][..], &["-fno-vec-function"][..]] {
        let out = run(dspcc(&dir).args(flags).args(["-O2", "-c", "bad.c"]));
        assert_eq!(out.status.code(), Some(1), "{flags:?}");
        let e = stderr(&out);
        assert!(e.contains("bad.c:3:1: error: '#pragma simd vec-function' must be followed by a loop"), "{e}");
        assert!(e.contains("bad.c:6:53: error: 'q' is not a parameter of 'h'"), "{e}");
    }
}

#[test]
fn directives_do_not_change_what_programs_print() {
    let src = root().join("tests/c/vec_directives.c");
    for m in machines() {
        let dir = scratch(&format!("vec-directives-run-{m}"));
        let mut outputs = Vec::new();
        for flags in [&["-O2"][..], &["-O2", "-fno-vec-function"][..], &["-O0"][..]] {
            let exe = dir.join(format!("p{}", outputs.len()));
            run_ok(Command::new(tool("dspcc")).arg(format!("--isa={m}")).args(flags).arg(&src).arg("-o").arg(&exe));
            let out = run_ok(Command::new(tool("dsp-sim")).arg("--strict").arg(&exe));
            outputs.push(String::from_utf8(out.stdout).unwrap());
        }
        assert!(outputs[0].contains("hash "), "{m}: {}", outputs[0]);
        assert_eq!(outputs[0], outputs[1], "{m}: -fno-vec-function changed the output");
        assert_eq!(outputs[0], outputs[2], "{m}: -O0 and -O2 differ");
    }
}

/// The benchmark's programs (seed 001's Table 2 and Fig. 5, with the
/// directives) stay correct: each built at -O2 for ftm, as `scripts/bench-wfv`
/// builds its All configuration, prints exactly what the host build prints.
/// The other configurations and machines are the benchmark's to check.
#[test]
fn benchmark_programs_match_the_host() {
    let dir = scratch("vec-directives-bench-wfv");
    let src_dir = root().join("vliw-backend/bench/wfv");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&src_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 12, "{}: {} programs", src_dir.display(), sources.len());
    let flags = ["-O2", "-ffp-contract=off"];
    for src in &sources {
        let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
        let host = dir.join(format!("{stem}.host"));
        run_ok(Command::new("cc").args(["-m32", "-std=c11", "-msse2", "-mfpmath=sse"]).args(flags)
            .arg(src).arg("-o").arg(&host).arg("-lm"));
        let expected = run(&mut Command::new(&host));
        let exe = dir.join(format!("{stem}.dsp"));
        run_ok(Command::new(tool("dspcc")).arg("--isa=ftm").args(flags).arg(src).arg("-o").arg(&exe).arg("-lm"));
        let got = run(Command::new(tool("dsp-sim")).arg("--strict").arg(&exe));
        assert_eq!(got.status.code(), expected.status.code(), "{stem}: exit status; {}", stderr(&got));
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&expected.stdout),
            "{stem}: output differs from the host's"
        );
    }
}

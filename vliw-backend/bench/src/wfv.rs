//! The function-level vectorization benchmark (`scripts/bench-wfv`,
//! `dsp-bench-wfv`): seed 001's programs (`bench/wfv/*.c`, written for this
//! project with the `#pragma simd` directives) built in the configurations
//! of the seed's Table 2 and Fig. 5, each run on the simulator (strict) and
//! checked against the host build.
//!
//! - Table 2 (the optimizations): Scalar (`-fno-vec-function`), Naive, MEM
//!   and All (`-fvec-function-opt=naive|mem|all`), on the source with the
//!   directives.
//! - Fig. 5 (the vectorizers): WFV (the directives, All) against the same
//!   source built with `-DNO_DIRECTIVES -fno-vec-function` (the vector
//!   function an ordinary inlinable function, the pragmas ignored) by LLVM's
//!   loop vectorizer alone (LOOP: `-fno-slp-vectorize`), by SLP alone (SLP:
//!   `-fno-vectorize`) and by neither (Scalar).
//!
//! Every build is `dspcc -O2 -ffp-contract=off` plus its configuration's
//! flags (no contraction: the host reference, `gcc -m32 -ffp-contract=off`,
//! must print the same bits). The cycles are those of each program's
//! `kernel` function together with everything it calls (the vector
//! variants, the scalar vector function, libm): [`Scope::WithCallees`].
//! Builds that honour the directives also get `-Rpass-missed=wfv`, and what
//! the vectorizer refused is kept with the run ([`Outcome::refused`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use isa_tablegen::Machine;

use crate::measure::{self, Run, Scope};
use crate::runner::{dspcc_build, host_output};

/// The function every program's `main` calls once: what is measured.
pub const KERNEL_FUNC: &str = "kernel";

/// Flags of every DSP build, before the configuration's.
pub const BASE_FLAGS: &[&str] = &["-O2", "-ffp-contract=off"];

/// One benchmark program (`bench/wfv/FILE.c`).
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// The name in the tables (the seed's).
    pub name: &'static str,
    /// The C file's stem.
    pub file: &'static str,
    pub table2: bool,
    pub fig5: bool,
    /// In the table of instance restructuring (§2.2.3).
    pub restructure: bool,
}

const fn prog(name: &'static str, file: &'static str, table2: bool, fig5: bool) -> Program {
    Program { name, file, table2, fig5, restructure: false }
}

/// The programs, in the seed's order (Table 1, then Fig. 5's others).
pub const PROGRAMS: &[Program] = &[
    prog("Mandelbrot", "mandelbrot", true, true),
    prog("BlackScholes", "blackscholes", true, false),
    prog("N-Body", "nbody", true, true),
    prog("DCT", "dct", true, false),
    prog("Histogram", "histogram", true, false),
    prog("MersenneTwister", "mersenne", true, false),
    prog("BitonicSort", "bitonic", true, false),
    prog("DwtHaar1D", "dwthaar1d", true, false),
    prog("Convolve", "convolve", false, true),
    prog("MMM", "mmm", false, true),
    prog("Transpose", "transpose", false, true),
    prog("Volume", "volume", false, true),
    // Not the seed's: a kernel for instance restructuring.
    Program { name: "Shade", file: "shade", table2: false, fig5: false, restructure: true },
];

/// A build configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The column name.
    pub name: &'static str,
    /// dspcc flags beside [`BASE_FLAGS`].
    pub flags: &'static [&'static str],
}

/// Table 2's configurations; the first is the baseline.
pub const TABLE2: &[Config] = &[
    Config { name: "Scalar", flags: &["-fno-vec-function"] },
    Config { name: "Naive", flags: &["-fvec-function-opt=naive"] },
    Config { name: "MEM", flags: &["-fvec-function-opt=mem"] },
    // All without its branches on superword conditions: that switch's column.
    Config { name: "All-BOSCC", flags: &["-fvec-function-opt=all", "-fno-vec-function-boscc"] },
    // All without instance multiversioning (§2.2.2): that switch's column.
    Config { name: "All-MV", flags: &["-fvec-function-opt=all", "-fno-vec-function-multiversion"] },
    Config { name: "All", flags: &["-fvec-function-opt=all"] },
];

/// Instance restructuring's table (§2.2.3): All without it and All, over Scalar.
pub const RESTRUCTURE: &[Config] = &[
    Config { name: "Scalar", flags: &["-fno-vec-function"] },
    Config { name: "All-RS", flags: &["-fvec-function-opt=all", "-fno-vec-function-restructure"] },
    Config { name: "All", flags: &["-fvec-function-opt=all"] },
];

/// Fig. 5's configurations; the last is the baseline.
pub const FIG5: &[Config] = &[
    Config { name: "WFV", flags: &["-fvec-function-opt=all"] },
    Config {
        name: "LOOP",
        flags: &["-DNO_DIRECTIVES", "-fno-vec-function", "-fno-slp-vectorize"],
    },
    Config {
        name: "SLP",
        flags: &["-DNO_DIRECTIVES", "-fno-vec-function", "-fno-vectorize"],
    },
    Config {
        name: "Scalar",
        flags: &["-DNO_DIRECTIVES", "-fno-vectorize", "-fno-slp-vectorize", "-fno-vec-function"],
    },
];

/// Where things are.
#[derive(Clone, Debug)]
pub struct Setup {
    pub programs_dir: PathBuf,
    pub dspcc: PathBuf,
    pub host_cc: String,
    pub work: PathBuf,
    pub max_cycles: u64,
}

/// One build and run: a program in a configuration on a machine.
#[derive(Clone, Debug)]
pub struct Job {
    pub machine: usize,
    pub program: &'static Program,
    pub config: Config,
}

/// What a job gives.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// dspcc's wall-clock time.
    pub compile_secs: f64,
    pub run: Result<Run, String>,
    /// dsp-wfv's "not vectorized" remarks (`FILE:LINE:COL: text`).
    pub refused: Vec<String>,
}

/// Whether a configuration honours the directives.
pub fn vectorizes_functions(config: &Config) -> bool {
    !config.flags.contains(&"-fno-vec-function")
}

/// The `-Rpass-missed=wfv` remarks in dspcc's stderr, without their
/// directory and the `[-Rpass-missed=wfv]` tag.
pub fn refusals(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_suffix(" [-Rpass-missed=wfv]"))
        .map(|l| {
            let l = l.replacen(": remark:", ":", 1);
            match l.split_once(':') {
                Some((path, rest)) => {
                    let file = path.rsplit_once('/').map_or(path, |(_, f)| f);
                    format!("{file}:{rest}")
                }
                None => l,
            }
        })
        .collect()
}

/// The host build's flags beside [`crate::runner::HOST_FLAGS`] for a
/// configuration (the `-D` options it gives dspcc).
fn defines(config: &Config) -> Vec<String> {
    config.flags.iter().filter(|f| f.starts_with("-D")).map(|f| f.to_string()).collect()
}

/// The host reference of a program for a configuration (with or without
/// `-DNO_DIRECTIVES`).
pub fn host_ref(setup: &Setup, program: &Program, config: &Config) -> Result<Vec<u8>, String> {
    let defs = defines(config);
    let tag = if defs.is_empty() { "" } else { ".nodir" };
    let exe = setup.work.join("host").join(format!("{}{tag}", program.file));
    host_output(&setup.host_cc, &source(setup, program), &defs, &exe)
}

fn source(setup: &Setup, program: &Program) -> PathBuf {
    setup.programs_dir.join(format!("{}.c", program.file))
}

/// The dspcc arguments of a configuration (before the source file).
pub fn dspcc_args(config: &Config) -> Vec<String> {
    let remarks = vectorizes_functions(config).then_some("-Rpass-missed=wfv");
    BASE_FLAGS.iter().chain(config.flags).chain(&remarks).chain(&["-lm"]).map(|f| f.to_string()).collect()
}

/// Builds and runs one job on `machine` (named to dspcc as `isa`).
pub fn run_job(setup: &Setup, isa: &str, machine: &Machine, job: &Job) -> Outcome {
    let exe = setup
        .work
        .join(&machine.name)
        .join(format!("{}.{}", job.program.file, job.config.name.to_lowercase()));
    let start = Instant::now();
    let built = dspcc_build(&setup.dspcc, isa, &dspcc_args(&job.config), &source(setup, job.program), &exe);
    let compile_secs = start.elapsed().as_secs_f64();
    let refused = built.as_deref().map(refusals).unwrap_or_default();
    let run = built.and_then(|_| {
        measure::run_scoped(machine, &exe, KERNEL_FUNC, Scope::WithCallees, setup.max_cycles)
    });
    Outcome { compile_secs, run, refused }
}

/// `bench/wfv`, from where this crate is.
pub fn default_programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("wfv")
}

/// Geometric mean of the positive values (`None` for none).
pub fn geomean(values: &[f64]) -> Option<f64> {
    let v: Vec<f64> = values.iter().copied().filter(|x| *x > 0.0 && x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    Some((v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_program_has_its_source_and_a_table() {
        for p in PROGRAMS {
            assert!(p.table2 || p.fig5 || p.restructure, "{}", p.name);
            let src = default_programs_dir().join(format!("{}.c", p.file));
            let text = std::fs::read_to_string(&src).unwrap();
            assert!(text.contains("NOINLINE void kernel("), "{}", src.display());
            assert!(text.contains("#pragma simd declare vec-function"), "{}", src.display());
            assert!(text.contains("#pragma simd vec-function"), "{}", src.display());
        }
        assert_eq!(PROGRAMS.iter().filter(|p| p.table2).count(), 8);
        assert_eq!(PROGRAMS.iter().filter(|p| p.fig5).count(), 6);
    }

    #[test]
    fn configurations_and_host_defines() {
        assert_eq!(dspcc_args(&TABLE2[0]), ["-O2", "-ffp-contract=off", "-fno-vec-function", "-lm"]);
        assert_eq!(
            dspcc_args(TABLE2.last().unwrap()),
            ["-O2", "-ffp-contract=off", "-fvec-function-opt=all", "-Rpass-missed=wfv", "-lm"]
        );
        let err = "/x/y/h.c:20:1: remark: 'f' not vectorized: a/b [-Rpass-missed=wfv]\n   20 | code\n";
        assert_eq!(refusals(err), ["h.c:20:1: 'f' not vectorized: a/b"]);
        assert!(defines(TABLE2.last().unwrap()).is_empty());
        assert_eq!(defines(&FIG5[1]), ["-DNO_DIRECTIVES"]);
        let g = geomean(&[2.0, 8.0, 0.0]).unwrap();
        assert!((g - 4.0).abs() < 1e-9);
        assert_eq!(geomean(&[]), None);
    }
}

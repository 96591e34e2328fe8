//! `dsp-bench-egg [OPTIONS] [MACHINE...]` (`scripts/bench-egg`): seed 004's
//! benchmark of instruction selection by equality saturation. Builds the
//! seed's kernels (autocorrelation, FFT, 2D convolution, matrix multiply)
//! at their small and medium sizes in the configurations below with dspcc, runs
//! each on the simulator (strict), checks its output against the host
//! build and prints, per machine, the kernel's cycles, its ratio to the
//! bound the C semantics allow and the speedup over naive scalar (seed 004's
//! metric), then the hardware-variant table of the seed's Table 2 (the
//! geometric means per machine). Exit status: 0, 1 when a build, a run or
//! an output check failed, 2 on usage errors.
//!
//! The configurations (all `-O2`):
//! - **scalar**: naive scalar, `-fno-vectorize -fno-slp-vectorize
//!   -fno-modulo-sched -fno-egg-isel` (no vectorizer, no pipelining, no egg);
//! - **LLVM**: LLVM's loop and SLP vectorizers alone (`-fno-egg-isel
//!   -fno-outer-loop-vectorize -fno-vectorize-bitrev`);
//! - **no-egg**: `-fno-egg-isel`: dspcc's other vectorizers (LLVM's and our
//!   outer-loop one);
//! - **egg**: `-fegg-isel`, dspcc's default from -O2 (egg takes each loop
//!   it can before LLVM's vectorizers, which take the rest);
//! - **egg-coop**: `-fegg-isel -fno-egg-cooperation`, a Diospyros-like
//!   rule set without the scalar–vector cooperation rules;
//! - **egg-nojam**: `-fegg-isel -fno-unroll-and-jam`, the default without
//!   unroll-and-jam (its column);
//! - **egg-noic**: `-fegg-isel -fno-loop-interchange`, the default without
//!   the interchange of short inner loops (its column);
//! - **egg-nostrip**: `-fegg-isel -fno-loop-strip-mine`, the default without
//!   the strips of short inner loops around the loop holding them (its
//!   column);
//! - **egg-norc**: `-fegg-isel -fno-reverse-carry`, the default without the
//!   closed form of bit-reversed counters (its column; the bit reversal of
//!   the FFT), and so without the vector swaps that need it;
//! - **egg-nobrv**: `-fegg-isel -fno-vectorize-bitrev`, the default with
//!   the closed form but the bit reversal's swaps left scalar (its column);
//! - **egg-noflat**: `-fegg-isel -fno-loop-flatten`, the default with the
//!   interchanged nests left as nests (its column: one pipeline entry per
//!   outer iteration);
//! - **egg-nopc**: `-fegg-isel -fno-predictive-commoning`, the default with
//!   every load made again in each iteration (its column: a convolution's
//!   rows loaded three times).

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use dsp_bench::chain::{kernel_bound, FpSemantics};
use dsp_bench::kernels::{self, Kernel};
use dsp_bench::measure::{self, Run};
use dsp_bench::report::Check;
use dsp_bench::runner::{self, load_machines, parallel, tool_dir, Setup};

/// The seed's four kernels.
const KERNELS: &[&str] = &["autocorr", "fft", "conv2d", "matmul"];

/// A configuration: its column name and dspcc flags.
struct Config {
    name: &'static str,
    flags: &'static [&'static str],
}

const CONFIGS: &[Config] = &[
    Config { name: "scalar", flags: &["-fno-vectorize", "-fno-slp-vectorize", "-fno-modulo-sched", "-fno-egg-isel"] },
    Config { name: "LLVM", flags: &["-fno-egg-isel", "-fno-outer-loop-vectorize", "-fno-vectorize-bitrev"] },
    Config { name: "no-egg", flags: &["-fno-egg-isel"] },
    Config { name: "egg", flags: &["-fegg-isel"] },
    Config { name: "egg-coop", flags: &["-fegg-isel", "-fno-egg-cooperation"] },
    Config { name: "egg-nojam", flags: &["-fegg-isel", "-fno-unroll-and-jam"] },
    Config { name: "egg-noic", flags: &["-fegg-isel", "-fno-loop-interchange"] },
    Config { name: "egg-nostrip", flags: &["-fegg-isel", "-fno-loop-strip-mine"] },
    Config { name: "egg-norc", flags: &["-fegg-isel", "-fno-reverse-carry"] },
    Config { name: "egg-nobrv", flags: &["-fegg-isel", "-fno-vectorize-bitrev"] },
    Config { name: "egg-noflat", flags: &["-fegg-isel", "-fno-loop-flatten"] },
    Config { name: "egg-nopc", flags: &["-fegg-isel", "-fno-predictive-commoning"] },
];
const EGG: usize = 3;

#[derive(Parser)]
#[command(name = "dsp-bench-egg", about = "Seed 004's benchmark: egg instruction selection on its four kernels")]
struct Cli {
    /// Machines: shipped names or .isa files (default: ftm8 ftm ftm32).
    machines: Vec<String>,
    /// Only these kernels (comma-separated or repeated; default: autocorr, fft, conv2d, matmul).
    #[arg(short = 'k', long = "kernel", value_delimiter = ',')]
    kernels: Vec<String>,
    #[command(flatten)]
    tools: dsp_bench::cli::ToolArgs,
}

/// One build and run.
struct Job {
    machine: usize,
    kernel: &'static Kernel,
    size: u64,
    config: usize,
}

/// What one job gave.
#[derive(Clone)]
struct Outcome {
    run: Result<Run, String>,
    compile_secs: f64,
    /// The longest saturation of one loop (ms) and whether a limit stopped one.
    saturation_ms: f64,
    limit_hit: bool,
}

fn usage_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("dsp-bench-egg: error: {msg}");
    ExitCode::from(2)
}

fn run_job(setup: &Setup, spec: &str, m: &isa_tablegen::Machine, j: &Job) -> Outcome {
    let c = &CONFIGS[j.config];
    let exe = setup.work.join(&m.name).join(format!("{}.{}.{}", j.kernel.name, j.size, c.name.trim_start_matches('-')));
    let src = setup.kernels_dir.join(format!("{}.c", j.kernel.name));
    let mut args = vec!["-O2".to_string(), format!("-DSIZE={}", j.size), "-Rpass-analysis=egg".to_string()];
    args.extend(c.flags.iter().map(|f| f.to_string()));
    let t = Instant::now();
    let built = runner::dspcc_build(&setup.dspcc, spec, &args, &src, &exe);
    let compile_secs = t.elapsed().as_secs_f64();
    let (mut saturation_ms, mut limit_hit) = (0.0f64, false);
    if let Ok(stderr) = &built {
        for line in stderr.lines().filter(|l| l.contains("ms saturating")) {
            // "egg: I iterations, N e-nodes in C classes, X ms saturating, ..."
            let ms = line.split(" ms saturating").next().and_then(|h| h.rsplit(", ").next()).and_then(|x| x.trim().parse::<f64>().ok());
            saturation_ms = saturation_ms.max(ms.unwrap_or(0.0));
            limit_hit |= line.contains("stopped by");
        }
    }
    let run = built.and_then(|_| measure::run_kernel(m, &exe, j.kernel, setup.max_cycles));
    Outcome { run, compile_secs, saturation_ms, limit_hit }
}

fn geomean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let specs: Vec<String> = if cli.machines.is_empty() {
        ["ftm8", "ftm", "ftm32"].iter().map(|s| s.to_string()).collect()
    } else {
        cli.machines.clone()
    };
    let machines = match load_machines(specs) {
        Ok(m) => m,
        Err(e) => return usage_error(e),
    };
    let names: Vec<String> = if cli.kernels.is_empty() { KERNELS.iter().map(|s| s.to_string()).collect() } else { cli.kernels.clone() };
    let mut ks: Vec<&'static Kernel> = Vec::new();
    for n in &names {
        match kernels::find(n) {
            Some(k) => ks.push(k),
            None => return usage_error(format!("unknown kernel '{n}'")),
        }
    }
    let exe_dir = tool_dir();
    let jobs_n = cli.tools.jobs();
    let setup = Setup {
        kernels_dir: runner::default_kernels_dir(),
        dspcc: cli.tools.dspcc(&exe_dir),
        host_cc: cli.tools.host_cc.clone(),
        work: cli.tools.work(&exe_dir, "bench-egg"),
        jobs: jobs_n,
        max_cycles: cli.tools.max_cycles,
    };
    if !setup.dspcc.exists() {
        return usage_error(format!("{} not found (cargo build --workspace --release)", setup.dspcc.display()));
    }
    let start = Instant::now();
    let cases: Vec<(&'static Kernel, u64)> = ks.iter().flat_map(|&k| k.sizes.iter().map(move |&s| (k, s))).collect();
    let refs = parallel(&cases, jobs_n, &|&(k, s)| runner::host_ref(&setup, k, s));
    let mut jobs = Vec::new();
    for machine in 0..machines.len() {
        for &(kernel, size) in &cases {
            for config in 0..CONFIGS.len() {
                jobs.push(Job { machine, kernel, size, config });
            }
        }
    }
    eprintln!("dsp-bench-egg: {} builds and runs on {} machine(s), {} thread(s)...", jobs.len(), machines.len(), jobs_n);
    let outcomes: Vec<Outcome> = parallel(&jobs, jobs_n, &|j: &Job| {
        let (spec, m) = &machines[j.machine];
        run_job(&setup, spec, m, j)
    })
    .into_iter()
    .map(|o| o.unwrap_or(Outcome { run: Err("the worker thread died".into()), compile_secs: 0.0, saturation_ms: 0.0, limit_hit: false }))
    .collect();
    let mut bad = 0;
    // Table 2 of seed 004: per machine, the geometric means.
    let mut variants: Vec<String> = Vec::new();
    for (mi, (_, m)) in machines.iter().enumerate() {
        println!("== {}: {}", m.name, m.description);
        println!("   cycles of the kernel function (dspcc -O2 ...; dsp-sim --strict); x = speedup over naive scalar; r = cycles / (bound + cold);");
        println!("   bound = the .isa's resource or chain bound; cold = stall cycles of the cold misses of the kernel's data (egg build); r w/o cold = cycles / bound");
        println!();
        print!("| kernel | size | bound |");
        for c in CONFIGS {
            print!(" {} |", c.name);
        }
        for c in &CONFIGS[1..] {
            print!(" {} x |", c.name);
        }
        println!(" egg cold | egg r | egg r w/o cold | egg compile s (longest saturation ms) | host |");
        print!("|---|---:|---:|");
        for _ in CONFIGS.iter().chain(&CONFIGS[1..]) {
            print!("---:|");
        }
        println!("---:|---:|---:|---:|---|");
        // Per configuration: speedups, and the egg ratios at the medium size.
        let mut speedups: Vec<Vec<f64>> = vec![Vec::new(); CONFIGS.len()];
        let mut medium_ratio: Vec<f64> = Vec::new();
        let mut medium_compute: Vec<f64> = Vec::new();
        let mut egg_not_slower = true;
        for &(k, size) in &cases {
            let cell = |c: usize| {
                jobs.iter().zip(&outcomes).find(|(j, _)| j.machine == mi && j.kernel.name == k.name && j.size == size && j.config == c).map(|(_, o)| o)
            };
            let host = refs.iter().flatten().find(|r| r.kernel == k.name && r.size == size).map_or(Err("not built".to_string()), |r| r.output.clone());
            let cycles = |c: usize| cell(c).and_then(|o| o.run.as_ref().ok()).map(|r| r.kernel.cycles);
            let mut checks = Vec::new();
            for c in 0..CONFIGS.len() {
                let check = cell(c).map_or(Check::Failed, |o| Check::of(&o.run, &host));
                if !matches!(check, Check::Match) {
                    checks.push(format!("{}: {}", CONFIGS[c].name, check.cell()));
                }
            }
            if !checks.is_empty() {
                bad += 1;
            }
            let bound = kernel_bound(m, k, size, FpSemantics::Strict).ok().map(|b| b.cycles());
            print!("| {} | {} | {} |", k.name, size, bound.map_or("-".into(), |b| format!("{b:.0}")));
            for c in 0..CONFIGS.len() {
                print!(" {} |", cycles(c).map_or("-".into(), |x| x.to_string()));
            }
            let scalar = cycles(0);
            for (c, sp) in speedups.iter_mut().enumerate().skip(1) {
                let x = match (scalar, cycles(c)) {
                    (Some(s), Some(y)) if y > 0 => Some(s as f64 / y as f64),
                    _ => None,
                };
                if let Some(x) = x {
                    sp.push(x);
                }
                print!(" {} |", x.map_or("-".into(), |x| format!("{x:.2}×")));
            }
            let cold = cell(EGG).and_then(|o| o.run.as_ref().ok()).map(|r| r.kernel.cold_stall_cycles);
            let ratio_over = |extra: u64| match (cycles(EGG), bound) {
                (Some(y), Some(b)) if b > 0.0 => Some(y as f64 / (b + extra as f64)),
                _ => None,
            };
            let (ratio, compute) = (cold.and_then(ratio_over), ratio_over(0));
            if let (Some(r), Some(c), true) = (ratio, compute, size == k.sizes[1]) {
                medium_ratio.push(r);
                medium_compute.push(c);
            }
            if let (Some(e), Some(l)) = (cycles(EGG), cycles(2)) {
                egg_not_slower &= e <= l;
            }
            let egg = cell(EGG);
            print!(
                " {} | {} | {} | {} | {} |",
                cold.map_or("-".into(), |c| c.to_string()),
                ratio.map_or("-".into(), |r| format!("{r:.1}")),
                compute.map_or("-".into(), |r| format!("{r:.1}")),
                egg.map_or("-".into(), |o| format!("{:.2} s ({:.0}{})", o.compile_secs, o.saturation_ms, if o.limit_hit { ", limit" } else { "" })),
                if checks.is_empty() { "ok".to_string() } else { checks.join("; ") }
            );
            println!();
        }
        println!();
        let g: Vec<String> = (1..CONFIGS.len()).map(|c| format!("{} {}", CONFIGS[c].name, geomean(&speedups[c]).map_or("-".into(), |x| format!("{x:.2}×")))).collect();
        println!("   geomean speedup over naive scalar: {}", g.join(", "));
        println!(
            "   egg: geomean cycles/(bound + cold) at the medium size {} (cycles/bound {}); egg never slower than no-egg: {}",
            geomean(&medium_ratio).map_or("-".into(), |x| format!("{x:.2}")),
            geomean(&medium_compute).map_or("-".into(), |x| format!("{x:.2}")),
            if egg_not_slower { "yes" } else { "NO" }
        );
        println!();
        let means: Vec<String> = (1..CONFIGS.len()).map(|c| geomean(&speedups[c]).map_or("-".into(), |x| format!("{x:.2}×"))).collect();
        variants.push(format!("| {} | {} | {} |", m.name, m.vector_lanes(32).map_or("-".into(), |l| l.to_string()), means.join(" | ")));
    }
    if machines.len() > 1 {
        println!("== Table 2 (seed 004): geomean speedup over naive scalar per machine");
        println!();
        let names: Vec<&str> = CONFIGS[1..].iter().map(|c| c.name).collect();
        println!("| machine | lanes | {} |", names.join(" | "));
        println!("|---|---:|{}", "---:|".repeat(names.len()));
        for v in &variants {
            println!("{v}");
        }
        println!();
    }
    println!("dsp-bench-egg: {} builds, {} rows with problems, {:.0} s", jobs.len(), bad, start.elapsed().as_secs_f64());
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

//! `dsp-bench [OPTIONS] [MACHINE...]`: builds every benchmark kernel with
//! `dspcc` at each -O level and size, runs it on the simulator (strict),
//! checks its output against the host build and prints a table per machine
//! (see the crate documentation for the columns and the lower-bound model),
//! with each kernel and size also built as naive scalar code (`-O2
//! -fno-vectorize -fno-slp-vectorize -fno-modulo-sched`) for the speedup
//! column. `--bounds` prints only the bounds; `--compare-pipelining` builds
//! every run without and with software pipelining and prints them side by
//! side. Exit status: 0, 1 when a build, a run or a checksum failed, 2 on
//! usage errors.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use dsp_bench::chain::{kernel_bound, FpSemantics};
use dsp_bench::kernels::{Kernel, KERNELS};
use dsp_bench::report::{render, render_compare, Check, Row, TableRow};
use dsp_bench::runner::{
    default_kernels_dir, host_ref, load_machines, parallel, run_job, tool_dir, HostRef, Job, Setup,
};

#[derive(Parser)]
#[command(
    name = "dsp-bench",
    about = "The C toolchain's performance baseline: kernels, cycles, lower bounds",
    after_help = COLUMNS
)]
struct Cli {
    /// Machines: shipped names or .isa files (default: every shipped machine).
    machines: Vec<String>,
    /// Only these kernels (comma-separated or repeated).
    #[arg(short = 'k', long = "kernel", value_delimiter = ',')]
    kernels: Vec<String>,
    /// Optimization levels.
    #[arg(short = 'O', long = "levels", value_delimiter = ',', default_value = "0,1,2,3",
          value_parser = clap::value_parser!(u8).range(0..=3))]
    levels: Vec<u8>,
    /// Sizes: small, medium.
    #[arg(long, value_delimiter = ',', default_value = "small,medium")]
    sizes: Vec<String>,
    /// Parallel jobs (default: the number of CPUs).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Print only the lower bounds and what each essential operation maps to.
    #[arg(long)]
    bounds: bool,
    /// The compiler driver (default: dspcc next to this program).
    #[arg(long)]
    dspcc: Option<PathBuf>,
    /// The host C compiler for the reference outputs.
    #[arg(long, default_value = "gcc")]
    host_cc: String,
    /// Scratch directory (default: target/bench, next to this program's directory).
    #[arg(long)]
    work: Option<PathBuf>,
    /// Where the kernels' C sources are.
    #[arg(long)]
    kernels_dir: Option<PathBuf>,
    /// Extra dspcc flags for every build (one string, split at white space).
    #[arg(long, allow_hyphen_values = true, default_value = "")]
    extra_cflags: String,
    /// Build every run twice, without software pipelining
    /// (`-fno-modulo-sched`) and with it (the default from -O2), and print
    /// the two side by side with their ratios to the bound and the speedup.
    #[arg(long)]
    compare_pipelining: bool,
    /// Build every run twice, with `-fno-FLAG` and with the default, and
    /// print the two side by side: the on/off column of one optimization
    /// (e.g. `outer-loop-vectorize`, `masked-tail`, `loop-strength-reduce`,
    /// `move-loop-invariants`, `vec-function`; `modulo-sched` is
    /// `--compare-pipelining`).
    #[arg(long, value_name = "FLAG")]
    compare: Option<String>,
    /// Skip the naive scalar builds (the `scalar` and `speedup` columns).
    #[arg(long)]
    no_scalar: bool,
    /// Stop a simulated run after this many cycles.
    #[arg(long, default_value_t = 2_000_000_000)]
    max_cycles: u64,
}

/// The table's columns, for `--help`.
const COLUMNS: &str = "\
Columns of the table (one row per kernel, size and -O level):
  cycles       the kernel function's cycles (dsp-sim --strict --stats-json, cycles per function),
               data-cache stalls included
  stalls       of those, the memory stall cycles the kernel's cache misses caused
  cold         the stall cycles of the cold misses of the kernel's data at its entry: every
               line of its arrays not in L1 then, at the miss penalties of the levels that
               do not hold it (no implementation avoids them; part of the bound)
  RATIO        cycles / (bound + cold): the headline figure (1.0 would be perfect)
  bound        the bound the C semantics allow: max(resource, chain)
  bound by     what sets it: 'chain' or the resource (units, issue slots, bundle)
  chain        cycles of the longest strict-IEEE float dependence chain (count x scalar
               latency from the .isa); '-' for integer kernels (sums may be reassociated)
               and under -ffast-math / -fassociative-math in --extra-cflags
  resource     the resource bound from the .isa (all essential operations at full throughput)
  r.ratio      cycles / (resource bound + cold)
  scalar       cycles of the naive scalar build (-O2 -fno-vectorize -fno-slp-vectorize
               -fno-modulo-sched, plus --extra-cflags), the same for every -O level
  speedup      scalar / cycles
  ops/b        operations (nops excluded) per bundle issued in the kernel
  vec%         share of those operations that are vector instructions
  code         bundles of the kernel function's code
  run bundles  bundles issued by the whole program
  host         'ok' when the output equals the host build's (MISMATCH!/FAILED! explained below)
Under each table: the geometric means per level of cycles/(bound + cold), cycles/(resource bound + cold) and
the speedup over the naive scalar build.";

/// The flags of the naive scalar build (beside `--extra-cflags`), at -O2.
const SCALAR_FLAGS: &[&str] = &["-fno-vectorize", "-fno-slp-vectorize", "-fno-modulo-sched"];
/// The -O level of the naive scalar build.
const SCALAR_LEVEL: u8 = 2;

fn usage_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("dsp-bench: error: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let specs: Vec<String> = if cli.machines.is_empty() {
        isa_tablegen::builtin::names().map(String::from).collect()
    } else {
        cli.machines.clone()
    };
    let machines = match load_machines(specs) {
        Ok(m) => m,
        Err(e) => return usage_error(e),
    };
    let kernels: Vec<&'static Kernel> = if cli.kernels.is_empty() {
        KERNELS.iter().collect()
    } else {
        let mut v = Vec::new();
        for name in &cli.kernels {
            match dsp_bench::kernels::find(name) {
                Some(k) => v.push(k),
                None => {
                    let known: Vec<&str> = KERNELS.iter().map(|k| k.name).collect();
                    return usage_error(format!(
                        "unknown kernel '{name}' (known: {})",
                        known.join(", ")
                    ));
                }
            }
        }
        v
    };
    let mut size_index = Vec::new();
    for s in &cli.sizes {
        match s.as_str() {
            "small" => size_index.push(0),
            "medium" => size_index.push(1),
            _ => return usage_error(format!("unknown size '{s}' (small, medium)")),
        }
    }
    let cases: Vec<(&'static Kernel, u64)> = kernels
        .iter()
        .flat_map(|k| size_index.iter().map(move |&i| (*k, k.sizes[i])))
        .collect();

    let extra: Vec<String> = cli.extra_cflags.split_whitespace().map(String::from).collect();
    let sem = FpSemantics::of_flags(&extra);
    if cli.bounds {
        for (_, m) in &machines {
            println!("== {}: {}", m.name, m.description);
            println!("   {}", sem.describe());
            println!(
                "{:<9} {:>5} {:>10} {:<14} {:>10} {:>10}  formula; chain",
                "kernel", "size", "bound", "bound by", "resource", "chain"
            );
            for &(k, n) in &cases {
                match kernel_bound(m, k, n, sem) {
                    Ok(b) => {
                        let maps: Vec<String> =
                            b.resource.mappings.iter().map(|mp| mp.describe(m)).collect();
                        let chain = b.chain.as_ref();
                        println!(
                            "{:<9} {:>5} {:>10.1} {:<14} {:>10.1} {:>10}  {}; chain {}   [{}] [{}]",
                            k.name,
                            n,
                            b.cycles(),
                            b.limit(),
                            b.resource.cycles,
                            chain.map_or("-".to_string(), |c| format!("{:.0}", c.cycles)),
                            k.formula,
                            k.chain_formula,
                            maps.join(", "),
                            chain.map_or("-".to_string(), |c| c.describe(m))
                        );
                    }
                    Err(e) => println!("{:<9} {:>5} error: {e}", k.name, n),
                }
            }
            println!();
        }
        return ExitCode::SUCCESS;
    }

    let exe_dir = tool_dir();
    let setup = Setup {
        kernels_dir: cli.kernels_dir.clone().unwrap_or_else(default_kernels_dir),
        dspcc: cli.dspcc.clone().unwrap_or_else(|| exe_dir.join("dspcc")),
        host_cc: cli.host_cc.clone(),
        work: cli
            .work
            .clone()
            .unwrap_or_else(|| exe_dir.join("..").join("bench")),
        jobs: cli
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        max_cycles: cli.max_cycles,
    };
    if !setup.dspcc.exists() {
        return usage_error(format!(
            "{} not found (cargo build --workspace --release)",
            setup.dspcc.display()
        ));
    }
    let start = Instant::now();
    let refs: Vec<HostRef> = parallel(&cases, setup.jobs, &|&(k, n)| host_ref(&setup, k, n))
        .into_iter()
        .flatten()
        .collect();
    // The builds of a comparison: (variant, flags); one plain build otherwise.
    let compare: Option<String> = match (&cli.compare, cli.compare_pipelining) {
        (Some(f), _) => Some(f.trim_start_matches("-f").trim_start_matches("no-").to_string()),
        (None, true) => Some("modulo-sched".to_string()),
        (None, false) => None,
    };
    let variants: Vec<(&'static str, Vec<String>)> = if let Some(flag) = &compare {
        let mut off = extra.clone();
        off.push(format!("-fno-{flag}"));
        vec![(".off", off), ("", extra.clone())]
    } else {
        vec![("", extra.clone())]
    };
    let (off_label, on_label) = match compare.as_deref() {
        Some("modulo-sched") => ("no SWP".to_string(), "SWP".to_string()),
        Some(f) => (format!("no {f}"), f.to_string()),
        None => (String::new(), String::new()),
    };
    let mut scalar_flags = extra.clone();
    scalar_flags.extend(SCALAR_FLAGS.iter().map(|f| f.to_string()));
    let with_scalar = compare.is_none() && !cli.no_scalar;
    let mut jobs = Vec::new();
    for mi in 0..machines.len() {
        for &(kernel, size) in &cases {
            if with_scalar {
                jobs.push(Job {
                    machine: mi,
                    kernel,
                    size,
                    level: SCALAR_LEVEL,
                    flags: scalar_flags.clone(),
                    variant: ".scalar",
                });
            }
            for &level in &cli.levels {
                for (variant, flags) in &variants {
                    jobs.push(Job {
                        machine: mi,
                        kernel,
                        size,
                        level,
                        flags: flags.clone(),
                        variant,
                    });
                }
            }
        }
    }
    eprintln!(
        "dsp-bench: {} builds and runs on {} machine(s), {} thread(s)...",
        jobs.len(),
        machines.len(),
        setup.jobs
    );
    let results = parallel(&jobs, setup.jobs, &|j: &Job| {
        let (spec, m) = &machines[j.machine];
        run_job(&setup, spec, m, j)
    });
    let results: Vec<Result<_, String>> = results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("the worker thread died".to_string())))
        .collect();
    let mut bad = 0;
    for (mi, (_, m)) in machines.iter().enumerate() {
        let all: Vec<(&Job, Row)> = jobs
            .iter()
            .zip(&results)
            .filter(|(j, _)| j.machine == mi)
            .map(|(j, run)| {
                let host = refs
                    .iter()
                    .find(|r| r.kernel == j.kernel.name && r.size == j.size)
                    .map_or(Err("not built".to_string()), |r| r.output.clone());
                let row = Row {
                    kernel: j.kernel.name,
                    size: j.size,
                    level: j.level,
                    check: Check::of(run, &host),
                    run: run.clone(),
                    bound: kernel_bound(m, j.kernel, j.size, sem),
                };
                (j, row)
            })
            .collect();
        bad += all.iter().filter(|(_, r)| r.bad()).count();
        let is_scalar = |j: &Job| j.variant == ".scalar";
        let rows: Vec<Row> = all
            .iter()
            .filter(|(j, _)| !is_scalar(j))
            .map(|(_, r)| r.clone())
            .collect();
        if compare.is_some() {
            let pairs: Vec<(Row, Row)> = rows
                .chunks(2)
                .filter_map(|c| match c {
                    [a, b] => Some((a.clone(), b.clone())),
                    _ => None,
                })
                .collect();
            println!("{}", render_compare(m, &pairs, &off_label, &on_label, sem));
        } else {
            let table: Vec<TableRow> = rows
                .into_iter()
                .map(|row| {
                    let scalar = all
                        .iter()
                        .find(|(j, r)| is_scalar(j) && r.kernel == row.kernel && r.size == row.size)
                        .map(|(_, r)| r.clone());
                    TableRow { row, scalar }
                })
                .collect();
            println!("{}", render(m, &table, sem));
        }
    }
    println!(
        "dsp-bench: {} runs, {} with problems, {:.0} s",
        jobs.len(),
        bad,
        start.elapsed().as_secs_f64()
    );
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

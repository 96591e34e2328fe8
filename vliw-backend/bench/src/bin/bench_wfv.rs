//! `dsp-bench-wfv [OPTIONS] [MACHINE...]` (`scripts/bench-wfv`): seed
//! 001's benchmark of function-level vectorization. Builds every program of
//! `bench/wfv` in the configurations of the seed's Table 2 (Scalar, Naive,
//! MEM, All) and Fig. 5 (WFV, LOOP, SLP, Scalar) with dspcc, runs each on
//! the simulator (strict), checks its output against the host build and
//! prints the two tables per machine ([`dsp_bench::wfv`] says what each
//! configuration is). Exit status: 0, 1 when a build, a run or an output
//! check failed, 2 on usage errors.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use dsp_bench::report::Check;
use dsp_bench::runner::{load_machines, parallel, tool_dir};
use dsp_bench::wfv::{self, Config, Job, Program, Setup, FIG5, PROGRAMS, RESTRUCTURE, TABLE2};
use dsp_bench::wfv_report::{render, ProgramRow};

#[derive(Parser)]
#[command(name = "dsp-bench-wfv", about = "Seed 001's function-level vectorization benchmark")]
struct Cli {
    /// Machines: shipped names or .isa files (default: ftm ftm8 ftm32).
    machines: Vec<String>,
    /// Only these programs (file stems, comma-separated or repeated).
    #[arg(short = 'p', long = "program", value_delimiter = ',')]
    programs: Vec<String>,
    /// Parallel jobs (default: the number of CPUs).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// The compiler driver (default: dspcc next to this program).
    #[arg(long)]
    dspcc: Option<PathBuf>,
    /// The host C compiler for the reference outputs.
    #[arg(long, default_value = "gcc")]
    host_cc: String,
    /// Scratch directory (default: target/bench-wfv, next to this program's directory).
    #[arg(long)]
    work: Option<PathBuf>,
    /// Where the programs' C sources are.
    #[arg(long)]
    programs_dir: Option<PathBuf>,
    /// Stop a simulated run after this many cycles.
    #[arg(long, default_value_t = 200_000_000)]
    max_cycles: u64,
}

fn usage_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("dsp-bench-wfv: error: {msg}");
    ExitCode::from(2)
}

/// The programs and configurations of one table.
struct Table {
    title: &'static str,
    configs: &'static [Config],
    baseline: usize,
    member: fn(&Program) -> bool,
}

const TABLES: &[Table] = &[
    Table {
        title: "Table 2: cycles of kernel() and its callees; speedups over Scalar (-O2 -fno-vec-function)",
        configs: TABLE2,
        baseline: 0,
        member: |p| p.table2,
    },
    Table {
        title: "Fig. 5: WFV (directives) vs LLVM's loop vectorizer and SLP on the code without directives; speedups over Scalar",
        configs: FIG5,
        baseline: 3,
        member: |p| p.fig5,
    },
    Table {
        title: "Instance restructuring (seed 001 §2.2.3): All without it (All-RS) and All; speedups over Scalar",
        configs: RESTRUCTURE,
        baseline: 0,
        member: |p| p.restructure,
    },
];

fn main() -> ExitCode {
    let cli = Cli::parse();
    let specs: Vec<String> = if cli.machines.is_empty() {
        ["ftm", "ftm8", "ftm32"].iter().map(|s| s.to_string()).collect()
    } else {
        cli.machines.clone()
    };
    let machines = match load_machines(specs) {
        Ok(m) => m,
        Err(e) => return usage_error(e),
    };
    let mut programs: Vec<&'static Program> = Vec::new();
    for name in &cli.programs {
        match PROGRAMS.iter().find(|p| p.file == name.as_str()) {
            Some(p) => programs.push(p),
            None => {
                let known: Vec<&str> = PROGRAMS.iter().map(|p| p.file).collect();
                return usage_error(format!("unknown program '{name}' (known: {})", known.join(", ")));
            }
        }
    }
    if programs.is_empty() {
        programs = PROGRAMS.iter().collect();
    }
    let exe_dir = tool_dir();
    let setup = Setup {
        programs_dir: cli.programs_dir.clone().unwrap_or_else(wfv::default_programs_dir),
        dspcc: cli.dspcc.clone().unwrap_or_else(|| exe_dir.join("dspcc")),
        host_cc: cli.host_cc.clone(),
        work: cli.work.clone().unwrap_or_else(|| exe_dir.join("..").join("bench-wfv")),
        max_cycles: cli.max_cycles,
    };
    if !setup.dspcc.exists() {
        return usage_error(format!("{} not found (cargo build --workspace --release)", setup.dspcc.display()));
    }
    let jobs_n = dsp_bench::cli::jobs_or_cpus(cli.jobs);
    let start = Instant::now();

    // Every distinct build: a configuration with the same flags as another
    // (All and WFV) is built once.
    let mut jobs: Vec<Job> = Vec::new();
    for mi in 0..machines.len() {
        for t in TABLES {
            for &p in programs.iter().filter(|p| (t.member)(p)) {
                for &config in t.configs {
                    let dup = jobs.iter().any(|j| {
                        j.machine == mi && j.program.file == p.file && j.config.flags == config.flags
                    });
                    if !dup {
                        jobs.push(Job { machine: mi, program: p, config });
                    }
                }
            }
        }
    }
    // The host references: with and without -DNO_DIRECTIVES.
    let host_cases: Vec<(&'static Program, Config)> = programs
        .iter()
        .flat_map(|&p| [(p, TABLE2[0]), (p, FIG5[1])])
        .collect();
    let refs = parallel(&host_cases, jobs_n, &|(p, c)| wfv::host_ref(&setup, p, c));
    let host_of = |p: &Program, c: &Config| -> Result<Vec<u8>, String> {
        let nodir = c.flags.contains(&"-DNO_DIRECTIVES");
        host_cases
            .iter()
            .zip(&refs)
            .find(|((hp, hc), _)| hp.file == p.file && hc.flags.contains(&"-DNO_DIRECTIVES") == nodir)
            .and_then(|(_, r)| r.clone())
            .unwrap_or_else(|| Err("not built".to_string()))
    };
    eprintln!(
        "dsp-bench-wfv: {} builds and runs on {} machine(s), {} thread(s)...",
        jobs.len(),
        machines.len(),
        jobs_n
    );
    let outcomes = parallel(&jobs, jobs_n, &|j: &Job| {
        let (spec, m) = &machines[j.machine];
        wfv::run_job(&setup, spec, m, j)
    });
    let mut bad = 0;
    for (mi, (_, m)) in machines.iter().enumerate() {
        println!("== {}: {}", m.name, m.description);
        println!("   dspcc {} ...; host gcc -m32 -ffp-contract=off", wfv::BASE_FLAGS.join(" "));
        println!();
        for t in TABLES {
            let rows: Vec<ProgramRow> = programs
                .iter()
                .filter(|p| (t.member)(p))
                .map(|p| {
                    let cells = t
                        .configs
                        .iter()
                        .map(|c| {
                            let found = jobs.iter().zip(&outcomes).find(|(j, _)| {
                                j.machine == mi && j.program.file == p.file && j.config.flags == c.flags
                            });
                            let outcome = match found {
                                Some((_, Some(o))) => o.clone(),
                                _ => wfv::Outcome {
                                    compile_secs: 0.0,
                                    run: Err("the worker thread died".into()),
                                    refused: Vec::new(),
                                },
                            };
                            let check = Check::of(&outcome.run, &host_of(p, c));
                            (outcome, check)
                        })
                        .collect();
                    ProgramRow { name: p.name, cells }
                })
                .collect();
            if rows.is_empty() {
                continue;
            }
            bad += rows.iter().filter(|r| r.bad()).count();
            println!("{}", render(t.title, t.configs, t.baseline, &rows));
        }
    }
    println!(
        "dsp-bench-wfv: {} builds, {} table rows with problems, {:.0} s",
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

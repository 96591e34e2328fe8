//! The command-line options the benchmark programs share (`dsp-bench-egg`,
//! `dsp-bench-poly`): jobs, the tools, the scratch directory and the
//! simulator's cycle limit.

use std::path::{Path, PathBuf};

use clap::Args;

/// Options every benchmark program takes (flattened into its own).
#[derive(Args, Debug)]
pub struct ToolArgs {
    /// Parallel jobs (default: the number of CPUs).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// The compiler driver (default: dspcc next to this program).
    #[arg(long)]
    pub dspcc: Option<PathBuf>,
    /// The host C compiler for the reference outputs.
    #[arg(long, default_value = "gcc")]
    pub host_cc: String,
    /// Scratch directory (default: target/bench-NAME, next to this program's directory).
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// Stop a simulated run after this many cycles.
    #[arg(long, default_value_t = 2_000_000_000)]
    pub max_cycles: u64,
}

impl ToolArgs {
    /// The parallel jobs: as given, else one per CPU.
    pub fn jobs(&self) -> usize {
        jobs_or_cpus(self.jobs)
    }
    /// The compiler driver: as given, else `dspcc` in `exe_dir`.
    pub fn dspcc(&self, exe_dir: &Path) -> PathBuf {
        self.dspcc.clone().unwrap_or_else(|| exe_dir.join("dspcc"))
    }
    /// The scratch directory: as given, else `exe_dir/../NAME`.
    pub fn work(&self, exe_dir: &Path, name: &str) -> PathBuf {
        self.work.clone().unwrap_or_else(|| exe_dir.join("..").join(name))
    }
}

/// `n`, else the number of CPUs (2 when unknown).
pub fn jobs_or_cpus(n: Option<usize>) -> usize {
    n.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

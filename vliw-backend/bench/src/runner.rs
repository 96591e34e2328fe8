//! Building and running the benchmark matrix: the host references (`gcc
//! -m32`, one per kernel and size), then every kernel × size × -O level ×
//! machine compiled with `dspcc` and run on the simulator, on a small pool of
//! worker threads. Results come back in matrix order, whatever order the
//! workers finished in.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use isa_tablegen::Machine;

use crate::kernels::Kernel;
use crate::measure::{self, Run};

/// Where things are and what to run.
#[derive(Clone, Debug)]
pub struct Setup {
    pub kernels_dir: PathBuf,
    pub dspcc: PathBuf,
    pub host_cc: String,
    /// Scratch directory for executables and outputs.
    pub work: PathBuf,
    pub jobs: usize,
    pub max_cycles: u64,
}

/// The host build's flags: ILP32 like the DSP, SSE arithmetic (no x87
/// excess precision), no contraction, and `MACF` as `fmaf` (see
/// `kernels/bench.h`).
pub const HOST_FLAGS: &[&str] = &[
    "-m32",
    "-std=c11",
    "-msse2",
    "-mfpmath=sse",
    "-ffp-contract=off",
    "-O2",
    "-DREF_FMA",
];

/// What the host build of one kernel and size printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostRef {
    pub kernel: &'static str,
    pub size: u64,
    /// Its output, or why there is none.
    pub output: Result<Vec<u8>, String>,
}

/// One DSP build and run.
#[derive(Clone, Debug)]
pub struct Job {
    pub machine: usize,
    pub kernel: &'static Kernel,
    pub size: u64,
    pub level: u8,
    /// Extra dspcc flags (`--extra-cflags`, `-fno-modulo-sched`).
    pub flags: Vec<String>,
    /// Names this build's executable apart from other builds of the same
    /// kernel, size and level with other flags (empty for the plain build).
    pub variant: &'static str,
}

/// Runs `f` on every item with `jobs` threads; results in item order (`None`
/// only if a worker thread died).
pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: &(dyn Fn(&T) -> R + Sync),
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                if let Ok(mut v) = results.lock() {
                    v[i] = Some(r);
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

fn output_of(cmd: &mut Command, what: &str) -> Result<std::process::Output, String> {
    cmd.output().map_err(|e| format!("{what}: cannot run: {e}"))
}

fn first_lines(bytes: &[u8], n: usize) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .take(n)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Builds `src` for the host (`host_cc`, [`HOST_FLAGS`] and `args`, linked
/// with libm) into `exe`, runs it and returns what it printed.
pub fn host_output(host_cc: &str, src: &Path, args: &[String], exe: &Path) -> Result<Vec<u8>, String> {
    if let Some(dir) = exe.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let out = output_of(
        Command::new(host_cc)
            .args(HOST_FLAGS)
            .args(args)
            .arg(src)
            .arg("-o")
            .arg(exe)
            .arg("-lm"),
        host_cc,
    )?;
    if !out.status.success() {
        return Err(format!("host build failed: {}", first_lines(&out.stderr, 5)));
    }
    let run = output_of(&mut Command::new(exe), &exe.display().to_string())?;
    if !run.status.success() {
        return Err(format!("host run exited with {}", run.status));
    }
    Ok(run.stdout)
}

/// Builds and runs the host reference of `kernel` at `size`.
pub fn host_ref(setup: &Setup, kernel: &'static Kernel, size: u64) -> HostRef {
    let exe = setup.work.join("host").join(format!("{}.{size}", kernel.name));
    let src = setup.kernels_dir.join(format!("{}.c", kernel.name));
    HostRef {
        kernel: kernel.name,
        size,
        output: host_output(&setup.host_cc, &src, &[format!("-DSIZE={size}")], &exe),
    }
}

/// Compiles `src` with `dspcc --isa=ISA ARGS... SRC -o EXE`; returns what
/// dspcc wrote on stderr (remarks, warnings).
pub fn dspcc_build(dspcc: &Path, isa: &str, args: &[String], src: &Path, exe: &Path) -> Result<String, String> {
    if let Some(dir) = exe.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let out = output_of(
        Command::new(dspcc)
            .arg(format!("--isa={isa}"))
            .args(args)
            .arg(src)
            .arg("-o")
            .arg(exe),
        &dspcc.display().to_string(),
    )?;
    if !out.status.success() {
        return Err(format!("dspcc failed: {}", first_lines(&out.stderr, 3)));
    }
    Ok(String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Compiles one job with dspcc for `machine` (named to dspcc as `isa`: a
/// shipped name or a `.isa` file); returns the executable.
pub fn compile(setup: &Setup, isa: &str, machine: &Machine, job: &Job) -> Result<PathBuf, String> {
    let dir = setup.work.join(&machine.name);
    let exe = dir.join(format!("{}.{}.O{}{}", job.kernel.name, job.size, job.level, job.variant));
    let src = setup.kernels_dir.join(format!("{}.c", job.kernel.name));
    let mut args = vec![format!("-O{}", job.level), format!("-DSIZE={}", job.size)];
    args.extend(job.flags.iter().cloned());
    dspcc_build(&setup.dspcc, isa, &args, &src, &exe)?;
    Ok(exe)
}

/// Compiles and runs one job.
pub fn run_job(setup: &Setup, isa: &str, machine: &Machine, job: &Job) -> Result<Run, String> {
    let exe = compile(setup, isa, machine, job)?;
    measure::run_kernel(machine, &exe, job.kernel, setup.max_cycles)
}

/// Loads the machines named by `specs` (shipped names or `.isa` files),
/// each with its spec (what dspcc's `--isa=` gets).
pub fn load_machines(specs: Vec<String>) -> Result<Vec<(String, Machine)>, String> {
    specs
        .into_iter()
        .map(|spec| Machine::load(&spec).map(|m| (spec, m)).map_err(|e| e.to_string()))
        .collect()
}

/// The directory of the running program (where dspcc is, next to it).
pub fn tool_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The repository-relative default places, from where this crate is.
pub fn default_kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_keeps_order() {
        let items: Vec<u32> = (0..50).collect();
        let out = parallel(&items, 3, &|&x| x * 2);
        assert_eq!(out, items.iter().map(|&x| Some(x * 2)).collect::<Vec<_>>());
        assert!(parallel(&[] as &[u32], 2, &|&x| x).is_empty());
    }
}

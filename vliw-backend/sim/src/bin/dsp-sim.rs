//! dsp-sim: runs a linked executable on its machine, cycle by cycle, hosting
//! it like qemu-user: `dsp-sim [OPTIONS] PROGRAM [ARGS...]` (everything
//! after PROGRAM is the program's), `--env`/`--host-env` for its
//! environment, files confined to `--root` (default: the current
//! directory; `--no-files` forbids them), cycle-derived time unless
//! `--host-time`.
//!
//! Exit status: the program's own (exit system call, 0..=255), 124 when
//! `--max-cycles` or `--timeout` is reached, 130 on SIGINT, 125 on a fault
//! (a stack overflow among them), a `--strict` hazard or a load error; all
//! but the first come with a `dsp-sim: error:` line on stderr saying where
//! the program was (a program that itself exits with 124 or 125 prints
//! none), and a stop by `--timeout` or SIGINT also prints the statistics so
//! far (a second SIGINT ends dsp-sim at once, and so does `--timeout` when
//! the program waits in a system call past it). The C library's buffered
//! output is written out before a fault's message.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};

use clap::Parser;
use dsp_sim::{Config, Outcome, Sim};
use isa_tablegen::Machine;

#[derive(Parser)]
#[command(name = "dsp-sim", about = "Cycle-accurate simulator of .isa-described VLIW+SIMD DSPs")]
struct Args {
    /// Machine description: a shipped name or a .isa file (default: the executable's machine).
    #[arg(long, value_name = "NAME|FILE")]
    isa: Option<String>,
    /// Report every hazard (early reads, busy units, write-port overuse, write order) as an error.
    #[arg(long)]
    strict: bool,
    /// Print statistics to stderr after the run.
    #[arg(long)]
    stats: bool,
    /// Write the statistics as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    stats_json: Option<std::path::PathBuf>,
    /// Every memory access at its instruction's latency: no cache misses, no memory stall cycles
    /// (the machine's data caches ignored).
    #[arg(long)]
    ideal_memory: bool,
    /// Print each bundle to stderr as it issues.
    #[arg(long)]
    trace: bool,
    /// Stop with exit status 124 after N cycles.
    #[arg(long, value_name = "N")]
    max_cycles: Option<u64>,
    /// Stop with exit status 124 after SECONDS of wall-clock time, printing where the program was and the statistics.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Add NAME=VALUE to the program's environment (repeatable; after --host-env's).
    #[arg(long, value_name = "NAME=VALUE")]
    env: Vec<String>,
    /// Pass the host's environment to the program.
    #[arg(long)]
    host_env: bool,
    /// The directory the program's files are confined to (default: the current directory).
    #[arg(long, value_name = "DIR")]
    root: Option<std::path::PathBuf>,
    /// Forbid file access (every path call fails with EACCES).
    #[arg(long, conflicts_with = "root")]
    no_files: bool,
    /// Real time (time, gettimeofday, CLOCK_REALTIME) from the host clock instead of the cycle count.
    #[arg(long)]
    host_time: bool,
    /// The executable.
    exe: std::path::PathBuf,
    /// The program's arguments (argv[1..]).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<std::ffi::OsString>,
}

/// Options of dsp-sim that take a separate value.
const VALUE_OPTIONS: &[&str] = &["--isa", "--stats-json", "--max-cycles", "--timeout", "--env", "--root"];

/// Splits the command line at PROGRAM: dsp-sim's own arguments (up to and
/// including PROGRAM) and the program's.
fn split_at_program(args: Vec<std::ffi::OsString>) -> (Vec<std::ffi::OsString>, Vec<std::ffi::OsString>) {
    let mut i = 1;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a == "-" {
            break;
        }
        if VALUE_OPTIONS.contains(&a.as_ref()) {
            i += 1;
        }
        i += 1;
    }
    let mut own = args;
    let rest = if i + 1 < own.len() { own.split_off(i + 1) } else { Vec::new() };
    (own, rest)
}

/// The program's argv and environment, from the options.
fn host_config(args: &Args, program_args: Vec<std::ffi::OsString>) -> Result<dsp_sim::HostConfig, String> {
    use std::os::unix::ffi::OsStrExt;
    let mut argv = vec![args.exe.as_os_str().as_bytes().to_vec()];
    argv.extend(program_args.iter().map(|a| a.as_bytes().to_vec()));
    let mut env: Vec<Vec<u8>> = Vec::new();
    let mut set = |kv: Vec<u8>| {
        let name_len = kv.iter().position(|&c| c == b'=').unwrap_or(kv.len());
        env.retain(|e| !(e.len() > name_len && e[..name_len] == kv[..name_len] && e[name_len] == b'='));
        env.push(kv);
    };
    if args.host_env {
        for (k, v) in std::env::vars_os() {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            set(kv);
        }
    }
    for e in &args.env {
        match e.split_once('=') {
            Some((name, _)) if !name.is_empty() => set(e.as_bytes().to_vec()),
            _ => return Err(format!("--env {e}: expected NAME=VALUE")),
        }
    }
    let root = if args.no_files { None } else { Some(args.root.clone().unwrap_or_else(|| ".".into())) };
    Ok(dsp_sim::HostConfig { argv, env, root, host_time: args.host_time })
}

const EXIT_FAULT: u8 = 125;
const EXIT_LIMIT: u8 = 124;
const EXIT_SIGINT: u8 = 130;

/// Set by SIGINT or the `--timeout` thread; the simulator looks at it every
/// few thousand cycles.
static STOP: AtomicU8 = AtomicU8::new(0);

/// Set when the run is over: the `--timeout` thread leaves the rest to main.
static RUN_OVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// How long a run stopped by `--timeout` may take to notice (it does within
/// milliseconds, unless the program waits in a system call such as a read
/// of standard input).
const TIMEOUT_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

extern "C" fn on_sigint(_: libc::c_int) {
    // A second SIGINT (the program blocked in a read, say) ends at once.
    if STOP.swap(dsp_sim::run::STOP_SIGINT, Ordering::Relaxed) != 0 {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(EXIT_SIGINT as libc::c_int) };
    }
}

/// SIGINT and `--timeout` stop the run through [`STOP`].
fn arm_stop(timeout: Option<f64>) -> Result<(), String> {
    // SAFETY: the handler only touches an atomic and calls _exit.
    unsafe {
        libc::signal(libc::SIGINT, on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t);
    }
    if let Some(t) = timeout {
        let d = std::time::Duration::try_from_secs_f64(t)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| format!("--timeout {t}: expected a positive number of seconds"))?;
        std::thread::spawn(move || {
            std::thread::sleep(d);
            let _ = STOP.compare_exchange(0, dsp_sim::run::STOP_TIMEOUT, Ordering::Relaxed, Ordering::Relaxed);
            std::thread::sleep(TIMEOUT_GRACE);
            if !RUN_OVER.load(Ordering::Relaxed) {
                eprintln!("dsp-sim: error: stopped: time limit reached while the program waited in a system call");
                std::process::exit(EXIT_LIMIT as i32);
            }
        });
    }
    Ok(())
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("dsp-sim: error: {}", isa_tablegen::text::shown(&msg.to_string()));
    ExitCode::from(EXIT_FAULT)
}

fn main() -> ExitCode {
    let (own, program_args) = split_at_program(std::env::args_os().collect());
    let args = Args::parse_from(own);
    let bytes = match std::fs::read(&args.exe) {
        Ok(b) => b,
        Err(e) => return fail(format!("{}: {e}", args.exe.display())),
    };
    let exe = match dsp_obj::read_executable(&bytes) {
        Ok(e) => e,
        Err(e) => return fail(format!("{}: {e}", args.exe.display())),
    };
    let machine = match &args.isa {
        Some(name) => match Machine::load(name) {
            Ok(m) => {
                if m.fingerprint != exe.machine.fingerprint {
                    eprintln!(
                        "dsp-sim: warning: {} was built for machine '{}' ({:016x}); running it on '{}' ({:016x}) as asked",
                        args.exe.display(),
                        exe.machine.name,
                        exe.machine.fingerprint,
                        m.name,
                        m.fingerprint
                    );
                }
                m
            }
            Err(e) => return fail(e),
        },
        None => match Machine::load(&exe.machine.name) {
            Ok(m) if m.fingerprint == exe.machine.fingerprint => m,
            Ok(m) => {
                return fail(format!(
                    "{}: built for machine '{}' with fingerprint {:016x}, but the shipped '{}' has {:016x} (rebuild it, or pass --isa FILE)",
                    args.exe.display(),
                    exe.machine.name,
                    exe.machine.fingerprint,
                    m.name,
                    m.fingerprint
                ))
            }
            Err(e) => return fail(format!("{}: machine '{}': {e} (pass --isa FILE)", args.exe.display(), exe.machine.name)),
        },
    };
    if let Err(e) = arm_stop(args.timeout) {
        return fail(e);
    }
    let config = Config {
        strict: args.strict,
        trace: args.trace,
        max_cycles: args.max_cycles,
        stop: Some(&STOP),
        ideal_memory: args.ideal_memory,
    };
    let mut sim = match Sim::new(&machine, &exe, config) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.exe.display())),
    };
    sim.set_stdin(Box::new(std::io::stdin()));
    sim.stream_output(true);
    if let Err(e) = host_config(&args, program_args).and_then(|c| sim.set_host(c)) {
        return fail(e);
    }
    if args.trace {
        sim.trace_out = Some(Box::new(std::io::BufWriter::new(std::io::stderr())));
    }
    let outcome = sim.run();
    RUN_OVER.store(true, Ordering::Relaxed);
    // Flush the trace before the program's own output and any message.
    if let Some(mut t) = sim.trace_out.take() {
        let _ = t.flush();
    }
    // The program's output went to stdout and stderr as it was written
    // (stream_output); flush what a fault left in the C library's buffers.
    let _ = std::io::stdout().flush();
    let stopped = matches!(outcome, Outcome::Stopped(_));
    let code = match outcome {
        Outcome::Exit(status) => ExitCode::from(status as u8),
        Outcome::Fault(f) => {
            eprintln!("dsp-sim: error: {}", isa_tablegen::text::shown(&f.to_string()));
            ExitCode::from(EXIT_FAULT)
        }
        Outcome::CycleLimit(f) => {
            eprintln!("dsp-sim: error: {}", isa_tablegen::text::shown(&f.to_string()));
            ExitCode::from(EXIT_LIMIT)
        }
        Outcome::Stopped(f) => {
            eprintln!("dsp-sim: error: {}", isa_tablegen::text::shown(&f.to_string()));
            ExitCode::from(if STOP.load(Ordering::Relaxed) == dsp_sim::run::STOP_TIMEOUT { EXIT_LIMIT } else { EXIT_SIGINT })
        }
        // dsp-sim sets no breakpoint.
        Outcome::Break(pc) => {
            eprintln!("dsp-sim: error: stopped at a breakpoint at pc {pc:#010x}");
            ExitCode::from(EXIT_FAULT)
        }
    };
    let stats = sim.stats();
    if args.stats || stopped {
        eprint!("{}", stats.render());
    }
    if let Some(path) = &args.stats_json {
        if let Err(e) = std::fs::write(path, stats.to_json()) {
            return fail(format!("{}: {e}", path.display()));
        }
    }
    code
}

//! dsp-sim: runs a linked executable on its machine, cycle by cycle.
//!
//! Exit status: the program's own (exit system call), 124 when `--max-cycles`
//! is exceeded, 125 on a fault, a `--strict` hazard or a load error.

use std::io::Write;
use std::process::ExitCode;

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
    /// Print each bundle to stderr as it issues.
    #[arg(long)]
    trace: bool,
    /// Stop with exit status 124 after N cycles.
    #[arg(long, value_name = "N")]
    max_cycles: Option<u64>,
    /// The executable.
    exe: std::path::PathBuf,
}

const EXIT_FAULT: u8 = 125;
const EXIT_LIMIT: u8 = 124;

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("dsp-sim: error: {msg}");
    ExitCode::from(EXIT_FAULT)
}

fn main() -> ExitCode {
    let args = Args::parse();
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
    let config = Config { strict: args.strict, trace: args.trace, max_cycles: args.max_cycles };
    let mut sim = match Sim::new(&machine, &exe, config) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.exe.display())),
    };
    sim.set_stdin(Box::new(std::io::stdin()));
    if args.trace {
        sim.trace_out = Some(Box::new(std::io::BufWriter::new(std::io::stderr())));
    }
    let outcome = sim.run();
    // Flush the trace before the program's own output and any message.
    if let Some(mut t) = sim.trace_out.take() {
        let _ = t.flush();
    }
    let _ = std::io::stdout().write_all(&sim.core.stdout);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(&sim.core.stderr);
    let code = match outcome {
        Outcome::Exit(status) => ExitCode::from(status as u8),
        Outcome::Fault(f) => {
            eprintln!("dsp-sim: error: {f}");
            ExitCode::from(EXIT_FAULT)
        }
        Outcome::CycleLimit(f) => {
            eprintln!("dsp-sim: error: {f}");
            ExitCode::from(EXIT_LIMIT)
        }
    };
    let stats = sim.stats();
    if args.stats {
        eprint!("{}", stats.render());
    }
    if let Some(path) = &args.stats_json {
        if let Err(e) = std::fs::write(path, stats.to_json()) {
            return fail(format!("{}: {e}", path.display()));
        }
    }
    code
}

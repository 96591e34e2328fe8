//! `dsp-llc [--isa NAME|FILE] [-O0|-O1|-O2|-O3] [-S] [-o OUT] [--print-mir]
//! [--stats] [--no-counted-loops] IN.ll|IN.bc`: LLVM IR to assembly (`-S`, or OUT ending in `.s`)
//! or to a relocatable object. Errors are printed one per line; exit status
//! 1 for errors in the input, 2 for usage errors.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use dsp_llc::{assemble_object, compile_module, read_module, stats_table, LlcOptions};
use inkwell::context::Context;
use isa_tablegen::Machine;

#[derive(Parser)]
#[command(name = "dsp-llc", about = "LLVM IR to VLIW DSP assembly or objects")]
struct Cli {
    /// Machine: a shipped name (ftm, ftm8, ftm32) or a path to a .isa file.
    #[arg(long, value_name = "NAME|FILE", default_value = isa_tablegen::builtin::DEFAULT)]
    isa: String,
    /// Optimization level: -O0 (no packing, no delay-slot filling) to -O3.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2", value_parser = clap::value_parser!(u8).range(0..=3))]
    opt: u8,
    /// Write assembly instead of an object.
    #[arg(short = 'S')]
    assembly: bool,
    /// Output file (default: the input's base name with .s or .o).
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,
    /// Print the machine IR after selection and after register allocation (to stderr).
    #[arg(long)]
    print_mir: bool,
    /// Keep loops' own exit tests at -O2 and above (no counter form; see
    /// dsp_llc::counted_loops).
    #[arg(long)]
    no_counted_loops: bool,
    /// Print bundle statistics per function (to stderr).
    #[arg(long)]
    stats: bool,
    /// LLVM IR input (.ll text or .bc bitcode).
    input: PathBuf,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msgs) => {
            for m in msgs {
                eprintln!("{m}");
            }
            ExitCode::from(1)
        }
    }
}

fn run(cli: &Cli) -> Result<(), Vec<String>> {
    let machine = Machine::load(&cli.isa).map_err(|e| vec![format!("dsp-llc: {e}")])?;
    let text_out = cli.assembly
        || cli
            .output
            .as_ref()
            .is_some_and(|o| o.extension().is_some_and(|e| e == "s"));
    let output = match &cli.output {
        Some(o) => o.clone(),
        None => {
            let stem = cli
                .input
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "a".into());
            PathBuf::from(format!("{stem}.{}", if text_out { "s" } else { "o" }))
        }
    };
    let ctx = Context::create();
    let module = read_module(&ctx, &cli.input).map_err(|e| vec![format!("dsp-llc: {e}")])?;
    let opts = LlcOptions {
        print_mir: cli.print_mir,
        comments: text_out,
        counted_loops: cli.opt >= 2 && !cli.no_counted_loops,
        ..LlcOptions::at_level(cli.opt)
    };
    let compiled = compile_module(&machine, &module, &opts, &mut std::io::stderr())?;
    if cli.stats {
        eprint!("{}", stats_table(&compiled.stats));
    }
    let bytes = if text_out {
        compiled.asm.into_bytes()
    } else {
        let name = cli.input.with_extension("s");
        assemble_object(&machine, &compiled.asm, &name.display().to_string())?
    };
    write(&output, &bytes).map_err(|e| vec![e])
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if path == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .write_all(bytes)
            .map_err(|e| format!("dsp-llc: stdout: {e}"));
    }
    std::fs::write(path, bytes).map_err(|e| format!("dsp-llc: {}: {e}", path.display()))
}

//! `dsp-objdump`: prints objects, executables and archives: section headers
//! (`-h`), symbols (`-t`), relocations (`-r`) and disassembly (`-d`) that
//! `dsp-as` reassembles to the same bytes.

use std::process::ExitCode;

use clap::Parser;
use dsp_mc::disasm::IoSink;
use dsp_mc::objdump::{dump_bytes, Options};

#[derive(Parser)]
#[command(
    name = "dsp-objdump",
    about = "Object file dumper and disassembler for .isa-described VLIW DSPs",
    disable_help_flag = true
)]
struct Cli {
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    help: Option<bool>,
    /// Disassemble every section (as assembly dsp-as accepts).
    #[arg(short = 'd')]
    disassemble: bool,
    /// Section headers.
    #[arg(short = 'h')]
    headers: bool,
    /// Symbol table.
    #[arg(short = 't')]
    symbols: bool,
    /// Relocations.
    #[arg(short = 'r')]
    relocs: bool,
    /// Machine to use instead of the one the file names (a name or a .isa path).
    #[arg(long, value_name = "NAME|FILE")]
    isa: Option<String>,
    /// Object, executable or archive.
    file: String,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    if !(cli.disassemble || cli.headers || cli.symbols || cli.relocs) {
        eprintln!("dsp-objdump: give at least one of -d, -h, -t, -r");
        return ExitCode::from(2);
    }
    let opts = Options {
        disassemble: cli.disassemble,
        headers: cli.headers,
        symbols: cli.symbols,
        relocs: cli.relocs,
        isa: cli.isa.clone(),
    };
    let data = match std::fs::read(&cli.file) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("dsp-objdump: error: {}: {e}", isa_tablegen::text::shown(&cli.file));
            return ExitCode::from(1);
        }
    };
    // The listing streams to stdout as it is made.
    let stdout = std::io::stdout();
    let mut buffered = std::io::BufWriter::new(stdout.lock());
    let mut sink = IoSink::new(&mut buffered);
    let result = dump_bytes(&cli.file, &data, &opts, &mut sink);
    let write_error = sink.error.take();
    let flushed = std::io::Write::flush(&mut buffered);
    if let Err(e) = result {
        eprintln!("dsp-objdump: error: {}", isa_tablegen::text::shown(&e));
        return ExitCode::from(1);
    }
    match write_error.map_or(flushed, Err) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(1),
        Err(e) => {
            eprintln!("dsp-objdump: error: writing the listing: {e}");
            ExitCode::from(1)
        }
    }
}

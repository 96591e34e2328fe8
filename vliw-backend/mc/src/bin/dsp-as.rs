//! `dsp-as`: assembles one source file into a relocatable object.
//!
//! `dsp-as [--isa NAME|FILE] [-o OUT] FILE.s` (`-` reads standard input).
//! Errors go to standard error as `FILE:LINE:COL: error: MESSAGE`; the exit
//! status is 1 for errors in the input, 2 for usage errors.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use isa_tablegen::text::decode_utf8;
use isa_tablegen::Machine;

#[derive(Parser)]
#[command(name = "dsp-as", about = "Assembler for .isa-described VLIW DSPs")]
struct Cli {
    /// Machine: a shipped name (ftm, ftm8, ftm32) or a path to a .isa file.
    #[arg(long, value_name = "NAME|FILE", default_value = isa_tablegen::builtin::DEFAULT)]
    isa: String,
    /// Output object (default: the input's base name with .o, in the current directory).
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<String>,
    /// Assembly source (`-` for standard input).
    input: String,
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
        Err(msg) => {
            eprintln!("{}", isa_tablegen::text::shown(&msg));
            ExitCode::from(1)
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    let machine = Machine::load(&cli.isa).map_err(|e| format!("dsp-as: {e}"))?;
    let (source, file_name) = if cli.input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("dsp-as: error: reading standard input: {e}"))?;
        let s = decode_utf8(bytes).map_err(|e| e.in_file("<stdin>"))?;
        (s, "<stdin>".to_string())
    } else {
        let bytes = std::fs::read(&cli.input).map_err(|e| format!("dsp-as: error: {}: {e}", cli.input))?;
        let s = decode_utf8(bytes).map_err(|e| e.in_file(&cli.input))?;
        (s, cli.input.clone())
    };
    let output = match &cli.output {
        Some(o) => o.clone(),
        None if cli.input == "-" => "a.o".to_string(),
        None => {
            let stem = Path::new(&cli.input).file_stem().map(|s| s.to_string_lossy().into_owned());
            format!("{}.o", stem.unwrap_or_else(|| "a".into()))
        }
    };
    let obj = dsp_mc::assemble(&machine, &source, &file_name).map_err(|errors| {
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    })?;
    let bytes = dsp_obj::write_object(&obj).map_err(|e| format!("dsp-as: {output}: {e}"))?;
    std::fs::write(&output, bytes).map_err(|e| format!("dsp-as: {output}: {e}"))?;
    Ok(())
}

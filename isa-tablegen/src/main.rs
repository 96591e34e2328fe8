//! `isa-tablegen`: checks `.isa` machine descriptions and writes their manuals.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use isa_tablegen::Machine;

#[derive(Parser)]
#[command(name = "isa-tablegen", version, about = "Check .isa machine descriptions and generate their reference manuals")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a description; errors are printed as FILE:LINE:COL: error: … (exit 2).
    Check {
        /// A .isa file, or the name of a shipped machine (ftm, ftm8, ftm32).
        file: String,
    },
    /// Write the Markdown ISA reference manual of a description.
    Doc {
        file: String,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// List the shipped machines.
    List,
}

fn load(file: &str) -> Result<Machine, ExitCode> {
    Machine::load(file).map_err(|d| {
        eprintln!("{d}");
        ExitCode::from(2)
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { file } => match load(&file) {
            Ok(m) => {
                println!(
                    "{file}: ok: machine '{}', {} register files, {} units, {} slots, {} instructions",
                    m.name,
                    m.regfiles.len(),
                    m.units.len(),
                    m.slots.len(),
                    m.instrs.len()
                );
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Command::Doc { file, output } => match load(&file) {
            Ok(m) => {
                let text = isa_tablegen::doc::manual(&m);
                match output {
                    Some(path) => {
                        if let Err(e) = std::fs::write(&path, text) {
                            eprintln!("isa-tablegen: error: cannot write {}: {e}", path.display());
                            return ExitCode::from(1);
                        }
                    }
                    None => print!("{text}"),
                }
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Command::List => {
            for (name, file, _) in isa_tablegen::builtin::MACHINES {
                println!("{name}\t{file}");
            }
            ExitCode::SUCCESS
        }
    }
}

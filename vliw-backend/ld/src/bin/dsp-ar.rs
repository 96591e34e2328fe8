//! `dsp-ar`: the archiver (POSIX/GNU operations and modifiers; see
//! `dsp_ld::ar`). Exit status: 0 ok, 1 errors, 2 usage errors.

use std::process::ExitCode;

use dsp_ld::ar;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{}", ar::USAGE);
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "--version" || a == "-V") {
        println!("dsp-ar (dsp toolchain) {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let result = ar::parse(&args).and_then(|cmd| ar::run(&cmd, &mut std::io::stdout().lock(), &mut std::io::stderr()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dsp-ar: error: {}", isa_tablegen::text::shown(&e.message));
            if e.status == 2 {
                eprintln!("{}", ar::USAGE);
            }
            ExitCode::from(e.status)
        }
    }
}

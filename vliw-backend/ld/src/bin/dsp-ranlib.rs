//! `dsp-ranlib ARCHIVE...`: writes each archive's symbol index (`dsp-ar s`).
//! Exit status: 0 ok, 1 errors, 2 usage errors.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--version" || a == "-V") {
        println!("dsp-ranlib (dsp toolchain) {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    match dsp_ld::ar::ranlib(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dsp-ranlib: error: {}", isa_tablegen::text::shown(&e.message));
            ExitCode::from(e.status)
        }
    }
}

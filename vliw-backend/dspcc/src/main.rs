//! `dspcc`: the C compiler driver (see the library's documentation and README.md).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(dspcc::main_with_args(&args));
}

//! dspcc: the C compiler driver of the toolchain, with clang's command-line
//! conventions. It runs clang-19 (front end and LLVM middle end, targeting
//! the `.isa`'s lane count, with our pass plugin), `dsp-llc` (the backend),
//! `dsp-as` and `dsp-ld` with the runtime (`crt0.o`, `libc.a`, `libm.a`).
//!
//! Modules: [`args`] (parsing), [`tools`] (where things are, what the
//! machine means for clang), [`plan`] (the commands), [`exec`] (running them),
//! [`child`] (tools started so that they end when dspcc does).

pub mod args;
pub mod child;
pub mod exec;
pub mod help;
pub mod plan;
pub mod tools;

pub use exec::main_with_args;

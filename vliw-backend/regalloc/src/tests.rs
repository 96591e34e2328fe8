//! Allocation tests on every shipped machine: hand-built MIR (instructions
//! found by semantics, never by mnemonic) is allocated, verified, checked by
//! the independent checker, and run before and after allocation in the
//! test interpreter, which must give the same results.

#[allow(dead_code)]
mod builder;
mod clang;
mod directed;
mod fixed;
mod fuzz;
mod random;

//! dsp-sim: a cycle-accurate simulator of VLIW+SIMD machines described by
//! `.isa` files.
//!
//! [`Sim::new`] predecodes an [`dsp_obj::Executable`] for a
//! [`isa_tablegen::Machine`]; [`Sim::run`] runs it bundle by bundle with exact
//! latencies, delay slots, guards, unit occupancy and (optionally) the
//! `--strict` hazard checks; [`Sim::stats`] reports what happened.

pub mod alu;
pub mod build;
pub mod cache;
pub mod confine;
pub mod errno;
pub mod decode;
pub mod exec;
pub mod host;
pub mod memsys;
pub mod run;
pub mod stack;
pub mod state;
pub mod stats;
pub mod symbols;
pub mod syscall;
pub mod trace;

pub use host::HostConfig;
pub use run::{Config, Fault, Outcome, Sim};
pub use stats::Stats;

#[cfg(test)]
mod testutil;
#[cfg(test)]
mod sim_tests;
#[cfg(test)]
mod timing_tests;
#[cfg(test)]
mod memsys_tests;
#[cfg(test)]
mod fault_tests;
#[cfg(test)]
mod stack_tests;

//! Instruction selection by equality saturation (seed 004): the vector
//! DSL ([`lang`], with its interpreter [`eval`]), the machine as the DSL
//! sees it ([`target`]), rewrite rules derived from the `.isa` ([`rules`]),
//! lane shuffles ([`shuffle`]), costs from its instructions ([`cost`]), bounded saturation
//! ([`saturate`]), greedy or optimal extraction ([`extract`]), tree-height reduction of
//! integer sums ([`rebalance`]) and the interleave factor a step's
//! throughput asks for ([`throughput`]).
//!
//! This crate knows nothing of LLVM: the pass in `opt-passes` lifts loop
//! bodies into the DSL and lowers the extracted programs back to IR.

pub mod cost;
pub mod eval;
pub mod extract;
pub mod lang;
pub mod rebalance;
pub mod rules;
pub mod saturate;
pub mod shuffle;
pub mod target;
pub mod throughput;

#[cfg(test)]
mod tests;

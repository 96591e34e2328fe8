//! dsp-modsched: modulo scheduling of a loop's dependence graph over an
//! `.isa` machine. It knows nothing of machine IR: the pipeliner
//! (`dsp-pipeliner`) builds a [`graph::LoopGraph`] from a loop and turns the
//! [`schedule::Schedule`] it gets back into prologue, kernel and epilogue.
//!
//! - [`graph`]: nodes, edges ⟨delay, distance⟩ (seed 000 §4.1);
//! - [`mrt`]: the modulo reservation table, asking the `.isa`;
//! - [`schedule`]: a schedule and its independent check;
//! - [`mii`]: ResMII (exact, over units, slots and ports), RecMII (exact) and MII;
//! - [`analysis`]: ASAP, ALAP, mobility, depth and height (seed 000 §4.1);
//! - [`ims`]: Rau's iterative modulo scheduling (reference heuristic);
//! - [`ilp`]: the optimal modulo scheduler (integer program, CBC).

pub mod analysis;
pub mod graph;
pub mod ilp;
pub mod ims;
pub mod mii;
pub mod mrt;
pub mod schedule;

pub use graph::{DepKind, Edge, LoopGraph, Node, NodeId, PinnedRow};
pub use mii::MiiReport;
pub use mrt::Mrt;
pub use schedule::{verify, Attempt, Outcome, Schedule, ScheduleError, Scheduler};

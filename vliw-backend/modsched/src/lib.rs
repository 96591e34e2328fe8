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
//! - [`order`]: SMS's partial order and node ordering (§4.2, §6.2);
//! - [`sms`]: SMS placement (§4.3), II+1 on failure, symmetric retry;
//! - [`regs`]: lifetimes, MaxLive and kernel copies of a schedule;
//! - [`ims`]: Rau's iterative modulo scheduling (reference heuristic);
//! - [`ilp`]: the optimal modulo scheduler (integer program, CBC);
//! - [`work`]: compile-time budgets in deterministic work units.

pub mod analysis;
pub mod flat;
pub mod graph;
pub mod ilp;
pub mod ims;
pub mod isolate;
pub mod mii;
pub mod mrt;
pub mod order;
pub mod polish;
pub mod regs;
pub mod schedule;
pub mod sms;
pub mod work;

pub use graph::{DepKind, Edge, LoopGraph, Node, NodeId, PinnedRow};
pub use mii::MiiReport;
pub use mrt::Mrt;
pub use regs::Pressure;
pub use sms::SmsOptions;
pub use work::Work;
pub use schedule::{verify, Attempt, Outcome, Schedule, ScheduleError, Scheduler};

/// Machines shared by the unit tests.
#[cfg(test)]
pub(crate) mod test_machines {
    use isa_tablegen::Machine;

    /// isa-tablegen's small test machine (tests/good/tiny.isa).
    pub fn tiny() -> Machine {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../isa-tablegen/tests/good/tiny.isa");
        Machine::load(path).expect("tiny.isa")
    }
}

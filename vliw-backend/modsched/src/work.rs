//! Compile-time budgets of the modulo schedulers (our addition; the seeds
//! do not bound scheduling time). Work is counted in deterministic units,
//! never wall-clock time, so that a build schedules the same loops the same
//! way on any machine and under any load:
//!
//! - one unit per query of the modulo reservation table ([`crate::mrt::Mrt::work`]:
//!   a row placement asked of the `.isa`, with the rows a non-pipelined
//!   operation holds), which is where SMS's placement spends its time;
//! - one unit per [`POLISH_EVALUATIONS_PER_UNIT`] kernel-row updates of
//!   lifetime polishing ([`crate::polish`]), which spends its time
//!   re-scoring candidate moves.
//!
//! Calibration: over the loops of the differential corpus and the bench
//! kernels on `ftm` (their dependence graphs replayed through SMS and
//! polishing, 2-core development machine), a unit took 0.36 µs of CPU time
//! on average: a million units are about a third of a second. A [`Work`]
//! carries what has been spent and the limit; a scheduler that reaches the
//! limit stops and says so.

/// Kernel-row updates of lifetime polishing that count as one unit of work.
pub const POLISH_EVALUATIONS_PER_UNIT: u64 = 8;

/// Work spent and the most that may be spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    used: u64,
    limit: u64,
}

impl Default for Work {
    fn default() -> Self {
        Work::unlimited()
    }
}

impl Work {
    /// No limit.
    pub fn unlimited() -> Work {
        Work { used: 0, limit: u64::MAX }
    }

    /// At most `limit` units.
    pub fn limited(limit: u64) -> Work {
        Work { used: 0, limit }
    }

    /// Units spent.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Units that may still be spent.
    pub fn left(&self) -> u64 {
        self.limit.saturating_sub(self.used)
    }

    /// Whether the limit is reached.
    pub fn exhausted(&self) -> bool {
        self.used >= self.limit
    }

    /// Counts `units` as spent.
    pub fn spend(&mut self, units: u64) {
        self.used = self.used.saturating_add(units);
    }
}

/// The reason a scheduler gives when its budget ran out.
pub const EXHAUSTED: &str = "compile-time budget exhausted";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending() {
        let mut w = Work::limited(10);
        assert!(!w.exhausted());
        w.spend(4);
        assert_eq!((w.used(), w.left()), (4, 6));
        w.spend(7);
        assert!(w.exhausted());
        assert_eq!(w.left(), 0);
        let mut u = Work::unlimited();
        u.spend(u64::MAX);
        assert!(u.exhausted());
        assert_eq!(Work::default(), Work::unlimited());
    }
}

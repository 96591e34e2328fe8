//! A modulo schedule and its independent check.
//!
//! `time[n]` is the issue cycle of node `n` in the flat schedule of one
//! iteration (cycle 0 = the first cycle of stage 0); the row in the modulo
//! reservation table is `time mod II` and the stage `time div II`. The check
//! is independent of every scheduler: each edge's inequality
//! `t(v) + distance·II ≥ t(u) + delay`, each pinned row, and the resources of
//! every row of the kernel (through [`crate::mrt::Mrt`], which asks the
//! `.isa` as the packer and simulator do).

use std::fmt;

use isa_tablegen::Machine;

use crate::graph::LoopGraph;
use crate::mrt::Mrt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub ii: u32,
    /// Issue cycle of every node, all ≥ 0.
    pub time: Vec<u32>,
}

impl Schedule {
    /// Number of stages (`max time div II + 1`).
    pub fn stages(&self) -> u32 {
        self.time.iter().map(|t| t / self.ii).max().map_or(1, |s| s + 1)
    }
    pub fn row(&self, n: usize) -> u32 {
        self.time[n] % self.ii
    }
    pub fn stage(&self, n: usize) -> u32 {
        self.time[n] / self.ii
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    Dependence { from: String, to: String, delay: i32, distance: u32, t_from: u32, t_to: u32 },
    Pinned { node: String, row: u32, wanted: Option<u32> },
    Resources { row: u32, message: String },
    Size { nodes: usize, times: usize },
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::Dependence { from, to, delay, distance, t_from, t_to } => write!(
                f,
                "dependence {from} -> {to} <{delay},{distance}> violated: {from} at {t_from}, {to} at {t_to}"
            ),
            ScheduleError::Pinned { node, row, wanted } => {
                write!(f, "{node} is in row {row}, pinned to {wanted:?}")
            }
            ScheduleError::Resources { row, message } => write!(f, "row {row}: {message}"),
            ScheduleError::Size { nodes, times } => write!(f, "{times} times for {nodes} nodes"),
        }
    }
}

impl std::error::Error for ScheduleError {}

/// Checks a schedule against every dependence, pinned row and resource.
pub fn verify(m: &Machine, g: &LoopGraph, s: &Schedule) -> Result<(), ScheduleError> {
    if s.time.len() != g.nodes.len() {
        return Err(ScheduleError::Size { nodes: g.nodes.len(), times: s.time.len() });
    }
    let ii = s.ii as i64;
    for e in &g.edges {
        let (tu, tv) = (s.time[e.from] as i64, s.time[e.to] as i64);
        if tv + e.distance as i64 * ii < tu + e.delay as i64 {
            return Err(ScheduleError::Dependence {
                from: g.nodes[e.from].name.clone(),
                to: g.nodes[e.to].name.clone(),
                delay: e.delay,
                distance: e.distance,
                t_from: s.time[e.from],
                t_to: s.time[e.to],
            });
        }
    }
    for (n, node) in g.nodes.iter().enumerate() {
        if let Some(p) = node.pinned_row {
            if p.row(s.ii) != Some(s.row(n)) {
                return Err(ScheduleError::Pinned { node: node.name.clone(), row: s.row(n), wanted: p.row(s.ii) });
            }
        }
    }
    let mut mrt = Mrt::new(m, g, s.ii);
    let mut order: Vec<usize> = (0..g.nodes.len()).collect();
    order.sort_by_key(|&n| (s.time[n], n));
    for n in order {
        if let Err(message) = mrt.try_place(n, s.time[n]) {
            return Err(ScheduleError::Resources { row: s.row(n), message });
        }
    }
    Ok(())
}

/// One II a scheduler tried and why it failed there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub ii: u32,
    /// Why no schedule was found at this II (e.g. "no slot for n7 (fmul)
    /// in rows 3..8: 1 units 'vmac'").
    pub reason: String,
}

/// What a modulo scheduler returns (every scheduler: sms, ims, ilp).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub schedule: Schedule,
    /// The IIs that failed before `schedule.ii`, in order.
    pub attempts: Vec<Attempt>,
    /// The node order the scheduler used (SMS: its final order; others:
    /// their priority order), for reports and tests.
    pub order: Vec<usize>,
    /// Free-form notes for the report ("symmetric second attempt reached
    /// II=4", "time cap of 10 s reached: best found, not proven optimal").
    pub notes: Vec<String>,
    /// The ILP scheduler stopped at its time cap (result not proven optimal).
    pub capped: bool,
}

/// Which scheduler (`--modulo-scheduler=sms|ims|ilp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheduler {
    Sms,
    Ims,
    Ilp,
}

impl Scheduler {
    pub fn parse(s: &str) -> Option<Scheduler> {
        match s {
            "sms" => Some(Scheduler::Sms),
            "ims" => Some(Scheduler::Ims),
            "ilp" => Some(Scheduler::Ilp),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Scheduler::Sms => "sms",
            Scheduler::Ims => "ims",
            Scheduler::Ilp => "ilp",
        }
    }
}

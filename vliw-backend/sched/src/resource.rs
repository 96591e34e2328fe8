//! Resource tracking for bundle packing: whether an operation fits a bundle.
//!
//! A bundle is legal when `Machine::check_bundle` accepts it (operation count,
//! slots and unit instances, read ports, one writer per register per cycle)
//! and, across cycles, when
//! - the unit instances still occupied by non-pipelined operations
//!   (`busy > 1`) issued earlier are left alone: placement is computed as the
//!   simulator computes it, `Machine::place_bundle` with those instances
//!   taken out, bundle after bundle, so both agree on which instance each
//!   operation occupies;
//! - no register file receives more results in one cycle than its write
//!   ports, counting results of every earlier bundle that land in that cycle.
//!
//! [`Tracker`] is the incremental form the list scheduler uses (bundles are
//! closed in cycle order); [`replay`] checks a finished sequence of bundles
//! from scratch.

use isa_tablegen::{Guard, InstrId, Machine, Op};

use crate::lower::{LOp, LOperand};

/// The operation as `isa_tablegen` sees it (symbols and labels as 0).
pub fn isa_op(op: &LOp) -> Op {
    Op {
        instr: op.instr,
        guard: op.guard.map(|(r, negate)| Guard {
            reg: r.index,
            negate,
        }),
        args: op
            .operands
            .iter()
            .map(|o| match o {
                LOperand::Reg(r) => r.index as i64,
                LOperand::Imm(v) => *v,
                LOperand::Sym { .. } | LOperand::Label(_) => 0,
            })
            .collect(),
    }
}

/// Resource state over the cycles of one region, from cycle 0.
pub struct Tracker<'m> {
    m: &'m Machine,
    /// Per unit, per instance: first cycle at which it is free again.
    free_at: Vec<Vec<u64>>,
    /// Results landing per cycle and register file.
    landing: Vec<Vec<u32>>,
}

impl<'m> Tracker<'m> {
    pub fn new(m: &'m Machine) -> Tracker<'m> {
        Tracker {
            m,
            free_at: m.units.iter().map(|u| vec![0; u.count as usize]).collect(),
            landing: Vec::new(),
        }
    }

    fn ports_ok(&self, cycle: u64, ops: &[&LOp]) -> bool {
        let nfiles = self.m.regfiles.len();
        let mut extra: Vec<(u64, usize, u32)> = Vec::new();
        for op in ops {
            let at = cycle + self.m.instr(op.instr).latency as u64;
            for f in &op.port_writes {
                let f = f.0 as usize;
                match extra.iter_mut().find(|e| e.0 == at && e.1 == f) {
                    Some(e) => e.2 += 1,
                    None => extra.push((at, f, 1)),
                }
            }
        }
        extra.iter().all(|&(at, f, n)| {
            let have = self.landing.get(at as usize).map_or(0, |v| v[f]);
            debug_assert!(f < nfiles);
            have + n <= self.m.regfiles[f].write_ports
        })
    }

    /// Unit placement of a bundle issued at `cycle`, with the instances
    /// still busy taken out (the simulator's rule).
    fn place(&self, cycle: u64, instrs: &[InstrId]) -> Option<Vec<isa_tablegen::Placement>> {
        let free_at = &self.free_at;
        self.m
            .place_bundle(instrs, &|u, i| free_at[u.0 as usize][i as usize] > cycle)
            .ok()
    }

    /// Whether `ops` (already in bundle order) may form the bundle issued at
    /// `cycle`, given every bundle committed so far.
    pub fn fits(&self, cycle: u64, ops: &[&LOp]) -> Result<(), String> {
        if ops.is_empty() {
            return Ok(());
        }
        let isa: Vec<Op> = ops.iter().map(|o| isa_op(o)).collect();
        self.m.check_bundle(&isa).map_err(|e| e.to_string())?;
        let instrs: Vec<InstrId> = ops.iter().map(|o| o.instr).collect();
        if self.place(cycle, &instrs).is_none() {
            return Err("a unit it needs is still busy with a non-pipelined operation".into());
        }
        if !self.ports_ok(cycle, ops) {
            return Err("too many results land in one register file in one cycle".into());
        }
        Ok(())
    }

    /// Commits the bundle issued at `cycle` (after [`Tracker::fits`] accepted it).
    pub fn commit(&mut self, cycle: u64, ops: &[&LOp]) {
        if ops.is_empty() {
            return;
        }
        let instrs: Vec<InstrId> = ops.iter().map(|o| o.instr).collect();
        if let Some(placement) = self.place(cycle, &instrs) {
            for (p, id) in placement.iter().zip(&instrs) {
                let busy = self.m.instr(*id).busy.max(1) as u64;
                if busy > 1 {
                    self.free_at[p.unit.0 as usize][p.instance as usize] = cycle + busy;
                }
            }
        }
        let nfiles = self.m.regfiles.len();
        for op in ops {
            let at = (cycle + self.m.instr(op.instr).latency as u64) as usize;
            if self.landing.len() <= at {
                self.landing.resize(at + 1, vec![0; nfiles]);
            }
            for f in &op.port_writes {
                self.landing[at][f.0 as usize] += 1;
            }
        }
    }
}

/// Checks a finished sequence of bundles (each in bundle order), as issued
/// from cycle 0 with nothing busy and nothing pending: Err(cycle, reason).
pub fn replay(m: &Machine, bundles: &[Vec<&LOp>]) -> Result<(), (usize, String)> {
    let mut t = Tracker::new(m);
    for (c, b) in bundles.iter().enumerate() {
        t.fits(c as u64, b).map_err(|e| (c, e))?;
        t.commit(c as u64, b);
    }
    Ok(())
}

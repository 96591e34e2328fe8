//! Bundle legality: placing a bundle's operations onto issue slots and unit
//! instances, and the static rules a bundle must obey (operation count,
//! register-file ports, one writer per register per cycle).
//!
//! The assembler rejects bundles with these rules, the simulator applies the
//! same placement at issue (with units still busy from non-pipelined
//! operations taken out), and the compiler's bundle packer asks the same
//! questions. Placement is deterministic: operations are taken in order and
//! each gets the first free slot, then the first free unit instance.

use std::fmt;

use crate::encoding::Op;
use crate::model::{InstrId, Machine, OperandKind, RegFileId, SlotId, UnitId};

/// Where one operation of a bundle executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub slot: SlotId,
    pub unit: UnitId,
    /// Which of the unit's `count` instances.
    pub instance: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleError {
    Empty,
    TooManyOps { ops: usize, max: u32 },
    /// No slot and unit assignment exists; `op` is the first operation that
    /// could not be placed in the deepest attempt.
    NoUnit { op: usize, mnemonic: String, units: String },
    ReadPorts { file: String, used: u32, max: u32 },
    WritePorts { file: String, latency: u32, used: u32, max: u32 },
    SameDest { first: usize, second: usize, reg: String },
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleError::Empty => write!(f, "empty bundle"),
            BundleError::TooManyOps { ops, max } => {
                write!(f, "bundle has {ops} operations; the machine issues at most {max}")
            }
            BundleError::NoUnit { op, mnemonic, units } => write!(
                f,
                "no free slot and unit for operation {} '{mnemonic}' (runs on {units}): too many operations for its units",
                op + 1
            ),
            BundleError::ReadPorts { file, used, max } => write!(
                f,
                "bundle reads {used} registers of file '{file}'; it has {max} read ports"
            ),
            BundleError::WritePorts { file, latency, used, max } => write!(
                f,
                "{used} results land in file '{file}' in the same cycle (latency {latency}); it has {max} write ports"
            ),
            BundleError::SameDest { first, second, reg } => write!(
                f,
                "operations {} and {} both write {reg} in the same cycle",
                first + 1,
                second + 1
            ),
        }
    }
}
impl std::error::Error for BundleError {}

/// Why [`Machine::place_bundle_in`] found no placement (cheap to make;
/// [`Machine::bundle_error`] gives the full error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceFail {
    Empty,
    TooManyOps,
    /// `op`: the first operation that could not be placed in the deepest
    /// attempt.
    NoUnit { op: usize },
}

/// Buffers [`Machine::place_bundle_in`] reuses from call to call.
#[derive(Clone, Debug, Default)]
pub struct PlaceScratch {
    slot_used: Vec<bool>,
    used: Used,
    out: Vec<Placement>,
}

/// Unit instances taken in a bundle being placed.
#[derive(Clone, Debug, Default)]
struct Used {
    base: Vec<usize>,
    flags: Vec<bool>,
}

impl Machine {
    /// Places the operations of a bundle on slots and unit instances.
    /// `busy(unit, instance)` says which instances are taken (for example by
    /// a non-pipelined operation issued earlier).
    pub fn place_bundle(
        &self,
        instrs: &[InstrId],
        busy: &dyn Fn(UnitId, u32) -> bool,
    ) -> Result<Vec<Placement>, BundleError> {
        let mut scratch = PlaceScratch::default();
        match self.place_bundle_in(instrs, busy, &mut scratch) {
            Ok(p) => Ok(p.to_vec()),
            Err(e) => Err(self.bundle_error(instrs, e)),
        }
    }

    /// [`Machine::place_bundle`] in reusable buffers, for searches that ask
    /// many times (the modulo reservation table): no allocation once the
    /// buffers have grown, and the reason of a failure as a [`PlaceFail`]
    /// ([`Machine::bundle_error`] turns it into the full error).
    pub fn place_bundle_in<'s>(
        &self,
        instrs: &[InstrId],
        busy: &dyn Fn(UnitId, u32) -> bool,
        scratch: &'s mut PlaceScratch,
    ) -> Result<&'s [Placement], PlaceFail> {
        if instrs.is_empty() {
            return Err(PlaceFail::Empty);
        }
        if instrs.len() > self.bundle.max_ops as usize {
            return Err(PlaceFail::TooManyOps);
        }
        // Slots and unit instances taken so far, as flat flags (unit `u`'s
        // instance `k` at `base[u] + k`).
        let PlaceScratch { slot_used, used, out } = scratch;
        slot_used.clear();
        slot_used.resize(self.slots.len(), false);
        if used.base.len() != self.units.len() {
            used.base.clear();
            let mut total = 0usize;
            for u in &self.units {
                used.base.push(total);
                total += u.count as usize;
            }
            used.flags.resize(total, false);
        }
        used.flags.iter_mut().for_each(|f| *f = false);
        out.clear();
        let mut deepest = 0;
        if self.place_from(instrs, 0, busy, slot_used, used, out, &mut deepest) {
            Ok(out)
        } else {
            Err(PlaceFail::NoUnit { op: deepest })
        }
    }

    /// The full error of a failed [`Machine::place_bundle_in`].
    pub fn bundle_error(&self, instrs: &[InstrId], e: PlaceFail) -> BundleError {
        match e {
            PlaceFail::Empty => BundleError::Empty,
            PlaceFail::TooManyOps => BundleError::TooManyOps { ops: instrs.len(), max: self.bundle.max_ops },
            PlaceFail::NoUnit { op } => {
                let instr = self.instr(instrs[op]);
                let units: Vec<&str> = instr.units.iter().map(|&u| self.unit(u).name.as_str()).collect();
                BundleError::NoUnit { op, mnemonic: instr.mnemonic.clone(), units: units.join("|") }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn place_from(
        &self,
        instrs: &[InstrId],
        i: usize,
        busy: &dyn Fn(UnitId, u32) -> bool,
        slot_used: &mut [bool],
        inst_used: &mut Used,
        out: &mut Vec<Placement>,
        deepest: &mut usize,
    ) -> bool {
        if i == instrs.len() {
            return true;
        }
        *deepest = (*deepest).max(i);
        let instr = self.instr(instrs[i]);
        for (s, slot) in self.slots.iter().enumerate() {
            if slot_used[s] {
                continue;
            }
            for &unit in &instr.units {
                if !slot.feeds.contains(&unit) {
                    continue;
                }
                for k in 0..self.unit(unit).count {
                    let at = inst_used.base[unit.0 as usize] + k as usize;
                    if inst_used.flags[at] || busy(unit, k) {
                        continue;
                    }
                    slot_used[s] = true;
                    inst_used.flags[at] = true;
                    out.push(Placement { slot: SlotId(s as u16), unit, instance: k });
                    if self.place_from(instrs, i + 1, busy, slot_used, inst_used, out, deepest) {
                        return true;
                    }
                    out.pop();
                    slot_used[s] = false;
                    inst_used.flags[at] = false;
                    // Instances of one unit are interchangeable: trying the
                    // next one cannot succeed where this one failed.
                    break;
                }
            }
        }
        false
    }

    /// Checks every static rule of a bundle and returns its placement.
    pub fn check_bundle(&self, ops: &[Op]) -> Result<Vec<Placement>, BundleError> {
        let instrs: Vec<InstrId> = ops.iter().map(|o| o.instr).collect();
        let placement = self.place_bundle(&instrs, &|_, _| false)?;
        let mut reads = vec![0u32; self.regfiles.len()];
        let guard_file = self.encoding.guard.as_ref().map(|g| g.file);
        for op in ops {
            let instr = self.instr(op.instr);
            for src in instr.sem.sources() {
                if let OperandKind::Reg(file) = instr.operands[src].kind {
                    let reg = crate::model::Reg { file, index: op.args[src] as u16 };
                    if self.special(reg).is_none() {
                        reads[file.0 as usize] += 1;
                    }
                }
            }
            if let (Some(_), Some(file)) = (op.guard, guard_file) {
                reads[file.0 as usize] += 1;
            }
        }
        for (f, &used) in reads.iter().enumerate() {
            let file = &self.regfiles[f];
            if used > file.read_ports {
                return Err(BundleError::ReadPorts { file: file.name.clone(), used, max: file.read_ports });
            }
        }
        // Results that land in the same cycle: same file, same latency.
        let dests: Vec<Option<(RegFileId, u16, u32)>> = ops
            .iter()
            .map(|op| {
                let instr = self.instr(op.instr);
                let d = instr.sem.dst?.0;
                match instr.operands[d].kind {
                    OperandKind::Reg(file) => Some((file, op.args[d] as u16, instr.latency)),
                    _ => None,
                }
            })
            .collect();
        for (i, a) in dests.iter().enumerate() {
            let Some((file, index, lat)) = *a else { continue };
            let same_cycle =
                dests.iter().filter(|b| matches!(b, Some((f, _, l)) if *f == file && *l == lat)).count();
            let rf = self.regfile(file);
            if same_cycle as u32 > rf.write_ports {
                return Err(BundleError::WritePorts {
                    file: rf.name.clone(),
                    latency: lat,
                    used: same_cycle as u32,
                    max: rf.write_ports,
                });
            }
            for (j, b) in dests.iter().enumerate().skip(i + 1) {
                let both_guarded = ops[i].guard.is_some() && ops[j].guard.is_some();
                if *b == Some((file, index, lat)) && !both_guarded {
                    let reg = crate::model::Reg { file, index };
                    if self.special(reg).is_none() {
                        return Err(BundleError::SameDest { first: i, second: j, reg: self.reg_name(reg) });
                    }
                }
            }
        }
        Ok(placement)
    }
}

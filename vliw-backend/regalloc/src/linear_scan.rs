//! Linear scan register allocation over live intervals with holes, one pass
//! over all register files at once (each interval only competes for the
//! registers of its own file): Poletto and Sarkar, "Linear Scan Register
//! Allocation" (TOPLAS 1999), with the active/inactive interval sets of
//! Traub, Holloway and Smith's second-chance binpacking (PLDI 1998) and
//! Wimmer and Mössenböck (VEE 2005, §5) so that intervals fill each other's
//! lifetime holes and fixed intervals (argument and result registers, call
//! clobbers) block exactly the positions where physical registers are busy.
//!
//! Intervals are visited by increasing start. A register is free for the
//! current interval if no fixed, active or inactive interval on it
//! intersects it. The active and inactive intervals of a register are kept
//! as one ordered map of their ranges (`Occupancy`, as LLVM's
//! `LiveIntervalUnion`), so that the test costs a lookup per range of the
//! current interval, however many intervals with lifetime holes are
//! pending (a function of thousands of blocks has thousands: phi copies
//! in split edges numbered at its end); copy partners' registers are tried first (coalescing by
//! preference), then the file's allocation order (caller-saved before
//! callee-saved). When no register is free, the interval or the cheapest set
//! of intervals occupying one register is spilled, by spill weight (use
//! frequency over length; reload temporaries and the values of blocks with
//! a fixed schedule are unspillable); the caller
//! inserts spill code and runs the allocation again.

use std::collections::BTreeMap;

use dsp_mir::{Function, PReg, Reg, VReg};

use crate::intervals::{Interval, Intervals};
use crate::target::{RegKeys, Target};

/// Allocation failed: no register of its file is left for a virtual
/// register that may not be spilled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub vreg: VReg,
    /// Where its interval starts.
    pub pos: u32,
    pub message: String,
}

pub struct ScanResult {
    /// Register of every virtual register that got one.
    pub assign: Vec<Option<PReg>>,
    /// Virtual registers to spill (then allocate again).
    pub spilled: Vec<VReg>,
}

/// The intervals assigned to one register: range start → (end, virtual
/// register); the ranges are disjoint.
#[derive(Default)]
struct Occupancy {
    segs: BTreeMap<u32, (u32, usize)>,
}

impl Occupancy {
    fn add(&mut self, v: usize, iv: &Interval) {
        for &(s, e) in &iv.ranges {
            self.segs.insert(s, (e, v));
        }
    }
    fn remove(&mut self, iv: &Interval) {
        for &(s, _) in &iv.ranges {
            self.segs.remove(&s);
        }
    }
    /// The virtual registers whose ranges overlap `[s, e)`, each passed to `f`
    /// (possibly more than once); stops when `f` returns false.
    fn each_overlapping(&self, s: u32, e: u32, f: &mut impl FnMut(usize) -> bool) -> bool {
        if let Some((_, &(end, v))) = self.segs.range(..s).next_back() {
            if end > s && !f(v) {
                return false;
            }
        }
        for (_, &(_, v)) in self.segs.range(s..e) {
            if !f(v) {
                return false;
            }
        }
        true
    }
    fn is_free(&self, iv: &Interval) -> bool {
        iv.ranges.iter().all(|&(s, e)| self.each_overlapping(s, e, &mut |_| false))
    }
    /// The intervals intersecting `iv`: those live at `pos` first, each
    /// group by register number.
    fn occupants(&self, iv: &Interval, ivs: &Intervals, pos: u32) -> Vec<usize> {
        let mut occ = Vec::new();
        for &(s, e) in &iv.ranges {
            self.each_overlapping(s, e, &mut |v| {
                occ.push(v);
                true
            });
        }
        occ.sort_unstable_by_key(|&v| (!ivs.virt[v].covers(pos), v));
        occ.dedup();
        occ
    }
}

fn weight(iv: &Interval, unspillable: bool) -> f32 {
    if unspillable {
        f32::INFINITY
    } else {
        iv.ref_weight / (iv.size() as f32 + 1.0)
    }
}

/// Allocates every virtual register with a non-empty interval.
/// `partners[v]`: registers joined to `v` by copies (preferred registers).
pub fn run(
    t: &Target,
    keys: &RegKeys,
    f: &Function,
    ivs: &Intervals,
    unspillable: &[bool],
    partners: &[Vec<Reg>],
) -> Result<ScanResult, Blocked> {
    let n = ivs.virt.len();
    let mut assign: Vec<Option<PReg>> = vec![None; n];
    let mut spilled = Vec::new();
    let mut order: Vec<usize> = (0..n).filter(|&v| !ivs.virt[v].is_empty()).collect();
    order.sort_by_key(|&v| (ivs.virt[v].start(), v));
    let mut occupancy: Vec<Occupancy> = (keys.nvregs..keys.total).map(|_| Occupancy::default()).collect();
    let slot = |r: PReg| keys.pkey(r) - keys.nvregs;
    let unsp = |v: usize| unspillable.get(v).copied().unwrap_or(false);
    for cur in order {
        let civ = &ivs.virt[cur];
        let pos = civ.start();
        let file = f.vreg_file(VReg(cur as u32));
        let allowed = &t.order[file.0 as usize];
        let fixed_free = |r: PReg| !ivs.fixed_of(keys, r).intersects(civ);

        let mut candidates: Vec<PReg> = Vec::new();
        for p in partners.get(cur).into_iter().flatten() {
            let hint = match *p {
                Reg::Phys(r) => Some(r),
                Reg::Virt(w) => assign.get(w.0 as usize).copied().flatten(),
            };
            if let Some(r) = hint {
                if allowed.contains(&r) && !candidates.contains(&r) {
                    candidates.push(r);
                }
            }
        }
        candidates.extend(allowed.iter().copied());
        if let Some(r) = candidates.iter().copied().find(|&r| fixed_free(r) && occupancy[slot(r)].is_free(civ)) {
            assign[cur] = Some(r);
            occupancy[slot(r)].add(cur, civ);
            continue;
        }

        // Blocked: evict the cheapest occupants of one register, or spill `cur`.
        let mut best: Option<(f32, PReg, Vec<usize>)> = None;
        for &r in allowed {
            if !fixed_free(r) {
                continue;
            }
            let occ = occupancy[slot(r)].occupants(civ, ivs, pos);
            let cost: f32 = occ.iter().map(|&a| weight(&ivs.virt[a], unsp(a))).sum();
            if cost.is_finite() && best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                best = Some((cost, r, occ));
            }
        }
        let cw = weight(civ, unsp(cur));
        match best {
            Some((cost, r, occ)) if cost < cw => {
                for a in occ {
                    assign[a] = None;
                    spilled.push(VReg(a as u32));
                    occupancy[slot(r)].remove(&ivs.virt[a]);
                }
                assign[cur] = Some(r);
                occupancy[slot(r)].add(cur, civ);
            }
            _ if unsp(cur) => {
                return Err(Blocked {
                    vreg: VReg(cur as u32),
                    pos,
                    message: format!(
                        "no register of file '{}' left for a value that cannot be spilled (a reload or spill temporary, or a value of a fixed-schedule block) at position {pos}: every register is held by such values",
                        t.m.regfile(file).name
                    ),
                });
            }
            _ => spilled.push(VReg(cur as u32)),
        }
    }
    Ok(ScanResult { assign, spilled })
}

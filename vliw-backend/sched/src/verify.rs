//! An independent check of a finished region schedule, run on every region:
//! every dependence distance holds (same-bundle pairs in order), every
//! operation issues before control leaves and every result lands (and every
//! unit is free) by the time it does, and the bundles replay legally
//! (`resource::replay`). A failure is a scheduler bug, reported as such
//! instead of producing code that `dsp-sim --strict` would reject.

use isa_tablegen::Machine;

use crate::ddg::Ddg;
use crate::delay::{Item, RegionSchedule};
use crate::lower::{nop_op, LOp};
use crate::query::busy;
use crate::resource::replay;

pub fn region(
    m: &Machine,
    body: &[LOp],
    control: &[LOp],
    g: &Ddg,
    rs: &RegionSchedule,
) -> Result<(), String> {
    let n = body.len();
    let mut pos = vec![(usize::MAX, usize::MAX); n + 1];
    for (c, b) in rs.bundles.iter().enumerate() {
        for (k, it) in b.iter().enumerate() {
            match *it {
                Item::Body(i) => pos[i] = (c, k),
                Item::Ctrl(0) => pos[n] = (c, k),
                _ => {}
            }
        }
    }
    if let Some(i) = pos[..n].iter().position(|p| p.0 == usize::MAX) {
        return Err(format!("operation {i} was not scheduled"));
    }
    let has_ctrl = !control.is_empty();
    for (to, preds) in g.preds.iter().enumerate() {
        for &(from, d) in preds {
            let (a, b) = (pos[from as usize], pos[to]);
            let gap = b.0 as i64 - a.0 as i64;
            if gap < d as i64 || (gap == 0 && b.1 < a.1) {
                return Err(format!(
                    "dependence {from} -> {to} (distance {d}) violated: cycles {} and {}",
                    a.0, b.0
                ));
            }
        }
    }
    let len = rs.bundles.len();
    let delay = m.control.delay_slots as usize;
    let end = if has_ctrl { pos[n].0 + delay + 1 } else { len };
    for (i, op) in body.iter().enumerate() {
        let c = pos[i].0;
        if c >= end {
            return Err(format!(
                "operation {i} issues at cycle {c}, after control leaves at {end}"
            ));
        }
        let done = c + m.instr(op.instr).latency.max(busy(m, op.instr)) as usize;
        if done > end {
            return Err(format!(
                "operation {i} (cycle {c}) is still in flight when control leaves at {end}"
            ));
        }
    }
    let nop = nop_op(m);
    let mut ops: Vec<Vec<&LOp>> = Vec::with_capacity(len);
    for b in &rs.bundles {
        let mut v = Vec::with_capacity(b.len());
        for it in b {
            match *it {
                Item::Body(i) => v.push(&body[i]),
                Item::Ctrl(k) => v.push(control.get(k).ok_or("control operation out of range")?),
                Item::Nop => v.push(nop.as_ref().ok_or("nop without a nop instruction")?),
            }
        }
        ops.push(v);
    }
    replay(m, &ops).map_err(|(c, e)| format!("bundle {c}: {e}"))
}

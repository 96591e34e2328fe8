//! The machine's lower bound for a kernel: a resource bound over the whole
//! kernel (like the ResMII of modulo scheduling, taken over all of the
//! kernel's essential operations instead of one loop iteration), computed
//! from the `.isa` alone.
//!
//! 1. Each essential operation ([`OpCount`]) is mapped to the instruction(s)
//!    that would do it best ([`map_op`]): the vector form over the widest
//!    vector file of the element width when the machine has one, else the
//!    scalar form; a multiply-accumulate the machine lacks becomes a
//!    multiply and an add. Loads and stores take the vector load or store of
//!    the element type (aligned, else unaligned) into the vector file with
//!    the most lanes, also one whose lanes are wider than the element (a
//!    widening load such as `vloadu.i16` into 32-bit lanes, a narrowing
//!    store); else the scalar one.
//!    An issue of the instruction does `lanes` elements (1 for scalars), so
//!    `count` elements take `count / lanes` issues.
//! 2. Each issue needs one instance of one of the instruction's units for
//!    `busy` cycles, one issue slot feeding such a unit, and one of the
//!    bundle's `max_ops` places. With work assigned fractionally (the best
//!    any schedule can do), the cycles needed are at least, for every set `U`
//!    of units that is a union of instructions' unit sets,
//!    (unit-cycles of the issues that can only run inside `U`) ÷ (instances
//!    in `U`); likewise for issue slots (one issue per slot and cycle); and
//!    (all issues) ÷ `max_ops`. The bound is the largest of these, and the
//!    resource that gives it is reported. Over unions of the instructions'
//!    unit sets this is exactly the fractional assignment bound (Hall's
//!    condition), so units shared between operations (on `ftm` a vector
//!    float add runs on the multiply-accumulate units) are accounted for.
//!
//! Not modelled here: dependences and latencies (a recurrence such as the
//! IIR filter's cannot reach the bound; [`crate::chain`] adds the chain
//! bound the C semantics impose), loop control and address arithmetic,
//! the extra throughput of the scalar units running beside the vector units
//! (one more operation per cycle next to `lanes × units`), register
//! capacity (the bound assumes every input is loaded once), reductions'
//! final cross-lane steps.

use std::collections::BTreeSet;

use isa_tablegen::{ArgPat, InstrId, Machine, RegFileId, SemOp, Ty, Want};

use crate::kernels::{OpCount, OpKind};

/// How one kind of essential operation is done on a machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub kind: OpKind,
    pub ty: Ty,
    /// The instructions doing one group of elements (two for a
    /// multiply-accumulate made of a multiply and an add).
    pub instrs: Vec<InstrId>,
    /// Elements one issue handles (the lane count of a vector instruction, 1
    /// for a scalar one).
    pub elems: u32,
}

impl Mapping {
    /// `mac.f32 → vfmac ×16`.
    pub fn describe(&self, m: &Machine) -> String {
        let names: Vec<&str> = self
            .instrs
            .iter()
            .map(|&i| m.instr(i).mnemonic.as_str())
            .collect();
        format!(
            "{}.{} → {} ×{}",
            self.kind.name(),
            self.ty,
            names.join("+"),
            self.elems
        )
    }
}

/// A kernel's bound on a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    /// Cycles (fractional: a rate, not a schedule).
    pub cycles: f64,
    /// The resource that gives the bound: unit names, `slots …`, or `bundle`.
    pub limit: String,
    pub mappings: Vec<Mapping>,
}

/// The same-width integer types memory instructions may be typed with
/// (`vload.i32` moves f32 elements too).
fn mem_types(ty: Ty) -> Vec<Ty> {
    let same: &[Ty] = match ty.bits() {
        8 => &[Ty::I8, Ty::U8],
        16 => &[Ty::I16, Ty::U16],
        32 => &[Ty::I32, Ty::U32],
        _ => &[Ty::I64, Ty::U64],
    };
    let mut v = vec![ty];
    v.extend(same.iter().copied().filter(|&t| t != ty));
    v
}

fn find(
    m: &Machine,
    op: SemOp,
    ty: Ty,
    dst: Option<RegFileId>,
    args: &[ArgPat],
) -> Option<InstrId> {
    m.find_instr(&Want {
        op,
        ty: Some(ty),
        ty2: None,
        dst,
        args,
    })
}

/// The arithmetic instructions for `kind` on file `f` (a multiply-accumulate
/// falls back to a multiply and an add).
pub(crate) fn arith(m: &Machine, kind: OpKind, ty: Ty, f: RegFileId) -> Option<Vec<InstrId>> {
    let two = [ArgPat::Reg(f), ArgPat::Reg(f)];
    let bin = |op| find(m, op, ty, Some(f), &two);
    match kind {
        OpKind::Mac => find(m, SemOp::Mac, ty, Some(f), &[ArgPat::Reg(f); 3])
            .map(|i| vec![i])
            .or_else(|| Some(vec![bin(SemOp::Mul)?, bin(SemOp::Add)?])),
        OpKind::Mul => bin(SemOp::Mul).map(|i| vec![i]),
        OpKind::Add => bin(SemOp::Add).map(|i| vec![i]),
        OpKind::Sub => bin(SemOp::Sub).map(|i| vec![i]),
        OpKind::Load | OpKind::Store => None,
    }
}

/// A memory instruction for `kind` moving elements of `ty` between memory
/// and file `f`, with any of `ops` (best first).
fn memory(
    m: &Machine,
    kind: OpKind,
    ty: Ty,
    f: RegFileId,
    addr: RegFileId,
    ops: [SemOp; 2],
) -> Option<Vec<InstrId>> {
    for op in ops {
        for t in mem_types(ty) {
            let found = if kind == OpKind::Load {
                find(m, op, t, Some(f), &[ArgPat::Reg(addr), ArgPat::Imm(0)])
            } else {
                find(
                    m,
                    op,
                    t,
                    None,
                    &[ArgPat::Reg(addr), ArgPat::Imm(0), ArgPat::Reg(f)],
                )
            };
            if let Some(i) = found {
                return Some(vec![i]);
            }
        }
    }
    None
}

/// How the machine best does `kind` on elements of `ty`.
pub fn map_op(m: &Machine, kind: OpKind, ty: Ty) -> Result<Mapping, String> {
    let addr = m.scalar_file(Ty::I32).ok_or_else(|| {
        format!(
            "machine '{}' has no register file for 32-bit addresses",
            m.name
        )
    })?;
    let on = |f: RegFileId, vector: bool| match kind {
        OpKind::Load if vector => memory(m, kind, ty, f, addr, [SemOp::VLoad, SemOp::VLoadU]),
        OpKind::Store if vector => memory(m, kind, ty, f, addr, [SemOp::VStore, SemOp::VStoreU]),
        OpKind::Load => memory(m, kind, ty, f, addr, [SemOp::Load, SemOp::Load]),
        OpKind::Store => memory(m, kind, ty, f, addr, [SemOp::Store, SemOp::Store]),
        _ => arith(m, kind, ty, f),
    };
    if matches!(kind, OpKind::Load | OpKind::Store) {
        // Every vector file whose lanes hold the element (same width, or
        // wider: widening loads, narrowing stores), most lanes first.
        let mut files: Vec<(u32, RegFileId)> = m
            .regfiles
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let l = f.lanes?;
                (l.elem_bits >= ty.bits()).then_some((l.count, RegFileId(i as u16)))
            })
            .collect();
        files.sort_by_key(|&(lanes, _)| std::cmp::Reverse(lanes));
        for (lanes, f) in files {
            if let Some(instrs) = on(f, true) {
                return Ok(Mapping {
                    kind,
                    ty,
                    instrs,
                    elems: lanes,
                });
            }
        }
    } else if let Some(lanes) = m.vector_lanes(ty.bits()) {
        if let Some(vf) = m.vector_file(lanes, ty.bits()) {
            if let Some(instrs) = on(vf, true) {
                return Ok(Mapping {
                    kind,
                    ty,
                    instrs,
                    elems: lanes,
                });
            }
        }
    }
    if let Some(sf) = m.scalar_file(ty) {
        if let Some(instrs) = on(sf, false) {
            return Ok(Mapping {
                kind,
                ty,
                instrs,
                elems: 1,
            });
        }
    }
    Err(format!(
        "machine '{}' has no instruction for {}.{} (vector or scalar)",
        m.name,
        kind.name(),
        ty
    ))
}

/// The largest work ÷ capacity over unions of the demand sets: `items` are
/// (set of resources the work may use, work), `cap` the capacity of one
/// resource. Returns the bound and the union that gives it.
fn subset_bound(
    items: &[(BTreeSet<usize>, f64)],
    cap: &dyn Fn(usize) -> f64,
) -> (f64, BTreeSet<usize>) {
    let mut distinct: Vec<&BTreeSet<usize>> = Vec::new();
    for (s, _) in items {
        if !distinct.contains(&s) {
            distinct.push(s);
        }
    }
    // Every union of up to 2^12 combinations; beyond that, the single sets
    // and the union of all (still lower bounds, possibly less tight).
    let unions: Vec<BTreeSet<usize>> = if distinct.len() <= 12 {
        (1u32..1 << distinct.len())
            .map(|mask| {
                distinct
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .flat_map(|(_, s)| s.iter().copied())
                    .collect()
            })
            .collect()
    } else {
        let mut v: Vec<BTreeSet<usize>> = distinct.iter().map(|s| (*s).clone()).collect();
        v.push(distinct.iter().flat_map(|s| s.iter().copied()).collect());
        v
    };
    let mut best = (0.0, BTreeSet::new());
    for u in unions {
        let work: f64 = items
            .iter()
            .filter(|(s, _)| s.is_subset(&u))
            .map(|(_, w)| w)
            .sum();
        let capacity: f64 = u.iter().map(|&r| cap(r)).sum();
        if capacity > 0.0 && work / capacity > best.0 {
            best = (work / capacity, u);
        }
    }
    best
}

/// The lower bound of a kernel with these essential operations on `m`.
pub fn bound(m: &Machine, ops: &[OpCount]) -> Result<Bound, String> {
    let mut mappings: Vec<Mapping> = Vec::new();
    let mut unit_items = Vec::new();
    let mut slot_items = Vec::new();
    let mut total_issues = 0.0;
    for o in ops {
        let mapping = map_op(m, o.kind, o.ty)?;
        let issues = o.count as f64 / mapping.elems as f64;
        for &i in &mapping.instrs {
            let ins = m.instr(i);
            let units: BTreeSet<usize> = ins.units.iter().map(|u| u.0 as usize).collect();
            let slots: BTreeSet<usize> = m
                .slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.feeds.iter().any(|u| units.contains(&(u.0 as usize))))
                .map(|(k, _)| k)
                .collect();
            if slots.is_empty() {
                return Err(format!(
                    "machine '{}': no issue slot feeds the units of '{}'",
                    m.name, ins.mnemonic
                ));
            }
            unit_items.push((units, issues * ins.busy.max(1) as f64));
            slot_items.push((slots, issues));
            total_issues += issues;
        }
        if !mappings
            .iter()
            .any(|x| x.kind == mapping.kind && x.ty == mapping.ty)
        {
            mappings.push(mapping);
        }
    }
    let (by_units, units) = subset_bound(&unit_items, &|u| m.units[u].count as f64);
    let (by_slots, slots) = subset_bound(&slot_items, &|_| 1.0);
    let by_bundle = total_issues / m.bundle.max_ops.max(1) as f64;
    let names = |set: &BTreeSet<usize>, name: &dyn Fn(usize) -> String| {
        set.iter().map(|&i| name(i)).collect::<Vec<_>>().join("+")
    };
    let (cycles, limit) = if by_units >= by_slots && by_units >= by_bundle {
        (
            by_units,
            names(&units, &|u| {
                format!("{}×{}", m.units[u].name, m.units[u].count)
            }),
        )
    } else if by_slots >= by_bundle {
        (
            by_slots,
            format!("slots {}", names(&slots, &|s| m.slots[s].name.clone())),
        )
    } else {
        (by_bundle, format!("bundle of {}", m.bundle.max_ops))
    };
    Ok(Bound {
        cycles,
        limit,
        mappings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{find as kernel, KERNELS};
    use isa_tablegen::builtin;

    /// Elements per cycle of the vector instructions with this semantics, by
    /// a direct scan of the machine (independent of `map_op`).
    fn vector_rate(m: &Machine, op: SemOp, ty: Ty) -> f64 {
        m.instrs
            .iter()
            .filter(|i| i.sem.op == op && i.sem.ty == Some(ty))
            .filter_map(|i| {
                let d = i.sem.dst.map(|d| i.operands[d.0].kind);
                let lanes = match d {
                    Some(isa_tablegen::OperandKind::Reg(f)) => m.regfile(f).lanes?.count,
                    _ => return None,
                };
                let inst: u32 = i.units.iter().map(|&u| m.unit(u).count).sum();
                Some(lanes as f64 * inst as f64 / i.busy.max(1) as f64)
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn dot_product_bound_is_mac_or_load_throughput_on_every_machine() {
        for name in builtin::names() {
            let m = Machine::load(name).unwrap();
            for n in [256u64, 4096] {
                let ops = (kernel("dot_i32").unwrap().ops)(n);
                let b = bound(&m, &ops).unwrap();
                let mac = n as f64 / vector_rate(&m, SemOp::Mac, Ty::I32);
                let load = 2.0 * n as f64 / vector_rate(&m, SemOp::VLoad, Ty::I32);
                let want = mac.max(load);
                assert!(
                    (b.cycles - want).abs() < 1e-9,
                    "{name} N={n}: {} vs {want} ({})",
                    b.cycles,
                    b.limit
                );
                assert_eq!(b.mappings.len(), 2);
                assert!(
                    b.mappings.iter().all(|mp| mp.elems > 1),
                    "{name}: not vectorized: {:?}",
                    b.mappings
                );
            }
        }
    }

    #[test]
    fn ftm_figures() {
        let m = Machine::load("ftm").unwrap();
        // 16 lanes: 3 MAC units (48 MACs/cycle), 2 vector load/store units (32 elements/cycle).
        let b = bound(&m, &(kernel("dot_f32").unwrap().ops)(4096)).unwrap();
        assert_eq!((b.cycles, b.limit.as_str()), (256.0, "vls×2"));
        let b = bound(&m, &(kernel("matmul").unwrap().ops)(64)).unwrap();
        assert!((b.cycles - 64.0f64.powi(3) / 48.0).abs() < 1e-9, "{b:?}");
        assert_eq!(b.limit, "vmac×3");
        // FFT: mac, mul, add and sub all run on the vector MAC units.
        let b = bound(&m, &(kernel("fft").unwrap().ops)(256)).unwrap();
        assert!((b.cycles - 8.0 * 128.0 * 8.0 / 48.0).abs() < 1e-9, "{b:?}");
    }

    #[test]
    fn every_kernel_has_a_positive_bound_on_every_machine() {
        for name in builtin::names() {
            let m = Machine::load(name).unwrap();
            for k in KERNELS {
                for n in k.sizes {
                    let b = bound(&m, &(k.ops)(n)).unwrap();
                    assert!(
                        b.cycles.is_finite() && b.cycles > 0.0,
                        "{name} {} {n}: {b:?}",
                        k.name
                    );
                    // Never below the MACs at the vector MAC throughput alone.
                    let macs: u64 = (k.ops)(n)
                        .iter()
                        .filter(|o| o.kind == OpKind::Mac)
                        .map(|o| o.count)
                        .sum();
                    let ty = (k.ops)(n)[0].ty;
                    assert!(
                        b.cycles + 1e-9 >= macs as f64 / vector_rate(&m, SemOp::Mac, ty),
                        "{name} {}",
                        k.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_machine_without_vector_mac_uses_multiply_and_add() {
        let (file, text) = builtin::source("ftm").unwrap();
        let stripped: String = text
            .lines()
            .filter(|l| !l.starts_with("inst vfmac"))
            .map(|l| format!("{l}\n"))
            .collect();
        let m = Machine::parse_str(&stripped, file).unwrap();
        let full = Machine::load("ftm").unwrap();
        let ops = (kernel("matmul").unwrap().ops)(64);
        let with = bound(&full, &ops).unwrap();
        let without = bound(&m, &ops).unwrap();
        // vfmul and vfadd both run on the MAC units: twice the work.
        assert!(
            (without.cycles - 2.0 * with.cycles).abs() < 1e-9,
            "{with:?} {without:?}"
        );
        assert_eq!(without.mappings[0].instrs.len(), 2);
    }

    #[test]
    fn sixteen_bit_memory_takes_a_vector_load_or_store_of_that_element_type() {
        let (file, text) = builtin::source("ftm").unwrap();
        // Without any vector load or store of 16-bit elements: the scalar ones.
        let narrow = |l: &str| {
            l.starts_with("inst ")
                && (l.contains("vload") || l.contains("vstore"))
                && (l.contains(".i16(") || l.contains(".u16("))
        };
        let stripped: String = text
            .lines()
            .filter(|l| !narrow(l))
            .map(|l| format!("{l}\n"))
            .collect();
        let m = Machine::parse_str(&stripped, file).unwrap();
        let load = map_op(&m, OpKind::Load, Ty::I16).unwrap();
        assert_eq!(load.elems, 1);
        assert_eq!(m.instr(load.instrs[0]).sem.op, SemOp::Load);
        // With a vector load and store of i16 elements, they are picked up
        // from their semantics, into the file with the most lanes.
        let added = stripped
            .replace(
                "regfile m ",
                "regfile h count 8 lanes 32 x 16 read 4 write 2\nregfile m ",
            )
            .replace(
                "inst vst ",
                "inst vldh (rd:h, ra:r, imm:s32) units vls lat 6 sem rd = vloadu.i16(ra, imm) enc RI\n\
                 inst vsth (rb:h, ra:r, imm:s32) units vls lat 1 sem vstoreu.i16(ra, imm, rb) enc RRI\n\
                 inst vst ",
            );
        let m = Machine::parse_str(&added, file).unwrap();
        let load = map_op(&m, OpKind::Load, Ty::I16).unwrap();
        assert_eq!(load.describe(&m), "load.i16 → vldh ×32");
        let store = map_op(&m, OpKind::Store, Ty::I16).unwrap();
        assert_eq!(store.describe(&m), "store.i16 → vsth ×32");
        // 32-bit elements keep the aligned load.
        let load = map_op(&m, OpKind::Load, Ty::I32).unwrap();
        assert_eq!(load.describe(&m), "load.i32 → vld ×16");
        // The shipped machine: a widening load into the 32-bit lanes
        // (`vloadu.i16` into `v`) when its description has one.
        let stock = Machine::load("ftm").unwrap();
        let widening = stock.instrs.iter().any(|i| {
            matches!(i.sem.op, SemOp::VLoad | SemOp::VLoadU) && i.sem.ty == Some(Ty::I16)
        });
        let load = map_op(&stock, OpKind::Load, Ty::I16).unwrap();
        let lanes = stock.vector_lanes(32).unwrap();
        assert_eq!(load.elems, if widening { lanes } else { 1 });
    }

    #[test]
    fn shared_units_add_up() {
        // Two kinds of operations on one unit set: their work adds up, while
        // each alone would give half the bound.
        let items = vec![
            (BTreeSet::from([0]), 10.0),
            (BTreeSet::from([0]), 10.0),
            (BTreeSet::from([1]), 5.0),
        ];
        let (b, u) = subset_bound(&items, &|_| 1.0);
        assert_eq!((b, u), (20.0, BTreeSet::from([0])));
        // Work that may use either of two units spreads over both.
        let items = vec![(BTreeSet::from([0, 1]), 10.0), (BTreeSet::from([0]), 10.0)];
        assert_eq!(subset_bound(&items, &|_| 1.0).0, 10.0);
    }
}

//! Throughput of one step of an extracted program, and the interleave
//! factor it asks for (the fine-grained stage of seed 004 §2.3 sees the
//! loop only after lowering, so the choice is made here, from the `.isa`).
//!
//! A step's resource cycles are the ResMII of the modulo scheduler
//! downstream: for each group of units an instruction may issue on, the
//! busy cycles of the step's instructions there over the units' count, and
//! the step's instructions over the bundle's slots. A sum carried in a
//! vector accumulator is a recurrence of the accumulate's latency; `U`
//! accumulators (`U` vectors per step) hide it once `U` times the resource
//! cycles reach that latency (U = ⌈latency ÷ step⌉) — LLVM's interleave count, with the machine's
//! own figures.

use std::collections::{HashMap, HashSet};

use egg::{Id, RecExpr};
use isa_tablegen::{Instr, SemOp};

use crate::lang::VecLang;
use crate::target::{Opnd, Target};

/// The instruction a DSL node becomes, where it is one instruction.
pub fn instr_for<'m>(t: &Target<'m>, n: &VecLang) -> Option<&'m Instr> {
    use Opnd::*;
    use VecLang as L;
    match n {
        L::Add(_) => t.find(SemOp::Add, Some(S), &[S, S]),
        L::Sub(_) => t.find(SemOp::Sub, Some(S), &[S, S]),
        L::Mul(_) => t.find(SemOp::Mul, Some(S), &[S, S]),
        L::Neg(_) => t.find(SemOp::Neg, Some(S), &[S]).or_else(|| t.find(SemOp::Sub, Some(S), &[S, S])),
        L::Mac(_) => t.find(SemOp::Mac, Some(S), &[S, S, S]),
        L::Get(_) => t.find(SemOp::Load, Some(S), &[S, Imm]),
        L::VecLoad(_) => t.find(SemOp::VLoadU, Some(V), &[S, Imm]).or_else(|| t.find(SemOp::VLoad, Some(V), &[S, Imm])),
        L::VecLoadS(_) => t.find(SemOp::VLoadS, Some(V), &[S, S]).or_else(|| t.find(SemOp::Gather, Some(V), &[S, V])),
        L::VecAdd(_) => t.find(SemOp::Add, Some(V), &[V, V]),
        L::VecSub(_) => t.find(SemOp::Sub, Some(V), &[V, V]),
        L::VecMul(_) => t.find(SemOp::Mul, Some(V), &[V, V]),
        L::VecNeg(_) => t.find(SemOp::Neg, Some(V), &[V]).or_else(|| t.find(SemOp::Sub, Some(V), &[V, V])),
        L::VecMac(_) => t.find(SemOp::Mac, Some(V), &[V, V, V]),
        L::VecAddS(_) => t.find(SemOp::Add, Some(V), &[V, S]),
        L::VecMulS(_) => t.find(SemOp::Mul, Some(V), &[V, S]),
        L::VecMacS(_) => t.find(SemOp::Mac, Some(V), &[V, S, V]),
        L::Broadcast(_) => t.find(SemOp::Broadcast, Some(V), &[S]),
        L::ReduceAdd(_) => t.find(SemOp::ReduceAdd, Some(S), &[V]),
        L::Extract(_) => t.find(SemOp::Extract, Some(S), &[V, S]),
        L::Shuffle(_) => t.find(SemOp::Shuffle, Some(V), &[V, V]),
        L::Insert(_) | L::Vec(_) => t.find(SemOp::Insert, Some(V), &[V, S, S]),
        L::And(_) => crate::cost::bit_ops(t, S)[0],
        L::Or(_) => crate::cost::bit_ops(t, S)[1],
        L::Xor(_) => crate::cost::bit_ops(t, S)[2],
        L::Shl(_) => crate::cost::bit_ops(t, S)[3],
        L::AShr(_) => crate::cost::bit_ops(t, S)[4],
        L::LShr(_) => crate::cost::bit_ops(t, S)[5],
        L::VecAnd(_) => crate::cost::bit_ops(t, V)[0],
        L::VecOr(_) => crate::cost::bit_ops(t, V)[1],
        L::VecXor(_) => crate::cost::bit_ops(t, V)[2],
        L::VecShlS(_) => crate::cost::bit_ops(t, V)[3],
        L::VecAShrS(_) => crate::cost::bit_ops(t, V)[4],
        L::VecLShrS(_) => crate::cost::bit_ops(t, V)[5],
        L::Num(_) | L::Symbol(_) | L::Arg(_) | L::List(_) => None,
    }
}

/// The stores of a step: vectors and scalars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stores {
    pub vectors: usize,
    pub scalars: usize,
}

/// Resource cycles of one step: `prog` (every node once) and `stores`.
/// `accumulated` names the sums `s + ReduceAdd(x)` (the sum's node index and
/// `x`) that lowering keeps in vector accumulators: each is one vector add
/// in the loop, or none when `x` is a product (it becomes a multiply-add),
/// not a scalar add and a reduction.
pub fn step_cycles(t: &Target, prog: &RecExpr<VecLang>, stores: Stores, accumulated: &[(usize, Id)]) -> f64 {
    use Opnd::*;
    let mut busy: HashMap<Vec<u16>, f64> = HashMap::new();
    let mut count = 0usize;
    let mut add = |i: &Instr, times: usize| {
        let mut units: Vec<u16> = i.units.iter().map(|u| u.0).collect();
        units.sort_unstable();
        *busy.entry(units).or_default() += (i.busy.max(1) as usize * times) as f64;
        count += times;
    };
    // The nodes an accumulator replaces, and the products it fuses.
    let mut gone: HashSet<usize> = HashSet::new();
    let mut fused: HashSet<usize> = HashSet::new();
    for &(sum, x) in accumulated {
        gone.insert(sum);
        if let VecLang::Add([a, b]) = &prog[Id::from(sum)] {
            gone.extend([*a, *b].into_iter().filter(|&c| prog[c] == VecLang::ReduceAdd(x)).map(usize::from));
        }
        match &prog[x] {
            VecLang::VecMul(_) => {
                fused.insert(usize::from(x));
            }
            _ => {
                if let Some(i) = instr_for(t, &VecLang::VecAdd([x, x])) {
                    add(i, 1);
                }
            }
        }
    }
    for (k, n) in prog.as_ref().iter().enumerate() {
        if gone.contains(&k) {
            continue;
        }
        let n = if fused.contains(&k) { &VecLang::VecMac([Id::from(0usize); 3]) } else { n };
        if let Some(i) = instr_for(t, n) {
            // A `Vec` of arbitrary scalars is an insert per lane.
            add(i, if matches!(n, VecLang::Vec(_)) { t.lanes } else { 1 });
        }
    }
    let vstore = t.find(SemOp::VStoreU, None, &[S, Imm, V]).or_else(|| t.find(SemOp::VStore, None, &[S, Imm, V]));
    if let Some(i) = vstore {
        add(i, stores.vectors);
    }
    if let Some(i) = t.find(SemOp::Store, None, &[S, Imm, S]) {
        add(i, stores.scalars);
    }
    let units = |g: &[u16]| -> f64 { g.iter().map(|&u| t.m.units[u as usize].count.max(1) as f64).sum() };
    let by_units = busy.iter().map(|(g, b)| b / units(g).max(1.0)).fold(0.0, f64::max);
    let slots = t.m.slots.len().max(1) as f64;
    by_units.max(count as f64 / slots)
}

/// The latency of adding a vector into an accumulator: a multiply-add
/// when what is added is a product (the backend fuses the two), else an add.
pub fn accumulate_latency(t: &Target, product: bool) -> u32 {
    use Opnd::*;
    let add = t.find(SemOp::Add, Some(V), &[V, V]).map_or(1, |i| i.latency);
    if product {
        t.find(SemOp::Mac, Some(V), &[V, V, V]).map_or(add, |i| i.latency.max(add))
    } else {
        add
    }
}

/// The interleave factor: the smallest `U ≤ max` with `U × step ≥
/// latency` (1 when the step alone covers it).
pub fn interleave(step: f64, latency: u32, max: usize) -> usize {
    let u = (latency as f64 / step.max(0.25)).ceil().max(1.0) as usize;
    u.min(max.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_covers_the_latency() {
        assert_eq!(interleave(1.0, 3, 4), 3);
        assert_eq!(interleave(1.0, 4, 4), 4);
        assert_eq!(interleave(1.5, 3, 4), 2);
        assert_eq!(interleave(3.0, 3, 4), 1);
        assert_eq!(interleave(0.5, 8, 4), 4);
        assert_eq!(interleave(1.0, 3, 1), 1);
    }

    #[test]
    fn a_dot_product_step_on_ftm() {
        let m = isa_tablegen::Machine::load("ftm").unwrap();
        let t = Target::new(&m, crate::lang::Elem::I32).unwrap();
        // Two vector loads and a multiply: the loads on the two load/store
        // units take one cycle; the vmla's latency needs more accumulators.
        let p: RecExpr<VecLang> = "(VecMul (VecLoad x 0) (VecLoad y 0))".parse().unwrap();
        let step = step_cycles(&t, &p, Stores::default(), &[]);
        assert!((step - 1.0).abs() < 1e-9, "{step}");
        let lat = accumulate_latency(&t, true);
        assert_eq!(lat, t.find(SemOp::Mac, Some(Opnd::V), &[Opnd::V; 3]).unwrap().latency);
        assert!(interleave(step, lat, 4) >= 2);
    }

    #[test]
    fn a_sum_kept_in_a_vector_accumulator_costs_a_multiply_add_not_a_reduction() {
        let m = isa_tablegen::Machine::load("ftm").unwrap();
        let t = Target::new(&m, crate::lang::Elem::I32).unwrap();
        // s + ReduceAdd(x * y) for four sums sharing x: five loads on two
        // load/store units (2.5 cycles); as scalar adds and reductions, the
        // four reductions on ftm's one cross unit take 4.
        let mut p: RecExpr<VecLang> = RecExpr::default();
        let (x, y, zero) = (p.add(VecLang::Symbol("x".into())), p.add(VecLang::Symbol("y".into())), p.add(VecLang::Num(0)));
        let lx = p.add(VecLang::VecLoad([x, zero]));
        let mut outs = Vec::new();
        for k in 0..4 {
            let (kk, s) = (p.add(VecLang::Num(k)), p.add(VecLang::Symbol(format!("s{k}").into())));
            let ly = p.add(VecLang::VecLoad([y, kk]));
            let prod = p.add(VecLang::VecMul([lx, ly]));
            let (red, arg) = (p.add(VecLang::ReduceAdd(prod)), p.add(VecLang::Arg(s)));
            outs.push(p.add(VecLang::Add([arg, red])));
        }
        p.add(VecLang::List(outs.into()));
        let plain = step_cycles(&t, &p, Stores::default(), &[]);
        assert!((plain - 4.0).abs() < 1e-9, "{plain}");
        let sums: Vec<(usize, Id)> = p
            .as_ref()
            .iter()
            .enumerate()
            .filter_map(|(k, n)| match n {
                VecLang::Add([_, r]) => match &p[*r] {
                    VecLang::ReduceAdd(x) => Some((k, *x)),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(sums.len(), 4);
        let kept = step_cycles(&t, &p, Stores::default(), &sums);
        assert!((kept - 2.5).abs() < 1e-9, "{kept}");
    }
}

//! Costs from the `.isa` (seed 004 §2.2: the sum of the instructions'
//! cycles): each DSL node costs the `cost` of the cheapest instruction the
//! machine has for it (an instruction's `cost` defaults to its latency), so
//! "a broadcast is cheap, a shuffle is slow" is a fact of the machine file.
//! A `Vec` built from arbitrary scalars costs an insert per lane; a node the
//! machine cannot do costs infinity (the rules never make one, and the
//! scalar starting form always has a finite cost).

use egg::{CostFunction, Id, Language};
use isa_tablegen::SemOp;

use crate::lang::VecLang;
use crate::target::{Opnd, Target};

/// A node's own cost on the target, without its children.
#[derive(Clone, Debug)]
pub struct IsaCost {
    scalar: [f64; 4],
    smac: f64,
    vector: [f64; 4],
    vector_s: [f64; 3],
    mac: f64,
    get: f64,
    load: f64,
    load_s: f64,
    broadcast: f64,
    reduce: f64,
    extract: f64,
    insert: f64,
    insert1: f64,
    /// A general permute and the vector load of its constant lane indices.
    shuffle: f64,
    /// and, or, xor, shl, arithmetic and logical shr: scalar, then vector
    /// (the shifts by a scalar amount).
    bits: [f64; 6],
    vbits: [f64; 6],
}

const INF: f64 = f64::INFINITY;

impl IsaCost {
    pub fn new(t: &Target) -> IsaCost {
        use Opnd::*;
        let c = |ins: Option<&isa_tablegen::Instr>| ins.map_or(INF, |i| i.cost.max(i.busy).max(1) as f64);
        let s2 = |op| c(t.find(op, Some(S), &[S, S]));
        let v2 = |op| c(t.find(op, Some(V), &[V, V]));
        let vs = |op| c(t.find(op, Some(V), &[V, S]));
        // Negation: the machine's neg, else a subtraction from zero.
        let sneg = c(t.find(SemOp::Neg, Some(S), &[S])).min(s2(SemOp::Sub));
        let vneg = c(t.find(SemOp::Neg, Some(V), &[V])).min(v2(SemOp::Sub));
        let load = c(t.find(SemOp::VLoadU, Some(V), &[S, Imm])).min(c(t.find(SemOp::VLoad, Some(V), &[S, Imm])));
        // A lane by lane build: an insert per lane, or (without one) a store and a reload per lane.
        let insert = c(t.find(SemOp::Insert, Some(V), &[V, S, S]));
        let insert = if insert.is_finite() { insert } else { 2.0 * c(t.find(SemOp::Store, None, &[S, Imm, S])).min(8.0) };
        IsaCost {
            scalar: [s2(SemOp::Add), s2(SemOp::Sub), s2(SemOp::Mul), sneg],
            smac: c(t.find(SemOp::Mac, Some(S), &[S, S, S])).min(s2(SemOp::Mul) + s2(SemOp::Add)),
            vector: [v2(SemOp::Add), v2(SemOp::Sub), v2(SemOp::Mul), vneg],
            vector_s: [vs(SemOp::Add), vs(SemOp::Mul), c(t.find(SemOp::Mac, Some(V), &[V, S, V]))],
            get: c(t.find(SemOp::Load, Some(S), &[S, Imm])),
            load,
            // A strided load: the machine's, else a gather.
            load_s: c(t.find(SemOp::VLoadS, Some(V), &[S, S])).min(c(t.find(SemOp::Gather, Some(V), &[S, V]))),
            broadcast: c(t.find(SemOp::Broadcast, Some(V), &[S])),
            reduce: c(t.find(SemOp::ReduceAdd, Some(S), &[V])),
            extract: c(t.find(SemOp::Extract, Some(S), &[V, S])),
            insert: insert * t.lanes as f64,
            insert1: insert,
            mac: c(t.find(SemOp::Mac, Some(V), &[V, V, V])),
            shuffle: c(t.find(SemOp::Shuffle, Some(V), &[V, V])) + load,
            bits: bit_ops(t, S).map(c),
            vbits: bit_ops(t, V).map(c),
        }
    }

    /// The node's own cost.
    pub fn node(&self, n: &VecLang) -> f64 {
        use VecLang::*;
        match n {
            Num(_) | Symbol(_) | List(_) | Arg(_) => 0.0,
            Mac(_) => self.smac,
            Add(_) => self.scalar[0],
            Sub(_) => self.scalar[1],
            Mul(_) => self.scalar[2],
            Neg(_) => self.scalar[3],
            Get(_) => self.get,
            ReduceAdd(_) => self.reduce,
            Extract(_) => self.extract,
            Vec(_) => self.insert,
            VecAdd(_) => self.vector[0],
            VecSub(_) => self.vector[1],
            VecMul(_) => self.vector[2],
            VecNeg(_) => self.vector[3],
            VecMac(_) => self.mac,
            VecAddS(_) => self.vector_s[0],
            VecMulS(_) => self.vector_s[1],
            VecMacS(_) => self.vector_s[2],
            Broadcast(_) => self.broadcast,
            Insert(_) => self.insert1,
            VecLoad(_) => self.load,
            And(_) => self.bits[0],
            Or(_) => self.bits[1],
            Xor(_) => self.bits[2],
            Shl(_) => self.bits[3],
            AShr(_) => self.bits[4],
            LShr(_) => self.bits[5],
            VecAnd(_) => self.vbits[0],
            VecOr(_) => self.vbits[1],
            VecXor(_) => self.vbits[2],
            VecShlS(_) => self.vbits[3],
            VecAShrS(_) => self.vbits[4],
            VecLShrS(_) => self.vbits[5],
            VecLoadS(_) => self.load_s,
            Shuffle(_) => self.shuffle,
        }
    }
}

/// The machine's and, or, xor, shl, arithmetic and logical shr on 32-bit
/// integers in registers of place `p` (vectors: the bitwise operations on
/// two vectors, the shifts by a scalar amount).
pub fn bit_ops<'m>(t: &Target<'m>, p: Opnd) -> [Option<&'m isa_tablegen::Instr>; 6] {
    use isa_tablegen::Ty;
    let two = [p, p];
    let shift = [p, Opnd::S];
    [
        t.find_ty(SemOp::And, Ty::I32, Some(p), &two),
        t.find_ty(SemOp::Or, Ty::I32, Some(p), &two),
        t.find_ty(SemOp::Xor, Ty::I32, Some(p), &two),
        t.find_ty(SemOp::Shl, Ty::I32, Some(p), &shift),
        t.find_ty(SemOp::Shr, Ty::I32, Some(p), &shift),
        t.find_ty(SemOp::Shr, Ty::U32, Some(p), &shift),
    ]
}

impl CostFunction<VecLang> for IsaCost {
    type Cost = f64;
    fn cost<C>(&mut self, enode: &VecLang, mut costs: C) -> f64
    where
        C: FnMut(Id) -> f64,
    {
        enode.fold(self.node(enode), |sum, id| sum + costs(id))
    }
}

/// The cost of a whole program, each distinct node once (what the code costs).
pub fn dag_cost(c: &IsaCost, e: &egg::RecExpr<VecLang>) -> f64 {
    e.iter().map(|n| c.node(n)).sum()
}

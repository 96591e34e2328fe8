//! Address analysis for memory dependences: the value of a virtual register
//! in iteration `i` of a single-block loop, as an affine expression
//! `Σ scale·v + coef·i + offset` over loop-invariant registers `v`, when it
//! is one. Induction variables are phis whose back-edge value is the phi
//! plus a constant; additions, subtractions, shifts and multiplications by
//! constants, copies and constants combine them. Anything else (a loaded
//! pointer, a product of two variables) is not affine, and its accesses are
//! treated as touching any address.

use std::collections::{BTreeMap, HashMap};

use dsp_mir::{Block, Function, InstKind, Machine, Operand, Reg, VReg};
use isa_tablegen::SemOp;

use crate::candidate::def_of;

/// `Σ terms[v]·v + coef·i + offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    pub terms: BTreeMap<VReg, i64>,
    pub coef: i64,
    pub offset: i64,
}

impl Affine {
    fn constant(c: i64) -> Affine {
        Affine { terms: BTreeMap::new(), coef: 0, offset: c }
    }
    fn invariant(v: VReg) -> Affine {
        Affine { terms: BTreeMap::from([(v, 1)]), coef: 0, offset: 0 }
    }
    fn add(&self, o: &Affine, sign: i64) -> Affine {
        let mut terms = self.terms.clone();
        for (v, s) in &o.terms {
            let e = terms.entry(*v).or_insert(0);
            *e = e.wrapping_add(sign.wrapping_mul(*s));
        }
        terms.retain(|_, s| *s != 0);
        Affine {
            terms,
            coef: self.coef.wrapping_add(sign.wrapping_mul(o.coef)),
            offset: self.offset.wrapping_add(sign.wrapping_mul(o.offset)),
        }
    }
    fn scale(&self, k: i64) -> Affine {
        let mut terms: BTreeMap<VReg, i64> = self.terms.iter().map(|(v, s)| (*v, s.wrapping_mul(k))).collect();
        terms.retain(|_, s| *s != 0);
        Affine { terms, coef: self.coef.wrapping_mul(k), offset: self.offset.wrapping_mul(k) }
    }
    /// The same expression without the offset: accesses whose bases agree
    /// here differ by a constant.
    pub fn same_base(&self, o: &Affine) -> bool {
        self.terms == o.terms && self.coef == o.coef
    }
}

/// Affine values of the registers of loop block `l`, computed on demand.
pub struct AffineMap<'a> {
    m: &'a Machine,
    f: &'a Function,
    l: Block,
    defs: HashMap<VReg, usize>,
    memo: HashMap<VReg, Option<Affine>>,
}

impl<'a> AffineMap<'a> {
    pub fn new(m: &'a Machine, f: &'a Function, l: Block) -> AffineMap<'a> {
        let mut defs = HashMap::new();
        for (i, inst) in f.block(l).insts.iter().enumerate() {
            if let Some(v) = def_of(m, &inst.kind) {
                defs.insert(v, i);
            }
        }
        AffineMap { m, f, l, defs, memo: HashMap::new() }
    }

    fn operand(&mut self, o: &Operand, depth: u32) -> Option<Affine> {
        match o {
            Operand::Imm(c) => Some(Affine::constant(*c)),
            Operand::Reg(Reg::Virt(v)) => self.value(*v, depth),
            Operand::Reg(Reg::Phys(p)) => {
                (self.m.special(*p) == Some(isa_tablegen::SpecialKind::Zero)).then(|| Affine::constant(0))
            }
            _ => None,
        }
    }

    /// The affine value of `v` in iteration `i`, if it has one.
    pub fn value(&mut self, v: VReg, depth: u32) -> Option<Affine> {
        if let Some(a) = self.memo.get(&v) {
            return a.clone();
        }
        if depth > 32 {
            return None;
        }
        let r = self.compute(v, depth);
        self.memo.insert(v, r.clone());
        r
    }

    fn compute(&mut self, v: VReg, depth: u32) -> Option<Affine> {
        let Some(&i) = self.defs.get(&v) else {
            return Some(self.outside(v).map_or_else(|| Affine::invariant(v), Affine::constant));
        };
        let inst = &self.f.block(self.l).insts[i];
        match &inst.kind {
            InstKind::Phi { incoming, .. } => {
                // v = phi(init, v + step): init + step·i.
                let mut init = None;
                let mut next = None;
                for (b, r) in incoming {
                    match (*b == self.l, r) {
                        (true, Reg::Virt(n)) => next = Some(*n),
                        (false, Reg::Virt(x)) => init = Some(*x),
                        _ => return None,
                    }
                }
                let (init, next) = (init?, next?);
                let step = self.step_of(next, v)?;
                let mut a = self.value(init, depth + 1)?;
                a.coef = step;
                Some(a)
            }
            InstKind::Copy { src, .. } => self.operand(&Operand::Reg(*src), depth + 1),
            InstKind::Machine { instr, guard: None, ops } => {
                let sem = &self.m.instr(*instr).sem;
                let args: Vec<Operand> = sem.args.iter().map(|a| ops[a.0].clone()).collect();
                if sem.ty.is_some_and(|t| t.bits() != 32 || t.is_float()) {
                    return None;
                }
                match (sem.op, args.as_slice()) {
                    (SemOp::Mov, [a]) => self.operand(a, depth + 1),
                    (SemOp::Add, [a, b]) => Some(self.operand(a, depth + 1)?.add(&self.operand(b, depth + 1)?, 1)),
                    (SemOp::Sub, [a, b]) => Some(self.operand(a, depth + 1)?.add(&self.operand(b, depth + 1)?, -1)),
                    (SemOp::Shl, [a, Operand::Imm(k)]) if (0..31).contains(k) => {
                        Some(self.operand(a, depth + 1)?.scale(1i64 << k))
                    }
                    (SemOp::Mul, [a, Operand::Imm(k)]) | (SemOp::Mul, [Operand::Imm(k), a]) => {
                        Some(self.operand(a, depth + 1)?.scale(*k))
                    }
                    // `or` of bits the other operand never has (LLVM's `or
                    // disjoint` of an unrolled induction variable) is an add.
                    (SemOp::Or, [a, Operand::Imm(k)]) | (SemOp::Or, [Operand::Imm(k), a]) if *k >= 0 => {
                        let x = self.operand(a, depth + 1)?;
                        let zeros = (x.coef | x.offset).trailing_zeros().min(62);
                        (x.terms.is_empty() && (*k as u64) < (1u64 << zeros)).then(|| x.add(&Affine::constant(*k), 1))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The constant a register defined outside the loop holds, when its
    /// definition is a load-immediate.
    fn outside(&self, v: VReg) -> Option<i64> {
        for b in &self.f.blocks {
            for inst in &b.insts {
                if def_of(self.m, &inst.kind) != Some(v) {
                    continue;
                }
                let InstKind::Machine { instr, guard: None, ops } = &inst.kind else { return None };
                let sem = &self.m.instr(*instr).sem;
                return match (sem.op, sem.args.first().map(|a| &ops[a.0])) {
                    (SemOp::Mov, Some(Operand::Imm(c))) if sem.args.len() == 1 => Some(*c),
                    _ => None,
                };
            }
        }
        None
    }

    /// `next = phi + step` with a constant step: the step.
    fn step_of(&mut self, next: VReg, phi: VReg) -> Option<i64> {
        let &i = self.defs.get(&next)?;
        let InstKind::Machine { instr, guard: None, ops } = &self.f.block(self.l).insts[i].kind else {
            return None;
        };
        let sem = &self.m.instr(*instr).sem;
        let args: Vec<&Operand> = sem.args.iter().map(|a| &ops[a.0]).collect();
        let is_phi = |o: &Operand| *o == Operand::Reg(Reg::Virt(phi));
        match (sem.op, args.as_slice()) {
            (SemOp::Add, [a, Operand::Imm(k)]) if is_phi(a) => Some(*k),
            (SemOp::Add, [Operand::Imm(k), a]) if is_phi(a) => Some(*k),
            (SemOp::Sub, [a, Operand::Imm(k)]) if is_phi(a) => Some(-*k),
            _ => None,
        }
    }
}

impl Affine {
    /// `self + o`.
    pub fn add_pub(&self, o: &Affine) -> Affine {
        self.add(o, 1)
    }
}

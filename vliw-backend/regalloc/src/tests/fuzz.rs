//! Robustness: random control-flow graphs over a small pool of registers
//! written many times (not SSA), with reads of undefined registers,
//! unreachable blocks, self loops, indirect jumps, phis, calls and frame
//! objects. Allocation must never panic; when it succeeds the independent
//! checker (run inside) and the verifier accept the result. Programs are
//! drawn by proptest from a fixed seed and shrunk to a minimal one on
//! failure.

use dsp_mir::{Block, FrameKind, Operand, Reg, Terminator};
use isa_tablegen::{SemOp, Ty};

use super::builder::*;
use crate::{allocate, RaOptions};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// One operation over the register pool (indices pick a register of the
/// pool, a predicate, a frame offset).
#[derive(Clone, Debug)]
enum Op {
    Add(Index, Index, Index),
    MulImm(Index, Index),
    Lt(Index, Index, Index),
    GuardedAdd { dst: Index, src: Index, pred: Index, negate: bool },
    Copy(Index, Index),
    Call(Index, Index, Index),
    Store(Index, u8),
    Load(Index, u8),
}

#[derive(Clone, Debug)]
enum Term {
    Jump(Index),
    Branch { cond: Index, negate: bool, taken: Index, not_taken: Index },
    IndirectJump { target: Index, targets: Vec<Index> },
    Unreachable,
    Return(Index),
}

#[derive(Clone, Debug)]
struct BlockSpec {
    /// A phi over (block, register) pairs, possibly naming non-predecessors.
    phi: Option<Vec<(Index, Index)>>,
    ops: Vec<Op>,
    term: Term,
}

/// A function: 3–42 integer registers written many times, 1–10
/// predicates, 2–11 blocks (the first is the entry).
#[derive(Clone, Debug)]
struct Program {
    pool: usize,
    preds: usize,
    blocks: Vec<BlockSpec>,
}

fn op() -> impl Strategy<Value = Op> {
    let i = || any::<Index>();
    prop_oneof![
        (i(), i(), i()).prop_map(|(d, x, y)| Op::Add(d, x, y)),
        (i(), i()).prop_map(|(d, x)| Op::MulImm(d, x)),
        (i(), i(), i()).prop_map(|(p, x, y)| Op::Lt(p, x, y)),
        (i(), i(), i(), any::<bool>()).prop_map(|(dst, src, pred, negate)| Op::GuardedAdd { dst, src, pred, negate }),
        (i(), i()).prop_map(|(d, x)| Op::Copy(d, x)),
        (i(), i(), i()).prop_map(|(d, x, y)| Op::Call(d, x, y)),
        (i(), 0u8..4).prop_map(|(x, k)| Op::Store(x, k)),
        (i(), 0u8..4).prop_map(|(d, k)| Op::Load(d, k)),
    ]
}

fn term() -> impl Strategy<Value = Term> {
    let i = || any::<Index>();
    prop_oneof![
        1 => i().prop_map(Term::Jump),
        2 => (i(), any::<bool>(), i(), i()).prop_map(|(cond, negate, taken, not_taken)| Term::Branch { cond, negate, taken, not_taken }),
        1 => (i(), prop::collection::vec(i(), 1..=3)).prop_map(|(target, targets)| Term::IndirectJump { target, targets }),
        1 => Just(Term::Unreachable),
        1 => i().prop_map(Term::Return),
    ]
}

fn program() -> impl Strategy<Value = Program> {
    let block = (
        prop::option::weighted(0.25, prop::collection::vec((any::<Index>(), any::<Index>()), 1..=3)),
        prop::collection::vec(op(), 0..12),
        term(),
    )
        .prop_map(|(phi, ops, term)| BlockSpec { phi, ops, term });
    (3usize..43, 1usize..11, prop::collection::vec(block, 2..12)).prop_map(|(pool, preds, blocks)| Program { pool, preds, blocks })
}

#[test]
fn random_control_flow_never_panics() {
    for m in machines() {
        let config = Config { cases: 60, rng_seed: RngSeed::Fixed(7919), failure_persistence: None, ..Config::default() };
        TestRunner::new(config)
            .run(&program(), |p| {
                check(&m, &p);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{}: {e}", m.name));
    }
}

fn check(m: &isa_tablegen::Machine, p: &Program) {
    let mut b = Fb::new(m, "fuzz");
    let nblocks = p.blocks.len();
    let blocks: Vec<Block> = (0..nblocks).map(|i| if i == 0 { Block(0) } else { b.block("x") }).collect();
    let int = b.int;
    let pool: Vec<Reg> = (0..p.pool).map(|_| Reg::Virt(b.f.new_vreg(int))).collect();
    let preds: Vec<Reg> = (0..p.preds).map(|_| Reg::Virt(b.f.new_vreg(b.pred))).collect();
    let r = |i: &Index| pool[i.index(pool.len())];
    let pr = |i: &Index| preds[i.index(preds.len())];
    let bl = |i: &Index| blocks[i.index(nblocks)];
    let local = b.frame(16, 4, FrameKind::Local);
    let arg0 = b.int_arg_reg(0);
    b.copy(pool[0], Reg::Phys(arg0));
    for (bi, (&blk, spec)) in blocks.iter().zip(&p.blocks).enumerate() {
        b.at(blk);
        if let Some(incoming) = spec.phi.as_ref().filter(|_| bi > 0) {
            let inc: Vec<(Block, Reg)> = incoming.iter().map(|(x, y)| (bl(x), r(y))).collect();
            let _ = b.phi(int, inc);
        }
        for o in &spec.ops {
            match o {
                Op::Add(d, x, y) => b.op_into(SemOp::Add, Ty::I32, r(d), &[Operand::Reg(r(x)), Operand::Reg(r(y))], None),
                Op::MulImm(d, x) => b.op_into(SemOp::Mul, Ty::I32, r(d), &[Operand::Reg(r(x)), Operand::Imm(3)], None),
                Op::Lt(q, x, y) => b.op_into(SemOp::Lt, Ty::I32, pr(q), &[Operand::Reg(r(x)), Operand::Reg(r(y))], None),
                Op::GuardedAdd { dst, src, pred, negate } => {
                    let g = dsp_mir::Guard::new(pr(pred), *negate);
                    b.op_into(SemOp::Add, Ty::I32, r(dst), &[Operand::Reg(r(src)), Operand::Imm(1)], Some(g));
                }
                Op::Copy(d, x) => b.copy(r(d), r(x)),
                Op::Call(d, x, y) => {
                    let v = b.call("ext", &[r(x), r(y)]);
                    b.copy(r(d), v);
                }
                Op::Store(x, k) => b.store_frame(local, 4 * *k as i64, r(x)),
                Op::Load(d, k) => {
                    let v = b.load_frame(local, 4 * *k as i64);
                    b.copy(r(d), v);
                }
            }
        }
        let t = match &spec.term {
            Term::Jump(t) => Terminator::Jump(bl(t)),
            Term::Branch { cond, negate, taken, not_taken } => {
                Terminator::Branch { cond: pr(cond), negate: *negate, taken: bl(taken), not_taken: bl(not_taken) }
            }
            Term::IndirectJump { target, targets } => {
                Terminator::IndirectJump { target: r(target), targets: targets.iter().map(bl).collect() }
            }
            Term::Unreachable => Terminator::Unreachable,
            Term::Return(x) => {
                let ret = b.int_ret_reg();
                b.copy(Reg::Phys(ret), r(x));
                Terminator::Return { rets: vec![ret] }
            }
        };
        b.term(t);
    }
    let mut g = b.f.clone();
    let opts = RaOptions { check: true, ..RaOptions::default() };
    match allocate(m, &mut g, &opts) {
        Ok(_) => dsp_mir::verify::verify(m, &g, dsp_mir::verify::Stage::Allocated).unwrap(),
        Err(e) => panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(m, &b.f)),
    }
}

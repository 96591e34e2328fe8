//! Robustness: random control-flow graphs over a small pool of registers
//! written many times (not SSA), with reads of undefined registers,
//! unreachable blocks, self loops, indirect jumps, phis, calls and frame
//! objects. Allocation must never panic; when it succeeds the independent
//! checker (run inside) and the verifier accept the result.

use dsp_mir::{Block, FrameKind, Operand, Reg, Terminator};
use isa_tablegen::{SemOp, Ty};

use super::builder::*;
use crate::{allocate, RaOptions};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn random_control_flow_never_panics() {
    for m in machines() {
        for seed in 0..60u64 {
            let mut rng = Rng(seed * 7919 + 13);
            let mut b = Fb::new(&m, "fuzz");
            let nblocks = 2 + rng.below(10);
            let blocks: Vec<Block> = (0..nblocks).map(|i| if i == 0 { Block(0) } else { b.block("x") }).collect();
            let int = b.int;
            let pool: Vec<Reg> = (0..3 + rng.below(40)).map(|_| Reg::Virt(b.f.new_vreg(int))).collect();
            let preds: Vec<Reg> = (0..1 + rng.below(10)).map(|_| Reg::Virt(b.f.new_vreg(b.pred))).collect();
            let local = b.frame(16, 4, FrameKind::Local);
            let arg0 = b.int_arg_reg(0);
            b.copy(pool[0], Reg::Phys(arg0));
            for (bi, &blk) in blocks.iter().enumerate() {
                b.at(blk);
                if bi > 0 && rng.below(4) == 0 {
                    // A phi over some (possibly non-) predecessors.
                    let inc: Vec<(Block, Reg)> =
                        (0..1 + rng.below(3)).map(|_| (blocks[rng.below(nblocks)], pool[rng.below(pool.len())])).collect();
                    let _ = b.phi(int, inc);
                }
                for _ in 0..rng.below(12) {
                    let d = pool[rng.below(pool.len())];
                    let (x, y) = (pool[rng.below(pool.len())], pool[rng.below(pool.len())]);
                    match rng.below(8) {
                        0 => b.op_into(SemOp::Add, Ty::I32, d, &[Operand::Reg(x), Operand::Reg(y)], None),
                        1 => b.op_into(SemOp::Mul, Ty::I32, d, &[Operand::Reg(x), Operand::Imm(3)], None),
                        2 => {
                            let p = preds[rng.below(preds.len())];
                            b.op_into(SemOp::Lt, Ty::I32, p, &[Operand::Reg(x), Operand::Reg(y)], None);
                        }
                        3 => {
                            let p = preds[rng.below(preds.len())];
                            let g = dsp_mir::Guard { reg: p, negate: rng.below(2) == 0 };
                            b.op_into(SemOp::Add, Ty::I32, d, &[Operand::Reg(x), Operand::Imm(1)], Some(g));
                        }
                        4 => b.copy(d, x),
                        5 => {
                            let r = b.call("ext", &[x, y]);
                            b.copy(d, r);
                        }
                        6 => b.store_frame(local, 4 * rng.below(4) as i64, x),
                        _ => {
                            let v = b.load_frame(local, 4 * rng.below(4) as i64);
                            b.copy(d, v);
                        }
                    }
                }
                let t = match rng.below(6) {
                    0 => Terminator::Jump(blocks[rng.below(nblocks)]),
                    1 | 2 => Terminator::Branch {
                        cond: preds[rng.below(preds.len())],
                        negate: rng.below(2) == 0,
                        taken: blocks[rng.below(nblocks)],
                        not_taken: blocks[rng.below(nblocks)],
                    },
                    3 => Terminator::IndirectJump {
                        target: pool[rng.below(pool.len())],
                        targets: (0..1 + rng.below(3)).map(|_| blocks[rng.below(nblocks)]).collect(),
                    },
                    4 => Terminator::Unreachable,
                    _ => {
                        let r = b.int_ret_reg();
                        b.copy(Reg::Phys(r), pool[rng.below(pool.len())]);
                        Terminator::Return { rets: vec![r] }
                    }
                };
                b.term(t);
            }
            let mut g = b.f.clone();
            let opts = RaOptions { check: true, ..RaOptions::default() };
            match allocate(&m, &mut g, &opts) {
                Ok(_) => dsp_mir::verify::verify(&m, &g, dsp_mir::verify::Stage::Allocated).unwrap(),
                Err(e) => panic!("{} seed {seed}: {e}\n{}", m.name, dsp_mir::print::function(&m, &b.f)),
            }
        }
    }
}

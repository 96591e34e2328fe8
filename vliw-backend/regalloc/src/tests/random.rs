//! Random SSA programs (straight-line code, diamonds with and without an
//! else block, loops with loop-carried values that may swap, calls,
//! predicates, guarded definitions, 64-bit values, memory), allocated on
//! every machine and run before and after allocation: results and data
//! memory must agree, and the checker must accept every assignment.

use dsp_mir::{Block, Guard, Operand, Reg};
use isa_tablegen::{Machine, SemOp, Ty};

use super::builder::*;

struct Gen<'m> {
    b: Fb<'m>,
    rng: u64,
    ints: Vec<Reg>,
    preds: Vec<Reg>,
    longs: Vec<Reg>,
    ptr: Reg,
    calls: bool,
    budget: i32,
}

impl<'m> Gen<'m> {
    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }
    fn pick(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn int(&mut self) -> Reg {
        // Favour old values now and then, so that intervals get long.
        let n = self.ints.len();
        let i = if self.next().is_multiple_of(3) { self.pick(n.min(4)) } else { n - 1 - self.pick(n.min(12)) };
        self.ints[i]
    }
    fn pred(&mut self) -> Reg {
        if self.preds.is_empty() {
            let (a, c) = (self.int(), self.int());
            let p = self.b.cmp(SemOp::Lt, a, c);
            self.preds.push(p);
        }
        let n = self.preds.len();
        let i = n - 1 - self.pick(n.min(8));
        self.preds[i]
    }

    fn stmt(&mut self, depth: u32) {
        self.budget -= 1;
        let k = self.next() % 20;
        match k {
            0..=5 => {
                let ops = [SemOp::Add, SemOp::Sub, SemOp::Mul, SemOp::Xor, SemOp::And, SemOp::Or];
                let op = ops[self.pick(ops.len())];
                let a = self.int();
                let v = if self.next().is_multiple_of(3) && op != SemOp::Sub {
                    let imm = (self.next() % 200) as i64 - 100;
                    self.b.bini(op, a, imm)
                } else {
                    let c = self.int();
                    self.b.bin(op, a, c)
                };
                self.ints.push(v);
            }
            6 => {
                let k = (self.next() % 5000) as i64;
                let v = self.b.imm(k);
                self.ints.push(v);
            }
            7 | 8 => {
                let ops = [SemOp::Lt, SemOp::Eq, SemOp::Ne, SemOp::Le];
                let op = ops[self.pick(ops.len())];
                let (a, c) = (self.int(), self.int());
                let p = self.b.cmp(op, a, c);
                self.preds.push(p);
            }
            9 => {
                let p = self.pred();
                let (a, c) = (self.int(), self.int());
                let v = self.b.select(p, a, c);
                self.ints.push(v);
            }
            10 if self.calls => {
                let n = 1 + self.pick(3);
                let args: Vec<Reg> = (0..n).map(|_| self.int()).collect();
                let v = self.b.call(if n == 2 { "two" } else { "other" }, &args);
                self.ints.push(v);
            }
            11 if depth < 3 => self.diamond(depth),
            12 if depth < 2 => self.looop(depth),
            13 => {
                // 64-bit: widen, add, narrow.
                let d = self.b.d;
                let a = self.int();
                let x = self.b.cvt(Ty::I32, Ty::I64, d, a);
                let k = self.pick(self.longs.len());
                let y = if self.longs.is_empty() { x } else { self.longs[k] };
                let s = self.b.op(SemOp::Add, Ty::I64, d, &[Operand::Reg(x), Operand::Reg(y)]);
                self.longs.push(s);
                let lo = self.b.cvt(Ty::I64, Ty::I32, self.b.int, s);
                self.ints.push(lo);
            }
            14 => {
                // A guarded definition: x = a; (p) x = x + c.
                let p = self.pred();
                let (a, c) = (self.int(), self.int());
                let x = Reg::Virt(self.b.f.new_vreg(self.b.int));
                self.b.copy(x, a);
                let negate = self.next().is_multiple_of(2);
                self.b.op_into(SemOp::Add, Ty::I32, x, &[Operand::Reg(x), Operand::Reg(c)], Some(Guard::new(p, negate)));
                self.ints.push(x);
            }
            15 => {
                let off = 4 * (self.next() % 64) as i64;
                let v = self.int();
                let ptr = self.ptr;
                self.b.store(SemOp::Store, Ty::I32, &[Operand::Reg(ptr), Operand::Imm(off), Operand::Reg(v)]);
            }
            16 => {
                let off = 4 * (self.next() % 64) as i64;
                let ptr = self.ptr;
                let v = self.b.op(SemOp::Load, Ty::I32, self.b.int, &[Operand::Reg(ptr), Operand::Imm(off)]);
                self.ints.push(v);
            }
            _ => {
                let a = self.int();
                let k = (self.next() % 5) as i64;
                let v = self.b.bini(SemOp::Shl, a, k);
                self.ints.push(v);
            }
        }
    }

    fn diamond(&mut self, depth: u32) {
        let p = self.pred();
        let (t, j) = (self.b.block("t"), self.b.block("j"));
        let with_else = !self.next().is_multiple_of(3);
        let e = if with_else { Some(self.b.block("e")) } else { None };
        let from = self.b.cur;
        self.b.branch(p, t, e.unwrap_or(j));
        let (ni, np, nl) = (self.ints.len(), self.preds.len(), self.longs.len());
        let arm = |g: &mut Gen, blk: Block| -> (Block, Reg, Reg) {
            g.b.at(blk);
            for _ in 0..1 + g.pick(6) {
                g.stmt(depth + 1);
            }
            let (r1, r2) = (g.int(), g.int());
            g.b.jump(j);
            let end = g.b.cur;
            g.ints.truncate(ni);
            g.preds.truncate(np);
            g.longs.truncate(nl);
            (end, r1, r2)
        };
        let (tend, t1, t2) = arm(self, t);
        let (eend, e1, e2) = match e {
            Some(e) => arm(self, e),
            None => {
                let (a, c) = (self.int(), self.int());
                (from, a, c)
            }
        };
        self.b.at(j);
        let x = self.b.phi(self.b.int, vec![(tend, t1), (eend, e1)]);
        let y = self.b.phi(self.b.int, vec![(tend, t2), (eend, e2)]);
        self.ints.push(x);
        self.ints.push(y);
    }

    fn looop(&mut self, depth: u32) {
        let pre = self.b.cur;
        let (h, body, exit) = (self.b.block("h"), self.b.block("body"), self.b.block("exit"));
        let zero = self.b.imm(0);
        let k = 1 + (self.next() % 4) as i64;
        let bound = self.b.imm(k);
        let inits: Vec<Reg> = (0..1 + self.pick(3)).map(|_| self.int()).collect();
        self.b.jump(h);
        self.b.at(h);
        let int = self.b.int;
        let i = self.b.f.new_vreg(int);
        let carried: Vec<_> = inits.iter().map(|_| self.b.f.new_vreg(int)).collect();
        let p = self.b.cmp(SemOp::Lt, Reg::Virt(i), bound);
        self.b.branch(p, body, exit);
        let (ni, np, nl) = (self.ints.len(), self.preds.len(), self.longs.len());
        self.b.at(body);
        self.ints.push(Reg::Virt(i));
        self.ints.extend(carried.iter().map(|c| Reg::Virt(*c)));
        for _ in 0..1 + self.pick(8) {
            self.stmt(depth + 1);
        }
        // Next values: anything in scope, including other carried values (swaps).
        let nexts: Vec<Reg> = carried
            .iter()
            .map(|_| if self.next().is_multiple_of(3) { Reg::Virt(carried[self.pick(carried.len())]) } else { self.int() })
            .collect();
        let i1 = self.b.bini(SemOp::Add, Reg::Virt(i), 1);
        self.b.jump(h);
        let bend = self.b.cur;
        self.ints.truncate(ni);
        self.preds.truncate(np);
        self.longs.truncate(nl);
        self.b.phi_into(h, i, vec![(pre, zero), (bend, i1)]);
        for ((c, init), nx) in carried.iter().zip(&inits).zip(&nexts) {
            self.b.phi_into(h, *c, vec![(pre, *init), (bend, *nx)]);
        }
        self.b.at(exit);
        self.ints.extend(carried.iter().map(|c| Reg::Virt(*c)));
    }
}

fn generate(m: &Machine, seed: u64, calls: bool, size: i32) -> dsp_mir::Function {
    let mut b = Fb::new(m, "random");
    let a = b.arg(0);
    let c = b.arg(1);
    let ptr = b.arg(2);
    let mut g = Gen { b, rng: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1, ints: vec![a, c], preds: vec![], longs: vec![], ptr, calls, budget: size };
    while g.budget > 0 {
        g.stmt(0);
    }
    // Result: a mix of the most recent values.
    let mut s = g.ints[0];
    for _ in 0..8 {
        let v = g.int();
        s = g.b.bin(SemOp::Add, s, v);
        s = g.b.bini(SemOp::Mul, s, 31);
    }
    g.b.ret(s);
    g.b.f
}

fn run_random(seeds: std::ops::Range<u64>, calls: bool, size: i32) {
    run_random_with(seeds, calls, size, &crate::RaOptions { check: true, ..Default::default() });
}

fn run_random_with(seeds: std::ops::Range<u64>, calls: bool, size: i32, opts: &crate::RaOptions) {
    for m in machines() {
        for seed in seeds.clone() {
            let f = generate(&m, seed, calls, size);
            for args in [[3u64, 1000, DATA], [0xffff_fff7, 12, DATA + 256]] {
                let r = std::panic::catch_unwind(|| alloc_and_compare_with(&m, &f, &args, &[], opts));
                if let Err(e) = r {
                    panic!("{}: seed {seed} (calls {calls}, size {size}) failed: {:?}", m.name, e.downcast_ref::<String>());
                }
            }
        }
    }
}

#[test]
fn random_programs_without_calls() {
    run_random(0..40, false, 60);
}

#[test]
fn random_programs_with_calls() {
    run_random(100..140, true, 60);
}

#[test]
fn random_programs_without_coalescing() {
    run_random_with(200..215, true, 80, &crate::RaOptions { check: true, coalesce: false, ..Default::default() });
}

#[test]
fn large_random_programs() {
    run_random(1000..1006, true, 400);
}

/// Statistics and timing on a few programs (`cargo test -- --ignored --nocapture`).
#[test]
#[ignore]
fn zz_stats() {
    let m = Machine::load("ftm").unwrap();
    for (seed, calls, size) in [(1u64, false, 60), (2, true, 60), (1000, true, 400), (1001, true, 400), (7, true, 3000)] {
        let f = generate(&m, seed, calls, size);
        let n: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
        let t0 = std::time::Instant::now();
        let mut g = f.clone();
        let r = crate::allocate(&m, &mut g, &crate::RaOptions { check: false, ..Default::default() }).unwrap();
        println!("time {:?}", t0.elapsed());
        let n2: usize = g.blocks.iter().map(|b| b.insts.len()).sum();
        println!("seed {seed}: {} blocks {n} insts {} vregs -> {n2} insts; {r:?}", f.blocks.len(), f.vregs.len());
    }
}

//! A software-pipelined loop built by hand, as the pipeliner would hand it
//! over: `b[i] = a[i] * 3; acc += b[i]` modulo-scheduled on each shipped
//! machine (cycles derived from its latencies, units and delay slots), as
//! a prologue, a kernel and an epilogue with fixed schedules over virtual
//! registers (the load issued in the kernel's last bundle lands in the next
//! pass), behind a guard that sends short trip counts to an ordinary loop.
//! Register allocation, emission, assembly with crt0 and libprint, linking
//! and a run on `dsp-sim --strict` must give the host's results for trip
//! counts around the number of stages and beyond.

mod common;

use common::*;
use dsp_mir::{
    Block, Callee, FixedBlock, Function, Inst, InstKind, Operand, Reg, RegFileId, Terminator,
};
use dsp_sched::SchedOptions;
use isa_tablegen::{ArgPat, Guard, Machine, Op, SemOp, Ty, Want};

const LEN: usize = 40;

fn a_values() -> Vec<i32> {
    (0..LEN as i32).map(|i| (i * 37 + 11) % 101 - 50).collect()
}

/// What the program prints for `n` iterations: acc, then Σ (i+1)·b[i].
fn expected(n: usize) -> String {
    let a = a_values();
    let acc: i32 = a[..n].iter().map(|x| x * 3).sum();
    let w: i32 = a[..n]
        .iter()
        .enumerate()
        .map(|(i, x)| (i as i32 + 1) * x * 3)
        .sum();
    format!("{acc}{w}")
}

/// A function under construction over virtual registers.
struct Vb<'m> {
    m: &'m Machine,
    f: Function,
    cur: Block,
    int: RegFileId,
    pred: RegFileId,
}

impl<'m> Vb<'m> {
    fn new(m: &'m Machine) -> Vb<'m> {
        let mut f = Function::new("main");
        let cur = f.new_block("entry");
        Vb {
            m,
            f,
            cur,
            int: m.scalar_file(Ty::I32).unwrap(),
            pred: m.predicate_file().unwrap(),
        }
    }
    fn vreg(&mut self, file: RegFileId) -> Reg {
        Reg::Virt(self.f.new_vreg(file))
    }
    /// `dst = op.I32(args)`, not pushed.
    fn inst(&self, op: SemOp, dst: Option<Reg>, args: &[Operand]) -> Inst {
        let pats: Vec<ArgPat> = args
            .iter()
            .map(|a| match a {
                Operand::Reg(r) => ArgPat::Reg(self.f.reg_file(*r)),
                Operand::Imm(v) => ArgPat::Imm(*v),
                _ => ArgPat::SymImm,
            })
            .collect();
        let want = Want {
            op,
            ty: Some(Ty::I32),
            ty2: None,
            dst: dst.map(|d| self.f.reg_file(d)),
            args: &pats,
        };
        let id = self
            .m
            .find_instr(&want)
            .unwrap_or_else(|| panic!("{}: no instruction for {want:?}", self.m.name));
        dsp_mir::builder::sem_inst(self.m, id, dst.map(Operand::Reg), args, None)
    }
    fn push(&mut self, i: Inst) {
        let c = self.cur;
        self.f.block_mut(c).insts.push(i);
    }
    fn op(&mut self, op: SemOp, dst: Reg, args: &[Operand]) {
        let i = self.inst(op, Some(dst), args);
        self.push(i);
    }
    fn new_op(&mut self, op: SemOp, file: RegFileId, args: &[Operand]) -> Reg {
        let d = self.vreg(file);
        self.op(op, d, args);
        d
    }
    fn term(&mut self, t: Terminator) {
        let c = self.cur;
        self.f.block_mut(c).term = t;
    }
    fn print(&mut self, v: Reg) {
        let a0 = arg(self.m, Ty::I32, 0);
        self.push(Inst::new(InstKind::Copy {
            dst: Reg::Phys(a0),
            src: v,
        }));
        self.push(Inst::new(InstKind::Call {
            callee: Callee::Sym("print_int".into()),
            args: vec![a0],
            rets: vec![],
        }));
    }
}

fn r(x: Reg) -> Operand {
    Operand::Reg(x)
}
fn imm(v: i64) -> Operand {
    Operand::Imm(v)
}

fn latency(m: &Machine, i: &Inst) -> u32 {
    match &i.kind {
        InstKind::Machine { instr, .. } => m.instr(*instr).latency.max(1),
        _ => 1,
    }
}

/// Whether these instructions fit one bundle (registers of distinct,
/// non-special indices; `branch`: plus a guarded branch).
fn fits(m: &Machine, insts: &[&Inst], branch: bool) -> bool {
    let mut ops: Vec<Op> = Vec::new();
    let mut next = 0i64;
    for i in insts {
        let InstKind::Machine { instr, ops: o, .. } = &i.kind else {
            return false;
        };
        let decl = &m.instr(*instr).operands;
        let args = o
            .iter()
            .zip(decl)
            .map(|(x, d)| match (x, d.kind) {
                (Operand::Imm(v), _) => *v,
                (Operand::Reg(_), isa_tablegen::OperandKind::Reg(file)) => {
                    next += 1;
                    1 + next % (m.regfile(file).count as i64 - 1)
                }
                _ => 0,
            })
            .collect();
        ops.push(Op {
            instr: *instr,
            guard: None,
            args,
        });
    }
    if branch {
        let br = dsp_sched::query::branch_instr(m).unwrap();
        ops.push(Op {
            instr: br,
            guard: Some(Guard {
                reg: 1,
                negate: false,
            }),
            args: vec![0],
        });
    }
    ops.is_empty() || m.check_bundle(&ops).is_ok()
}

/// The pipelined loop and where its parts are.
struct Pipelined {
    f: Function,
    ii: u32,
    stages: u32,
    p: Block,
    k: Block,
    e: Block,
}

/// Builds `main` for the machine; the trip count is the data word `n`.
fn build(m: &Machine) -> Pipelined {
    let delay = m.control.delay_slots;
    let mut b = Vb::new(m);
    let (int, pred) = (b.int, b.pred);
    let pre = b.f.new_block("pre");
    let p_blk = b.f.new_block("prologue");
    let k_blk = b.f.new_block("kernel");
    let e_blk = b.f.new_block("epilogue");
    let slow_head = b.f.new_block("slow.head");
    let slow_body = b.f.new_block("slow.body");
    let done = b.f.new_block("done");
    let w_head = b.f.new_block("w.head");
    let w_body = b.f.new_block("w.body");
    let fin = b.f.new_block("fin");

    // Registers of the loop.
    let (pa, pb, acc, x, y, c, p) = (
        b.vreg(int),
        b.vreg(int),
        b.vreg(int),
        b.vreg(int),
        b.vreg(int),
        b.vreg(int),
        b.vreg(pred),
    );
    let zero = b.vreg(int);
    // One iteration: (instruction, index) in program order; times below.
    let body = [
        b.inst(SemOp::Load, Some(x), &[r(pa), imm(0)]),
        b.inst(SemOp::Add, Some(pa), &[r(pa), imm(4)]),
        b.inst(SemOp::Mul, Some(y), &[r(x), imm(3)]),
        b.inst(SemOp::Store, None, &[r(pb), imm(0), r(y)]),
        b.inst(SemOp::Add, Some(pb), &[r(pb), imm(4)]),
        b.inst(SemOp::Add, Some(acc), &[r(acc), r(y)]),
    ];
    let lat: Vec<u32> = body.iter().map(|i| latency(m, i)).collect();
    // Loop control (kernel only): c -= 1 in row 0; p = 0 < c once c lands.
    let dec = b.inst(SemOp::Add, Some(c), &[r(c), imm(-1)]);
    let test = b.inst(SemOp::Lt, Some(p), &[r(zero), r(c)]);
    let test_row = latency(m, &dec);
    // The smallest II (from the lifetimes and the loop control) whose rows fit bundles.
    let lower = [
        lat[0] + 1,
        lat[2] + 1,
        test_row + latency(m, &test) + 1 + delay,
    ]
    .into_iter()
    .max()
    .unwrap();
    let (ii, t) = (lower..lower + 64)
        .find_map(|ii| {
            // Rows of the kernel: the loop control first, then each op at
            // its earliest time whose row still fits a bundle, within its
            // dependences and lifetimes (every value is read less than II
            // cycles after its write issues: one register per value).
            let bc = ii - 1 - delay;
            let mut rows: Vec<Vec<&Inst>> = vec![Vec::new(); ii as usize];
            rows[0].push(&dec);
            rows[test_row as usize].push(&test);
            let mut t = vec![0u32; body.len()];
            for k in 0..body.len() {
                let (lo, hi) = match k {
                    0 => (ii - 1, ii - 1), // the load in the kernel's last bundle
                    1 => (t[0], t[0] + ii - lat[1]),
                    2 => (t[0] + lat[0], t[0] + ii - 1),
                    3 => (t[2] + lat[2], t[2] + ii - 1),
                    4 => (t[3], t[3] + ii - lat[4]),
                    _ => (t[2] + lat[2], t[2] + ii - 1),
                };
                let fit = (lo..=hi).find(|&tt| {
                    let row = (tt % ii) as usize;
                    let mut trial = rows[row].clone();
                    trial.push(&body[k]);
                    fits(m, &trial, row as u32 == bc)
                })?;
                t[k] = fit;
                rows[(fit % ii) as usize].push(&body[k]);
            }
            Some((ii, t))
        })
        .unwrap_or_else(|| panic!("{}: no II fits", m.name));
    let stages = t.iter().max().unwrap() / ii + 1;
    assert!(stages >= 2);
    let at = |i: &Inst, cycle: u32| {
        let mut x = i.clone();
        x.cycle = Some(cycle);
        x
    };
    let sorted = |mut v: Vec<(u32, usize, Inst)>| {
        v.sort_by_key(|e| (e.0, e.1));
        v.into_iter().map(|e| e.2).collect::<Vec<Inst>>()
    };
    // Prologue: passes 0..S-2, stages up to the pass.
    let mut pro = Vec::new();
    for q in 0..stages - 1 {
        for (k, (i, &tt)) in body.iter().zip(&t).enumerate() {
            if tt / ii <= q {
                pro.push((q * ii + tt % ii, k, at(i, q * ii + tt % ii)));
            }
        }
    }
    // Kernel: every op in its row, the loop control, the branch in row II-1-delay.
    let mut ker: Vec<(u32, usize, Inst)> = body
        .iter()
        .zip(&t)
        .enumerate()
        .map(|(k, (i, &tt))| (tt % ii, k, at(i, tt % ii)))
        .collect();
    ker.push((0, 10, at(&dec, 0)));
    ker.push((test_row, 11, at(&test, test_row)));
    // Epilogue: passes 0..S-2, the later stages; long enough to drain
    // (including the kernel's last results in flight).
    let mut epi = Vec::new();
    let mut elen = (stages - 1) * ii;
    for (i, &tt) in body.iter().zip(&t) {
        elen = elen.max((tt % ii + latency(m, i)).saturating_sub(ii));
    }
    for q in 0..stages - 1 {
        for (k, (i, &tt)) in body.iter().zip(&t).enumerate() {
            if tt / ii > q {
                let cyc = q * ii + tt % ii;
                elen = elen.max(cyc + latency(m, i));
                epi.push((cyc, k, at(i, cyc)));
            }
        }
    }

    // entry: pointers, trip count, the guard.
    let (na, n) = (b.vreg(int), b.vreg(int));
    b.op(
        SemOp::Mov,
        pa,
        &[Operand::Sym {
            name: "a".into(),
            offset: 0,
        }],
    );
    b.op(
        SemOp::Mov,
        pb,
        &[Operand::Sym {
            name: "b".into(),
            offset: 0,
        }],
    );
    b.op(
        SemOp::Mov,
        na,
        &[Operand::Sym {
            name: "n".into(),
            offset: 0,
        }],
    );
    b.op(SemOp::Load, n, &[r(na), imm(0)]);
    b.op(SemOp::Mov, zero, &[imm(0)]);
    b.op(SemOp::Mov, acc, &[imm(0)]);
    let cnt = b.new_op(SemOp::Add, int, &[r(n), imm(0)]);
    let s = b.new_op(SemOp::Mov, int, &[imm(stages as i64)]);
    let short = b.new_op(SemOp::Lt, pred, &[r(n), r(s)]);
    b.term(Terminator::Branch {
        cond: short,
        negate: false,
        taken: slow_head,
        not_taken: pre,
    });
    // pre: kernel passes = n - (S - 1).
    b.cur = pre;
    b.op(SemOp::Add, c, &[r(n), imm(1 - stages as i64)]);
    b.term(Terminator::Jump(p_blk));
    let fixed = |b: &mut Vb,
                 blk: Block,
                 insts: Vec<Inst>,
                 len: u32,
                 bc: Option<u32>,
                 drains: bool,
                 term: Terminator| {
        let d = b.f.block_mut(blk);
        d.insts = insts;
        d.fixed = Some(FixedBlock {
            len,
            branch_cycle: bc,
            drains,
        });
        d.term = term;
    };
    fixed(
        &mut b,
        p_blk,
        sorted(pro),
        (stages - 1) * ii,
        None,
        false,
        Terminator::Jump(k_blk),
    );
    fixed(
        &mut b,
        k_blk,
        sorted(ker),
        ii,
        Some(ii - 1 - delay),
        false,
        Terminator::Branch {
            cond: p,
            negate: false,
            taken: k_blk,
            not_taken: e_blk,
        },
    );
    fixed(
        &mut b,
        e_blk,
        sorted(epi),
        elen,
        None,
        true,
        Terminator::Jump(done),
    );
    b.f.block_mut(p_blk).comments = vec![
        format!("software pipelined loop: II={ii}, {stages} stages"),
        "hand-built".into(),
    ];
    // The ordinary loop for short trip counts.
    b.cur = slow_head;
    let more = b.new_op(SemOp::Lt, pred, &[r(zero), r(cnt)]);
    b.term(Terminator::Branch {
        cond: more,
        negate: false,
        taken: slow_body,
        not_taken: done,
    });
    b.cur = slow_body;
    for i in &body {
        b.push(i.clone());
    }
    b.op(SemOp::Add, cnt, &[r(cnt), imm(-1)]);
    b.term(Terminator::Jump(slow_head));
    // done: print acc, then Σ (i+1)·b[i].
    b.cur = done;
    b.print(acc);
    let (w, i, q) = (b.vreg(int), b.vreg(int), b.vreg(int));
    b.op(SemOp::Mov, w, &[imm(0)]);
    b.op(SemOp::Mov, i, &[imm(0)]);
    b.op(
        SemOp::Mov,
        q,
        &[Operand::Sym {
            name: "b".into(),
            offset: 0,
        }],
    );
    b.term(Terminator::Jump(w_head));
    b.cur = w_head;
    let go = b.new_op(SemOp::Lt, pred, &[r(i), r(n)]);
    b.term(Terminator::Branch {
        cond: go,
        negate: false,
        taken: w_body,
        not_taken: fin,
    });
    b.cur = w_body;
    let v = b.new_op(SemOp::Load, int, &[r(q), imm(0)]);
    b.op(SemOp::Add, i, &[r(i), imm(1)]);
    let v2 = b.new_op(SemOp::Mul, int, &[r(v), r(i)]);
    b.op(SemOp::Add, w, &[r(w), r(v2)]);
    b.op(SemOp::Add, q, &[r(q), imm(4)]);
    b.term(Terminator::Jump(w_head));
    b.cur = fin;
    b.print(w);
    let ret0 = ret(m, Ty::I32);
    b.push(Inst::new(InstKind::Copy {
        dst: Reg::Phys(ret0),
        src: zero,
    }));
    b.term(Terminator::Return { rets: vec![ret0] });
    Pipelined {
        f: b.f,
        ii,
        stages,
        p: p_blk,
        k: k_blk,
        e: e_blk,
    }
}

fn data(n: usize) -> Vec<dsp_mir::DataObject> {
    let a: Vec<u32> = a_values().iter().map(|&v| v as u32).collect();
    vec![
        words("a", &a, dsp_mir::DataSection::Data),
        words("b", &[0; LEN], dsp_mir::DataSection::Data),
        words("n", &[n as u32], dsp_mir::DataSection::Data),
    ]
}

#[test]
fn pipelined_loop_runs_on_every_machine() {
    for m in machines() {
        let pl = build(&m);
        dsp_mir::verify::verify(&m, &pl.f, dsp_mir::verify::Stage::Selected)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(&m, &pl.f)));
        let mut f = pl.f.clone();
        let opts = dsp_regalloc::RaOptions {
            check: true,
            ..dsp_regalloc::RaOptions::default()
        };
        dsp_regalloc::allocate(&m, &mut f, &opts)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(&m, &pl.f)));
        // Allocation only renamed the fixed blocks (and may drop dead code).
        for blk in [pl.p, pl.k, pl.e] {
            let (before, after) = (pl.f.block(blk), f.block(blk));
            assert_eq!(before.fixed, after.fixed);
            assert!(
                after.insts.len() <= before.insts.len()
                    && after.insts.iter().all(|i| i.cycle.is_some())
            );
        }
        assert_eq!(
            f.block(pl.k).insts.len(),
            pl.f.block(pl.k).insts.len(),
            "{}: the kernel lost code",
            m.name
        );
        // Emitted as given: the kernel is II bundles.
        let sf = dsp_sched::schedule_function(&m, &f, &SchedOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(&m, &f)));
        let label = |b: Block| format!(".Lmain_{}", b.0);
        let blk = |b: Block| sf.blocks.iter().find(|x| x.label == label(b)).unwrap();
        assert_eq!(blk(pl.k).bundles.len(), pl.ii as usize, "{}", m.name);
        assert_eq!(
            blk(pl.p).bundles.len(),
            ((pl.stages - 1) * pl.ii) as usize,
            "{}",
            m.name
        );
        let order: Vec<&str> = sf.blocks.iter().map(|x| x.label.as_str()).collect();
        let pos = |b: Block| order.iter().position(|l| *l == label(b)).unwrap();
        assert_eq!(
            (pos(pl.k), pos(pl.e)),
            (pos(pl.p) + 1, pos(pl.p) + 2),
            "{}: {order:?}",
            m.name
        );
        assert_eq!(
            sf.stats.bundles,
            sf.blocks.iter().map(|b| b.bundles.len()).sum::<usize>()
        );
        for n in [
            0,
            1,
            pl.stages as usize - 1,
            pl.stages as usize,
            pl.stages as usize + 1,
            3 * pl.stages as usize,
            LEN,
        ] {
            let module = module(vec![f.clone()], data(n));
            let modes = if n == LEN {
                all_modes()
            } else {
                vec![SchedOptions::default()]
            };
            for o in modes {
                let run = run_with(&m, &module, &[PRINT_INT], &o);
                assert_eq!(
                    (run.status, run.stdout.as_str()),
                    (0, expected(n).as_str()),
                    "{}: n = {n}\n{}",
                    m.name,
                    run.asm
                );
                if n == LEN {
                    let text = format!(
                        "# software pipelined loop: II={}, {} stages\n# hand-built\n{}:",
                        pl.ii,
                        pl.stages,
                        label(pl.p)
                    );
                    assert!(run.asm.contains(&text), "{}", run.asm);
                }
            }
        }
        eprintln!(
            "{}: II={}, {} stages, kernel {} bundles",
            m.name,
            pl.ii,
            pl.stages,
            blk(pl.k).bundles.len()
        );
    }
}

//! Directed allocation scenarios, each on every shipped machine.

use dsp_mir::{Block, FrameKind, Function, InstKind, Operand, Reg, Terminator};
use isa_tablegen::{SemOp, Ty};

use super::builder::*;
use crate::{allocate, RaOptions};

fn count_insts(f: &Function, pred: impl Fn(&dsp_mir::Inst) -> bool) -> usize {
    f.blocks.iter().flat_map(|b| &b.insts).filter(|i| pred(i)).count()
}

#[test]
fn straight_line_pressure_spills_and_stays_correct() {
    for m in machines() {
        let mut b = Fb::new(&m, "pressure");
        let a = b.arg(0);
        let vals: Vec<Reg> = (0..60)
            .map(|i| {
                let x = b.bini(SemOp::Mul, a, i + 3);
                b.bini(SemOp::Add, x, i)
            })
            .collect();
        let mut s = b.imm(0);
        for (k, v) in vals.iter().rev().enumerate() {
            s = if k % 2 == 0 { b.bin(SemOp::Add, s, *v) } else { b.bin(SemOp::Xor, s, *v) };
        }
        b.ret(s);
        for arg in [0u64, 1, 12345, 0xffff_fff0] {
            let (rep, g, _) = alloc_and_compare(&m, &b.f, &[arg], &[]);
            assert!(rep.spills > 0 && rep.reloads > 0, "{}: {rep:?}", m.name);
            assert!(rep.frame_size > 0 && rep.frame_size % m.abi.stack_align == 0);
            assert!(count_insts(&g, |i| matches!(i.kind, InstKind::Phi { .. })) == 0);
        }
    }
}

#[test]
fn a_spilled_value_is_reloaded_once_per_block() {
    for m in machines() {
        let mut b = Fb::new(&m, "reuse");
        let a = b.arg(0);
        let vals: Vec<Reg> = (0..50).map(|i| b.bini(SemOp::Mul, a, i + 3)).collect();
        let mut s = b.imm(0);
        // Every value is read three times in the last block.
        for v in vals.iter().rev() {
            s = b.bin(SemOp::Add, s, *v);
            s = b.bin(SemOp::Xor, s, *v);
            s = b.bin(SemOp::Sub, s, *v);
        }
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[9], &[]);
        assert!(rep.spilled_values > 0);
        assert!(rep.reloads <= rep.spilled_values + 2, "{rep:?}\n{}", dsp_mir::print::function(&m, &g));
    }
}

#[test]
fn spill_slots_are_shared_when_lifetimes_do_not_overlap() {
    for m in machines() {
        // Two phases, each with more values live than registers.
        let mut b = Fb::new(&m, "phases");
        let a = b.arg(0);
        let mut s = b.imm(0);
        for phase in 0..2 {
            let vals: Vec<Reg> = (0..45).map(|i| b.bini(SemOp::Mul, a, i + 3 + phase * 100)).collect();
            for v in vals.iter().rev() {
                s = b.bin(SemOp::Add, s, *v);
            }
            a_call_free_barrier(&mut b, s);
        }
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[5], &[]);
        assert!(rep.spilled_values >= 2, "{rep:?}");
        assert!(rep.slots_shared > 0, "{rep:?}");
        // Every access of one stack location names one object (the shared
        // slot's), so the schedulers keep the sharers' accesses in order.
        let mut object_at: std::collections::HashMap<i64, dsp_mir::MemObject> = Default::default();
        for inst in g.blocks.iter().flat_map(|b| &b.insts) {
            let (InstKind::Machine { instr, ops, .. }, Some(o)) = (&inst.kind, inst.object) else { continue };
            let sem = &m.instr(*instr).sem;
            if o.0 < dsp_mir::MemObject::slot(dsp_mir::FrameIndex(0)).0 || !(sem.reads_memory() || sem.writes_memory()) {
                continue;
            }
            let Some(Operand::Imm(off)) = sem.args.get(1).and_then(|a| ops.get(a.0)) else { panic!("a spill access without an offset") };
            assert_eq!(*object_at.entry(*off).or_insert(o), o, "{}: two objects at sp+{off}", m.name);
        }
        assert!(!object_at.is_empty());
    }
}

fn a_call_free_barrier(b: &mut Fb, s: Reg) {
    let next = b.block("next");
    let p = b.cmp(SemOp::Eq, s, s);
    b.branch(p, next, next);
    b.at(next);
}

#[test]
fn constants_are_rematerialized_not_spilled() {
    for m in machines() {
        let mut b = Fb::new(&m, "remat");
        let a = b.arg(0);
        let consts: Vec<Reg> = (0..50).map(|i| b.imm(1000 + i)).collect();
        let mut s = a;
        for c in consts.iter().rev() {
            s = b.bin(SemOp::Add, s, *c);
            s = b.bini(SemOp::Xor, s, 5);
        }
        b.ret(s);
        let (rep, _, _) = alloc_and_compare(&m, &b.f, &[7], &[]);
        assert!(rep.remats > 0, "{rep:?}");
        assert_eq!(rep.spills, 0, "{rep:?}");
    }
}

/// `s = Σ i*i for i < n` with a loop and phis.
fn loop_sum(m: &isa_tablegen::Machine) -> Function {
    let mut b = Fb::new(m, "loop_sum");
    let (h, body, exit) = (b.block("h"), b.block("body"), b.block("exit"));
    let n = b.arg(0);
    let zero = b.imm(0);
    b.jump(h);
    b.at(h);
    let i1 = b.f.new_vreg(b.int);
    let s1 = b.f.new_vreg(b.int);
    let i = b.phi(b.int, vec![(Block(0), zero), (body, Reg::Virt(i1))]);
    let s = b.phi(b.int, vec![(Block(0), zero), (body, Reg::Virt(s1))]);
    let p = b.cmp(SemOp::Lt, i, n);
    b.branch(p, body, exit);
    b.at(body);
    let sq = b.bin(SemOp::Mul, i, i);
    b.op_into(SemOp::Add, Ty::I32, Reg::Virt(s1), &[Operand::Reg(s), Operand::Reg(sq)], None);
    b.op_into(SemOp::Add, Ty::I32, Reg::Virt(i1), &[Operand::Reg(i), Operand::Imm(1)], None);
    b.jump(h);
    b.at(exit);
    b.ret(s);
    b.f
}

#[test]
fn loop_with_phis() {
    for m in machines() {
        let f = loop_sum(&m);
        for n in [0u64, 1, 5, 30] {
            let (rep, g, out) = alloc_and_compare(&m, &f, &[n], &[]);
            assert_eq!(out.rets[0][0], (0..n).map(|i| i * i).sum::<u64>());
            assert_eq!(rep.spills, 0);
            // Coalescing leaves at most the entry and return copies.
            assert!(count_insts(&g, |i| matches!(i.kind, InstKind::Copy { .. })) <= 3, "{}", dsp_mir::print::function(&m, &g));
        }
    }
}

#[test]
fn phi_swap_cycles_are_correct() {
    for m in machines() {
        // x, y, z rotate every iteration: (x, y, z) = (y, z, x); plus a swap of u and w.
        let mut b = Fb::new(&m, "swap");
        let (h, body, exit) = (b.block("h"), b.block("body"), b.block("exit"));
        let n = b.arg(0);
        let x0 = b.imm(1);
        let y0 = b.imm(20);
        let z0 = b.imm(300);
        let u0 = b.imm(4000);
        let w0 = b.imm(50000);
        let zero = b.imm(0);
        b.jump(h);
        b.at(h);
        let (x, y, z, u, w, i) = (b.f.new_vreg(b.int), b.f.new_vreg(b.int), b.f.new_vreg(b.int), b.f.new_vreg(b.int), b.f.new_vreg(b.int), b.f.new_vreg(b.int));
        let i1 = b.f.new_vreg(b.int);
        let p = b.cmp(SemOp::Lt, Reg::Virt(i), n);
        b.branch(p, body, exit);
        b.phi_into(h, x, vec![(Block(0), x0), (body, Reg::Virt(y))]);
        b.phi_into(h, y, vec![(Block(0), y0), (body, Reg::Virt(z))]);
        b.phi_into(h, z, vec![(Block(0), z0), (body, Reg::Virt(x))]);
        b.phi_into(h, u, vec![(Block(0), u0), (body, Reg::Virt(w))]);
        b.phi_into(h, w, vec![(Block(0), w0), (body, Reg::Virt(u))]);
        b.phi_into(h, i, vec![(Block(0), zero), (body, Reg::Virt(i1))]);
        b.at(body);
        b.op_into(SemOp::Add, Ty::I32, Reg::Virt(i1), &[Operand::Reg(Reg::Virt(i)), Operand::Imm(1)], None);
        b.jump(h);
        b.at(exit);
        let a = b.bini(SemOp::Mul, Reg::Virt(x), 1);
        let t = b.bini(SemOp::Mul, Reg::Virt(y), 7);
        let t2 = b.bini(SemOp::Mul, Reg::Virt(z), 49);
        let t3 = b.bini(SemOp::Mul, Reg::Virt(u), 3);
        let s = b.bin(SemOp::Add, a, t);
        let s = b.bin(SemOp::Add, s, t2);
        let s = b.bin(SemOp::Add, s, t3);
        let s = b.bin(SemOp::Add, s, Reg::Virt(w));
        b.ret(s);
        for n in 0..7u64 {
            let (rep, _, _) = alloc_and_compare(&m, &b.f, &[n], &[]);
            assert!(rep.phi_copies >= 6);
        }
    }
}

#[test]
fn values_live_across_calls_survive() {
    for m in machines() {
        let mut b = Fb::new(&m, "calls");
        let a = b.arg(0);
        let c = b.arg(1);
        let vals: Vec<Reg> = (0..24).map(|i| b.bini(SemOp::Add, a, i * 11)).collect();
        let r1 = b.call("f1", &[a, c]);
        let mut s = r1;
        for v in &vals[..12] {
            s = b.bin(SemOp::Add, s, *v);
        }
        let r2 = b.call("f2", &[s, vals[3], vals[5]]);
        for v in &vals[12..] {
            s = b.bin(SemOp::Xor, s, *v);
        }
        let s = b.bin(SemOp::Add, s, r2);
        let s = b.bin(SemOp::Add, s, c);
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[5, 9], &[]);
        // The link register and callee-saved registers are saved.
        assert!(rep.saved_regs >= 2, "{rep:?}");
        // Every register written and live across a call is callee-saved (checked by
        // the checker); the link register save is a store of it.
        let link = m.control.link.unwrap();
        assert!(count_insts(&g, |i| match &i.kind {
            InstKind::Machine { instr, ops, .. } =>
                m.instr(*instr).sem.op == SemOp::Store && ops.contains(&Operand::Reg(Reg::Phys(link))),
            _ => false,
        }) == 1);
    }
}

#[test]
fn call_results_and_many_calls_in_a_loop() {
    for m in machines() {
        let mut b = Fb::new(&m, "callloop");
        let (h, body, exit) = (b.block("h"), b.block("body"), b.block("exit"));
        let n = b.arg(0);
        let k = b.arg(1);
        let zero = b.imm(0);
        let keep: Vec<Reg> = (0..20).map(|i| b.bini(SemOp::Mul, k, i + 2)).collect();
        b.jump(h);
        b.at(h);
        let (i, acc, i1, acc1) = (b.f.new_vreg(b.int), b.f.new_vreg(b.int), b.f.new_vreg(b.int), b.f.new_vreg(b.int));
        let p = b.cmp(SemOp::Lt, Reg::Virt(i), n);
        b.branch(p, body, exit);
        b.phi_into(h, i, vec![(Block(0), zero), (body, Reg::Virt(i1))]);
        b.phi_into(h, acc, vec![(Block(0), zero), (body, Reg::Virt(acc1))]);
        b.at(body);
        let r = b.call("g", &[Reg::Virt(i), Reg::Virt(acc), keep[0]]);
        let t = b.bin(SemOp::Add, r, keep[7]);
        b.op_into(SemOp::Xor, Ty::I32, Reg::Virt(acc1), &[Operand::Reg(t), Operand::Reg(Reg::Virt(acc))], None);
        b.op_into(SemOp::Add, Ty::I32, Reg::Virt(i1), &[Operand::Reg(Reg::Virt(i)), Operand::Imm(1)], None);
        b.jump(h);
        b.at(exit);
        let mut s = Reg::Virt(acc);
        for v in &keep {
            s = b.bin(SemOp::Add, s, *v);
        }
        b.ret(s);
        for n in [0u64, 3] {
            alloc_and_compare(&m, &b.f, &[n, 17], &[]);
        }
    }
}

#[test]
fn predicate_pressure_spills_through_integers() {
    for m in machines() {
        let mut b = Fb::new(&m, "preds");
        let a = b.arg(0);
        let mut preds = Vec::new();
        for i in 0..14 {
            let c = b.imm(i * 5);
            preds.push(b.cmp(SemOp::Lt, a, c));
        }
        let mut s = b.imm(0);
        for (i, p) in preds.iter().enumerate().rev() {
            let x = b.imm(1 << i);
            let y = b.imm(0);
            let v = b.select(*p, x, y);
            s = b.bin(SemOp::Or, s, v);
        }
        b.ret(s);
        for arg in [0u64, 7, 33, 100] {
            let (rep, g, out) = alloc_and_compare(&m, &b.f, &[arg], &[]);
            let want: u64 = (0..14).filter(|i| (arg as i64) < i * 5).map(|i| 1u64 << i).sum();
            assert_eq!(out.rets[0][0], want);
            assert!(rep.spills > 0, "{rep:?}");
            // A predicate went to an integer register and came back.
            let pred = m.predicate_file().unwrap();
            let int = m.scalar_file(Ty::I32).unwrap();
            let to_int = count_insts(&g, |i| match &i.kind {
                InstKind::Machine { instr, ops, .. } => {
                    let ins = m.instr(*instr);
                    ins.sem.op == SemOp::Mov
                        && matches!(ops[ins.sem.args[0].0], Operand::Reg(r) if g.reg_file(r) == pred)
                        && matches!(ops[ins.sem.dst.unwrap().0], Operand::Reg(r) if g.reg_file(r) == int)
                }
                _ => false,
            });
            assert!(to_int > 0);
        }
    }
}

#[test]
fn vector_and_mask_pressure() {
    for m in machines() {
        let mut b = Fb::new(&m, "vectors");
        let vbytes = (m.regfile(b.vec).width / 8) as i64;
        let ptr = b.arg(0);
        let vecs: Vec<Reg> =
            (0..40).map(|i| b.op(SemOp::VLoad, Ty::I32, b.vec, &[Operand::Reg(ptr), Operand::Imm(i * vbytes)])).collect();
        let masks: Vec<Reg> = (0..12)
            .map(|i| b.op(SemOp::Lt, Ty::I32, b.mask, &[Operand::Reg(vecs[i]), Operand::Reg(vecs[i + 1])]))
            .collect();
        let mut acc = vecs[39];
        for v in vecs.iter().rev().skip(1) {
            acc = b.bin(SemOp::Add, acc, *v);
        }
        for (i, mk) in masks.iter().enumerate().rev() {
            acc = b.op(SemOp::Select, Ty::I32, b.vec, &[Operand::Reg(*mk), Operand::Reg(acc), Operand::Reg(vecs[i])]);
        }
        b.store(SemOp::VStore, Ty::I32, &[Operand::Reg(ptr), Operand::Imm(0x3000), Operand::Reg(acc)]);
        b.ret(ptr);
        let (rep, _, before, after) = alloc_and_compare2(&m, &b.f, &[DATA], &[]);
        assert!(rep.spills > 0, "{rep:?}");
        assert!(data(&before) == data(&after));
    }
}

#[test]
fn locals_and_stack_arguments() {
    for m in machines() {
        let mut b = Fb::new(&m, "frame");
        let local = b.frame(40, 4, FrameKind::Local);
        let inc0 = b.frame(4, 4, FrameKind::IncomingArg { offset: 0 });
        let inc1 = b.frame(4, 4, FrameKind::IncomingArg { offset: 4 });
        let out = b.frame(8, 4, FrameKind::OutgoingArgs);
        let a = b.arg(0);
        for i in 0..10 {
            let v = b.bini(SemOp::Add, a, i * 3);
            b.store_frame(local, 4 * i, v);
        }
        let s0 = b.load_frame(inc0, 0);
        let s1 = b.load_frame(inc1, 0);
        b.store_frame(out, 0, s1);
        b.store_frame(out, 4, s0);
        let r = b.call("h", &[a]);
        let mut s = b.bin(SemOp::Add, r, s0);
        for i in 0..10 {
            let v = b.load_frame(local, 4 * (9 - i));
            s = b.bin(SemOp::Xor, s, v);
            s = b.bini(SemOp::Mul, s, 3);
        }
        // The address of a local, taken with a move.
        let sp = m.abi.sp.unwrap();
        let _ = sp;
        let addr = b.op(SemOp::Mov, Ty::I32, b.int, &[Operand::Frame { index: local, offset: 8 }]);
        let v = b.op(SemOp::Load, Ty::I32, b.int, &[Operand::Reg(addr), Operand::Imm(0)]);
        let s = b.bin(SemOp::Add, s, v);
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[77], &[1000, 2000]);
        assert!(rep.frame_size >= 48 && rep.frame_size % m.abi.stack_align == 0);
        check_frame_accesses(&m, &g, rep.frame_size);
    }
}

/// Every sp-relative access lies inside the frame (or in the incoming
/// argument area above it) and is aligned to its size.
fn check_frame_accesses(m: &isa_tablegen::Machine, g: &Function, frame: u32) {
    let sp = m.abi.sp.unwrap();
    for blk in &g.blocks {
        for i in &blk.insts {
            let InstKind::Machine { instr, ops, .. } = &i.kind else { continue };
            let sem = &m.instr(*instr).sem;
            if !(sem.reads_memory() || sem.writes_memory()) {
                continue;
            }
            if ops[sem.args[0].0] != Operand::Reg(Reg::Phys(sp)) {
                continue;
            }
            let Operand::Imm(off) = ops[sem.args[1].0] else { panic!("frame operand left") };
            let size = match sem.dst.map(|d| &ops[d.0]).or(sem.args.get(2).map(|a| &ops[a.0])) {
                Some(Operand::Reg(r)) => (m.regfile(g.reg_file(*r)).width / 8).max(1) as i64,
                _ => 4,
            };
            assert!(off >= 0, "negative sp offset {off}");
            let elem = sem.ty.map_or(4, |t| t.bits() as i64 / 8);
            let align = if matches!(sem.op, SemOp::VLoad | SemOp::VStore) { size } else { elem };
            assert_eq!(off % align, 0, "misaligned frame access at {off}");
            assert!(off + size <= frame as i64 + 64, "access at {off} outside the frame of {frame}");
        }
    }
}

#[test]
fn dynamic_stack_uses_the_frame_pointer() {
    for m in machines() {
        let mut b = Fb::new(&m, "dyn");
        b.f.dynamic_stack = true;
        let local = b.frame(16, 4, FrameKind::Local);
        let inc = b.frame(4, 4, FrameKind::IncomingArg { offset: 0 });
        let a = b.arg(0);
        b.store_frame(local, 4, a);
        // sp -= 64 (a dynamic alloca), use the memory, call.
        let sp = Reg::Phys(m.abi.sp.unwrap());
        b.op_into(SemOp::Add, Ty::I32, sp, &[Operand::Reg(sp), Operand::Imm(-64)], None);
        let p = b.op(SemOp::Add, Ty::I32, b.int, &[Operand::Reg(sp), Operand::Imm(0)]);
        b.store(SemOp::Store, Ty::I32, &[Operand::Reg(p), Operand::Imm(8), Operand::Reg(a)]);
        let r = b.call("k", &[a]);
        let x = b.op(SemOp::Load, Ty::I32, b.int, &[Operand::Reg(p), Operand::Imm(8)]);
        let y = b.load_frame(local, 4);
        let z = b.load_frame(inc, 0);
        let s = b.bin(SemOp::Add, x, y);
        let s = b.bin(SemOp::Add, s, r);
        let s = b.bin(SemOp::Add, s, z);
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[3], &[500]);
        assert!(rep.saved_regs >= 2);
        let fp = m.abi.fp.unwrap();
        assert!(count_insts(&g, |i| match &i.kind {
            InstKind::Machine { ops, .. } => ops.contains(&Operand::Reg(Reg::Phys(fp))),
            _ => false,
        }) >= 3);
    }
}

#[test]
fn over_aligned_locals_realign_the_stack() {
    over_aligned(false);
}

#[test]
fn over_aligned_locals_with_dynamic_allocation_use_a_base_register() {
    over_aligned(true);
}

fn over_aligned(dynamic: bool) {
    for m in machines() {
        let mut b = Fb::new(&m, "align");
        b.f.dynamic_stack = dynamic;
        let vbytes = m.regfile(b.vec).width / 8;
        let big = 2 * m.abi.stack_align.max(vbytes);
        let local = b.frame(vbytes, big, FrameKind::Local);
        let inc = b.frame(4, 4, FrameKind::IncomingArg { offset: 0 });
        let ptr = b.arg(0);
        let v = b.op(SemOp::VLoad, Ty::I32, b.vec, &[Operand::Reg(ptr), Operand::Imm(0)]);
        let sp = Reg::Phys(m.abi.sp.unwrap());
        if dynamic {
            // A dynamic allocation moves sp before the local is used.
            b.op_into(SemOp::Add, Ty::I32, sp, &[Operand::Reg(sp), Operand::Imm(-(m.abi.stack_align as i64) * 3)], None);
            let p = b.op(SemOp::Add, Ty::I32, b.int, &[Operand::Reg(sp), Operand::Imm(0)]);
            b.store(SemOp::Store, Ty::I32, &[Operand::Reg(p), Operand::Imm(4), Operand::Reg(ptr)]);
            let _ = b.call("use", &[p]);
        }
        b.store(SemOp::VStore, Ty::I32, &[Operand::Reg(sp), Operand::Frame { index: local, offset: 0 }, Operand::Reg(v)]);
        let w = b.op(SemOp::VLoad, Ty::I32, b.vec, &[Operand::Reg(sp), Operand::Frame { index: local, offset: 0 }]);
        b.store(SemOp::VStore, Ty::I32, &[Operand::Reg(ptr), Operand::Imm(vbytes as i64), Operand::Reg(w)]);
        let z = b.load_frame(inc, 0);
        b.ret(z);
        let (_, _, out) = alloc_and_compare(&m, &b.f, &[DATA], &[4242]);
        assert_eq!(out.rets[0][0], 4242);
    }
}

#[test]
fn critical_edges_are_split() {
    for m in machines() {
        // entry: if a < 10 goto join(x=1) else mid; mid: goto join(x=a*2). join: ret x.
        let mut b = Fb::new(&m, "crit");
        let (mid, join) = (b.block("mid"), b.block("join"));
        let a = b.arg(0);
        let one = b.imm(1);
        let ten = b.imm(10);
        let p = b.cmp(SemOp::Lt, a, ten);
        b.branch(p, join, mid);
        b.at(mid);
        let two_a = b.bini(SemOp::Mul, a, 2);
        b.jump(join);
        b.at(join);
        let x = b.phi(b.int, vec![(Block(0), one), (mid, two_a)]);
        let y = b.phi(b.int, vec![(Block(0), a), (mid, one)]);
        let s = b.bini(SemOp::Mul, x, 100);
        let s = b.bin(SemOp::Add, s, y);
        b.ret(s);
        let nblocks = b.f.blocks.len();
        for arg in [3u64, 30] {
            let (_, g, out) = alloc_and_compare(&m, &b.f, &[arg], &[]);
            let want = if arg < 10 { 100 + arg } else { arg * 200 + 1 };
            assert_eq!(out.rets[0][0], want);
            assert_eq!(g.blocks.len(), nblocks + 1);
        }
    }
}

#[test]
fn indirect_jump_edges_keep_their_targets() {
    for m in machines() {
        // entry: t = (a & 1) ? b1 : b2 via a jump table; b1 and b2 also reached from `other`.
        let mut b = Fb::new(&m, "ijump");
        let (other, b1, b2, tail) = (b.block("other"), b.block("b1"), b.block("b2"), b.block("tail"));
        let a = b.arg(0);
        let big = b.imm(100);
        let p = b.cmp(SemOp::Lt, a, big);
        let x = b.bini(SemOp::Add, a, 5);
        b.branch(p, Block(4), other);
        // block 4 = `sw`: the indirect jump.
        let sw = b.block("sw");
        assert_eq!(sw, Block(5));
        b.f.blocks[0].term = Terminator::Branch { cond: p, negate: false, taken: sw, not_taken: other };
        b.at(sw);
        let bit = b.bini(SemOp::And, a, 1);
        let t1 = b.imm(b1.0 as i64);
        let t2 = b.imm(b2.0 as i64);
        let pp = b.op(SemOp::Ne, Ty::I32, b.pred, &[Operand::Reg(bit), Operand::Imm(0)]);
        let tgt = b.select(pp, t1, t2);
        b.term(Terminator::IndirectJump { target: tgt, targets: vec![b1, b2] });
        b.at(other);
        let y = b.bini(SemOp::Mul, a, 3);
        b.branch(p, b1, b2);
        b.at(b1);
        let v1 = b.phi(b.int, vec![(sw, x), (other, y)]);
        let w1 = b.phi(b.int, vec![(sw, a), (other, x)]);
        b.jump(tail);
        b.at(b2);
        let v2 = b.phi(b.int, vec![(sw, a), (other, x)]);
        let w2 = b.phi(b.int, vec![(sw, x), (other, y)]);
        b.jump(tail);
        b.at(tail);
        let v = b.phi(b.int, vec![(b1, v1), (b2, v2)]);
        let w = b.phi(b.int, vec![(b1, w1), (b2, w2)]);
        let s = b.bini(SemOp::Mul, v, 1000);
        let s = b.bin(SemOp::Add, s, w);
        b.ret(s);
        for arg in [3u64, 4, 200] {
            let (_, g, _) = alloc_and_compare(&m, &b.f, &[arg], &[]);
            let Terminator::IndirectJump { targets, .. } = &g.blocks[sw.0 as usize].term else { panic!() };
            assert_eq!(targets, &vec![b1, b2]);
        }
    }
}

#[test]
fn entry_block_with_predecessors_gets_a_fresh_entry() {
    for m in machines() {
        let mut b = Fb::new(&m, "loop_entry");
        let exit = b.block("exit");
        let x = b.imm(1);
        let _ = x;
        let a = b.arg(0);
        let p = b.cmp(SemOp::Lt, a, a);
        b.branch(p, Block(0), exit);
        b.at(exit);
        let r = b.call("z", &[a]);
        b.ret(r);
        alloc_and_compare(&m, &b.f, &[1], &[]);
    }
}

#[test]
fn invalid_input_is_an_error_not_a_panic() {
    for m in machines() {
        let mut b = Fb::new(&m, "bad");
        let a = b.arg(0);
        // A branch to a block that does not exist.
        let exit = b.block("exit");
        let p = b.cmp(SemOp::Lt, a, a);
        b.branch(p, Block(1000), exit);
        b.at(exit);
        b.ret(a);
        let e = allocate(&m, &mut b.f, &RaOptions::default()).unwrap_err();
        assert!(e.to_string().contains("invalid input"), "{e}");
        assert!(e.to_string().starts_with("error: in function 'bad'"), "{e}");
        let mut empty = Function::new("empty");
        assert!(allocate(&m, &mut empty, &RaOptions::default()).is_err());
    }
}

#[test]
fn leaf_function_without_frame_has_no_prologue() {
    for m in machines() {
        let mut b = Fb::new(&m, "leaf");
        let a = b.arg(0);
        let c = b.arg(1);
        let s = b.bin(SemOp::Add, a, c);
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[2, 3], &[]);
        assert_eq!(rep.frame_size, 0);
        assert_eq!(rep.saved_regs, 0);
        // The add reads the argument registers and writes the result register directly.
        assert_eq!(g.blocks[0].insts.len(), 1, "{}", dsp_mir::print::function(&m, &g));
    }
}


#[test]
fn every_register_file_survives_calls() {
    for m in machines() {
        // Vectors, masks, predicates and 64-bit values live across two calls.
        let mut b = Fb::new(&m, "files");
        let vbytes = (m.regfile(b.vec).width / 8) as i64;
        let ptr = b.arg(0);
        let a = b.arg(1);
        let vecs: Vec<Reg> =
            (0..12).map(|i| b.op(SemOp::VLoad, Ty::I32, b.vec, &[Operand::Reg(ptr), Operand::Imm(i * vbytes)])).collect();
        let masks: Vec<Reg> = (0..3)
            .map(|i| b.op(SemOp::Lt, Ty::I32, b.mask, &[Operand::Reg(vecs[i]), Operand::Reg(vecs[i + 5])]))
            .collect();
        let preds: Vec<Reg> = (0..3)
            .map(|i| {
                let c = b.imm(i * 10);
                b.cmp(SemOp::Lt, a, c)
            })
            .collect();
        let longs: Vec<Reg> = (0..10)
            .map(|i| {
                let x = b.bini(SemOp::Add, a, i * 1000);
                b.cvt(Ty::I32, Ty::I64, b.d, x)
            })
            .collect();
        let r = b.call("f", &[a]);
        let r2 = b.call("g", &[r]);
        let mut acc = vecs[0];
        for v in &vecs[1..] {
            acc = b.bin(SemOp::Add, acc, *v);
        }
        for (i, mk) in masks.iter().enumerate() {
            acc = b.op(SemOp::Select, Ty::I32, b.vec, &[Operand::Reg(*mk), Operand::Reg(acc), Operand::Reg(vecs[i + 2])]);
        }
        b.store(SemOp::VStore, Ty::I32, &[Operand::Reg(ptr), Operand::Imm(0x3000), Operand::Reg(acc)]);
        let mut s = r2;
        for (i, p) in preds.iter().enumerate() {
            let x = b.imm(1 << i);
            let z = b.imm(0);
            let v = b.select(*p, x, z);
            s = b.bin(SemOp::Add, s, v);
        }
        let mut l = longs[0];
        for x in &longs[1..] {
            l = b.op(SemOp::Add, Ty::I64, b.d, &[Operand::Reg(l), Operand::Reg(*x)]);
        }
        let lo = b.cvt(Ty::I64, Ty::I32, b.int, l);
        let s = b.bin(SemOp::Add, s, lo);
        b.ret(s);
        for arg in [1u64, 15, 100] {
            let (rep, g, _) = alloc_and_compare(&m, &b.f, &[DATA, arg], &[]);
            assert!(rep.spilled_values >= 6, "predicates and masks cannot stay in registers: {rep:?}");
            check_frame_accesses(&m, &g, rep.frame_size);
        }
    }
}

/// `ftm` with 12-bit immediates for adds, loads and stores: large frames
/// need their offsets materialized.
fn small_immediate_machine() -> isa_tablegen::Machine {
    let (_, text) = isa_tablegen::builtin::source("ftm").unwrap();
    let mut t = String::new();
    for line in text.lines() {
        let narrow = ["inst addi ", "inst ldw ", "inst stw ", "inst ldd ", "inst std ", "inst vld ", "inst vst ", "inst vldu ", "inst vstu "]
            .iter()
            .any(|p| line.starts_with(p));
        if narrow {
            t.push_str(&line.replace("imm:s32", "imm:s12"));
        } else {
            t.push_str(line);
        }
        t.push('\n');
    }
    isa_tablegen::Machine::parse_str(&t, "ftm-small-imm.isa").unwrap()
}

#[test]
fn large_frames_materialize_offsets() {
    let m = small_immediate_machine();
    let mut b = Fb::new(&m, "bigframe");
    let big = b.frame(12000, 4, FrameKind::Local);
    let inc = b.frame(4, 4, FrameKind::IncomingArg { offset: 0 });
    let a = b.arg(0);
    for i in 0..6 {
        let v = b.bini(SemOp::Add, a, i * 7);
        b.store_frame(big, 2000 * i, v);
    }
    let vals: Vec<Reg> = (0..40).map(|i| b.bini(SemOp::Mul, a, i + 2)).collect();
    let r = b.call("f", &[a]);
    let mut s = b.load_frame(inc, 0);
    s = b.bin(SemOp::Add, s, r);
    for v in vals.iter().rev() {
        s = b.bin(SemOp::Xor, s, *v);
    }
    for i in 0..6 {
        let v = b.load_frame(big, 2000 * (5 - i));
        s = b.bin(SemOp::Add, s, v);
        s = b.bini(SemOp::Mul, s, 3);
    }
    b.ret(s);
    let (rep, g, _) = alloc_and_compare(&m, &b.f, &[11], &[99]);
    assert!(rep.frame_size > 12000);
    // Every immediate fits its instruction (the verifier checked); some
    // offsets went through a scratch register.
    let li = count_insts(&g, |i| match &i.kind {
        InstKind::Machine { instr, ops, .. } => {
            m.instr(*instr).sem.op == SemOp::Mov && ops.iter().any(|o| matches!(o, Operand::Imm(v) if v.abs() > 2047))
        }
        _ => false,
    });
    assert!(li >= 6, "{}", dsp_mir::print::function(&m, &g));
    if std::env::var("SHOW").is_ok() {
        println!("{}", dsp_mir::print::function(&m, &g));
    }
}

/// A value read in a loop but spilled for pressure elsewhere (the FFT's
/// arguments, read by its bit-reversal loop, spilled for its butterflies)
/// is reloaded once before the loop, not in every iteration; spill code is
/// inserted for it directly, then the function allocated and run.
#[test]
fn a_spilled_value_read_in_a_loop_is_reloaded_before_it() {
    for m in machines() {
        let mut b = Fb::new(&m, "hoist");
        let (h, body, after) = (b.block("h"), b.block("body"), b.block("after"));
        let a = b.arg(0);
        let x = b.bini(SemOp::Mul, a, 7);
        let zero = b.imm(0);
        b.jump(h);
        b.at(h);
        let i1 = b.f.new_vreg(b.int);
        let s1 = b.f.new_vreg(b.int);
        let i = b.phi(b.int, vec![(Block(0), zero), (body, Reg::Virt(i1))]);
        let s = b.phi(b.int, vec![(Block(0), zero), (body, Reg::Virt(s1))]);
        let ten = b.imm(10);
        let p = b.cmp(SemOp::Lt, i, ten);
        b.branch(p, body, after);
        b.at(body);
        b.op_into(SemOp::Add, Ty::I32, Reg::Virt(s1), &[Operand::Reg(s), Operand::Reg(x)], None);
        b.op_into(SemOp::Add, Ty::I32, Reg::Virt(i1), &[Operand::Reg(i), Operand::Imm(1)], None);
        b.jump(h);
        b.at(after);
        let t = b.bin(SemOp::Add, s, x);
        b.ret(t);
        let Reg::Virt(xv) = x else { panic!() };
        let mut f = b.f.clone();
        let t = crate::target::Target::new(&m, &f).unwrap();
        let mut st = crate::spill::SpillState::new(f.vregs.len());
        crate::spill::insert(&t, &mut f, &[xv], &mut st).unwrap();
        let spill_loads = |g: &Function, blk: usize| {
            g.blocks[blk]
                .insts
                .iter()
                .filter(|i| matches!(&i.kind, InstKind::Machine { instr, ops, .. } if m.instr(*instr).sem.op == SemOp::Load && ops.iter().any(|o| matches!(o, Operand::Frame { index, .. } if g.frame[index.0 as usize].kind == FrameKind::Spill))))
                .count()
        };
        let (h, body, after) = (h.0 as usize, body.0 as usize, after.0 as usize);
        let text = dsp_mir::print::function(&m, &f);
        assert_eq!(spill_loads(&f, h) + spill_loads(&f, body), 0, "{}: {text}", m.name);
        assert_eq!(spill_loads(&f, 0), 1, "the preheader reloads it: {}: {text}", m.name);
        assert_eq!(spill_loads(&f, after), 1, "{}: {text}", m.name);
        let (_, _, out) = alloc_and_compare(&m, &f, &[5], &[]);
        assert_eq!(out.rets[0][0], 5 * 7 * 11);
    }
}

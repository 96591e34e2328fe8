//! Blocks with a fixed schedule (the pipeliner's prologue, kernel and
//! epilogue), on every shipped machine, with cycles derived from the
//! machine's latencies and delay slots: allocation renames their registers
//! only, keeps writes in flight in their registers until they land, never
//! spills their values (too many of them is a `FixedBlockPressure` error),
//! spills values that merely live through them outside them, and refuses
//! phi copies on edges out of them.

use dsp_mir::{Block, FixedBlock, Function, Inst, InstKind, Machine, Operand, Reg};
use isa_tablegen::{SemOp, Ty};

use super::builder::*;
use crate::{allocate, RaErrorKind, RaOptions};

/// Sets the cycle of the instruction just pushed.
fn cyc(b: &mut Fb, c: u32) {
    let cur = b.cur;
    b.f.block_mut(cur).insts.last_mut().unwrap().cycle = Some(c);
}

fn latency(m: &Machine, i: &Inst) -> u32 {
    match &i.kind {
        InstKind::Machine { instr, .. } => m.instr(*instr).latency.max(1),
        _ => 1,
    }
}

/// Sorts a fixed block's instructions by cycle (stable: list order within a cycle).
fn sort_by_cycle(f: &mut Function, b: Block) {
    f.block_mut(b).insts.sort_by_key(|i| i.cycle);
}

fn fix(f: &mut Function, b: Block, len: u32, branch_cycle: Option<u32>, drains: bool) {
    sort_by_cycle(f, b);
    f.block_mut(b).fixed = Some(FixedBlock { len, branch_cycle, drains });
}

/// A fixed block: its index and the (instruction, cycle) sequence.
type Shape = (usize, Vec<(Option<isa_tablegen::InstrId>, Option<u32>)>);

/// The shape of every fixed block.
fn fixed_shape(f: &Function) -> Vec<Shape> {
    f.blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.fixed.is_some())
        .map(|(i, b)| {
            let insts = b
                .insts
                .iter()
                .map(|x| match &x.kind {
                    InstKind::Machine { instr, .. } => (Some(*instr), x.cycle),
                    _ => (None, x.cycle),
                })
                .collect();
            (i, insts)
        })
        .collect()
}

/// After allocation: no register written in a fixed block is read or
/// written again (here or in a fixed successor) before the write lands.
fn check_landing(m: &Machine, f: &Function) -> Result<(), String> {
    let touches = |i: &Inst, r: Reg| {
        let (u, d) = dsp_mir::uses_defs(m, i);
        u.contains(&r) || d.contains(&r)
    };
    for (b, data) in f.blocks.iter().enumerate() {
        let Some(fx) = &data.fixed else { continue };
        for (i, inst) in data.insts.iter().enumerate() {
            let (_, defs) = dsp_mir::uses_defs(m, inst);
            let land = inst.cycle.unwrap() + latency(m, inst);
            for d in defs {
                let name = dsp_mir::print::reg(m, f, d);
                for (j, x) in data.insts.iter().enumerate().skip(i + 1) {
                    if x.cycle.unwrap() < land && touches(x, d) {
                        return Err(format!("bb{b}: inst {j} touches {name} before inst {i}'s write lands"));
                    }
                }
                if fx.branch_cycle.is_some_and(|c| c < land) && crate::operands::term_uses(&data.term).contains(&d) {
                    return Err(format!("bb{b}: the branch reads {name} before inst {i}'s write lands"));
                }
                if land > fx.len {
                    for s in data.term.successors() {
                        let sd = f.block(s);
                        if sd.fixed.is_none() {
                            return Err(format!("bb{b}: inst {i} lands in ordinary bb{}", s.0));
                        }
                        if let Some(j) = sd.insts.iter().position(|x| x.cycle.unwrap() < land - fx.len && touches(x, d)) {
                            return Err(format!("bb{}: inst {j} touches {name} before bb{b} inst {i}'s write lands", s.0));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// n passes of a kernel `acc += x; x = load [base]` (the load issued in the
/// kernel's last bundle lands in the next pass, or in the epilogue, where
/// it is dead), then an epilogue defining six values (7 each) while that
/// load is in flight and adding them to acc: returns 11 n + 42.
fn in_flight_kernel(m: &Machine) -> Function {
    let delay = m.control.delay_slots;
    let mut b = Fb::new(m, "inflight");
    let k = b.block("kernel");
    let e = b.block("epilogue");
    let exit = b.block("exit");
    let n = b.arg(0);
    let base = b.arg(1);
    let eleven = b.imm(11);
    b.store(SemOp::Store, Ty::I32, &[Operand::Reg(base), Operand::Imm(0), Operand::Reg(eleven)]);
    let acc = b.imm(0);
    let zero = b.imm(0);
    let x = b.op(SemOp::Load, Ty::I32, b.int, &[Operand::Reg(base), Operand::Imm(0)]);
    let lld = latency(m, b.f.block(Block(0)).insts.last().unwrap());
    b.jump(k);

    b.at(k);
    let len = lld.max(delay + 3);
    b.op_into(SemOp::Add, Ty::I32, n, &[Operand::Reg(n), Operand::Imm(-1)], None);
    cyc(&mut b, 0);
    let p = b.cmp(SemOp::Lt, zero, n);
    cyc(&mut b, 1);
    b.op_into(SemOp::Add, Ty::I32, acc, &[Operand::Reg(acc), Operand::Reg(x)], None);
    cyc(&mut b, lld - 1);
    b.op_into(SemOp::Load, Ty::I32, x, &[Operand::Reg(base), Operand::Imm(0)], None);
    cyc(&mut b, len - 1);
    b.branch(p, k, e);
    fix(&mut b.f, k, len, Some(len - 1 - delay), false);

    b.at(e);
    let ys: Vec<Reg> = (0..6)
        .map(|i| {
            let y = b.imm(7);
            cyc(&mut b, i.min(lld.saturating_sub(2)));
            y
        })
        .collect();
    let mut s = acc;
    for (i, y) in ys.iter().enumerate() {
        s = b.bin(SemOp::Add, s, *y);
        cyc(&mut b, lld.saturating_sub(1).max(1) + i as u32);
    }
    let elen = lld.saturating_sub(1).max(1) + ys.len() as u32 + 1;
    b.jump(exit);
    fix(&mut b.f, e, elen, None, true);

    b.at(exit);
    b.ret(s);
    b.f
}

#[test]
fn writes_in_flight_keep_their_register_until_they_land() {
    for m in machines() {
        let f = in_flight_kernel(&m);
        dsp_mir::verify::verify(&m, &f, dsp_mir::verify::Stage::Selected).unwrap();
        for n in [1u64, 2, 5] {
            let (_, g, out) = alloc_and_compare(&m, &f, &[n, DATA], &[]);
            assert_eq!(out.rets[0][0] & 0xffff_ffff, 11 * n + 42, "{}", m.name);
            assert_eq!(fixed_shape(&f), fixed_shape(&g), "{}: fixed blocks changed\n{}", m.name, dsp_mir::print::function(&m, &g));
            check_landing(&m, &g).unwrap_or_else(|e| panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(&m, &g)));
        }
    }
}

/// A dead load (never read) followed by short writes issued while it is in flight.
#[test]
fn dead_writes_in_fixed_blocks_occupy_their_register_until_they_land() {
    for m in machines() {
        let mut b = Fb::new(&m, "dead");
        let f1 = b.block("fixed");
        let exit = b.block("exit");
        let base = b.arg(0);
        b.jump(f1);
        b.at(f1);
        b.op(SemOp::Load, Ty::I32, b.int, &[Operand::Reg(base), Operand::Imm(0)]);
        cyc(&mut b, 0);
        let lld = latency(&m, b.f.block(f1).insts.last().unwrap());
        let mut vals = Vec::new();
        for i in 0..8 {
            vals.push(b.imm(i + 1));
            cyc(&mut b, 1);
        }
        let mut s = vals[0];
        for (i, v) in vals.iter().enumerate().skip(1) {
            s = b.bin(SemOp::Add, s, *v);
            cyc(&mut b, 1 + i as u32);
        }
        let len = (lld + 1).max(vals.len() as u32 + 1);
        b.jump(exit);
        fix(&mut b.f, f1, len, None, true);
        b.at(exit);
        b.ret(s);
        let (_, g, out) = alloc_and_compare(&m, &b.f, &[DATA], &[]);
        assert_eq!(out.rets[0][0] & 0xffff_ffff, 36);
        assert_eq!(fixed_shape(&b.f), fixed_shape(&g), "{}", m.name);
        check_landing(&m, &g).unwrap_or_else(|e| panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(&m, &g)));
    }
}

#[test]
fn too_many_values_in_a_fixed_block_is_a_pressure_error() {
    for m in machines() {
        let mut b = Fb::new(&m, "pressure");
        let f1 = b.block("fixed");
        let exit = b.block("exit");
        b.jump(f1);
        b.at(f1);
        let count = m.regfile(b.int).count as u32 + 2;
        let vals: Vec<Reg> = (0..count)
            .map(|i| {
                let v = b.imm(i as i64);
                cyc(&mut b, i);
                v
            })
            .collect();
        let mut s = vals[0];
        for (i, v) in vals.iter().enumerate().skip(1) {
            s = b.bin(SemOp::Add, s, *v);
            cyc(&mut b, count + i as u32);
        }
        b.jump(exit);
        fix(&mut b.f, f1, 2 * count + 1, None, true);
        b.at(exit);
        b.ret(s);
        let mut f = b.f.clone();
        let e = allocate(&m, &mut f, &RaOptions::default()).unwrap_err();
        assert_eq!(e.kind, RaErrorKind::FixedBlockPressure { block: f1, file: b.int }, "{}: {e}", m.name);
        assert!(e.to_string().starts_with("error: in function 'pressure': register allocation: "), "{e}");
        assert!(e.to_string().contains("bb1"), "{e}");
    }
}

/// Many values live through a fixed block (not used in it) are spilled,
/// with their spill code outside it.
#[test]
fn values_living_through_fixed_blocks_spill_outside_them() {
    for m in machines() {
        let mut b = Fb::new(&m, "through");
        let f1 = b.block("fixed");
        let exit = b.block("exit");
        let a = b.arg(0);
        let vals: Vec<Reg> = (0..50).map(|i| b.bini(SemOp::Mul, a, i + 3)).collect();
        b.jump(f1);
        b.at(f1);
        let x = b.bini(SemOp::Add, a, 1000);
        cyc(&mut b, 0);
        let y = b.bin(SemOp::Add, x, a);
        cyc(&mut b, 1);
        b.jump(exit);
        fix(&mut b.f, f1, 2, None, true);
        b.at(exit);
        let mut s = y;
        for v in &vals {
            s = b.bin(SemOp::Add, s, *v);
        }
        b.ret(s);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[77], &[]);
        assert!(rep.spills > 0, "{}: {rep:?}", m.name);
        assert_eq!(fixed_shape(&b.f), fixed_shape(&g), "{}", m.name);
    }
}

#[test]
fn phi_copies_are_never_put_into_fixed_blocks() {
    for m in machines() {
        for identity in [false, true] {
            let mut b = Fb::new(&m, "phi");
            let f1 = b.block("fixed");
            let join = b.block("join");
            let a = b.arg(0);
            let zero = b.imm(0);
            let p = b.cmp(SemOp::Lt, zero, a);
            b.branch(p, f1, join);
            b.at(f1);
            // identity: the fixed block writes the phi's own register.
            let (y, z) = if identity {
                let z = b.f.new_vreg(b.int);
                b.op_into(SemOp::Add, Ty::I32, Reg::Virt(z), &[Operand::Reg(a), Operand::Imm(5)], None);
                (Reg::Virt(z), Some(z))
            } else {
                (b.bini(SemOp::Add, a, 5), None)
            };
            cyc(&mut b, 0);
            b.jump(join);
            fix(&mut b.f, f1, 1, None, true);
            b.at(join);
            let r = match z {
                Some(z) => {
                    b.phi_into(join, z, vec![(Block(0), a), (f1, y)]);
                    y
                }
                None => b.phi(b.int, vec![(Block(0), a), (f1, y)]),
            };
            b.ret(r);
            if identity {
                let (_, g, out) = alloc_and_compare(&m, &b.f, &[4], &[]);
                assert_eq!(out.rets[0][0] & 0xffff_ffff, 9);
                assert_eq!(fixed_shape(&b.f), fixed_shape(&g));
                // Nothing added to the fixed block (its value may leave it
                // through a copy on a new block of the edge to the join).
                assert!(g.block(f1).insts.len() == 1, "{}", m.name);
            } else {
                let mut f = b.f.clone();
                let e = allocate(&m, &mut f, &RaOptions::default()).unwrap_err();
                assert_eq!(e.kind, RaErrorKind::Other);
                assert!(e.message.contains("fixed schedule"), "{e}");
            }
        }
    }
}

/// Two fixed blocks, each reading its own values defined at the entry:
/// together too many for the registers at the entry, each set fits in its
/// block. The values of the second block are split around it and spilled
/// in ordinary code.
#[test]
fn values_of_fixed_blocks_split_around_them_when_ordinary_code_is_crowded() {
    for m in machines() {
        let mut b = Fb::new(&m, "two");
        let f1 = b.block("fixed1");
        let mid = b.block("mid");
        let f2 = b.block("fixed2");
        let exit = b.block("exit");
        let a = b.arg(0);
        let n = (m.regfile(b.int).count * 2 / 3) as i64;
        let xs: Vec<Reg> = (0..n).map(|i| b.bini(SemOp::Mul, a, i + 3)).collect();
        let ys: Vec<Reg> = (0..n).map(|i| b.bini(SemOp::Mul, a, i + 100)).collect();
        b.jump(f1);
        let sum = |b: &mut Fb, vals: &[Reg]| {
            let mut s = vals[0];
            for (i, v) in vals.iter().enumerate().skip(1) {
                s = b.bin(SemOp::Add, s, *v);
                cyc(b, i as u32 - 1);
            }
            s
        };
        b.at(f1);
        let s1 = sum(&mut b, &xs);
        b.jump(mid);
        fix(&mut b.f, f1, n as u32, None, true);
        b.at(mid);
        let s1b = b.bini(SemOp::Add, s1, 1);
        b.jump(f2);
        b.at(f2);
        let s2 = sum(&mut b, &ys);
        b.jump(exit);
        fix(&mut b.f, f2, n as u32, None, true);
        b.at(exit);
        let r = b.bin(SemOp::Add, s1b, s2);
        b.ret(r);
        let (rep, g, _) = alloc_and_compare(&m, &b.f, &[3], &[]);
        assert!(rep.spills > 0, "{}: {rep:?}", m.name);
        assert_eq!(fixed_shape(&b.f), fixed_shape(&g), "{}", m.name);
        check_landing(&m, &g).unwrap();
    }
}

/// An outer loop whose counter and accumulators pass through a crowded
/// fixed block (not read there) and are read and written around it in
/// every iteration. Split around the fixed block, they are stored before
/// it and reloaded after it, and the loop's ordinary code uses them in
/// registers: fewer reloads than spilling them whole (`split_passing`
/// off), the same results.
#[test]
fn values_passing_through_fixed_blocks_split_around_them() {
    for m in machines() {
        let mut b = Fb::new(&m, "passing");
        let head = b.block("head");
        let fx = b.block("fixed");
        let latch = b.block("latch");
        let exit = b.block("exit");
        let a = b.arg(0);
        let i = b.imm(0);
        let ten = b.imm(10);
        let accs: Vec<Reg> = (0..8).map(|k| b.bini(SemOp::Mul, a, k + 3)).collect();
        b.jump(head);
        b.at(head);
        for (k, acc) in accs.iter().enumerate() {
            let t = b.bini(SemOp::Mul, i, k as i64 + 1);
            b.op_into(SemOp::Add, Ty::I32, *acc, &[Operand::Reg(*acc), Operand::Reg(t)], None);
        }
        b.jump(fx);
        b.at(fx);
        let count = m.regfile(b.int).count as u32 - 8;
        let vals: Vec<Reg> = (0..count)
            .map(|k| {
                let v = b.imm(k as i64 + 1);
                cyc(&mut b, k);
                v
            })
            .collect();
        let mut s = vals[0];
        for (k, v) in vals.iter().enumerate().skip(1) {
            s = b.bin(SemOp::Add, s, *v);
            cyc(&mut b, count + k as u32);
        }
        b.jump(latch);
        fix(&mut b.f, fx, 2 * count + 1, None, true);
        b.at(latch);
        for acc in &accs {
            b.op_into(SemOp::Add, Ty::I32, *acc, &[Operand::Reg(*acc), Operand::Reg(s)], None);
        }
        b.op_into(SemOp::Add, Ty::I32, i, &[Operand::Reg(i), Operand::Imm(1)], None);
        let p = b.cmp(SemOp::Lt, i, ten);
        b.branch(p, head, exit);
        b.at(exit);
        let mut r = accs[0];
        for acc in &accs[1..] {
            r = b.bin(SemOp::Add, r, *acc);
        }
        b.ret(r);
        let on = RaOptions { check: true, ..RaOptions::default() };
        let off = RaOptions { split_passing: false, ..on.clone() };
        let (rep_on, g, _, out) = alloc_and_compare_with(&m, &b.f, &[5], &[], &on);
        let (rep_off, _, _, out_off) = alloc_and_compare_with(&m, &b.f, &[5], &[], &off);
        assert_eq!(out.rets, out_off.rets);
        assert!(rep_off.reloads > 0, "{}: nothing spilled: {rep_off:?}", m.name);
        assert!(rep_on.reloads < rep_off.reloads, "{}: split {rep_on:?}, whole {rep_off:?}\n{}", m.name, dsp_mir::print::function(&m, &g));
        assert_eq!(fixed_shape(&b.f), fixed_shape(&g), "{}", m.name);
        check_landing(&m, &g).unwrap();
    }
}

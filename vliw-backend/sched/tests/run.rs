//! Scheduled code runs: hand-built allocated MIR is emitted, assembled with
//! crt0, linked and run on `dsp-sim --strict` on every shipped machine, in
//! every scheduling mode; exit status and output are checked, and packing
//! is measured.

mod common;

use common::*;
use dsp_mir::{DataReloc, DataSection, Terminator};
use dsp_sched::SchedOptions;
use isa_tablegen::{SemOp, Ty};

/// Straight-line code mixing latencies: loads, multiply, float conversion
/// and arithmetic, a store and a reload, 64-bit arithmetic.
fn straight_line(m: &isa_tablegen::Machine) -> dsp_mir::Module {
    let s = scratch(m);
    let (x, y, p, a, w, w2, t, u) = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    let mut b = Fb::new(m, "main");
    b.li(x, 6);
    b.li(y, 7);
    b.bin(SemOp::Mul, Ty::I32, p, x, y); // 42
    b.la(a, "table", 0);
    b.load(Ty::I32, w, a, 0); // 100
    b.load(Ty::I32, w2, a, 4); // 5
    b.bin(SemOp::Add, Ty::I32, t, p, w); // 142
    b.bin(SemOp::Sub, Ty::I32, t, t, w2); // 137
    b.sem2(SemOp::Cvt, Some(Ty::I32), Some(Ty::F32), Some(u), &[reg(t)]); // 137.0
    b.bin(SemOp::Add, Ty::F32, u, u, u); // 274.0
    b.sem2(SemOp::Cvt, Some(Ty::F32), Some(Ty::I32), Some(u), &[reg(u)]); // 274
    b.store(Ty::I32, u, a, 8);
    b.load(Ty::I32, x, a, 8); // 274
                              // 64-bit: (x sign-extended) * 3 via add64, then the low half.
    let d = m.scalar_file(Ty::I64).unwrap();
    let (d1, d2) = (
        dsp_mir::PReg { file: d, index: 1 },
        dsp_mir::PReg { file: d, index: 2 },
    );
    b.sem2(
        SemOp::Cvt,
        Some(Ty::I32),
        Some(Ty::I64),
        Some(d1),
        &[reg(x)],
    );
    b.bin(SemOp::Add, Ty::I64, d2, d1, d1);
    b.bin(SemOp::Add, Ty::I64, d2, d2, d1); // 822
    b.sem2(
        SemOp::Cvt,
        Some(Ty::I64),
        Some(Ty::I32),
        Some(y),
        &[reg(d2)],
    );
    let r = ret(m, Ty::I32);
    b.bin(SemOp::Sub, Ty::I32, r, y, x); // 822 - 274 = 548
    b.ret();
    module(
        vec![b.done()],
        vec![words("table", &[100, 5, 0], DataSection::Data)],
    )
}

#[test]
fn straight_line_mixed_latencies() {
    for m in machines() {
        let module = straight_line(&m);
        for opts in all_modes() {
            let run = run_with(&m, &module, &[], &opts);
            assert_eq!(run.status, 548 & 0xff, "{}\n{}", m.name, run.asm);
        }
    }
}

/// sum of i*i for i = 1..=10 (385). With `fallthrough`, the loop's exit
/// follows it; otherwise the exit is also reached from a block laid out
/// after the loop, so neither successor of the loop's branch falls through
/// and it takes two branches (one per arm, one bundle apart).
fn loop_module(m: &isa_tablegen::Machine, fallthrough: bool) -> dsp_mir::Module {
    let s = scratch(m);
    let (i, sum, n, t) = (s[0], s[1], s[2], s[3]);
    let p = dsp_mir::PReg {
        file: m.predicate_file().unwrap(),
        index: 1,
    };
    let mut b = Fb::new(m, "main");
    let body = b.block("loop");
    let other = b.block("skip");
    let exit = b.block("exit");
    b.li(i, 1);
    b.li(sum, 0);
    b.li(n, 11);
    if fallthrough {
        b.term(Terminator::Jump(body));
    } else {
        b.bin(SemOp::Lt, Ty::I32, p, n, i); // false: into the loop
        b.term(Terminator::Branch {
            cond: dsp_mir::Reg::Phys(p),
            negate: false,
            taken: other,
            not_taken: body,
        });
    }
    b.at(body);
    b.bin(SemOp::Mul, Ty::I32, t, i, i);
    b.bin(SemOp::Add, Ty::I32, sum, sum, t);
    b.bini(SemOp::Add, Ty::I32, i, i, 1);
    b.bin(SemOp::Lt, Ty::I32, p, i, n);
    b.term(Terminator::Branch {
        cond: dsp_mir::Reg::Phys(p),
        negate: false,
        taken: body,
        not_taken: exit,
    });
    b.at(other);
    b.li(sum, 99);
    b.term(Terminator::Jump(exit));
    b.at(exit);
    b.copy(ret(m, Ty::I32), sum);
    b.ret();
    module(vec![b.done()], vec![])
}

#[test]
fn loop_with_branches() {
    for m in machines() {
        for fallthrough in [true, false] {
            for opts in all_modes() {
                let run = run_with(&m, &loop_module(&m, fallthrough), &[], &opts);
                assert_eq!(run.status, 385 & 0xff, "{}\n{}", m.name, run.asm);
                // The loop's branches: one when the exit falls through, else
                // two (labels inside the loop, where branches enter after
                // delay slots filled from it, do not end it).
                let asm: String = run.asm.lines().filter(|l| !(l.ends_with(":") && l.contains(".d"))).collect::<Vec<_>>().join("\n");
                let loop_text = asm
                    .split(".Lmain_1:")
                    .nth(1)
                    .unwrap()
                    .split("\n.Lmain_")
                    .next()
                    .unwrap()
                    .to_string();
                let guarded = loop_text.matches(") ").count();
                assert_eq!(
                    guarded,
                    if fallthrough { 1 } else { 2 },
                    "{}\n{}",
                    m.name,
                    run.asm
                );
            }
        }
    }
}

/// add3(a, b, c) = a + b + c; main calls it directly and through a
/// register, prints the results with print_int (libprint) and exits 7.
fn call_module(m: &isa_tablegen::Machine) -> dsp_mir::Module {
    let (a0, a1, a2) = (arg(m, Ty::I32, 0), arg(m, Ty::I32, 1), arg(m, Ty::I32, 2));
    let r = ret(m, Ty::I32);
    let mut f = Fb::new(m, "add3");
    f.bin(SemOp::Add, Ty::I32, a0, a0, a1);
    f.bin(SemOp::Add, Ty::I32, r, a0, a2);
    f.ret();
    let mut add3 = f.done();
    add3.global = false;

    let s = scratch(m);
    let tmp = *s.iter().find(|x| !m.abi.args.contains(x)).unwrap();
    let mut b = Fb::new(m, "main");
    b.prologue();
    b.li(a0, 10);
    b.li(a1, 20);
    b.li(a2, 30);
    b.call("add3", vec![a0, a1, a2], vec![r]);
    b.copy(a0, r);
    b.call("print_int", vec![a0], vec![]);
    b.li(a0, 1);
    b.li(a1, 2);
    b.li(a2, 3);
    b.la(tmp, "add3", 0);
    b.call_reg(tmp, vec![a0, a1, a2], vec![r]);
    b.bini(SemOp::Mul, Ty::I32, a0, r, 100); // 600: a multiply right after a call
    b.call("print_int", vec![a0], vec![]);
    b.epilogue();
    b.li(r, 7);
    b.ret();
    module(vec![b.done(), add3], vec![])
}

#[test]
fn call_and_return() {
    for m in machines() {
        for opts in all_modes() {
            let run = run_with(&m, &call_module(&m), &[PRINT_INT], &opts);
            assert_eq!(
                (run.status, run.stdout.as_str()),
                (7, "60600"),
                "{}\n{}",
                m.name,
                run.asm
            );
        }
    }
}

/// Three divisions on the non-pipelined divider: 1000/7 + 1000%7 + 99/9 = 159.
fn divide_module(m: &isa_tablegen::Machine) -> dsp_mir::Module {
    let s = scratch(m);
    let (a, b7, q, rm, n, d9, q2) = (s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
    let mut b = Fb::new(m, "main");
    b.li(a, 1000);
    b.li(b7, 7);
    b.li(n, 99);
    b.li(d9, 9);
    b.bin(SemOp::Div, Ty::I32, q, a, b7);
    b.bin(SemOp::Rem, Ty::I32, rm, a, b7);
    b.bin(SemOp::Div, Ty::U32, q2, n, d9);
    b.bin(SemOp::Add, Ty::I32, q, q, rm);
    let r = ret(m, Ty::I32);
    b.bin(SemOp::Add, Ty::I32, r, q, q2);
    b.ret();
    module(vec![b.done()], vec![])
}

#[test]
fn non_pipelined_divides() {
    for m in machines() {
        let div = m
            .instrs
            .iter()
            .find(|i| i.sem.op == SemOp::Div && i.sem.ty == Some(Ty::I32))
            .unwrap();
        for opts in all_modes() {
            let run = run_with(&m, &divide_module(&m), &[], &opts);
            assert_eq!(run.status, 159, "{}\n{}", m.name, run.asm);
            // Three divisions on one divider: at least 3 × busy bundles.
            if m.units
                .iter()
                .filter(|u| {
                    div.units
                        .iter()
                        .any(|d| m.units[d.0 as usize].name == u.name)
                })
                .count()
                == 1
            {
                assert!(
                    stats(&run, "main").bundles >= 3 * div.busy as usize,
                    "{}\n{}",
                    m.name,
                    run.asm
                );
            }
        }
    }
}

/// Eight independent constants summed as a tree: the packer must share bundles.
fn packing_module(m: &isa_tablegen::Machine) -> dsp_mir::Module {
    let s = scratch(m);
    let mut b = Fb::new(m, "main");
    for (k, &r) in s.iter().take(8).enumerate() {
        b.li(r, k as i64 + 1);
    }
    let mut live: Vec<_> = s.iter().take(8).copied().collect();
    while live.len() > 1 {
        let mut next = Vec::new();
        for pair in live.chunks(2) {
            b.bin(SemOp::Add, Ty::I32, pair[0], pair[0], pair[1]);
            next.push(pair[0]);
        }
        live = next;
    }
    b.copy(ret(m, Ty::I32), live[0]);
    b.ret();
    module(vec![b.done()], vec![])
}

#[test]
fn packing_shares_bundles() {
    for m in machines() {
        let packed = run(&m, &packing_module(&m), &[]);
        assert_eq!(packed.status, 36, "{}\n{}", m.name, packed.asm);
        let one = run_with(
            &m,
            &packing_module(&m),
            &[],
            &SchedOptions {
                pack: false,
                ..SchedOptions::default()
            },
        );
        assert_eq!(one.status, 36);
        let (p, o) = (stats(&packed, "main"), stats(&one, "main"));
        assert_eq!(p.ops, o.ops);
        assert!(
            p.bundles < o.bundles,
            "{}: packed {} bundles, unpacked {}\n{}",
            m.name,
            p.bundles,
            o.bundles,
            packed.asm
        );
        assert!(
            p.ops_per_bundle() > 1.5,
            "{}: {:.2} ops per bundle\n{}",
            m.name,
            p.ops_per_bundle(),
            packed.asm
        );
        assert!(packed.cycles < one.cycles);
        eprintln!(
            "{}: packing: {} ops in {} bundles ({:.2}/bundle) vs {} unpacked; {} of {} delay slots filled",
            m.name, p.ops, p.bundles, p.ops_per_bundle(), o.bundles, p.delay_slots_filled, p.delay_slots
        );
    }
}

/// Data in every section: a pointer table in .rodata (relocated words)
/// pointing into .data and .bss; main sums through it.
#[test]
fn data_sections_and_relocations() {
    for m in machines() {
        let s = scratch(&m);
        let (t, p, q, v, acc) = (s[0], s[1], s[2], s[3], s[4]);
        let mut b = Fb::new(&m, "main");
        b.la(t, "ptrs", 0);
        b.load(Ty::I32, p, t, 0); // &vals[1]
        b.load(Ty::I32, q, t, 4); // &counter
        b.load(Ty::I32, v, p, 0); // 20
        b.li(acc, 3);
        b.store(Ty::I32, acc, q, 0); // counter = 3
        b.load(Ty::I32, acc, q, 0);
        b.bin(SemOp::Add, Ty::I32, acc, acc, v); // 23
        b.load(Ty::I8, v, p, 4); // low byte of vals[2] = -1 sign-extended
        b.bin(SemOp::Add, Ty::I32, ret(&m, Ty::I32), acc, v); // 22
        b.ret();
        let mut ptrs = words("ptrs", &[0, 0], DataSection::ReadOnly);
        ptrs.relocs = vec![
            DataReloc {
                offset: 0,
                symbol: "vals".into(),
                addend: 4,
            },
            DataReloc {
                offset: 4,
                symbol: "counter".into(),
                addend: 0,
            },
        ];
        let mut vals = words(
            "vals",
            &[10, 20, 0xffff_ffff, 0, 0, 0, 0, 0],
            DataSection::Data,
        );
        vals.global = true;
        vals.align = 16;
        let counter = dsp_mir::DataObject {
            name: "counter".into(),
            global: false,
            section: DataSection::Bss,
            align: 4,
            bytes: vec![],
            size: 4,
            relocs: vec![],
        };
        let run = run(&m, &module(vec![b.done()], vec![ptrs, vals, counter]), &[]);
        assert_eq!(run.status, 22, "{}\n{}", m.name, run.asm);
        assert!(run.asm.contains(".word vals+4"), "{}", run.asm);
        assert!(run.asm.contains(".zero 20"), "{}", run.asm);
    }
}

/// Guarded operations: a compare sets a predicate, operations guarded on it
/// and on its negation pick a value without branching.
#[test]
fn guarded_operations() {
    for m in machines() {
        let s = scratch(&m);
        let (a, b, x) = (s[0], s[1], s[2]);
        let p = dsp_mir::PReg {
            file: m.predicate_file().unwrap(),
            index: 2,
        };
        let mut f = Fb::new(&m, "main");
        f.li(a, 3);
        f.li(b, 9);
        f.li(x, 0);
        f.bin(SemOp::Lt, Ty::I32, p, a, b); // true
        f.guarded(p, false, SemOp::Add, Ty::I32, Some(x), &[reg(x), imm(40)]);
        f.guarded(p, true, SemOp::Add, Ty::I32, Some(x), &[reg(x), imm(1000)]);
        f.guarded(p, false, SemOp::Add, Ty::I32, Some(x), &[reg(x), imm(2)]);
        f.copy(ret(&m, Ty::I32), x);
        f.ret();
        let module = module(vec![f.done()], vec![]);
        for opts in all_modes() {
            let run = run_with(&m, &module, &[], &opts);
            assert_eq!(run.status, 42, "{}\n{}", m.name, run.asm);
        }
    }
}

/// The SIMD unit: an aligned vector load, a lane-wise add, a reduction.
#[test]
fn vectors() {
    for m in machines() {
        let lanes = m.vector_lanes(32).unwrap();
        let vf = m.vector_file(lanes, 32).unwrap();
        let (v1, v2) = (
            dsp_mir::PReg { file: vf, index: 4 },
            dsp_mir::PReg { file: vf, index: 5 },
        );
        let s = scratch(&m);
        let mut f = Fb::new(&m, "main");
        f.la(s[0], "vec", 0);
        f.sem(SemOp::VLoad, Ty::I32, Some(v1), &[reg(s[0]), imm(0)]);
        f.bin(SemOp::Add, Ty::I32, v2, v1, v1);
        f.copy(v1, v2); // a vector copy
        f.sem(SemOp::ReduceAdd, Ty::I32, Some(s[1]), &[reg(v1)]);
        f.copy(ret(&m, Ty::I32), s[1]);
        f.ret();
        let values: Vec<u32> = (1..=lanes).collect();
        let mut data = words("vec", &values, DataSection::Data);
        data.align = lanes * 4;
        let module = module(vec![f.done()], vec![data]);
        let expect = (lanes * (lanes + 1)) as i32 & 0xff; // twice the sum 1..lanes
        for opts in all_modes() {
            let run = run_with(&m, &module, &[], &opts);
            assert_eq!(run.status, expect, "{}\n{}", m.name, run.asm);
        }
    }
}

/// Copies in every register file the test can fill and read back: scalar,
/// 64-bit, predicate (no `mov`: found as `or` of itself), vector.
#[test]
fn copies_in_every_file() {
    for m in machines() {
        let s = scratch(&m);
        let d = m.scalar_file(Ty::I64).unwrap();
        let pf = m.predicate_file().unwrap();
        let (d1, d2) = (
            dsp_mir::PReg { file: d, index: 1 },
            dsp_mir::PReg { file: d, index: 2 },
        );
        let (p1, p2) = (
            dsp_mir::PReg { file: pf, index: 1 },
            dsp_mir::PReg { file: pf, index: 2 },
        );
        let mut f = Fb::new(&m, "main");
        f.li(s[0], 5);
        f.copy(s[1], s[0]); // 5
        f.sem2(
            SemOp::Cvt,
            Some(Ty::I32),
            Some(Ty::I64),
            Some(d1),
            &[reg(s[1])],
        );
        f.copy(d2, d1);
        f.sem2(
            SemOp::Cvt,
            Some(Ty::I64),
            Some(Ty::I32),
            Some(s[2]),
            &[reg(d2)],
        ); // 5
        f.bin(SemOp::Lt, Ty::I32, p1, s[0], s[2]); // false
        f.copy(p2, p1);
        f.li(s[3], 10);
        f.guarded(
            p2,
            true,
            SemOp::Add,
            Ty::I32,
            Some(s[3]),
            &[reg(s[3]), imm(20)],
        ); // 30
        f.bin(SemOp::Add, Ty::I32, ret(&m, Ty::I32), s[2], s[3]); // 35
        f.ret();
        let module = module(vec![f.done()], vec![]);
        for opts in all_modes() {
            let run = run_with(&m, &module, &[], &opts);
            assert_eq!(run.status, 35, "{}\n{}", m.name, run.asm);
        }
    }
}

/// One register reused by four independent load-and-add chains (as an
/// allocator leaves them): renaming lets the chains overlap. A value live
/// into the next block and one read by a call stay where they are.
fn reuse_module(m: &isa_tablegen::Machine) -> dsp_mir::Module {
    let s = scratch(m);
    let (base, t, acc, keep) = (s[0], s[1], s[2], s[3]);
    let mut b = Fb::new(m, "main");
    let next = b.block("next");
    b.la(base, "vals", 0);
    b.li(acc, 0);
    for k in 0..4 {
        b.load(Ty::I32, t, base, 4 * k);
        b.bini(SemOp::Mul, Ty::I32, t, t, 3);
        b.bin(SemOp::Add, Ty::I32, acc, acc, t);
    }
    b.load(Ty::I32, keep, base, 16); // live into the next block: not renamed
    b.term(Terminator::Jump(next));
    b.at(next);
    b.bin(SemOp::Add, Ty::I32, ret(m, Ty::I32), acc, keep); // 3*(1+2+3+4) + 5 = 35
    b.ret();
    module(
        vec![b.done()],
        vec![words("vals", &[1, 2, 3, 4, 5], DataSection::Data)],
    )
}

#[test]
fn renaming_breaks_false_dependences() {
    for m in machines() {
        let on = run(&m, &reuse_module(&m), &[]);
        let off = run_with(
            &m,
            &reuse_module(&m),
            &[],
            &SchedOptions {
                rename: false,
                ..SchedOptions::default()
            },
        );
        assert_eq!((on.status, off.status), (35, 35), "{}\n{}", m.name, on.asm);
        let (a, b) = (stats(&on, "main"), stats(&off, "main"));
        assert!(
            a.renamed >= 3,
            "{}: {} renamed\n{}",
            m.name,
            a.renamed,
            on.asm
        );
        assert!(
            a.bundles < b.bundles && on.cycles < off.cycles,
            "{}: {} vs {} bundles\n{}",
            m.name,
            a.bundles,
            b.bundles,
            on.asm
        );
        eprintln!(
            "{}: renaming: {} values moved, {} -> {} bundles, {} -> {} cycles",
            m.name, a.renamed, b.bundles, a.bundles, off.cycles, on.cycles
        );
    }
}

/// How the loop of [`target_fill_module`] goes back.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Back {
    /// A branch on a predicate at the bottom; the exit falls through.
    Predicate,
    /// The same on an integer register being nonzero (`brnz`), which may
    /// fall through too though it has no guard.
    Register,
    /// An unconditional jump back to a header that tests and leaves.
    Jump,
}

/// sum of 2i for i < 20 (380), by a loop that goes back as `back` says.
fn target_fill_module(m: &isa_tablegen::Machine, back: Back) -> dsp_mir::Module {
    let s = scratch(m);
    let (i, sum, n, t, d) = (s[0], s[1], s[2], s[3], s[4]);
    let p = dsp_mir::PReg {
        file: m.predicate_file().unwrap(),
        index: 1,
    };
    let mut b = Fb::new(m, "main");
    let head = b.block("head");
    let body = b.block("body");
    let exit = b.block("exit");
    b.li(i, 0);
    b.li(sum, 0);
    b.li(n, 20);
    b.term(Terminator::Jump(head));
    if back != Back::Jump {
        // head: t = 2i; sum += t; i += 1; loop while i != n. The exit reads
        // sum, so only the bundle computing t and i may run speculatively.
        b.at(head);
        b.bin(SemOp::Add, Ty::I32, t, i, i);
        b.bin(SemOp::Add, Ty::I32, sum, sum, t);
        b.bini(SemOp::Add, Ty::I32, i, i, 1);
        let cond = if back == Back::Predicate {
            b.bin(SemOp::Lt, Ty::I32, p, i, n);
            p
        } else {
            b.bin(SemOp::Sub, Ty::I32, d, n, i);
            d
        };
        b.term(Terminator::Branch {
            cond: dsp_mir::Reg::Phys(cond),
            negate: false,
            taken: head,
            not_taken: exit,
        });
        b.at(body);
        b.term(Terminator::Jump(exit));
    } else {
        // head: leave when i >= n; body: sum += 2i; i += 1; jump head.
        b.at(head);
        b.bin(SemOp::Lt, Ty::I32, p, i, n);
        b.term(Terminator::Branch {
            cond: dsp_mir::Reg::Phys(p),
            negate: false,
            taken: body,
            not_taken: exit,
        });
        b.at(body);
        b.bin(SemOp::Add, Ty::I32, t, i, i);
        b.bin(SemOp::Add, Ty::I32, sum, sum, t);
        b.bini(SemOp::Add, Ty::I32, i, i, 1);
        b.term(Terminator::Jump(head));
    }
    b.at(exit);
    b.copy(ret(m, Ty::I32), sum);
    b.ret();
    module(vec![b.done()], vec![])
}

#[test]
fn delay_slots_filled_from_the_branch_target() {
    for m in machines() {
        let int = m.scalar_file(Ty::I32).unwrap();
        for back in [Back::Predicate, Back::Register, Back::Jump] {
            if back == Back::Register && dsp_sched::query::branch_on_reg_instr(&m, int, false).is_none() {
                continue;
            }
            let module = target_fill_module(&m, back);
            for opts in all_modes() {
                let run = run_with(&m, &module, &[], &opts);
                assert_eq!(run.status, 380 & 0xff, "{} {back:?}\n{}", m.name, run.asm);
            }
            let on = run(&m, &module, &[]);
            let off_opts = SchedOptions {
                fill_from_target: false,
                ..SchedOptions::default()
            };
            let off = run_with(&m, &module, &[], &off_opts);
            let filled = stats(&on, "main").delay_slots_from_target;
            assert!(filled > 0, "{} {back:?}: nothing copied\n{}", m.name, on.asm);
            assert_eq!(stats(&off, "main").delay_slots_from_target, 0);
            assert!(
                on.cycles < off.cycles,
                "{} {back:?}: {} cycles with the fill, {} without\n{}",
                m.name,
                on.cycles,
                off.cycles,
                on.asm
            );
            // The branch enters the target after the copied bundles.
            assert!(on.asm.contains(".d"), "{}\n{}", m.name, on.asm);
        }
    }
}

/// sum of 3i over the odd i < 20 (300): the test of each i branches over
/// the block adding 3i, which only that branch enters.
fn fallthrough_fill_module(m: &isa_tablegen::Machine) -> dsp_mir::Module {
    let s = scratch(m);
    let (i, sum, n, t, u) = (s[0], s[1], s[2], s[3], s[4]);
    let one = s[5];
    let p = dsp_mir::PReg { file: m.predicate_file().unwrap(), index: 1 };
    let mut b = Fb::new(m, "main");
    let head = b.block("head");
    let odd = b.block("odd");
    let skip = b.block("skip");
    let exit = b.block("exit");
    b.li(i, 0);
    b.li(sum, 0);
    b.li(n, 20);
    b.li(one, 1);
    b.term(Terminator::Jump(head));
    // head: skip the even i.
    b.at(head);
    b.bini(SemOp::And, Ty::I32, t, i, 1);
    b.bin(SemOp::Lt, Ty::I32, p, t, one);
    b.term(Terminator::Branch { cond: dsp_mir::Reg::Phys(p), negate: false, taken: skip, not_taken: odd });
    // odd: sum += 3i (its first operation, u = i + i, may run on the way to skip).
    b.at(odd);
    b.bin(SemOp::Add, Ty::I32, u, i, i);
    b.bin(SemOp::Add, Ty::I32, u, u, i);
    b.bin(SemOp::Add, Ty::I32, sum, sum, u);
    b.term(Terminator::Jump(skip));
    b.at(skip);
    b.bini(SemOp::Add, Ty::I32, i, i, 1);
    b.bin(SemOp::Lt, Ty::I32, p, i, n);
    b.term(Terminator::Branch { cond: dsp_mir::Reg::Phys(p), negate: false, taken: head, not_taken: exit });
    b.at(exit);
    b.copy(ret(m, Ty::I32), sum);
    b.ret();
    module(vec![b.done()], vec![])
}

#[test]
fn delay_slots_filled_from_the_fallthrough() {
    for m in machines() {
        let module = fallthrough_fill_module(&m);
        for opts in all_modes() {
            let run = run_with(&m, &module, &[], &opts);
            assert_eq!(run.status, 300 & 0xff, "{}\n{}", m.name, run.asm);
        }
        let on = run(&m, &module, &[]);
        let off = run_with(&m, &module, &[], &SchedOptions { fill_from_fallthrough: false, ..SchedOptions::default() });
        let moved = stats(&on, "main").delay_slots_from_fallthrough;
        assert!(moved > 0, "{}: nothing moved\n{}", m.name, on.asm);
        assert_eq!(stats(&off, "main").delay_slots_from_fallthrough, 0);
        assert!(on.cycles < off.cycles, "{}: {} cycles with the fill, {} without\n{}", m.name, on.cycles, off.cycles, on.asm);
    }
}

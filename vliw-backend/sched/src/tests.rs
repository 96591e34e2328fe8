//! Unit tests of the scheduler's output: labels and fallthrough, the forms
//! of conditional branches, diagnostics, source comments, data directives,
//! system calls as barriers, and large blocks. Run tests (assembled, linked
//! and simulated) are in tests/run.rs.

use dsp_mir::builder::sem_inst;
use dsp_mir::{
    Block, DataObject, DataReloc, DataSection, Function, Inst, InstKind, Loc, Module, Operand, Reg,
    Terminator,
};
use isa_tablegen::{ArgPat, Machine, Reg as PReg, SemOp, Ty, Want};

use crate::lower::LOperand;
use crate::{emit_module, emit_module_stats, schedule_function, SchedOptions};

fn machines() -> Vec<Machine> {
    isa_tablegen::builtin::names()
        .map(|n| Machine::load(n).unwrap())
        .collect()
}

fn r(m: &Machine, k: usize) -> PReg {
    // Argument registers of the 32-bit file: never special, sp or link.
    let file = m.scalar_file(Ty::I32).unwrap();
    m.abi
        .args
        .iter()
        .copied()
        .filter(|a| a.file == file)
        .nth(k)
        .unwrap()
}

fn op(m: &Machine, sem: SemOp, ty: Ty, dst: Option<PReg>, args: &[Operand]) -> Inst {
    let pats: Vec<ArgPat> = args
        .iter()
        .map(|a| match a {
            Operand::Reg(Reg::Phys(p)) => ArgPat::Reg(p.file),
            Operand::Imm(v) => ArgPat::Imm(*v),
            _ => ArgPat::SymImm,
        })
        .collect();
    let id = m
        .find_instr(&Want {
            op: sem,
            ty: Some(ty),
            ty2: None,
            dst: dst.map(|d| d.file),
            args: &pats,
        })
        .unwrap();
    sem_inst(m, id, dst.map(|d| Operand::Reg(Reg::Phys(d))), args, None)
}

fn reg(p: PReg) -> Operand {
    Operand::Reg(Reg::Phys(p))
}

fn li(m: &Machine, dst: PReg, v: i64) -> Inst {
    op(m, SemOp::Mov, Ty::I32, Some(dst), &[Operand::Imm(v)])
}

fn mnemonic(m: &Machine, sem: SemOp) -> String {
    m.instrs
        .iter()
        .find(|i| i.sem.op == sem)
        .unwrap()
        .mnemonic
        .clone()
}

fn ret_term(m: &Machine) -> Terminator {
    Terminator::Return {
        rets: vec![r(m, 0)],
    }
}

fn one(f: Function) -> Module {
    Module {
        source_name: String::new(),
        functions: vec![f],
        data: vec![],
    }
}

/// f: bb0 sets a predicate and branches; bb1, bb2 return. `taken`/`not_taken` pick the layout.
fn branchy(m: &Machine, taken: u32, not_taken: u32) -> Function {
    let mut f = Function::new("f");
    for name in ["entry", "a", "b"] {
        f.new_block(name);
    }
    let p = PReg {
        file: m.predicate_file().unwrap(),
        index: 1,
    };
    let cmp = op(
        m,
        SemOp::Lt,
        Ty::I32,
        Some(p),
        &[reg(r(m, 0)), reg(r(m, 1))],
    );
    f.block_mut(Block(0)).insts.push(cmp);
    f.block_mut(Block(0)).term = Terminator::Branch {
        cond: Reg::Phys(p),
        negate: false,
        taken: Block(taken),
        not_taken: Block(not_taken),
    };
    for b in [1, 2] {
        f.block_mut(Block(b)).insts.push(li(m, r(m, 0), b as i64));
        f.block_mut(Block(b)).term = ret_term(m);
    }
    f
}

#[test]
fn labels_symbols_and_fallthrough() {
    for m in machines() {
        let mut f = Function::new("f");
        f.new_block("entry");
        f.new_block("next");
        f.block_mut(Block(0)).insts.push(li(&m, r(&m, 0), 5));
        f.block_mut(Block(0)).term = Terminator::Jump(Block(1));
        f.block_mut(Block(1)).term = ret_term(&m);
        let text = emit_module(&m, &one(f), &SchedOptions::default()).unwrap();
        for line in [
            "\t.globl f\n",
            "\t.type f, @function\n",
            "f:\n",
            ".Lf_0:\n",
            ".Lf_1:\n",
            "\t.size f, .-f\n",
        ] {
            assert!(
                text.contains(line),
                "{}: missing {line:?} in\n{text}",
                m.name
            );
        }
        let br = mnemonic(&m, SemOp::Br);
        assert!(
            !text.contains(&format!("{br} ")),
            "{}: the jump to the next block falls through\n{text}",
            m.name
        );
        let jmp = mnemonic(&m, SemOp::Jmp);
        assert!(
            text.contains(&format!("{jmp} {}", m.reg_name(m.control.link.unwrap()))),
            "{text}"
        );
        // Local functions are not exported.
        let mut g = Function::new("g");
        g.global = false;
        g.new_block("entry");
        g.block_mut(Block(0)).term = ret_term(&m);
        let text = emit_module(&m, &one(g), &SchedOptions::default()).unwrap();
        assert!(!text.contains(".globl g"), "{text}");
    }
}

#[test]
fn conditional_branch_forms() {
    for m in machines() {
        let br = mnemonic(&m, SemOp::Br);
        let delay = m.control.delay_slots as usize;
        // Not-taken block next: one branch on the condition.
        let text = emit_module(&m, &one(branchy(&m, 2, 1)), &SchedOptions::default()).unwrap();
        assert!(text.contains(&format!("(p1) {br} .Lf_2")), "{text}");
        assert!(!text.contains("(!p1)"), "{text}");
        // Taken block next: one branch on the negated condition.
        let text = emit_module(&m, &one(branchy(&m, 1, 2)), &SchedOptions::default()).unwrap();
        assert!(text.contains(&format!("(!p1) {br} .Lf_2")), "{text}");
        // Neither arm next: block 1 loops on itself or goes to 3, which
        // layout cannot pull after it (3 is also reached from 2, laid out
        // later). Two branches, one bundle apart, the back edge first.
        for self_taken in [true, false] {
            let mut f = Function::new("f");
            for name in ["entry", "loop", "other", "join"] {
                f.new_block(name);
            }
            let p = PReg {
                file: m.predicate_file().unwrap(),
                index: 1,
            };
            let arms = if self_taken { (1, 3) } else { (3, 1) };
            for (b, taken, not_taken) in [(0, 2, 1), (1, arms.0, arms.1)] {
                f.block_mut(Block(b)).insts.push(op(
                    &m,
                    SemOp::Lt,
                    Ty::I32,
                    Some(p),
                    &[reg(r(&m, 0)), reg(r(&m, 1))],
                ));
                f.block_mut(Block(b)).term = Terminator::Branch {
                    cond: Reg::Phys(p),
                    negate: false,
                    taken: Block(taken),
                    not_taken: Block(not_taken),
                };
            }
            f.block_mut(Block(2)).insts.push(li(&m, r(&m, 0), 2));
            f.block_mut(Block(2)).term = Terminator::Jump(Block(3));
            f.block_mut(Block(3)).insts.push(li(&m, r(&m, 0), 3));
            f.block_mut(Block(3)).term = ret_term(&m);
            let sf = schedule_function(&m, &f, &SchedOptions::default()).unwrap();
            assert_eq!(sf.blocks[1].label, ".Lf_1");
            let b1 = &sf.blocks[1].bundles;
            let pos = |target: &str| {
                b1.iter()
                    .position(|b| {
                        b.iter()
                            .any(|o| o.operands.contains(&LOperand::Label(target.into())))
                    })
                    .unwrap()
            };
            assert_eq!(
                pos(".Lf_3"),
                pos(".Lf_1") + 1,
                "{}: back edge first",
                m.name
            );
            assert_eq!(
                b1.len(),
                pos(".Lf_1") + delay + 2,
                "{}: delay slots of both branches",
                m.name
            );
        }
    }
}

#[test]
fn diagnostics() {
    let m = Machine::load("ftm").unwrap();
    // A virtual register left after allocation.
    let mut f = Function::new("f");
    f.new_block("entry");
    let v = f.new_vreg(m.scalar_file(Ty::I32).unwrap());
    f.block_mut(Block(0)).insts.push(Inst {
        kind: InstKind::Copy {
            dst: Reg::Virt(v),
            src: Reg::Phys(r(&m, 0)),
        },
        loc: None,
        cycle: None,
        object: None,
    });
    f.block_mut(Block(0)).term = ret_term(&m);
    let e = emit_module(&m, &one(f), &SchedOptions::default()).unwrap_err();
    assert!(
        e.to_string().contains("in function 'f'") && e.to_string().contains("virtual register"),
        "{e}"
    );
    // An external symbol spelled like a register cannot be referenced.
    let mut f = Function::new("f");
    f.new_block("entry");
    let sym = Operand::Sym {
        name: "v1".into(),
        offset: 0,
    };
    f.block_mut(Block(0))
        .insts
        .push(op(&m, SemOp::Mov, Ty::I32, Some(r(&m, 0)), &[sym]));
    f.block_mut(Block(0)).term = ret_term(&m);
    let e = emit_module(&m, &one(f.clone()), &SchedOptions::default()).unwrap_err();
    assert!(e.to_string().contains("'v1'"), "{e}");
    // ... unless the module defines it.
    let mut module = one(f);
    module.data.push(DataObject {
        name: "v1".into(),
        global: true,
        section: DataSection::Bss,
        align: 4,
        bytes: vec![],
        size: 4,
        relocs: vec![],
    });
    emit_module(&m, &module, &SchedOptions::default()).unwrap();
    // Names the assembler cannot spell.
    let mut g = Function::new("bad name");
    g.new_block("entry");
    g.block_mut(Block(0)).term = ret_term(&m);
    assert!(emit_module(&m, &one(g), &SchedOptions::default())
        .unwrap_err()
        .to_string()
        .contains("bad name"));
    // A position is reported when the instruction has one.
    let mut f = Function::new("f");
    f.new_block("entry");
    f.new_block("x");
    f.block_mut(Block(0)).insts.push(Inst {
        kind: InstKind::Phi {
            dst: dsp_mir::VReg(0),
            incoming: vec![],
        },
        loc: Some(Loc {
            file: "a.c".into(),
            line: 3,
            col: 1,
        }),
        cycle: None,
        object: None,
    });
    f.vregs.push(m.scalar_file(Ty::I32).unwrap());
    let e = schedule_function(&m, &f, &SchedOptions::default()).unwrap_err();
    assert!(e.to_string().contains("phi"), "{e}");
}

#[test]
fn source_line_comments() {
    let m = Machine::load("ftm").unwrap();
    let dir = std::env::temp_dir().join(format!("dsp-sched-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("x.c");
    std::fs::write(&src, "int f(void) {\n  return 5 + 6;\n}\n").unwrap();
    let mut f = Function::new("f");
    f.new_block("entry");
    let mut i = li(&m, r(&m, 0), 11);
    i.loc = Some(Loc {
        file: src.display().to_string(),
        line: 2,
        col: 3,
    });
    f.block_mut(Block(0)).insts.push(i);
    f.block_mut(Block(0)).term = ret_term(&m);
    let text = emit_module(
        &m,
        &one(f.clone()),
        &SchedOptions {
            comments: true,
            ..SchedOptions::default()
        },
    )
    .unwrap();
    assert!(
        text.contains(&format!("# {}:2: return 5 + 6;", src.display())),
        "{text}"
    );
    let text = emit_module(&m, &one(f), &SchedOptions::default()).unwrap();
    assert!(!text.contains("return 5"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn data_directives() {
    let m = Machine::load("ftm").unwrap();
    let mut bytes = vec![1u8, 2, 3];
    bytes.extend([0u8; 13]);
    bytes.extend([0u8; 4]); // relocated word at 16
    bytes.push(9);
    let module = Module {
        source_name: "d.c".into(),
        functions: vec![],
        data: vec![
            DataObject {
                name: "tab".into(),
                global: true,
                section: DataSection::Data,
                align: 8,
                size: 24,
                bytes,
                relocs: vec![DataReloc {
                    offset: 16,
                    symbol: "other".into(),
                    addend: -4,
                }],
            },
            DataObject {
                name: "z".into(),
                global: false,
                section: DataSection::Bss,
                align: 1,
                bytes: vec![],
                size: 3,
                relocs: vec![],
            },
            DataObject {
                name: "s".into(),
                global: false,
                section: DataSection::ReadOnly,
                align: 1,
                bytes: b"hi\0".to_vec(),
                size: 3,
                relocs: vec![],
            },
        ],
    };
    let text = emit_module(&m, &module, &SchedOptions::default()).unwrap();
    let expect = "\n\t.data\n\t.align 8\n\t.globl tab\n\t.type tab, @object\n\t.size tab, 24\ntab:\n\t.byte 1, 2, 3\n\t.zero 13\n\t.word other-4\n\t.byte 9, 0, 0, 0\n\n\t.bss\n\t.type z, @object\n\t.size z, 3\nz:\n\t.zero 3\n\n\t.rodata\n\t.type s, @object\n\t.size s, 3\ns:\n\t.byte 104, 105, 0\n";
    assert!(text.ends_with(expect), "{text}");
    let obj = dsp_mc::assemble(&m, &text, "d.s").unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let data = obj.sections.iter().find(|s| s.name == ".data").unwrap();
    assert_eq!(data.size, 24);
    assert_eq!(&data.data[..3], &[1, 2, 3]);
    assert_eq!(data.relocs.len(), 1);
}

#[test]
fn system_calls_are_barriers() {
    for m in machines() {
        let Some(trap) = m.instrs.iter().position(|i| i.sem.op == SemOp::Syscall) else {
            continue;
        };
        let trap = isa_tablegen::InstrId(trap as u16);
        let mut f = Function::new("f");
        f.new_block("entry");
        let (a, b) = (r(&m, 0), r(&m, 3));
        let body = &mut f.block_mut(Block(0)).insts;
        body.push(li(&m, a, 1));
        body.push(sem_inst(&m, trap, None, &[Operand::Imm(2)], None));
        body.push(li(&m, b, 7));
        f.block_mut(Block(0)).term = ret_term(&m);
        let sf = schedule_function(&m, &f, &SchedOptions::default()).unwrap();
        let bundles = &sf.blocks[0].bundles;
        let at = |sem: SemOp| {
            bundles
                .iter()
                .position(|b| b.iter().any(|o| m.instr(o.instr).sem.op == sem))
                .unwrap()
        };
        // (Found by their constants: renaming may move the second one off `b`.)
        let mov = |v: i64| {
            bundles
                .iter()
                .position(|x| x.iter().any(|o| o.operands.contains(&LOperand::Imm(v))))
                .unwrap()
        };
        let (first_mov, second_mov) = (mov(1), mov(7));
        assert!(
            first_mov < at(SemOp::Syscall) && at(SemOp::Syscall) < second_mov,
            "{}: {bundles:?}",
            m.name
        );
    }
}

#[test]
fn large_blocks_schedule_in_reasonable_time() {
    let m = Machine::load("ftm").unwrap();
    let mut f = Function::new("big");
    f.new_block("entry");
    let regs: Vec<PReg> = (0..8).map(|k| r(&m, k)).collect();
    let base = m.abi.sp.unwrap();
    let body = &mut f.block_mut(Block(0)).insts;
    for i in 0..3000usize {
        let d = regs[i % 8];
        match i % 4 {
            0 => body.push(li(&m, d, i as i64)),
            1 => body.push(op(
                &m,
                SemOp::Add,
                Ty::I32,
                Some(d),
                &[reg(regs[(i + 3) % 8]), reg(d)],
            )),
            2 => body.push(op(
                &m,
                SemOp::Load,
                Ty::I32,
                Some(d),
                &[reg(base), Operand::Imm(4 * (i % 16) as i64)],
            )),
            _ => body.push(op(
                &m,
                SemOp::Store,
                Ty::I32,
                None,
                &[reg(base), Operand::Imm(4 * (i % 16) as i64), reg(d)],
            )),
        }
    }
    f.block_mut(Block(0)).term = ret_term(&m);
    let start = std::time::Instant::now();
    let (_, stats) = emit_module_stats(&m, &one(f), &SchedOptions::default()).unwrap();
    let took = start.elapsed();
    assert_eq!(stats[0].ops, 3001);
    assert!(took.as_secs() < 20, "3000 operations took {took:?}");
}

#[test]
fn liveness_across_blocks_and_calls() {
    let m = Machine::load("ftm").unwrap();
    let (a, b, c) = (r(&m, 0), r(&m, 1), r(&m, 5));
    let mut f = Function::new("f");
    f.new_block("entry");
    f.new_block("next");
    // entry: c = 1; b = 2; call g(a=b); jump next.   next: a = a + c; return a.
    let body = &mut f.block_mut(Block(0)).insts;
    body.push(li(&m, c, 1));
    body.push(li(&m, b, 2));
    body.push(Inst::new(InstKind::Copy {
        dst: Reg::Phys(a),
        src: Reg::Phys(b),
    }));
    body.push(Inst::new(InstKind::Call {
        callee: dsp_mir::Callee::Sym("g".into()),
        args: vec![a],
        rets: vec![a],
    }));
    f.block_mut(Block(0)).term = Terminator::Jump(Block(1));
    f.block_mut(Block(1))
        .insts
        .push(op(&m, SemOp::Add, Ty::I32, Some(a), &[reg(a), reg(c)]));
    f.block_mut(Block(1)).term = ret_term(&m);
    let mut blocks =
        crate::lower::lower_function(&m, &f, &crate::layout::layout(&f).unwrap()).unwrap();
    crate::liveness::compute(&mut blocks);
    let call_region = &blocks[0].regions[0];
    // Before the call: its argument (and the stack pointer); `c` is clobbered by the call.
    assert!(call_region.live_out.contains(&a) && call_region.live_out.contains(&m.abi.sp.unwrap()));
    assert!(!call_region.live_out.contains(&c) && !call_region.live_out.contains(&b));
    // After the call, before the jump: `a` (the result) and `c`, read in the next block.
    let after = &blocks[0].regions[1];
    assert!(after.live_out.contains(&a) && after.live_out.contains(&c));
    // Before the return: the result and every callee-saved register.
    let ret_region = &blocks[1].regions[0];
    assert!(ret_region.live_out.contains(&a));
    assert!(m
        .abi
        .callee_saved
        .iter()
        .all(|r| ret_region.live_out.contains(r)));
}

/// The instruction with a cycle (for fixed blocks).
fn at(mut i: Inst, c: u32) -> Inst {
    i.cycle = Some(c);
    i
}

fn fix(f: &mut Function, b: u32, len: u32, branch_cycle: Option<u32>, drains: bool) {
    f.block_mut(Block(b)).fixed = Some(dsp_mir::FixedBlock {
        len,
        branch_cycle,
        drains,
    });
}

fn pred_reg(m: &Machine) -> PReg {
    PReg {
        file: m.predicate_file().unwrap(),
        index: 1,
    }
}

fn kernel_branch(m: &Machine, taken: u32, not_taken: u32) -> Terminator {
    Terminator::Branch {
        cond: Reg::Phys(pred_reg(m)),
        negate: false,
        taken: Block(taken),
        not_taken: Block(not_taken),
    }
}

#[test]
fn fixed_blocks_impose_their_layout() {
    for m in machines() {
        let delay = m.control.delay_slots;
        // Function order: entry, epilogue, other, prologue, exit, kernel.
        let mut f = Function::new("f");
        for name in ["entry", "epilogue", "other", "prologue", "exit", "kernel"] {
            f.new_block(name);
        }
        f.block_mut(Block(0)).insts.push(li(&m, r(&m, 0), 1));
        f.block_mut(Block(0)).term = Terminator::Jump(Block(3));
        f.block_mut(Block(3)).term = Terminator::Jump(Block(5));
        fix(&mut f, 3, 1, None, false);
        f.block_mut(Block(5)).term = kernel_branch(&m, 5, 1);
        fix(&mut f, 5, delay + 1, Some(0), false);
        f.block_mut(Block(1)).term = Terminator::Jump(Block(4));
        fix(&mut f, 1, 1, None, true);
        f.block_mut(Block(4)).term = ret_term(&m);
        f.block_mut(Block(2)).term = ret_term(&m);
        let order: Vec<u32> = crate::layout::layout(&f)
            .unwrap()
            .order
            .iter()
            .map(|b| b.0)
            .collect();
        assert_eq!(order, vec![0, 3, 5, 1, 4]);
        let sf = schedule_function(&m, &f, &SchedOptions::default()).unwrap();
        let len = |label: &str| {
            sf.blocks
                .iter()
                .find(|b| b.label == label)
                .unwrap()
                .bundles
                .len()
        };
        // Empty fixed blocks keep their bundles (nops); the kernel branches to itself.
        assert_eq!(
            (len(".Lf_3"), len(".Lf_5"), len(".Lf_1")),
            (1, delay as usize + 1, 1)
        );
        let k = &sf
            .blocks
            .iter()
            .find(|b| b.label == ".Lf_5")
            .unwrap()
            .bundles;
        assert!(k[0]
            .iter()
            .any(|o| o.operands.contains(&LOperand::Label(".Lf_5".into()))));

        // Two blocks falling through into one.
        let mut g = f.clone();
        g.block_mut(Block(0)).term = kernel_branch(&m, 2, 3);
        g.block_mut(Block(2)).term = Terminator::Jump(Block(5));
        fix(&mut g, 2, 1, None, false);
        let e = schedule_function(&m, &g, &SchedOptions::default()).unwrap_err();
        assert!(e.to_string().contains("must follow both"), "{e}");
        // Fallthroughs in a cycle.
        let mut g = f.clone();
        g.block_mut(Block(5)).term = Terminator::Jump(Block(3));
        g.block_mut(Block(5)).fixed.as_mut().unwrap().branch_cycle = None;
        let e = schedule_function(&m, &g, &SchedOptions::default()).unwrap_err();
        assert!(e.to_string().contains("form a cycle"), "{e}");
        // A kernel leaving for the entry block.
        let mut g = f.clone();
        g.block_mut(Block(5)).term = kernel_branch(&m, 5, 0);
        g.block_mut(Block(5)).fixed.as_mut().unwrap().drains = true;
        let e = schedule_function(&m, &g, &SchedOptions::default()).unwrap_err();
        assert!(e.to_string().contains("impossible"), "{e}");
    }
}

#[test]
fn fixed_blocks_are_checked_with_their_neighbours() {
    for m in machines() {
        let (a, b, base) = (r(&m, 0), r(&m, 1), r(&m, 2));
        let ld = |dst: PReg| {
            op(
                &m,
                SemOp::Load,
                Ty::I32,
                Some(dst),
                &[reg(base), Operand::Imm(0)],
            )
        };
        let add = |dst: PReg, x: PReg| op(&m, SemOp::Add, Ty::I32, Some(dst), &[reg(x), reg(x)]);
        let lat = match &ld(a).kind {
            InstKind::Machine { instr, .. } => m.instr(*instr).latency,
            _ => unreachable!(),
        };
        assert!(lat > 1, "{}: the tests need a load latency above 1", m.name);
        // entry → bb1 (fixed, drains) → bb2 (return).
        let straight = |insts: Vec<Inst>, len: u32| {
            let mut f = Function::new("f");
            for name in ["entry", "fixed", "exit"] {
                f.new_block(name);
            }
            f.block_mut(Block(0)).term = Terminator::Jump(Block(1));
            f.block_mut(Block(1)).insts = insts;
            f.block_mut(Block(1)).term = Terminator::Jump(Block(2));
            fix(&mut f, 1, len, None, true);
            f.block_mut(Block(2)).term = ret_term(&m);
            f
        };
        let err = |f: &Function| {
            schedule_function(&m, f, &SchedOptions::default())
                .unwrap_err()
                .to_string()
        };
        // A legal block.
        let ok = straight(vec![at(ld(a), 0), at(add(b, a), lat)], lat + 1);
        let sf = schedule_function(&m, &ok, &SchedOptions::default()).unwrap();
        assert_eq!(sf.blocks[1].bundles.len(), lat as usize + 1);
        // Nops: the fixed block's empty bundles and the return's delay slots.
        let delay = m.control.delay_slots as usize;
        assert_eq!(
            sf.stats.nops,
            lat as usize - 1 + delay,
            "{}: {:?}",
            m.name,
            sf.stats
        );
        // A read before the load lands.
        let e = err(&straight(
            vec![at(ld(a), 0), at(add(b, a), lat - 1)],
            lat + 1,
        ));
        assert!(
            e.contains("invalid fixed schedule") && e.contains("reads"),
            "{e}"
        );
        // Operands are read at issue: a write issued in the bundle of a
        // read of its register is not pending for that read, whichever
        // comes first in the bundle.
        for insts in [vec![at(ld(a), 0), at(ld(a), lat), at(add(b, a), lat)], vec![at(ld(a), 0), at(add(b, a), lat), at(ld(a), lat)]] {
            schedule_function(&m, &straight(insts, 2 * lat + 1), &SchedOptions::default()).unwrap();
        }
        // Not drained before an ordinary block.
        let e = err(&straight(vec![at(ld(a), 0)], lat - 1));
        assert!(e.contains("must drain"), "{e}");
        // More loads in one bundle than load units.
        let load_id = match &ld(a).kind {
            InstKind::Machine { instr, .. } => *instr,
            _ => unreachable!(),
        };
        let units: u32 = m
            .instr(load_id)
            .units
            .iter()
            .map(|u| m.units[u.0 as usize].count)
            .sum();
        let many: Vec<Inst> = (0..=units as usize)
            .map(|k| at(ld(r(&m, 3 + k)), 0))
            .collect();
        let e = err(&straight(many, lat + 1));
        assert!(
            e.contains("invalid fixed schedule") && e.contains("pipeliner"),
            "{e}"
        );
        // Across a kernel's back edge: the load issued in the last bundle
        // lands in the next pass, read one cycle too early.
        let delay = m.control.delay_slots;
        let len = (delay + 1).max(lat);
        let mut f = Function::new("f");
        for name in ["entry", "kernel", "epilogue", "exit"] {
            f.new_block(name);
        }
        f.block_mut(Block(0)).term = Terminator::Jump(Block(1));
        f.block_mut(Block(1)).insts = vec![at(add(b, a), lat - 2), at(ld(a), len - 1)];
        f.block_mut(Block(1)).term = kernel_branch(&m, 1, 2);
        fix(&mut f, 1, len, Some(len - 1 - delay), false);
        f.block_mut(Block(2)).term = Terminator::Jump(Block(3));
        fix(&mut f, 2, lat, None, true);
        f.block_mut(Block(3)).term = ret_term(&m);
        let e = err(&f);
        assert!(e.contains("bb1 → bb1") && e.contains("reads"), "{e}");
        // Read when it lands: legal.
        f.block_mut(Block(1)).insts[0].cycle = Some(lat - 1);
        schedule_function(&m, &f, &SchedOptions::default()).unwrap();
    }
}

#[test]
fn block_comments_precede_labels() {
    let m = Machine::load("ftm").unwrap();
    let mut f = branchy(&m, 2, 1);
    f.block_mut(Block(2)).comments = vec!["loop report".into(), "two\nlines".into(), String::new()];
    let text = emit_module(&m, &one(f), &SchedOptions::default()).unwrap();
    assert!(
        text.contains("# loop report\n# two\n# lines\n#\n.Lf_2:\n"),
        "{text}"
    );
}

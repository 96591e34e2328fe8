//! Tests of runtime/crt0.s: assembled by dsp-mc for every shipped machine
//! and linked with a `main`, its startup sequence is checked word by word.

use dsp_obj::Executable;
use isa_tablegen::{Machine, SemOp};

use crate::testutil::machines;
use crate::{link, Input, LinkOptions};

const CRT0: &str = include_str!("../../runtime/crt0.s");

const MAIN: &str = "
        .text
        .globl main
        .type main, @function
main:   li r4, 42
        jmp r31
        .nop_delay
        .size main, .-main
        .bss
        .globl zeroed
zeroed: .zero 200
";

fn assemble(m: &Machine, src: &str, name: &str) -> dsp_obj::ObjectFile {
    dsp_mc::assemble(m, src, name).unwrap_or_else(|errs| {
        panic!(
            "{}: {}",
            m.name,
            errs.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

fn linked(m: &Machine) -> Executable {
    let inputs = [
        Input::object("crt0.o", assemble(m, CRT0, "crt0.s")),
        Input::object("main.o", assemble(m, MAIN, "main.s")),
    ];
    link(
        &inputs,
        &LinkOptions {
            machine: Some(m.clone()),
            ..LinkOptions::default()
        },
    )
    .unwrap()
}

fn sym(exe: &Executable, name: &str) -> u32 {
    exe.symbols
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
        .addr
}

#[test]
fn crt0_startup_sequence() {
    for m in machines() {
        let exe = linked(&m);
        let start = sym(&exe, "_start");
        assert_eq!(exe.entry, start);
        let text = exe.segments.iter().find(|s| s.name == ".text").unwrap();
        let n = m.op_bytes() as usize;
        let ops: Vec<_> = (0..text.data.len() / n)
            .map(|i| {
                m.decode_op(m.read_word(&text.data, i * n).unwrap())
                    .unwrap()
                    .0
            })
            .collect();
        let name = |i: usize| m.instr(ops[i].instr).mnemonic.clone();
        let sp = m.abi.sp.unwrap();
        assert_eq!((name(0).as_str(), ops[0].args[0]), ("li", sp.index as i64));
        assert_eq!(ops[0].args[1], sym(&exe, "__stack_top") as i64);
        assert_eq!(ops[1].args[1], sym(&exe, "__bss_start") as i64);
        assert_eq!(ops[2].args[1], sym(&exe, "__bss_end") as i64);
        assert!(sym(&exe, "__bss_end") - sym(&exe, "__bss_start") >= 200);
        // Both ends on whole vectors: crt0 clears .bss with vector stores.
        let vb = m.vector_bytes();
        assert!(vb > 0);
        assert_eq!(sym(&exe, "__bss_start") % vb.max(64), 0, "{}", m.name);
        assert_eq!(sym(&exe, "__bss_end") % vb.max(64), 0, "{}", m.name);
        // Every branch or call is followed by one nop bundle per delay slot.
        let d = m.control.delay_slots as usize;
        let main_index = ((sym(&exe, "main") - text.addr) as usize) / n;
        let mut calls = 0;
        for (i, op) in ops.iter().enumerate() {
            let sem = &m.instr(op.instr).sem;
            if sem.is_branch() {
                for k in 1..=d {
                    assert_eq!(
                        m.instr(ops[i + k].instr).sem.op,
                        SemOp::Nop,
                        "{}: op {} after {}",
                        m.name,
                        i + k,
                        name(i)
                    );
                }
            }
            if sem.op == SemOp::Call {
                calls += 1;
                assert_eq!(i as i64 + op.args[0], main_index as i64, "call main");
                assert_eq!(ops[i - 2].args[1], 0, "argc");
                assert_eq!(ops[i - 1].args[1], 0, "argv");
                assert_eq!(m.instr(ops[i + d + 1].instr).sem.op, SemOp::Syscall);
                assert_eq!(ops[i + d + 1].args[0], 0, "trap 0 = exit");
            }
        }
        assert_eq!(calls, 1);
    }
}

//! Faults and system calls on every shipped machine: each fault stops the
//! run with its message, pc, function and cycle; system calls produce their
//! output, results and exit status.

use isa_tablegen::Machine;

use crate::build::Builder;
use crate::decode::NONE;
use crate::testutil::*;
use crate::{Config, Outcome, Sim};

fn text_base(m: &Machine) -> u32 {
    m.memory.base + m.memory.null_guard
}

fn run_data<'m>(m: &'m Machine, prog: &str) -> (Sim<'m>, Outcome) {
    run_cfg(m, prog, &[("buf", &[0u8; 64])], Config::default())
}

#[test]
fn fault_message_format_names_pc_function_and_cycle() {
    for m in machines() {
        let (sim, out) = run_data(&m, "main:\nli r5, buf\nldw r6, r5, 2\ntrap 0\n");
        let buf = sim.reg("r5").unwrap();
        let pc = text_base(&m) + m.op_bytes();
        assert_eq!(
            fault(&out),
            format!("misaligned load at {:#x} (needs 4-byte alignment) at pc {pc:#010x} (in main+{:#x}), cycle 1", buf + 2, m.op_bytes()),
            "{}",
            m.name
        );
    }
}

#[test]
fn memory_faults() {
    for m in machines() {
        let hi = m.memory.base as u64 + m.memory.size as u64;
        let cases = [
            ("ldw r6, r0, 0", "load of 4 bytes at 0x0 outside memory".to_string()),
            ("li r5, -4\nldd d1, r5, 0", format!("load of 8 bytes at 0xfffffffc outside memory [{:#x}, {hi:#x})", text_base(&m))),
            ("li r5, buf\nsth r5, r5, 1", "misaligned store".to_string()),
            ("li r5, main\nstw r5, r5, 0", "store to non-writable segment .text".to_string()),
            ("li r5, buf\nvld v1, r5, 4", "misaligned load".to_string()),
            ("li r5, buf\nli r6, 1\ndiv r7, r5, r0", "integer divide by zero".to_string()),
        ];
        for (body, expect) in cases {
            let (_, out) = run_data(&m, &format!("main:\n{body}\ntrap 0\n"));
            let msg = fault(&out);
            assert!(msg.starts_with(&expect), "{}: {body}: {msg}", m.name);
        }
        // Read-only data.
        let mut b = Builder::new(&m);
        b.asm("main:\nli r5, ro\nldw r6, r5, 0\nstw r5, r5, 0\ntrap 0\n").rodata("ro", &[1, 2, 3, 4], 4);
        let exe = b.build().unwrap();
        let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
        assert!(fault(&out).starts_with("store to non-writable segment .rodata at"), "{out:?}");
    }
}

#[test]
fn control_faults() {
    for m in machines() {
        let d = delay(&m);
        // Falling off the end of text.
        let (sim, out) = run(&m, "main:\nli r5, 1\n");
        let end = text_base(&m) + m.op_bytes();
        assert_eq!(fault(&out), format!("executing outside text (pc {end:#x}) at pc {end:#010x} (outside any symbol), cycle 1"));
        assert_eq!(sim.cycle, 1);
        // Jumping into data.
        let (_, out) = run_data(&m, &format!("main:\nli r5, buf\njmp r5\n{d}"));
        let msg = fault(&out);
        assert!(msg.starts_with("executing outside text (pc 0x") && msg.contains("reached by the branch at"), "{msg}");
        // Jumping into the middle of a bundle.
        let (_, out) = run(&m, &format!("main:\nli r5, two+{}\njmp r5\n{d}two:\n{{ nop ; nop }}\ntrap 0\n", m.op_bytes()));
        assert!(fault(&out).contains("is not at a bundle start"), "{out:?}");
        // A branch in another branch's delay slots.
        let (_, out) = run(&m, &format!("main:\nbr there\nbr there\n{d}there:\ntrap 0\n"));
        let msg = fault(&out);
        let first = text_base(&m);
        assert!(
            msg.starts_with(&format!("branch inside the delay slots of the branch at {first:#x} at pc {:#010x}", first + m.op_bytes())),
            "{msg}"
        );
        // A branch guarded off in the delay slots is fine.
        let (_, out) = run(&m, &format!("main:\nbr there\n(!p0) br main\n{d}there:\ntrap 0\n"));
        assert_eq!(out, Outcome::Exit(0));
    }
}

#[test]
fn undecodable_word_faults_when_executed() {
    for m in machines() {
        let mut exe = Builder::new(&m).asm("li r4, 3\ntrap 0\nnop\n").build().unwrap();
        let bad = (0..).find(|&o| m.decode_table.get(o).is_none_or(|e| e.is_none())).unwrap() as u64;
        let word = m.encoding.opcode.set(1u64 << m.encoding.stop_bit, bad);
        let ob = m.op_bytes() as usize;
        exe.segments[0].data[2 * ob..3 * ob].copy_from_slice(&word.to_le_bytes()[..ob]);
        // Not executed: fine.
        let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
        assert_eq!(out, Outcome::Exit(3));
        // Executed: a fault.
        exe.entry += 2 * m.op_bytes();
        let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
        let msg = fault(&out);
        assert!(msg.starts_with(&format!("undecodable operation word {word:#x}")), "{msg}");
        assert!(msg.ends_with("cycle 0"), "{msg}");
    }
}

#[test]
fn the_cycle_limit_stops_the_run() {
    for m in machines() {
        let prog = format!("main:\nbr main\n{}", delay(&m));
        let (sim, out) = run_cfg(&m, &prog, &[], Config { max_cycles: Some(100), ..Config::default() });
        match out {
            Outcome::CycleLimit(f) => {
                assert_eq!(f.cycle, 100);
                assert!(f.message.starts_with("cycle limit 100 reached"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(sim.cycle, 100);
    }
}

/// Names of the first ABI argument and return registers.
fn abi(m: &Machine) -> (Vec<String>, Vec<String>) {
    (
        m.abi.args.iter().map(|&r| m.reg_name(r)).collect(),
        m.abi.rets.iter().map(|&r| m.reg_name(r)).collect(),
    )
}

#[test]
fn write_system_call_and_bad_descriptor() {
    for m in machines() {
        let (a, r) = abi(&m);
        let msg = b"hello\n";
        let prog = format!(
            "main:
             {{ li {a0}, 1 ; li {a1}, buf }}
             li {a2}, 6
             trap 1
             mov r20, {r0}
             {{ li {a0}, 2 ; li {a2}, 3 }}
             trap 1
             li {a0}, 7
             trap 1
             mov r21, {r0}
             {{ li {a0}, 0 ; li {a2}, 0 }}
             trap 1
             mov r22, {r0}
             li {a0}, 259
             trap 0",
            a0 = a[0],
            a1 = a[1],
            a2 = a[2],
            r0 = r[0]
        );
        let (sim, out) = run_cfg(&m, &prog, &[("buf", msg)], Config { strict: true, ..Config::default() });
        assert_eq!(out, Outcome::Exit(3), "{}", m.name);
        assert_eq!(sim.core.stdout, b"hello\n");
        assert_eq!(sim.core.stderr, b"hel");
        assert_eq!(sim.reg("r20"), Some(6));
        assert_eq!(sim.reg("r21"), Some(0xffff_fff7), "a bad descriptor returns -EBADF");
        assert_eq!(sim.reg("r22"), Some(0xffff_fff7), "stdin is not writable");
    }
}

#[test]
fn read_and_cycle_counter_system_calls() {
    for m in machines() {
        let (a, r) = abi(&m);
        let prog = format!(
            "main:
             {{ li {a0}, 0 ; li {a1}, buf }}
             {{ li {a2}, 10 ; li r23, buf }}
             trap 3
             mov r20, {r0}
             nop
             trap 2
             {{ mov r21, {r0} ; mov r22, {r1} }}
             li {a0}, 0
             trap 0",
            a0 = a[0],
            a1 = a[1],
            a2 = a[2],
            r0 = r[0],
            r1 = r[1]
        );
        let mut sim = build_sim(&m, &prog, &[("buf", &[0u8; 16])], Config { strict: true, ..Config::default() });
        sim.set_stdin(Box::new(std::io::Cursor::new(b"abc".to_vec())));
        assert_eq!(sim.run(), Outcome::Exit(0), "{}", m.name);
        assert_eq!(sim.reg("r20"), Some(3));
        let buf = sim.reg("r23").unwrap() as u32;
        assert_eq!(sim.mem(buf, 4).unwrap(), b"abc\0");
        assert_eq!(sim.reg("r21"), Some(5), "cycles elapsed before the trap issued");
        assert_eq!(sim.reg("r22"), Some(0));
    }
}

#[test]
fn unknown_system_call_and_bad_buffer_fault() {
    for m in machines() {
        let (a, _) = abi(&m);
        let (_, out) = run(&m, "main:\ntrap 200\n");
        assert!(fault(&out).starts_with("unknown system call 200 at pc"), "{out:?}");
        let (_, out) = run(&m, &format!("main:\n{{ li {}, 1 ; li {}, 0 }}\nli {}, 4\ntrap 1\n", a[0], a[1], a[2]));
        assert!(fault(&out).starts_with("load of 4 bytes at 0x0 outside memory"), "{out:?}");
    }
}

#[test]
fn predecoded_links_are_consistent() {
    for m in machines() {
        let prog = format!("main:\n{{ nop ; nop }}\ncall main\n{}trap 0\n", delay(&m));
        let sim = build_sim(&m, &prog, &[], Config::default());
        let p = &sim.prog;
        for (i, b) in p.bundles.iter().enumerate() {
            assert_eq!(p.lookup(b.pc), Some(i as u32));
            assert_eq!(p.lookup(b.pc + 1), None);
            if i + 1 < p.bundles.len() {
                assert_eq!(b.next, i as u32 + 1);
            } else {
                assert_eq!(b.next, NONE);
            }
        }
        assert_eq!(p.lookup(p.bundles[0].pc + m.op_bytes()), None, "inside the two-op bundle");
        assert!(p.in_text(p.bundles[0].pc + m.op_bytes()));
    }
}

/// Many read-only segments (a hostile file may hold thousands): stores are
/// checked by a binary search, with the same messages.
#[test]
fn a_store_into_one_of_many_read_only_segments() {
    let m = machines().remove(0);
    let mut b = Builder::new(&m);
    b.asm("main:\nli r5, 0x200000\nli r6, 0x200444\nstw r5, r5, -4\nstw r5, r6, 0\ntrap 0\n");
    let mut exe = b.build().unwrap();
    for i in 0..40u32 {
        exe.segments.push(dsp_obj::Segment {
            name: format!(".ro{i}"),
            addr: 0x200000 + 0x100 * (39 - i),
            data: vec![0; 16],
            mem_size: 0x80,
            flags: dsp_obj::SegmentFlags { read: true, write: false, exec: false },
        });
    }
    let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
    // 0x1ffffc is below every segment; 0x200444 is in .ro35 (at 0x200400).
    assert!(fault(&out).starts_with("store to non-writable segment .ro35 at 0x200444"), "{out:?}");
}

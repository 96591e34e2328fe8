//! Timing tests on every shipped machine: latency visibility, delay slots,
//! calls, guards, busy units, write ports, write order, exact cycle counts,
//! statistics and the trace.

use isa_tablegen::Machine;

use crate::testutil::*;
use crate::{Config, Outcome};

fn end(m: &Machine) -> String {
    format!("{}trap 0\n", "nop\n".repeat(m.max_latency() as usize))
}

fn nops(k: u64) -> String {
    "nop\n".repeat(k as usize)
}

#[test]
fn a_result_is_visible_exactly_latency_cycles_after_issue() {
    for m in machines() {
        let l = lat(&m, "mul");
        let prog = format!(
            "li r5, 5\nli r6, 100\nmul r5, r6, r6\n{}add r7, r5, r0\nadd r8, r5, r0\n{}",
            nops(l - 2),
            end(&m)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0));
        assert_eq!(sim.reg("r7"), Some(5), "{}: one cycle early reads the old value", m.name);
        assert_eq!(sim.reg("r8"), Some(10000), "{}", m.name);
        let (_, out) = run_strict(&m, &prog);
        let msg = fault(&out);
        let mul_pc = m.memory.base + m.memory.null_guard + 2 * m.op_bytes();
        assert!(
            msg.starts_with(&format!(
                "read of r5 before its pending write lands (written by the operation at pc {mul_pc:#x}, lands at cycle {}; now {})",
                2 + l,
                1 + l
            )),
            "{}: {msg}",
            m.name
        );
        assert!(msg.ends_with(&format!("cycle {}", 1 + l)), "{msg}");
    }
}

#[test]
fn a_write_issued_in_the_bundle_of_a_read_is_not_pending_for_it() {
    // Operands are read at issue: whichever order the bundle lists them in,
    // the read sees the old value and --strict accepts it. A read one
    // cycle later, before the write lands, is still a fault.
    for m in machines() {
        let l = lat(&m, "mul");
        for bundle in ["{ mul r5, r6, r6 ; add r7, r5, r0 }", "{ add r7, r5, r0 ; mul r5, r6, r6 }"] {
            let prog = format!("li r5, 5\nli r6, 100\n{bundle}\n{}add r8, r5, r0\n{}", nops(l - 1), end(&m));
            let (sim, out) = run_strict(&m, &prog);
            assert_eq!(out, Outcome::Exit(0), "{}: {bundle}", m.name);
            assert_eq!(sim.reg("r7"), Some(5), "{}: {bundle}", m.name);
            assert_eq!(sim.reg("r8"), Some(10000), "{}: {bundle}", m.name);
            if l > 1 {
                let early = format!("li r5, 5\nli r6, 100\n{bundle}\nadd r8, r5, r0\n{}", end(&m));
                let (_, out) = run_strict(&m, &early);
                assert!(fault(&out).starts_with("read of r5 before its pending write lands"), "{}: {bundle}", m.name);
            }
        }
    }
}

#[test]
fn delay_slots_issue_before_the_branch_transfers() {
    for m in machines() {
        let d = m.control.delay_slots as u64;
        let prog = format!(
            "li r5, 0\nbr target\n{}addi r5, r5, 100\ntarget:\nmov r4, r5\ntrap 0\n",
            "addi r5, r5, 1\n".repeat(d as usize)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(d as i32), "{}", m.name);
        assert_eq!(sim.cycle, 4 + d, "{}", m.name);
        let (_, out) = run_strict(&m, &prog);
        assert_eq!(out, Outcome::Exit(d as i32));
    }
}

#[test]
fn calls_write_the_return_address_into_the_link_register() {
    for m in machines() {
        let d = m.control.delay_slots;
        let link = m.reg_name(m.control.link.unwrap());
        let prog = format!(
            "_start:\nli r4, 1\ncall f\n{}back:\naddi r4, r4, 10\ntrap 0\nf:\naddi r4, r4, 5\njmp {link}\n{}",
            delay(&m),
            delay(&m)
        );
        let (sim, out) = run_strict(&m, &prog);
        assert_eq!(out, Outcome::Exit(16), "{}", m.name);
        let back = m.memory.base + m.memory.null_guard + (2 + d) * m.op_bytes();
        assert_eq!(sim.reg(&link), Some(back as u64), "{}", m.name);
        // 2 + d bundles, then f (2 + d), then 2 more.
        assert_eq!(sim.cycle, (2 + d + 2 + d + 2) as u64);
    }
}

#[test]
fn guarded_ops_do_nothing_when_false() {
    for m in machines() {
        let prog = format!(
            "{{ li r5, 1 ; li r6, 0 }}
             pnei p1, r5, 0
             {{ (p1) addi r7, r0, 7 ; (!p1) addi r8, r0, 8 }}
             (!p1) div r9, r5, r6
             (!p1) stw r5, r0, 0
             (!p1) br away
             {}
             (p0) addi r10, r0, 10
             {}
             away:
             trap 0",
            delay(&m),
            end(&m)
        );
        let (sim, out) = run_strict(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        assert_eq!(sim.reg("r7"), Some(7));
        assert_eq!(sim.reg("r8"), Some(0));
        assert_eq!(sim.reg("r10"), Some(10), "the branch was not taken");
    }
}

#[test]
fn a_busy_unit_stalls_issue_or_is_a_strict_error() {
    for m in machines() {
        let div = m.instr(m.instr_by_mnemonic("div").unwrap());
        let (busy, l) = (div.busy as u64, div.latency as u64);
        let prog = format!(
            "{{ li r5, 100 ; li r6, 5 }}\nli r7, 10\ndiv r8, r5, r6\ndiv r9, r5, r7\n{}add r4, r8, r9\ntrap 0\n",
            nops(l - 1)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(30), "{}", m.name);
        let stats = sim.stats();
        assert_eq!(stats.stall_cycles, busy - 1);
        assert_eq!(sim.cycle, 4 + (busy - 1) + (l - 1) + 2);
        let sdiv = stats.units.iter().find(|u| u.name == "sdiv").unwrap();
        assert_eq!(sdiv.busy, 2 * busy);
        let (_, out) = run_strict(&m, &prog);
        let msg = fault(&out);
        assert!(msg.starts_with(&format!("resource conflict: unit sdiv is still busy (until cycle {})", 2 + busy)), "{msg}");
        assert!(msg.ends_with("cycle 3"), "{msg}");
    }
}

/// Bundles issuing each `(op, mnemonic)` so that all results land in cycle T.
fn landing_together(m: &Machine, ops: &[&str]) -> String {
    let lats: Vec<u64> = ops.iter().map(|o| lat(m, o.split_whitespace().next().unwrap())).collect();
    let t = *lats.iter().max().unwrap();
    let mut out = String::new();
    for c in 0..t {
        let here: Vec<&str> = ops.iter().zip(&lats).filter(|(_, &l)| t - l == c).map(|(o, _)| *o).collect();
        if here.is_empty() {
            out.push_str("nop\n");
        } else {
            out.push_str(&here.join(" ; "));
            out.push('\n');
        }
    }
    out
}

#[test]
fn write_port_overuse_is_allowed_except_under_strict() {
    for m in machines() {
        let mfile = m.regfile(m.regfile_by_name("m").unwrap());
        assert_eq!(mfile.write_ports, 2);
        let body = landing_together(&m, &["vceq m1, v1, v1", "rtom m2, r5", "vfceq m3, v1, v1"]);
        let prog = format!("li r5, 3\n{body}{}", end(&m));
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        assert_eq!(sim.reg("m2"), Some(3));
        let (_, out) = run_strict(&m, &prog);
        let msg = fault(&out);
        assert!(msg.starts_with("more than 2 results land in register file 'm' in cycle"), "{msg}");
    }
}

#[test]
fn two_results_in_one_register_in_one_cycle() {
    for m in machines() {
        let body = landing_together(&m, &["mul r5, r6, r6", "addi r5, r0, 9"]);
        let prog = format!("li r6, 4\n{body}{}", end(&m));
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0));
        assert_eq!(sim.reg("r5"), Some(9), "{}: the later-issued write lands last", m.name);
        let (_, out) = run_strict(&m, &prog);
        let msg = fault(&out);
        assert!(msg.starts_with("two results land in r5 in cycle"), "{msg}");
    }
}

#[test]
fn a_write_landing_before_an_earlier_pending_one() {
    for m in machines() {
        let prog = format!("li r6, buf\nldw r5, r6, 0\naddi r5, r0, 1\n{}", end(&m));
        let data = 42u32.to_le_bytes();
        // Cycles of the schedule: an ideal memory (the load's miss would
        // move every figure by the same stall).
        let ideal = Config { ideal_memory: true, ..Config::default() };
        let (sim, out) = run_cfg(&m, &prog, &[("buf", &data)], ideal.clone());
        assert_eq!(out, Outcome::Exit(0));
        assert_eq!(sim.reg("r5"), Some(42), "{}", m.name);
        let (_, out) = run_cfg(&m, &prog, &[("buf", &data)], Config { strict: true, ..ideal });
        let msg = fault(&out);
        assert!(
            msg.starts_with("result for r5 would land in cycle 3, before the pending write from the operation at pc"),
            "{msg}"
        );
        assert!(msg.contains(&format!("(lands at cycle {})", 1 + lat(&m, "ldw"))), "{msg}");
    }
}

#[test]
fn exact_cycle_count_of_a_counted_loop() {
    for m in machines() {
        let d = m.control.delay_slots as u64;
        let prog = format!(
            "main:\n{{ li r5, 10 ; li r6, 0 }}\nloop:\n{{ addi r5, r5, -1 ; addi r6, r6, 3 }}\npgti p1, r5, 0\n(p1) br loop\n{}mov r4, r6\ntrap 0\n",
            delay(&m)
        );
        let (sim, out) = run_strict(&m, &prog);
        assert_eq!(out, Outcome::Exit(30), "{}", m.name);
        assert_eq!(sim.cycle, 1 + 10 * (3 + d) + 2, "{}", m.name);
        let s = sim.stats();
        assert_eq!(s.bundles, sim.cycle);
        assert_eq!(s.nop_bundles, 10 * d);
        assert_eq!(s.functions.len(), 2);
        assert_eq!(s.functions[0].name, "loop");
        assert_eq!(s.functions[0].cycles, 10 * (3 + d) + 2);
        assert_eq!((s.functions[1].name.as_str(), s.functions[1].cycles), ("main", 1));
    }
}

#[test]
fn stats_of_a_tiny_program() {
    for m in machines() {
        let prog = "main:\nli r5, 1\n{ add r6, r5, r5 ; add r7, r5, r5 }\nnop\ntrap 0\n";
        let (sim, out) = run(&m, prog);
        assert_eq!(out, Outcome::Exit(0));
        let s = sim.stats();
        assert_eq!((s.cycles, s.bundles, s.ops, s.nop_bundles, s.stall_cycles), (4, 4, 4, 1, 0));
        assert_eq!(&s.histogram[..3], &[1, 2, 1]);
        assert!(s.histogram[3..].iter().all(|&n| n == 0));
        assert_eq!(s.ops_per_bundle(), 1.0);
        let salu = s.units.iter().find(|u| u.name == "salu").unwrap();
        assert_eq!(salu.busy, 3);
        assert_eq!(salu.utilisation, 3.0 / (2.0 * 4.0));
        let sbr = s.units.iter().find(|u| u.name == "sbr").unwrap();
        assert_eq!(sbr.busy, 1);
        assert_eq!(s.functions.len(), 1);
        assert_eq!((s.functions[0].name.as_str(), s.functions[0].cycles, s.functions[0].percent), ("main", 4, 100.0));
        let text = s.render();
        assert!(text.contains("cycles            4\n"), "{text}");
        let json = s.to_json();
        assert!(json.contains("\"cycles\": 4,") && json.contains("\"ops_histogram\": [1, 2, 1"), "{json}");
        assert!(json.contains("{\"name\": \"salu\", \"count\": 2, \"busy\": 3, \"utilisation\": 0.375000}"), "{json}");
    }
}

#[test]
fn trace_prints_each_bundle_as_it_issues() {
    #[derive(Clone, Default)]
    struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let m = &machines()[0];
    let prog = format!("main:\n{{ li r5, 1 ; (!p1) addi r6, r5, -2 }}\nbr main\n{}", delay(m));
    let mut sim = build_sim(m, &prog, &[], Config {
        trace: true,
        max_cycles: Some(3),
        ..Config::default()
    });
    let buf = Shared::default();
    sim.trace_out = Some(Box::new(buf.clone()));
    let out = sim.run();
    assert!(matches!(out, Outcome::CycleLimit(_)));
    let text = String::from_utf8(buf.0.borrow().clone()).unwrap();
    let base = m.memory.base + m.memory.null_guard;
    let ob = m.op_bytes();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], format!("         0  {base:#010x}  main+0x0                 {{ li r5, 1 ; (!p1) addi r6, r5, -2 }}"));
    assert_eq!(lines[1], format!("         1  {:#010x}  main+{:#x}{}br {base:#x}", base + 2 * ob, 2 * ob, " ".repeat(16)));
    assert!(lines[2].starts_with("         2  "), "{text}");
}

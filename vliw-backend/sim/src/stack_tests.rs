//! The stack limit, wild pcs and stopping a run from outside (issue 14,
//! item 6), on every shipped machine.

use std::sync::atomic::AtomicU8;

use dsp_obj::{ExeSymbol, SymbolKind};
use isa_tablegen::Machine;

use crate::build::Builder;
use crate::run::{STOP_SIGINT, STOP_TIMEOUT};
use crate::testutil::*;
use crate::{Config, Outcome, Sim};

/// `text` linked with a 4 KiB stack below the end of memory: `__heap_end`
/// as the linker defines it, and a `guard` word in data just below it.
fn with_small_stack(m: &Machine, text: &str) -> dsp_obj::Executable {
    let mut b = Builder::new(m);
    b.asm(text).data("guard", &[0x5a; 4], 4);
    let mut exe = b.build().unwrap();
    let top = (m.memory.base as u64 + m.memory.size as u64) as u32 & !(m.abi.stack_align.max(1) - 1);
    exe.symbols.push(ExeSymbol { name: "__heap_end".into(), addr: top - 4096, size: 0, kind: SymbolKind::NoType, global: true });
    exe
}

/// Runaway recursion: each call pushes a 16-byte frame and stores into it.
fn recursion(m: &Machine) -> String {
    format!("main:\nli r5, 0\ncall f\n{d}trap 0\nf:\naddi r1, r1, -16\nstw r5, r1, 0\naddi r5, r5, 1\ncall f\n{d}", d = delay(m))
}

#[test]
fn runaway_recursion_stops_at_the_first_frame_past_the_stack() {
    for m in machines() {
        for strict in [false, true] {
            let exe = with_small_stack(&m, &recursion(&m));
            let mut sim = Sim::new(&m, &exe, Config { strict, max_cycles: Some(1_000_000), ..Config::default() }).unwrap();
            let out = sim.run();
            let msg = fault(&out);
            // 4096 bytes hold 256 frames: the 257th call's sp update is the first overflow.
            assert!(msg.starts_with("stack overflow: the stack pointer moved to "), "{}: {msg}", m.name);
            assert!(msg.contains("(4096 bytes, its lowest address from __heap_end) at call depth 257"), "{}: {msg}", m.name);
            assert!(msg.contains("(in f+"), "{}: {msg}", m.name);
            assert_eq!(sim.reg("r5"), Some(256), "{}", m.name);
            // Nothing below the stack was written.
            let heap_end = exe.symbols.iter().find(|s| s.name == "__heap_end").unwrap().addr;
            assert!(sim.mem(heap_end - 64, 64).unwrap().iter().all(|&b| b == 0), "{}", m.name);
        }
    }
}

#[test]
fn a_store_through_sp_below_the_stack_is_an_overflow() {
    for m in machines() {
        let exe = with_small_stack(&m, "main:\nli r5, 7\nstw r5, r1, -8\nstw r5, r1, -8192\ntrap 0\n");
        let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
        let msg = fault(&out);
        assert!(msg.starts_with("stack overflow: a store through the stack pointer at "), "{}: {msg}", m.name);
        assert!(msg.contains("at call depth 0 at pc"), "{}: {msg}", m.name);
    }
}

#[test]
fn sp_is_the_abi_stack_pointer_whatever_the_code_does() {
    for m in machines() {
        // r1 is the stack pointer (`abi sp`): loading it with an address
        // below the stack is an overflow at once, not when memory is hit.
        let exe = with_small_stack(&m, "main:\nli r1, 0x2000\nli r5, 3\nandi r4, r5, 0\ntrap 0\n");
        let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
        assert!(fault(&out).starts_with("stack overflow: the stack pointer moved to 0x2000, below the stack"), "{}: {out:?}", m.name);
        // Above the stack it is not a stack any more: nothing is checked.
        let exe = with_small_stack(&m, "main:\nli r1, -64\nli r1, 0x2000\nandi r4, r1, 0\ntrap 0\n");
        let out = Sim::new(&m, &exe, Config::default()).unwrap().run();
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
    }
}

#[test]
fn a_wild_pc_is_outside_any_symbol() {
    for m in machines() {
        let (_, out) = run(&m, &format!("main:\nli r5, 0x123456\njmp r5\n{}", delay(&m)));
        let msg = fault(&out);
        assert!(msg.starts_with("executing outside text (pc 0x123456)"), "{}: {msg}", m.name);
        assert!(msg.contains("at pc 0x00123456 (outside any symbol), cycle "), "{}: {msg}", m.name);
        assert!(!msg.contains("main+"), "{}: {msg}", m.name);
    }
}

static STOPPED: AtomicU8 = AtomicU8::new(STOP_SIGINT);
static TIMED_OUT: AtomicU8 = AtomicU8::new(STOP_TIMEOUT);
static RUNNING: AtomicU8 = AtomicU8::new(0);

#[test]
fn a_stop_request_ends_the_run_where_it_is() {
    for m in machines() {
        let endless = format!("main:\nloop:\naddi r5, r5, 1\nbr loop\n{}", delay(&m));
        for (flag, want) in [(&STOPPED, "stopped: interrupted (SIGINT)"), (&TIMED_OUT, "stopped: time limit reached")] {
            let (sim, out) = run_cfg(&m, &endless, &[], Config { stop: Some(flag), ..Config::default() });
            let Outcome::Stopped(f) = out else { panic!("{}: {out:?}", m.name) };
            assert!(f.to_string().starts_with(want) && f.location.starts_with("main+"), "{}: {f}", m.name);
            // Looked at within the first poll period.
            assert!(sim.cycle <= crate::run::STOP_POLL, "{}", m.name);
        }
        // A flag never set changes nothing.
        let (_, out) = run_cfg(&m, &endless, &[], Config { stop: Some(&RUNNING), max_cycles: Some(300_000), ..Config::default() });
        assert!(matches!(out, Outcome::CycleLimit(_)), "{}: {out:?}", m.name);
    }
}

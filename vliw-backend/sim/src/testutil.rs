//! Helpers shared by the simulator's unit tests: loading every shipped
//! machine, building a program from assembly text and running it.

use isa_tablegen::Machine;

use crate::build::Builder;
use crate::{Config, Outcome, Sim};

/// Every shipped machine.
pub fn machines() -> Vec<Machine> {
    isa_tablegen::builtin::names()
        .map(|n| Machine::load(n).unwrap_or_else(|e| panic!("{n}: {e}")))
        .collect()
}

/// `nop` lines for the machine's branch delay slots.
pub fn delay(m: &Machine) -> String {
    "nop\n".repeat(m.control.delay_slots as usize)
}

/// Latency of an instruction of the machine.
pub fn lat(m: &Machine, mnemonic: &str) -> u64 {
    m.instr(m.instr_by_mnemonic(mnemonic).unwrap()).latency as u64
}

pub fn build_sim<'m>(m: &'m Machine, text: &str, data: &[(&str, &[u8])], config: Config) -> Sim<'m> {
    let mut b = Builder::new(m);
    b.asm(text);
    for (label, bytes) in data {
        b.data(label, bytes, 256);
    }
    let exe = b.build().unwrap_or_else(|e| panic!("{}: {e}", m.name));
    Sim::new(m, &exe, config).unwrap_or_else(|e| panic!("{}: {e}", m.name))
}

/// Runs `text` (with data blocks) and returns the simulator and the outcome.
pub fn run_cfg<'m>(m: &'m Machine, text: &str, data: &[(&str, &[u8])], config: Config) -> (Sim<'m>, Outcome) {
    let mut sim = build_sim(m, text, data, config);
    let out = sim.run();
    (sim, out)
}

pub fn run<'m>(m: &'m Machine, text: &str) -> (Sim<'m>, Outcome) {
    run_cfg(m, text, &[], Config { max_cycles: Some(1_000_000), ..Config::default() })
}

pub fn run_strict<'m>(m: &'m Machine, text: &str) -> (Sim<'m>, Outcome) {
    run_cfg(m, text, &[], Config { strict: true, max_cycles: Some(1_000_000), ..Config::default() })
}

/// The fault message of an outcome (panics if it is not a fault).
pub fn fault(out: &Outcome) -> String {
    match out {
        Outcome::Fault(f) => f.to_string(),
        other => panic!("expected a fault, got {other:?}"),
    }
}

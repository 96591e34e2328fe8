//! Whole-program tests of the simulator on every shipped machine.

use crate::testutil::*;
use crate::Outcome;

#[test]
fn smoke_exit_status() {
    for m in machines() {
        let (sim, out) = run(&m, "li r4, 300\ntrap 0\n");
        assert_eq!(out, Outcome::Exit(300 & 0xff), "{}", m.name);
        assert_eq!(sim.cycle, 2);
    }
}

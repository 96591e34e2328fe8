//! The optimal modulo scheduler on small graphs: seed 003's loop on its
//! machine (tests/machines/seed003_ims.isa), a recurrence, the time cap and
//! the pinned loop branch. Random graphs are in compare.rs.

use dsp_modsched::graph::{DepKind, LoopGraph, Node, PinnedRow};
use dsp_modsched::ilp::{schedule, schedule_from, IlpOptions};
use dsp_modsched::{mii, regs, verify};
use isa_tablegen::Machine;

fn seed_machine() -> Machine {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/machines/seed003_ims.isa");
    Machine::load(path).expect("seed003_ims.isa")
}

/// Seed 003's `b[j] = a[j] * 26` in DSA form (slide 14): 1 load, 2
/// multiply, 3 store, 4/5 the pointer increments, 6 the compare, 7 the
/// loop branch pinned to the end of the kernel.
fn seed_graph(m: &Machine) -> LoopGraph {
    let r = m.regfile_by_name("r").unwrap();
    let p = m.regfile_by_name("p").unwrap();
    let mut g = LoopGraph::new();
    let mut node = |mn: &str, name: &str, reads, writes| {
        g.add_node(Node { instr: m.instr_by_mnemonic(mn).unwrap(), reads, writes, name: name.into(), pinned_row: None })
    };
    let ld = node("ld", "1 ld", vec![(r, 1)], Some(r));
    let mpy = node("mpyi", "2 mpy", vec![(r, 1)], Some(r));
    let st = node("st", "3 st", vec![(r, 2)], None);
    let a1 = node("addi", "4 add r1", vec![(r, 1)], Some(r));
    let a2 = node("addi", "5 add r2", vec![(r, 1)], Some(r));
    let cmp = node("cmpp", "6 cmpp", vec![(r, 2)], Some(p));
    let br = node("brct", "7 br", vec![(p, 1)], None);
    g.nodes[br].pinned_row = Some(PinnedRow { from_end: m.control.delay_slots });
    g.add_flow(m, ld, mpy, 0);
    g.add_flow(m, mpy, st, 0);
    g.add_flow(m, a1, ld, 1);
    g.add_flow(m, a1, a1, 1);
    g.add_flow(m, a2, st, 1);
    g.add_flow(m, a2, a2, 1);
    g.add_flow(m, a1, cmp, 0);
    g.add_flow(m, cmp, br, 0);
    g.add_edge(ld, a1, 0, 0, DepKind::Anti);
    g.add_edge(st, a2, 0, 0, DepKind::Anti);
    g
}

#[test]
fn seed003_at_mii_with_least_registers() {
    let m = seed_machine();
    let g = seed_graph(&m);
    let r = mii::compute(&m, &g).unwrap();
    assert_eq!((r.res_mii, r.rec_mii, r.mii), (2, 1, 2));
    let out = schedule(&m, &g, &r, &IlpOptions::default()).unwrap();
    assert_eq!(out.schedule.ii, 2);
    assert!(out.attempts.is_empty());
    assert!(!out.capped, "{:?}", out.notes);
    verify(&m, &g, &out.schedule).unwrap();
    assert_eq!(regs::pressure(&m, &g, &out.schedule).max_live, 5);
    assert!(out.notes.iter().any(|n| n.contains("MaxLive=5") && n.contains("optimal")), "{:?}", out.notes);
}

#[test]
fn minimum_ii_without_registers() {
    let m = seed_machine();
    let g = seed_graph(&m);
    let out = schedule_from(&m, &g, 1, &IlpOptions { min_registers: false, ..IlpOptions::default() }).unwrap();
    assert_eq!(out.schedule.ii, 2);
    assert_eq!(out.attempts.len(), 1);
    assert!(out.attempts[0].reason.contains("infeasible"), "{:?}", out.attempts);
    verify(&m, &g, &out.schedule).unwrap();
}

#[test]
fn recurrence_sets_the_ii() {
    let m = seed_machine();
    let alu = m.instr_by_mnemonic("addi").unwrap();
    let r = m.regfile_by_name("r").unwrap();
    let mut g = LoopGraph::new();
    for i in 0..3 {
        g.add_node(Node { instr: alu, reads: vec![(r, 1)], writes: Some(r), name: format!("a{i}"), pinned_row: None });
    }
    g.add_edge(0, 1, 2, 0, DepKind::Flow);
    g.add_edge(1, 2, 2, 0, DepKind::Flow);
    g.add_edge(2, 0, 1, 1, DepKind::Flow);
    let out = schedule_from(&m, &g, 1, &IlpOptions::default()).unwrap();
    assert_eq!(out.schedule.ii, 5);
    assert_eq!(out.attempts.len(), 4);
    verify(&m, &g, &out.schedule).unwrap();
    // Lifetimes 2 + 2 + 1 over II 5: one value live at a time.
    assert_eq!(regs::pressure(&m, &g, &out.schedule).max_live, 1);
}

#[test]
fn time_cap_returns_the_heuristics_schedule() {
    let m = seed_machine();
    let g = seed_graph(&m);
    let out = schedule_from(&m, &g, 2, &IlpOptions { time_limit_secs: 0.0, ..IlpOptions::default() }).unwrap();
    assert!(out.capped);
    assert!(out.notes.iter().any(|n| n.contains("time cap")), "{:?}", out.notes);
    verify(&m, &g, &out.schedule).unwrap();
}

#[test]
fn pinned_branch_closes_the_kernel() {
    let m = seed_machine();
    let g = seed_graph(&m);
    for ii in 2..5 {
        let out = schedule_from(&m, &g, ii, &IlpOptions { max_ii: Some(ii), ..IlpOptions::default() }).unwrap();
        assert_eq!(out.schedule.ii, ii);
        assert_eq!(out.schedule.row(6), ii - 1);
        verify(&m, &g, &out.schedule).unwrap();
    }
}

#[test]
fn bad_edges_are_an_error() {
    let m = seed_machine();
    let mut g = seed_graph(&m);
    g.add_edge(0, 42, 1, 0, DepKind::Flow);
    let err = schedule_from(&m, &g, 2, &IlpOptions::default()).unwrap_err();
    assert!(err[0].reason.contains("outside the graph"), "{err:?}");
}

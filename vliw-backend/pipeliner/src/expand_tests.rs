//! Modulo variable expansion's register counts and bundle order ([`plan`]).

use std::collections::HashMap;

use dsp_modsched::{DepKind, LoopGraph, Node, Schedule};
use isa_tablegen::{ArgPat, Machine, SemOp, Ty, Want};

use super::*;
use crate::ddg::{LoopDdg, NodeKind};

/// A loop of `n` integer adds plus its decrement and branch (the last two
/// nodes, at cycles 0 and II − 1), with the flow edges `flows` (from, to,
/// distance) between the adds.
fn ddg(m: &Machine, n: usize, flows: &[(usize, usize, u32)]) -> LoopDdg {
    let r = m.scalar_file(Ty::I32).unwrap();
    let add = m.find_instr(&Want { op: SemOp::Add, ty: Some(Ty::I32), ty2: None, dst: Some(r), args: &[ArgPat::Reg(r), ArgPat::Reg(r)] }).unwrap();
    let mut graph = LoopGraph::new();
    let mut kinds = Vec::new();
    for i in 0..n + 2 {
        graph.add_node(Node { instr: add, reads: vec![], writes: (i < n).then_some(r), name: format!("n{i}"), pinned_row: None });
        kinds.push(match i {
            _ if i < n => NodeKind::Inst(i),
            _ if i == n => NodeKind::Dec,
            _ => NodeKind::Branch,
        });
    }
    for &(from, to, distance) in flows {
        graph.add_edge(from, to, 1, distance, DepKind::Flow);
    }
    let mut max_distance = HashMap::new();
    for &(from, _, distance) in flows {
        let d = max_distance.entry(from).or_insert(0);
        *d = distance.max(*d);
    }
    LoopDdg {
        graph,
        kinds,
        node_of_inst: (0..n).map(|i| (i, i)).collect(),
        sources: HashMap::new(),
        phis: Vec::new(),
        alias_groups: Vec::new(),
        alias_pairs: Vec::new(),
        max_distance,
    }
}

fn schedule(ii: u32, adds: &[u32]) -> Schedule {
    let mut time = adds.to_vec();
    time.extend([0, ii - 1]);
    Schedule { ii, time }
}

#[test]
fn a_sum_read_by_itself_one_iteration_later_keeps_one_register() {
    let m = Machine::load("ftm").unwrap();
    // n0 = n0' + n1 at II 2: its value lives exactly II cycles, and its
    // next write issues in the bundle that reads it, which is its own.
    let d = ddg(&m, 2, &[(0, 0, 1), (1, 0, 0)]);
    let p = plan(&m, &d, &schedule(2, &[1, 0]), &[], None, false);
    assert_eq!(p.lifetime[0], 2);
    assert_eq!(p.copies[0], 1);
    assert_eq!(p.busy[0], 2);
}

#[test]
fn a_last_reader_in_the_next_writes_bundle_goes_first() {
    let m = Machine::load("ftm").unwrap();
    // n0 at 0, read by n1 at 4 = 2·II: two registers, n1 listed before n0
    // (in the kernel they share rows); n2 reads n0 earlier, unconstrained.
    let d = ddg(&m, 3, &[(0, 1, 0), (0, 2, 0)]);
    let p = plan(&m, &d, &schedule(2, &[0, 4, 1]), &[], None, false);
    assert_eq!(p.lifetime[0], 4);
    assert_eq!(p.copies[0], 2, "⌈4 / 2⌉, not 4 / 2 + 1 rounded up to 4");
    assert!(p.rank[1] < p.rank[0], "{:?}", p.rank);
    // Not exactly a multiple of II: no constraint, and one more cycle
    // needs a third register; ftm divides the trip count by 3 with its
    // high multiply, so the kernel has 3 copies, not 4.
    let p = plan(&m, &d, &schedule(2, &[0, 5, 1]), &[], None, false);
    assert_eq!((p.copies[0], p.k), (3, 3));
    // The other values share their one register across the 3 copies, and
    // in `whole` mode each has a register per copy.
    assert_eq!(p.copies[1], 1);
    let r = m.scalar_file(Ty::I32);
    let p = plan(&m, &d, &schedule(2, &[0, 5, 1]), &[], r, false);
    assert_eq!(&p.copies[..3], &[3, 3, 3]);
}

#[test]
fn readers_that_cannot_all_go_first_cost_a_register() {
    let m = Machine::load("ftm").unwrap();
    // A swap, (n0, n1) = (n1', n0'), both at cycle 0: each value lives
    // exactly II and is read in the bundle of its next write by the other,
    // so each would have to be listed before the other. One of them keeps
    // its value a cycle longer, in two registers.
    let d = ddg(&m, 2, &[(0, 1, 1), (1, 0, 1)]);
    let p = plan(&m, &d, &schedule(2, &[0, 0]), &[], None, false);
    assert_eq!(p.lifetime, vec![2, 2, 0, 0]);
    let (first, second) = if p.rank[0] < p.rank[1] { (0, 1) } else { (1, 0) };
    // `first` goes first although its reader does not: it pays.
    assert_eq!((p.busy[first], p.copies[first]), (3, 2));
    assert_eq!((p.busy[second], p.copies[second]), (2, 1));
    assert_eq!(p.k, 2);
}

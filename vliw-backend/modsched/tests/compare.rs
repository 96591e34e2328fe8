//! Property tests of the reference schedulers over random dependence graphs
//! (proptest, from fixed seeds; a failing graph is shrunk): every IMS and ILP schedule passes
//! `verify`; the ILP's II is at least the MII and at most the IMS's and
//! SMS's (the MII whenever either reaches it); at equal II its MaxLive
//! ([`dsp_modsched::regs`]) is at most theirs; on tiny graphs the ILP's II
//! is the true minimum, found by an exhaustive oracle that tries every row
//! assignment in the reservation table and solves the stages as difference
//! constraints, and its MaxLive is at most the least found by enumerating
//! every schedule of up to three stages.
//!
//! Machines: seed 003's (tests/machines/seed003_ims.isa), one with
//! alternative and non-pipelined units (tests/machines/alt_ims.isa) and the
//! shipped ftm.

use dsp_modsched::graph::{DepKind, LoopGraph, Node, PinnedRow};
use dsp_modsched::ilp::{self, IlpOptions};
use dsp_modsched::ims::{self, ImsOptions};
use dsp_modsched::sms::{self, SmsOptions};
use dsp_modsched::{mii, verify, Mrt};
use isa_tablegen::{InstrId, Machine};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::cell::RefCell;

/// A deterministic runner of `cases` cases that writes no regression files.
fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config { cases, rng_seed: RngSeed::Fixed(seed), failure_persistence: None, ..Config::default() })
}

fn machine(name: &str) -> Machine {
    if name == "ftm" {
        return Machine::load("ftm").expect("ftm");
    }
    let path = format!("{}/tests/machines/{name}.isa", env!("CARGO_MANIFEST_DIR"));
    Machine::load(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Instructions a random node may be: anything but control flow, busy ≤ 8.
fn pool(m: &Machine) -> Vec<InstrId> {
    let control: Vec<_> = m.units.iter().enumerate().filter(|(_, u)| u.name.contains("br")).map(|(i, _)| i).collect();
    (0..m.instrs.len())
        .map(|i| InstrId(i as u16))
        .filter(|&i| {
            let ins = m.instr(i);
            ins.busy <= 8 && !ins.units.iter().any(|u| control.contains(&(u.0 as usize)))
        })
        .collect()
}

/// A loop body as proptest draws it; indices pick among what exists when
/// the graph is built, so shrinking one part keeps the rest meaningful.
#[derive(Clone, Debug)]
struct Spec {
    /// Per node: instruction, registers read (0–2), writes one (3 in 4).
    nodes: Vec<(Index, u32, bool)>,
    /// Per node 1..: incoming edges (source among the earlier nodes, a flow
    /// edge when it writes — 4 in 5 —, else a memory edge's delay).
    forward: Vec<Vec<(Index, bool, i32)>>,
    /// Loop-carried edges: (node j, node i ≤ j, distance 1–2).
    carried: Vec<(Index, Index, u32)>,
    /// The loop branch, with the node its control edge comes from.
    branch: Option<Index>,
}

/// Loop bodies of `nodes` operations.
fn spec_of(nodes: impl Strategy<Value = usize>, branch: f64) -> impl Strategy<Value = Spec> {
    nodes.prop_flat_map(move |n| {
        (
            prop::collection::vec((any::<Index>(), 0u32..3, prop::bool::weighted(0.75)), n),
            prop::collection::vec(prop::collection::vec((any::<Index>(), prop::bool::weighted(0.8), -1i32..=1), 0..3), n - 1),
            prop::collection::vec((any::<Index>(), any::<Index>(), 1u32..=2), 0..3),
            prop::option::weighted(branch, any::<Index>()),
        )
            .prop_map(|(nodes, forward, carried, branch)| Spec { nodes, forward, carried, branch })
    })
}

/// A random loop body: forward edges (distance 0) from lower to higher
/// index, loop-carried edges (distance 1–2) anywhere, optionally a loop
/// branch pinned to the end of the kernel.
fn build_graph(m: &Machine, pool: &[InstrId], spec: &Spec) -> LoopGraph {
    let r = isa_tablegen::RegFileId(0);
    let nodes = spec.nodes.len();
    let mut g = LoopGraph::new();
    for (i, &(k, reads, writes)) in spec.nodes.iter().enumerate() {
        g.add_node(Node {
            instr: pool[k.index(pool.len())],
            reads: if reads > 0 { vec![(r, reads)] } else { vec![] },
            writes: writes.then_some(r),
            name: format!("n{i}"),
            pinned_row: None,
        });
    }
    for (j, edges) in spec.forward.iter().enumerate() {
        let j = j + 1;
        for &(i, flow, delay) in edges {
            let i = i.index(j);
            if g.nodes[i].writes.is_some() && flow {
                g.add_flow(m, i, j, 0);
            } else {
                g.add_edge(i, j, delay, 0, DepKind::Memory);
            }
        }
    }
    for &(j, i, d) in &spec.carried {
        let j = j.index(nodes);
        let i = i.index(j + 1);
        if g.nodes[j].writes.is_some() {
            g.add_flow(m, j, i, d);
        } else {
            g.add_edge(j, i, 1, d, DepKind::Memory);
        }
    }
    if let Some(from) = spec.branch {
        let br = m.instr_by_mnemonic("br").or_else(|| m.instr_by_mnemonic("brct")).expect("a branch instruction");
        let b = g.add_node(Node {
            instr: br,
            reads: vec![],
            writes: None,
            name: "br".into(),
            pinned_row: Some(PinnedRow { from_end: m.control.delay_slots }),
        });
        g.add_edge(from.index(b), b, 1, 0, DepKind::Control);
    }
    g
}

/// The exhaustive oracle: is there a schedule at `ii`? None when too big.
fn exists_at(m: &Machine, g: &LoopGraph, ii: u32) -> Option<bool> {
    let n = g.nodes.len();
    if (ii as f64).powi(n as i32) > 20_000.0 {
        return None;
    }
    let mut rows = vec![0u32; n];
    loop {
        let pinned_ok = g.nodes.iter().enumerate().all(|(x, nd)| nd.pinned_row.is_none_or(|p| p.row(ii) == Some(rows[x])));
        if pinned_ok && stages_exist(g, ii, &rows) {
            let mut mrt = Mrt::new(m, g, ii);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&x| (rows[x], x));
            if order.iter().all(|&x| mrt.try_place(x, rows[x]).is_ok()) {
                return Some(true);
            }
        }
        // Next assignment.
        let mut i = 0;
        loop {
            if i == n {
                return Some(false);
            }
            rows[i] += 1;
            if rows[i] < ii {
                break;
            }
            rows[i] = 0;
            i += 1;
        }
    }
}

/// Stages k with `k(v) − k(u) ≥ ⌈(r(u) + delay − r(v))/II⌉ − distance`:
/// no positive cycle.
fn stages_exist(g: &LoopGraph, ii: u32, rows: &[u32]) -> bool {
    let n = g.nodes.len();
    let ii = ii as i64;
    let w: Vec<i64> = g
        .edges
        .iter()
        .map(|e| {
            let a = rows[e.from] as i64 + e.delay as i64 - rows[e.to] as i64;
            -((-a).div_euclid(ii)) - e.distance as i64
        })
        .collect();
    let mut d = vec![0i64; n];
    for _ in 0..=n {
        let mut changed = false;
        for (i, e) in g.edges.iter().enumerate() {
            if d[e.from] + w[i] > d[e.to] {
                d[e.to] = d[e.from] + w[i];
                changed = true;
            }
        }
        if !changed {
            return true;
        }
    }
    false
}

fn live(m: &Machine, g: &LoopGraph, s: &dsp_modsched::Schedule) -> u32 {
    dsp_modsched::regs::pressure(m, g, s).max_live
}

fn thread_cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let f: Vec<&str> = s.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// The least MaxLive over every schedule at `ii` with times below
/// `3·ii` (None when that is too many to enumerate).
fn least_max_live(m: &Machine, g: &LoopGraph, ii: u32) -> Option<u32> {
    let n = g.nodes.len();
    let span = 3 * ii;
    if (span as f64).powi(n as i32) > 10_000.0 {
        return None;
    }
    let mut time = vec![0u32; n];
    let mut best: Option<u32> = None;
    loop {
        let s = dsp_modsched::Schedule { ii, time: time.clone() };
        if verify(m, g, &s).is_ok() {
            let l = live(m, g, &s);
            best = Some(best.map_or(l, |b| b.min(l)));
        }
        let mut i = 0;
        loop {
            if i == n {
                return best;
            }
            time[i] += 1;
            if time[i] < span {
                break;
            }
            time[i] = 0;
            i += 1;
        }
    }
}

struct Totals {
    graphs: usize,
    ilp_at_mii: usize,
    ims_at_mii: usize,
    sms_at_mii: usize,
    ilp_live_sms: u64,
    sms_live_equal_ii: u64,
    oracle_checked: usize,
    live_checked: usize,
    ilp_live: u64,
    ims_live_equal_ii: u64,
    ilp_secs: f64,
}

fn check_machine(name: &str, seed: u64, count: u32, max_nodes: usize) -> Totals {
    let m = machine(name);
    let pool = pool(&m);
    let totals = RefCell::new(Totals { graphs: 0, ilp_at_mii: 0, ims_at_mii: 0, sms_at_mii: 0, ilp_live_sms: 0, sms_live_equal_ii: 0, oracle_checked: 0, live_checked: 0, ilp_live: 0, ims_live_equal_ii: 0, ilp_secs: 0.0 });
    let ilp_opts = IlpOptions { time_limit_secs: 20.0, ..IlpOptions::default() };
    runner(count, seed)
        .run(&spec_of(2..=max_nodes, 0.5), |spec| {
            check_graph(&m, &pool, &spec, name, &ilp_opts, &mut totals.borrow_mut());
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let t = totals.into_inner();
    eprintln!(
        "{name}: {} graphs, II=MII: ilp {} sms {} ims {}; II oracle-checked {}, MaxLive oracle-checked {}; sum of MaxLive at equal II: ilp {} vs ims {}, ilp {} vs sms {}; ilp cpu {:.2} s",
        t.graphs, t.ilp_at_mii, t.sms_at_mii, t.ims_at_mii, t.oracle_checked, t.live_checked, t.ilp_live, t.ims_live_equal_ii, t.ilp_live_sms, t.sms_live_equal_ii, t.ilp_secs
    );
    t
}

/// Every property on one graph.
fn check_graph(m: &Machine, pool: &[InstrId], spec: &Spec, name: &str, ilp_opts: &IlpOptions, t: &mut Totals) {
    {
        let g = build_graph(m, pool, spec);
        let ctx = format!("{name}: {g:?}");
        let r = mii::compute(m, &g).unwrap_or_else(|e| panic!("mii: {e}\n{ctx}"));
        let ims = ims::schedule(m, &g, &r, &ImsOptions::default()).unwrap_or_else(|a| panic!("ims: {a:?}\n{ctx}"));
        verify(m, &g, &ims.schedule).unwrap_or_else(|e| panic!("ims schedule: {e}\n{ctx}"));
        assert!(ims.schedule.ii >= r.mii, "ims below the MII\n{ctx}");
        let started = std::time::Instant::now();
        let cpu0 = thread_cpu();
        let ilp = ilp::schedule(m, &g, &r, ilp_opts).unwrap_or_else(|a| panic!("ilp: {a:?}\n{ctx}"));
        t.ilp_secs += thread_cpu() - cpu0;
        if std::env::var("MODSCHED_VERBOSE").is_ok() {
            eprintln!("{name}: n={} mii={} ims={} ilp={} {:.3}s cpu {:.3}s {:?}", g.nodes.len(), r.mii, ims.schedule.ii, ilp.schedule.ii, started.elapsed().as_secs_f64(), thread_cpu() - cpu0, ilp.notes);
        }
        verify(m, &g, &ilp.schedule).unwrap_or_else(|e| panic!("ilp schedule: {e}\n{ctx}"));
        assert!(!ilp.capped, "ilp capped on a small graph: {:?}\n{ctx}", ilp.notes);
        assert!(ilp.schedule.ii >= r.mii, "ilp below the MII\n{ctx}");
        assert!(ilp.schedule.ii <= ims.schedule.ii, "ilp II {} > ims II {}\n{ctx}", ilp.schedule.ii, ims.schedule.ii);
        let sms = sms::schedule(m, &g, &r, &SmsOptions::production()).unwrap_or_else(|a| panic!("sms: {a:?}\n{ctx}"));
        assert!(ilp.schedule.ii <= sms.schedule.ii, "ilp II {} > sms II {}\n{ctx}", ilp.schedule.ii, sms.schedule.ii);
        let ilp_live = live(m, &g, &ilp.schedule);
        if ilp.schedule.ii == sms.schedule.ii {
            let sms_live = live(m, &g, &sms.schedule);
            assert!(ilp_live <= sms_live, "ilp MaxLive {ilp_live} > sms {sms_live} at equal II\n{ctx}");
            t.sms_live_equal_ii += sms_live as u64;
            t.ilp_live_sms += ilp_live as u64;
        }
        if ilp.schedule.ii == ims.schedule.ii {
            let ims_live = live(m, &g, &ims.schedule);
            assert!(ilp_live <= ims_live, "ilp MaxLive {ilp_live} > ims {ims_live} at equal II\n{ctx}");
            t.ilp_live += ilp_live as u64;
            t.ims_live_equal_ii += ims_live as u64;
        }
        // The oracle: the least II with a schedule.
        let mut least = None;
        for ii in r.mii..=ilp.schedule.ii {
            match exists_at(m, &g, ii) {
                Some(true) => {
                    least = Some(ii);
                    break;
                }
                Some(false) => {}
                None => break,
            }
        }
        if let Some(least) = least {
            assert_eq!(ilp.schedule.ii, least, "ilp II is not the least with a schedule\n{ctx}");
            t.oracle_checked += 1;
        }
        // MaxLive oracle on the tiniest graphs: every schedule of at most
        // three stages at the ILP's II.
        if let Some(best) = least_max_live(m, &g, ilp.schedule.ii) {
            assert!(ilp_live <= best, "ilp MaxLive {ilp_live} > {best} found by enumeration\n{ctx}");
            t.live_checked += 1;
        }
        if ims.schedule.ii == r.mii || sms.schedule.ii == r.mii {
            // A schedule at the MII exists: the ILP must find the MII too.
            assert_eq!(ilp.schedule.ii, r.mii, "\n{ctx}");
        }
        t.graphs += 1;
        t.ilp_at_mii += (ilp.schedule.ii == r.mii) as usize;
        t.ims_at_mii += (ims.schedule.ii == r.mii) as usize;
        t.sms_at_mii += (sms.schedule.ii == r.mii) as usize;
    }
}

#[test]
fn random_graphs_seed003_machine() {
    let t = check_machine("seed003_ims", 3, 30, 7);
    assert!(t.oracle_checked >= 10 && t.live_checked >= 5);
}

#[test]
fn random_graphs_alternative_units() {
    let t = check_machine("alt_ims", 17, 30, 7);
    assert!(t.oracle_checked >= 10 && t.live_checked >= 5);
}

#[test]
fn random_graphs_ftm() {
    check_machine("ftm", 2024, 20, 10);
}

/// Larger graphs on ftm with the default 10 s cap (not run by default:
/// `cargo test -p dsp-modsched --release --test compare -- --ignored`).
#[test]
#[ignore]
fn large_graphs_ftm_timing() {
    let name = std::env::var("LARGE_MACHINE").unwrap_or("ftm".into());
    let m = machine(&name);
    let pool = pool(&m);
    let mut runner = runner(1, 77);
    let specs = spec_of(20usize..45, 1.0);
    for k in 0..8 {
        let spec = specs.new_tree(&mut runner).unwrap().current();
        let g = build_graph(&m, &pool, &spec);
        let r = mii::compute(&m, &g).unwrap();
        let t0 = std::time::Instant::now();
        let ims = ims::schedule(&m, &g, &r, &ImsOptions::default()).unwrap();
        let t1 = t0.elapsed().as_secs_f64();
        let cpu0 = thread_cpu();
        let t0 = std::time::Instant::now();
        let cap = std::env::var("ILP_CAP").ok().and_then(|v| v.parse().ok()).unwrap_or(10.0);
        let ilp = ilp::schedule(&m, &g, &r, &IlpOptions { time_limit_secs: cap, ..IlpOptions::default() }).unwrap();
        verify(&m, &g, &ilp.schedule).unwrap();
        eprintln!(
            "large {k}: n={} mii={} ims={} ({:.3}s, MaxLive {}) ilp={} ({:.2}s cpu {:.2}s, MaxLive {}, stages {}, capped {}) {:?}",
            g.nodes.len(),
            r.mii,
            ims.schedule.ii,
            t1,
            live(&m, &g, &ims.schedule),
            ilp.schedule.ii,
            t0.elapsed().as_secs_f64(),
            thread_cpu() - cpu0,
            live(&m, &g, &ilp.schedule),
            ilp.schedule.stages(),
            ilp.capped,
            ilp.notes
        );
    }
}

/// A graph dumped by the ILP's debug output (`ILP_GRAPH=FILE`, machine
/// `ILP_MACHINE`, default ftm); not run by default.
#[test]
#[ignore]
fn ilp_on_dumped_graph() {
    let Ok(path) = std::env::var("ILP_GRAPH") else { return };
    let m = machine(&std::env::var("ILP_MACHINE").unwrap_or("ftm".into()));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut g = LoopGraph::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f[0] {
            "N" => {
                let reads = if f[2] == "-" {
                    vec![]
                } else {
                    f[2].split(',').map(|x| {
                        let (a, b) = x.split_once(':').unwrap();
                        (isa_tablegen::RegFileId(a.parse().unwrap()), b.parse().unwrap())
                    }).collect()
                };
                let w: i64 = f[3].parse().unwrap();
                let p: i64 = f[4].parse().unwrap();
                let n = g.nodes.len();
                g.add_node(Node {
                    instr: m.instr_by_mnemonic(f[5]).unwrap(),
                    reads,
                    writes: (w >= 0).then(|| isa_tablegen::RegFileId(w as u16)),
                    name: format!("n{n}"),
                    pinned_row: (p >= 0).then(|| PinnedRow { from_end: p as u32 }),
                });
            }
            _ => {
                let kind = if f[5] == "F" { DepKind::Flow } else { DepKind::Memory };
                g.add_edge(f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap(), f[4].parse().unwrap(), kind);
            }
        }
    }
    let r = mii::compute(&m, &g).unwrap();
    let cap = std::env::var("ILP_CAP").ok().and_then(|v| v.parse().ok()).unwrap_or(10.0);
    let t0 = std::time::Instant::now();
    let cpu0 = thread_cpu();
    let min_registers = std::env::var("ILP_NOREG").is_err();
    let out = ilp::schedule(&m, &g, &r, &IlpOptions { time_limit_secs: cap, min_registers, ..IlpOptions::default() }).unwrap();
    verify(&m, &g, &out.schedule).unwrap();
    let sms = sms::schedule(&m, &g, &r, &SmsOptions::production()).unwrap();
    eprintln!(
        "n={} mii={} ilp II={} MaxLive={} stages={} ({:.2}s, cpu {:.2}s) capped={} sms II={} MaxLive={} {:?}",
        g.nodes.len(), r.mii, out.schedule.ii, live(&m, &g, &out.schedule), out.schedule.stages(),
        t0.elapsed().as_secs_f64(), thread_cpu() - cpu0, out.capped, sms.schedule.ii, live(&m, &g, &sms.schedule), out.notes
    );
}

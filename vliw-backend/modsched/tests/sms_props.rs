//! Property tests of MII, the SMS ordering and placement, and the register
//! pressure, over random dependence graphs (proptest, from fixed seeds; a
//! failing graph is shrunk to a minimal one):
//!
//! - RecMII equals the maximum of ⌈delay/distance⌉ over every circuit
//!   (enumerated by brute force on small graphs) and the circuit returned
//!   sets it; ResMII is the smallest II at which an exhaustive search finds
//!   a row for every operation in the reservation table (tiny graphs);
//! - every SMS schedule passes `verify`, has II ≥ MII, starts at cycle 0
//!   (within the first II when a node is pinned), and its order is a
//!   permutation; the symmetric retry never makes II worse;
//! - MaxLive and kernel copies agree with the lifetimes (bounds that hold
//!   for any schedule).
//!
//! Graphs: loop bodies of 1–24 operations drawn from the machine, forward
//! edges within an iteration (flow edges with the producer's latency,
//! memory-like edges of delay −1…1), loop-carried edges of distance 1–3,
//! sometimes backward edges of distance 0 and non-positive delay (circuits
//! of zero/negative delay, §6.2), sometimes a loop branch pinned to the end
//! of the kernel. Machines: seed 003's, tests/machines/sms_alt.isa
//! (alternative and non-pipelined units, few ports) and the shipped ftm.

use dsp_modsched::graph::{DepKind, LoopGraph, Node, PinnedRow};
use dsp_modsched::ims::{self, ImsOptions};
use dsp_modsched::mii;
use dsp_modsched::sms::{self, SmsOptions};
use dsp_modsched::{regs, verify, Mrt};
use isa_tablegen::{InstrId, Machine, OperandKind, UnitKind};

use proptest::prelude::*;
use proptest::sample::Index;
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

/// Instructions a random node may be: no control flow, nothing on a control
/// unit, nothing busier than 12 cycles.
fn pool(m: &Machine) -> Vec<InstrId> {
    (0..m.instrs.len())
        .map(|i| InstrId(i as u16))
        .filter(|&i| {
            let ins = m.instr(i);
            !ins.units.is_empty()
                && ins.busy <= 12
                && !ins.sem.is_branch()
                && !ins.units.iter().any(|&u| m.unit(u).kind == UnitKind::Control)
                && m.place_bundle(&[i], &|_, _| false).is_ok()
        })
        .collect()
}

/// A node for `instr`, reading and writing the register files its operands
/// name.
fn node(m: &Machine, instr: InstrId, name: String) -> Node {
    let ins = m.instr(instr);
    let mut reads: Vec<(isa_tablegen::RegFileId, u32)> = Vec::new();
    for s in ins.sem.sources() {
        if let Some(OperandKind::Reg(f)) = ins.operands.get(s).map(|o| o.kind) {
            match reads.iter_mut().find(|(g, _)| *g == f) {
                Some(r) => r.1 += 1,
                None => reads.push((f, 1)),
            }
        }
    }
    let writes = ins.sem.dst.and_then(|d| match ins.operands.get(d.0).map(|o| o.kind) {
        Some(OperandKind::Reg(f)) => Some(f),
        _ => None,
    });
    Node { instr, reads, writes, name, pinned_row: None }
}

/// Longest delay of a path from `a` to `b` over edges of distance 0.
fn longest_path(g: &LoopGraph, a: usize, b: usize) -> Option<i64> {
    let n = g.nodes.len();
    let mut d: Vec<Option<i64>> = vec![None; n];
    d[a] = Some(0);
    for _ in 0..n {
        for e in g.edges.iter().filter(|e| e.distance == 0) {
            if let Some(x) = d[e.from] {
                let y = x + e.delay as i64;
                if d[e.to].is_none_or(|z| y > z) {
                    d[e.to] = Some(y);
                }
            }
        }
    }
    d[b]
}

/// A loop body as proptest draws it: an instruction per node, forward
/// edges into each node after the first, loop-carried edges, maybe one
/// backward edge of distance 0 and maybe the loop branch. Indices pick
/// among what exists when the graph is built, so shrinking any part keeps
/// the rest meaningful.
#[derive(Clone, Debug)]
struct Spec {
    nodes: Vec<Index>,
    /// Per node 1.., its incoming edges: (source among the earlier nodes,
    /// a flow edge when the source writes a register, delay if not).
    forward: Vec<Vec<(Index, bool, i32)>>,
    /// (node j, node i ≤ j, distance, a flow edge when j writes, delay if not).
    carried: Vec<(Index, Index, u32, bool, i32)>,
    /// (node j ≥ 1, node i < j, one more cycle of slack or not).
    backward: Option<(Index, Index, bool)>,
    /// The loop branch, and the node its control edge comes from.
    branch: Option<Index>,
}

/// Graphs of exactly `n` nodes (1–3 edges into each, 0–3 loop-carried
/// edges, a backward edge one time in four, the branch in three of ten).
fn spec_of(n: usize) -> impl Strategy<Value = Spec> {
    (
        prop::collection::vec(any::<Index>(), n),
        prop::collection::vec(prop::collection::vec((any::<Index>(), prop::bool::weighted(0.75), -1i32..=1), 0..3), n.saturating_sub(1)),
        prop::collection::vec((any::<Index>(), any::<Index>(), 1u32..=3, prop::bool::weighted(0.7), 0i32..=2), 0..4),
        prop::option::weighted(0.25, (any::<Index>(), any::<Index>(), any::<bool>())),
        prop::option::weighted(0.3, any::<Index>()),
    )
        .prop_map(|(nodes, forward, carried, backward, branch)| Spec { nodes, forward, carried, backward, branch })
}

/// Graphs of 1 to `max` nodes.
fn spec(max: usize) -> impl Strategy<Value = Spec> {
    (1..=max).prop_flat_map(spec_of)
}

/// Mostly loops of up to 10 operations, one in four of up to 24.
fn small_or_medium() -> impl Strategy<Value = Spec> {
    prop_oneof![3 => spec(10), 1 => spec(24)]
}

fn build_graph(m: &Machine, pool: &[InstrId], spec: &Spec) -> LoopGraph {
    let nodes = spec.nodes.len();
    let mut g = LoopGraph::new();
    for (i, k) in spec.nodes.iter().enumerate() {
        g.add_node(node(m, pool[k.index(pool.len())], format!("n{i}")));
    }
    // Forward edges within an iteration.
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
    // Loop-carried edges.
    for &(j, i, d, flow, delay) in &spec.carried {
        let j = j.index(nodes);
        let i = i.index(j + 1);
        if g.nodes[j].writes.is_some() && flow {
            g.add_flow(m, j, i, d);
        } else {
            g.add_edge(j, i, delay, d, DepKind::Anti);
        }
    }
    // Backward edges of distance 0 and non-positive delay (§6.2).
    if let Some((j, i, slack)) = spec.backward.filter(|_| nodes >= 2) {
        let j = 1 + j.index(nodes - 1);
        let i = i.index(j);
        let delay = match longest_path(&g, i, j) {
            // Leave one cycle of slack: an equality between two operations
            // on one unit would have no schedule at any II.
            Some(l) => -(l.max(0)) - 1 - slack as i64,
            None => -1 - slack as i64,
        };
        g.add_edge(j, i, delay as i32, 0, DepKind::Anti);
    }
    // The loop branch, pinned.
    if let Some(from) = spec.branch {
        let br = (0..m.instrs.len())
            .map(|i| InstrId(i as u16))
            .find(|&i| m.instr(i).sem.op == isa_tablegen::sem::SemOp::Br && m.instr(i).operands.len() <= 2);
        if let Some(br) = br {
            let mut nd = node(m, br, "br".into());
            nd.writes = None;
            nd.pinned_row = Some(PinnedRow { from_end: m.control.delay_slots });
            let b = g.add_node(nd);
            if b > 0 {
                g.add_edge(from.index(b), b, 1, 0, DepKind::Control);
            }
        }
    }
    g
}

/// RecMII by brute force: every simple circuit of the multigraph.
fn brute_rec_mii(g: &LoopGraph) -> Option<u32> {
    let n = g.nodes.len();
    let mut best = 0i64;
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in g.edges.iter().enumerate() {
        out[e.from].push(i);
    }
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        g: &LoopGraph,
        out: &[Vec<usize>],
        s: usize,
        v: usize,
        on: &mut Vec<bool>,
        delay: i64,
        dist: i64,
        best: &mut i64,
        bad: &mut bool,
    ) {
        for &e in &out[v] {
            let ed = &g.edges[e];
            let (d2, k2) = (delay + ed.delay as i64, dist + ed.distance as i64);
            if ed.to == s {
                if k2 == 0 {
                    if d2 > 0 {
                        *bad = true;
                    }
                } else {
                    *best = (*best).max(d2.div_euclid(k2) + i64::from(d2.rem_euclid(k2) != 0));
                }
            } else if ed.to > s && !on[ed.to] {
                on[ed.to] = true;
                dfs(g, out, s, ed.to, on, d2, k2, best, bad);
                on[ed.to] = false;
            }
        }
    }
    let mut bad = false;
    for s in 0..n {
        let mut on = vec![false; n];
        on[s] = true;
        dfs(g, &out, s, s, &mut on, 0, 0, &mut best, &mut bad);
    }
    (!bad).then_some(best.max(0) as u32)
}

/// Whether some row assignment fits the reservation table at `ii`
/// (dependences ignored); None when too many to try.
fn brute_fits(m: &Machine, g: &LoopGraph, ii: u32) -> Option<bool> {
    let n = g.nodes.len();
    if (ii as f64).powi(n as i32) > 50_000.0 {
        return None;
    }
    let mut rows = vec![0u32; n];
    loop {
        let pinned = g.nodes.iter().enumerate().all(|(x, nd)| nd.pinned_row.is_none_or(|p| p.row(ii) == Some(rows[x])));
        if pinned {
            let mut mrt = Mrt::new(m, g, ii);
            if (0..n).all(|x| mrt.try_place(x, rows[x]).is_ok()) {
                return Some(true);
            }
        }
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

#[derive(Default, Debug)]
struct Stats {
    graphs: u32,
    scheduled: u32,
    failed: u32,
    verify_order: u32,
    at_mii: u32,
    sum_ii: u64,
    sum_mii: u64,
    symmetric_helped: u32,
    polished: u32,
    /// Schedules that needed a node moved to the front / the topological
    /// order (sms.rs's additions to the seed).
    promoted: u32,
    topological: u32,
    rec_checked: u32,
    res_checked: u32,
    ims_compared: u32,
    sms_better: u32,
    ims_better: u32,
    sum_ims_ii: u64,
    sum_max_live: u64,
    /// MaxLive summed over the graphs where SMS and IMS reach the same II.
    equal_ii: u32,
    sms_live_at_equal_ii: u64,
    ims_live_at_equal_ii: u64,
}

fn check_graph(m: &Machine, g: &LoopGraph, stats: &mut Stats, ctx: &str) {
    stats.graphs += 1;
    let r = mii::compute(m, g).unwrap_or_else(|e| panic!("mii: {e}\n{ctx}"));
    assert_eq!(r.mii, r.res_mii.max(r.rec_mii).max(1), "{ctx}");
    // RecMII against every circuit.
    if g.nodes.len() <= 10 {
        let b = brute_rec_mii(g).expect("generated graphs have no positive circuit of distance 0");
        assert_eq!(r.rec_mii, b, "RecMII\n{ctx}");
        stats.rec_checked += 1;
    }
    if r.rec_mii > 0 {
        // The circuit returned sets RecMII: positive at RecMII − 1.
        let c = &r.recurrence;
        assert!(!c.is_empty(), "{ctx}");
        let k = c.len();
        let mut sum = 0i64;
        for i in 0..k {
            let (a, b) = (c[i], c[(i + 1) % k]);
            let w = g
                .edges
                .iter()
                .filter(|e| e.from == a && e.to == b)
                .map(|e| e.delay as i64 - (r.rec_mii as i64 - 1) * e.distance as i64)
                .max()
                .unwrap_or_else(|| panic!("recurrence {c:?} is not a circuit\n{ctx}"));
            sum += w;
        }
        assert!(sum > 0, "recurrence {c:?} does not set RecMII {}\n{ctx}", r.rec_mii);
    }
    // ResMII against an exhaustive search on tiny graphs (which places in
    // node order: not with non-pipelined operations with alternative units,
    // which the table keeps on the unit the `.isa`'s placement gave them
    // when they were placed, so that which packings it finds depends on the
    // order of placement).
    let alternatives = (0..g.nodes.len()).any(|v| g.busy(m, v) > 1 && m.instr(g.nodes[v].instr).units.len() > 1);
    if r.res_exact && !alternatives {
        if let Some(fits) = brute_fits(m, g, r.res_mii) {
            assert!(fits, "ResMII {} does not fit\n{ctx}", r.res_mii);
            // (The reservation table does not count a non-pipelined
            // operation against itself when its busy cycles exceed II — it
            // accepts a div of 3 busy cycles at II = 2 on one divider — so
            // the search below the bound is only meaningful without such
            // operations.)
            let self_overlap = (0..g.nodes.len()).any(|v| g.busy(m, v) > r.res_mii - 1);
            if r.res_mii > 1 && !self_overlap {
                assert_eq!(brute_fits(m, g, r.res_mii - 1), Some(false), "ResMII {} is not the least\n{ctx}", r.res_mii);
            }
            stats.res_checked += 1;
        }
    }
    let plain = sms::schedule(m, g, &r, &SmsOptions { max_ii: None, symmetric_retry: false, polish: false });
    let out = sms::schedule(m, g, &r, &SmsOptions::production());
    let out = match out {
        Ok(o) => o,
        Err(attempts) => {
            // The reservation table's choice of unit for a non-pipelined
            // operation with alternative units depends on the order of
            // placement: `verify` (time order) may reject a table SMS filled
            // in its own order. Counted apart.
            if attempts.iter().all(|a| a.reason.starts_with("internal: schedule failed its check")) {
                stats.verify_order += 1;
                return;
            }
            stats.failed += 1;
            eprintln!(
                "SMS found no schedule up to II={:?}: first {:?}, last {:?}\n{ctx}",
                attempts.last().map(|a| a.ii),
                attempts.first().map(|a| &a.reason),
                attempts.last().map(|a| &a.reason)
            );
            return;
        }
    };
    stats.scheduled += 1;
    let s = &out.schedule;
    if std::env::var_os("SMS_PROPS_VERBOSE").is_some() && s.ii > r.mii {
        eprintln!("II {} > MII {} ({}): {:?}", s.ii, r.mii, r.bottleneck, out.attempts.first().map(|a| &a.reason));
    }
    verify(m, g, s).unwrap_or_else(|e| panic!("{e}\n{ctx}"));
    assert!(s.ii >= r.mii, "{ctx}");
    let min = s.time.iter().copied().min().unwrap_or(0);
    if g.nodes.iter().any(|nd| nd.pinned_row.is_some()) {
        assert!(min < s.ii, "{ctx}");
    } else {
        assert_eq!(min, 0, "{ctx}");
    }
    let mut order = out.order.clone();
    order.sort_unstable();
    assert_eq!(order, (0..g.nodes.len()).collect::<Vec<_>>(), "{ctx}");
    // Lifetime polishing keeps the II and never raises MaxLive.
    let unpolished = sms::schedule(m, g, &r, &SmsOptions { polish: false, ..SmsOptions::production() })
        .unwrap_or_else(|_| panic!("SMS without polishing failed where it succeeded with it\n{ctx}"));
    assert_eq!(unpolished.schedule.ii, s.ii, "{ctx}");
    let (pl, un) = (regs::pressure(m, g, s).max_live, regs::pressure(m, g, &unpolished.schedule).max_live);
    assert!(pl <= un, "polishing raised MaxLive {un} -> {pl}\n{ctx}");
    if pl < un {
        stats.polished += 1;
    }
    if let Ok(p) = &plain {
        assert!(s.ii <= p.schedule.ii, "{ctx}");
        if s.ii < p.schedule.ii {
            stats.symmetric_helped += 1;
        }
    }
    if out.notes.iter().any(|n| n.contains("placed again with it first")) {
        stats.promoted += 1;
    }
    if out.notes.iter().any(|n| n.contains("topological order")) {
        stats.topological += 1;
    }
    stats.sum_ii += s.ii as u64;
    stats.sum_mii += r.mii as u64;
    if s.ii == r.mii {
        stats.at_mii += 1;
    }
    // Register pressure.
    let p = regs::pressure(m, g, s);
    let ii = s.ii as u64;
    let mut copies = 1u64;
    for (v, nd) in g.nodes.iter().enumerate() {
        assert_eq!(p.lifetimes[v].is_some(), nd.writes.is_some(), "{ctx}");
        if let Some(l) = p.lifetimes[v] {
            assert!(l >= 1);
            copies = copies.max((l as u64).div_ceil(ii));
        }
    }
    for e in g.edges.iter().filter(|e| e.kind == DepKind::Flow) {
        if let Some(l) = p.lifetimes[e.from] {
            let span = s.time[e.to] as i64 + e.distance as i64 * ii as i64 - s.time[e.from] as i64;
            assert!(l as i64 >= span, "{ctx}");
        }
    }
    assert_eq!(p.kernel_copies as u64, copies, "{ctx}");
    let mut sum_files = 0u64;
    for &(f, live) in &p.per_file {
        let ls: Vec<u64> = (0..g.nodes.len())
            .filter(|&v| g.nodes[v].writes == Some(f))
            .map(|v| p.lifetimes[v].unwrap() as u64)
            .collect();
        let total: u64 = ls.iter().sum();
        let upper: u64 = ls.iter().map(|l| l.div_ceil(ii)).sum();
        assert!(live as u64 >= total.div_ceil(ii), "MaxLive below the average\n{ctx}");
        assert!(live as u64 <= upper, "MaxLive above Σ⌈L/II⌉\n{ctx}");
        assert!(p.max_live >= live, "{ctx}");
        sum_files += live as u64;
    }
    assert!(p.max_live as u64 <= sum_files, "{ctx}");
    stats.sum_max_live += p.max_live as u64;
    // Against IMS (statistics only).
    if let Ok(i) = ims::schedule(m, g, &r, &ImsOptions::default()) {
        stats.ims_compared += 1;
        stats.sum_ims_ii += i.schedule.ii as u64;
        match s.ii.cmp(&i.schedule.ii) {
            std::cmp::Ordering::Less => stats.sms_better += 1,
            std::cmp::Ordering::Greater => stats.ims_better += 1,
            std::cmp::Ordering::Equal => {
                stats.equal_ii += 1;
                stats.sms_live_at_equal_ii += p.max_live as u64;
                stats.ims_live_at_equal_ii += regs::pressure(m, g, &i.schedule).max_live as u64;
            }
        }
    }
}

fn run(machine_name: &str, seed: u64, graphs: u32) -> Stats {
    let m = machine(machine_name);
    let pool = pool(&m);
    assert!(!pool.is_empty());
    let stats = RefCell::new(Stats::default());
    runner(graphs, seed)
        .run(&small_or_medium(), |spec| {
            let g = build_graph(&m, &pool, &spec);
            let nodes: Vec<String> = g
                .nodes
                .iter()
                .map(|nd| format!("{}={}{}", nd.name, m.instr(nd.instr).mnemonic, if nd.pinned_row.is_some() { "(pinned)" } else { "" }))
                .collect();
            let edges: Vec<String> =
                g.edges.iter().map(|e| format!("{}->{}<{},{}>", e.from, e.to, e.delay, e.distance)).collect();
            let ctx = format!("machine {machine_name}: {}\n  {}", nodes.join(" "), edges.join(" "));
            check_graph(&m, &g, &mut stats.borrow_mut(), &ctx);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{machine_name}: {e}"));
    let stats = stats.into_inner();
    eprintln!("{machine_name}: {stats:?}");
    stats
}

/// SMS schedules every graph, reaches II = MII on at least `percent` of
/// them, its II sum is no more than IMS's plus `ims_slack_percent`, and at
/// equal II its MaxLive is no more than IMS's (SMS is the
/// lifetime-sensitive one).
fn assert_quality(s: &Stats, percent: u32, ims_slack_percent: u64) {
    assert_eq!(s.failed + s.verify_order, 0, "{s:?}");
    assert!(s.at_mii * 100 >= s.scheduled * percent, "{s:?}");
    assert!(s.sum_ii * 100 <= s.sum_ims_ii * (100 + ims_slack_percent), "{s:?}");
    assert!(s.sms_live_at_equal_ii <= s.ims_live_at_equal_ii, "{s:?}");
}

#[test]
fn random_graphs_seed003() {
    let s = run("seed003", 0x5eed_0003, 300);
    assert_quality(&s, 98, 0);
}

#[test]
fn random_graphs_alternative_units_and_ports() {
    let s = run("sms_alt", 0xa17_0001, 300);
    // Built to be hard: ports and non-pipelined units at the bound. Since
    // the reservation table keeps a non-pipelined operation with
    // alternative units on the unit it holds (mrt.rs; it used to accept
    // rows that moved it to the other), IMS's backtracking finds more of
    // the tight packings than SMS's greedy placement: SMS stays as far
    // above MII as it was (32 cycles over 300 graphs), IMS got closer
    // (from 50 to 11 over), so SMS may now be up to 2% above IMS.
    assert_quality(&s, 85, 2);
}

#[test]
fn random_graphs_ftm() {
    let s = run("ftm", 0xf7a_0001, 200);
    assert_quality(&s, 98, 0);
}

/// Loops of 60–250 operations on ftm: SMS schedules them (a swing order can
/// trap a node between neighbours placed with no slack; the topological
/// fallback of sms.rs must get out of it) and stays close to MII.
#[test]
fn large_random_graphs_ftm() {
    let m = machine("ftm");
    let pool = pool(&m);
    let stats = RefCell::new(Stats::default());
    for (k, &nodes) in [60usize, 90, 120, 160, 250].iter().enumerate() {
        runner(1, 0x1a7_9e5 + k as u64)
            .run(&spec_of(nodes), |spec| {
                let g = build_graph(&m, &pool, &spec);
                check_graph(&m, &g, &mut stats.borrow_mut(), &format!("large graph {k} of {nodes} nodes"));
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let stats = stats.into_inner();
    eprintln!("large: {stats:?}");
    assert_eq!(stats.scheduled, 5, "{stats:?}");
    assert!(stats.sum_ii <= stats.sum_mii + 5, "{stats:?}");
}

/// ResMII and the reservation table agree on non-pipelined units: random
/// dependence-free loop bodies, half their operations non-pipelined (the
/// dividers of sms_alt and ftm, with ftm's sfpu/sdiv slot shared with the
/// FPU), are placed by SMS at exactly ResMII — so whatever the MII says
/// fits, the table can hold — and, where an exhaustive search can tell, no
/// smaller II fits.
#[test]
fn non_pipelined_units_place_at_res_mii() {
    for (name, seed) in [("sms_alt", 0xd1_0001u64), ("ftm", 0xd1_0002)] {
        let m = machine(name);
        let pool = pool(&m);
        let busy: Vec<InstrId> = pool.iter().copied().filter(|&i| m.instr(i).busy > 1).collect();
        assert!(!busy.is_empty(), "{name} has non-pipelined operations");
        let missed = RefCell::new(0u32);
        let bags = 300;
        // Bags of up to 8 operations, one in five of up to 20; each
        // operation non-pipelined or any, evenly.
        let bag = prop_oneof![
            4 => prop::collection::vec((any::<bool>(), any::<Index>()), 1..=8),
            1 => prop::collection::vec((any::<bool>(), any::<Index>()), 1..=20),
        ];
        runner(bags, seed)
            .run(&bag, |picks| {
                let n = picks.len();
                let mut g = LoopGraph::new();
                for (i, &(nonpipelined, k)) in picks.iter().enumerate() {
                    let list = if nonpipelined { &busy } else { &pool };
                    g.add_node(node(&m, list[k.index(list.len())], format!("n{i}")));
                }
                let ops: Vec<&str> = g.nodes.iter().map(|nd| m.instr(nd.instr).mnemonic.as_str()).collect();
                let ctx = format!("machine {name}: {}", ops.join(" "));
                let r = mii::compute(&m, &g).unwrap_or_else(|e| panic!("{e}\n{ctx}"));
                // (On sms_alt the packing search can give up on the largest bags
                // — ResMII is then a lower bound — but only where alternative
                // units make it search over many unit choices.)
                let alternatives = (0..n).any(|v| g.busy(&m, v) > 1 && m.instr(g.nodes[v].instr).units.len() > 1);
                assert!(r.res_exact || alternatives, "{ctx}");
                let out = sms::schedule(&m, &g, &r, &SmsOptions { max_ii: None, symmetric_retry: false, polish: false })
                    .unwrap_or_else(|a| panic!("no schedule: {:?}\n{ctx}", a.first()));
                verify(&m, &g, &out.schedule).unwrap();
                // The unit of a non-pipelined operation with alternatives is the
                // one the `.isa`'s placement gives it first (the table does not
                // search over units): the exhaustive search over rows can find a
                // packing the ResMII search missed.
                if out.schedule.ii > r.res_mii {
                    // SMS's placement is greedy: mixed busy times on a unit of
                    // several instances, or alternative units, can need a
                    // packing it misses (rare; counted).
                    *missed.borrow_mut() += 1;
                    let mixed = (0..n).filter(|&v| g.busy(&m, v) > 1).map(|v| g.busy(&m, v)).collect::<std::collections::BTreeSet<_>>().len() > 1;
                    assert!(alternatives || mixed, "SMS II {} vs ResMII {} ({})\n{ctx}", out.schedule.ii, r.res_mii, r.bottleneck);
                }
                let self_overlap = (0..n).any(|v| g.busy(&m, v) >= r.res_mii);
                if n <= 8 && r.res_mii > 1 && !self_overlap && !alternatives {
                    assert_ne!(brute_fits(&m, &g, r.res_mii - 1), Some(true), "ResMII {} is not the least\n{ctx}", r.res_mii);
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let missed = missed.into_inner();
        eprintln!("{name}: SMS above ResMII on {missed} of {bags} bags");
        // (Rare: at most 1% of the former generator's 300 bags, 4 of
        // proptest's 300 on sms_alt — 1.3% — so the bound is 2%.)
        assert!(missed * 100 <= bags * 2, "{name}: {missed} of {bags}");
    }
}

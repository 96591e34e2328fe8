//! The worked examples of the seeds, run through MII, the SMS ordering and
//! the SMS placement.
//!
//! - Seed 003 (EECS 583 lecture 15): `for (j=0;j<100;j++) b[j]=a[j]*26` on
//!   its 4-issue machine (tests/machines/seed003.isa) and class problem 2
//!   (tests/machines/seed003_cp2.isa).
//! - Seed 000 (SMS) Fig. 2 and Fig. 8, whose figures are missing from the
//!   text: the graphs below are reconstructions consistent with everything
//!   the text says; each test documents what was inferred and from what.

use dsp_modsched::analysis::node_times;
use dsp_modsched::graph::{DepKind, LoopGraph, Node, NodeId, PinnedRow};
use dsp_modsched::order::{self, NodeSet};
use dsp_modsched::sms::{self, SmsOptions};
use dsp_modsched::{mii, regs, verify};
use isa_tablegen::Machine;


/// SMS exactly as the seed places (our lifetime polishing off: these tests
/// check the seed's placement cycle by cycle; [`check_polished`] checks the
/// polished schedule of the same graph).
fn seed_sms() -> SmsOptions {
    SmsOptions { polish: false, ..SmsOptions::production() }
}

/// The production SMS (with lifetime polishing) keeps the seed's II and
/// never needs more registers.
fn check_polished(m: &Machine, g: &LoopGraph, r: &mii::MiiReport, seed: &dsp_modsched::Schedule) {
    let out = sms::schedule(m, g, r, &SmsOptions::production()).unwrap();
    verify(m, g, &out.schedule).unwrap();
    assert_eq!(out.schedule.ii, seed.ii);
    let (a, b) = (regs::pressure(m, g, &out.schedule).max_live, regs::pressure(m, g, seed).max_live);
    assert!(a <= b, "polished MaxLive {a} > the seed's {b}");
    eprintln!("polished: MaxLive {b} -> {a}");
}

fn machine(name: &str) -> Machine {
    let path = format!("{}/tests/machines/{name}.isa", env!("CARGO_MANIFEST_DIR"));
    Machine::load(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Adds a node running `mnemonic`, reading `reads` registers of file `r`
/// (and `preads` of file `p`) and writing file `writes`.
fn op(g: &mut LoopGraph, m: &Machine, name: &str, mnemonic: &str, reads: &[(&str, u32)], writes: Option<&str>) -> NodeId {
    let instr = m.instr_by_mnemonic(mnemonic).unwrap_or_else(|| panic!("no {mnemonic}"));
    let reads = reads.iter().map(|&(f, k)| (m.regfile_by_name(f).unwrap(), k)).collect();
    let writes = writes.map(|f| m.regfile_by_name(f).unwrap());
    g.add_node(Node { instr, reads, writes, name: name.to_string(), pinned_row: None })
}

fn names(g: &LoopGraph, order: &[NodeId]) -> Vec<String> {
    order.iter().map(|&v| g.nodes[v].name.clone()).collect()
}

fn set_names(g: &LoopGraph, sets: &[NodeSet]) -> Vec<Vec<String>> {
    sets.iter()
        .map(|s| {
            let mut v = names(g, &s.nodes);
            v.sort();
            v
        })
        .collect()
}

fn show(g: &LoopGraph, s: &dsp_modsched::Schedule) -> String {
    let mut v: Vec<(u32, &str)> = (0..g.nodes.len()).map(|n| (s.time[n], g.nodes[n].name.as_str())).collect();
    v.sort();
    v.iter().map(|(t, n)| format!("{n}@{t}")).collect::<Vec<_>>().join(" ")
}

/// Seed 003, slides 14 and 20: the loop body in DSA form
///
/// ```text
/// 1 r3 = load(r1)        4 r1 = r1 + 4          7 brct p1 Loop
/// 2 r4 = r3 * 26         5 r2 = r2 + 4
/// 3 store(r2, r4)        6 p1 = cmpp(r1 < r9)
/// ```
///
/// with the edges the slides list: 1→2 ⟨2,0⟩, 2→3 ⟨3,0⟩, 1→4 ⟨0,0⟩ (the
/// load reads r1 before 4 redefines it), 4→1 ⟨1,1⟩, 4→4 ⟨1,1⟩, 3→5 ⟨0,0⟩,
/// 5→3 ⟨1,1⟩, 5→5 ⟨1,1⟩, 4→6 ⟨1,0⟩, 6→7 ⟨1,0⟩.
fn seed003_graph(m: &Machine) -> LoopGraph {
    let mut g = LoopGraph::new();
    let n1 = op(&mut g, m, "1", "ld", &[("r", 1)], Some("r"));
    let n2 = op(&mut g, m, "2", "mpyi", &[("r", 1)], Some("r"));
    let n3 = op(&mut g, m, "3", "st", &[("r", 2)], None);
    let n4 = op(&mut g, m, "4", "addi", &[("r", 1)], Some("r"));
    let n5 = op(&mut g, m, "5", "addi", &[("r", 1)], Some("r"));
    let n6 = op(&mut g, m, "6", "cmpp", &[("r", 2)], Some("p"));
    let n7 = op(&mut g, m, "7", "brct", &[("p", 1)], None);
    g.nodes[n7].pinned_row = Some(PinnedRow { from_end: m.control.delay_slots });
    g.add_edge(n1, n2, 2, 0, DepKind::Flow);
    g.add_edge(n2, n3, 3, 0, DepKind::Flow);
    g.add_edge(n1, n4, 0, 0, DepKind::Anti);
    g.add_edge(n4, n1, 1, 1, DepKind::Flow);
    g.add_edge(n4, n4, 1, 1, DepKind::Flow);
    g.add_edge(n3, n5, 0, 0, DepKind::Anti);
    g.add_edge(n5, n3, 1, 1, DepKind::Flow);
    g.add_edge(n5, n5, 1, 1, DepKind::Flow);
    g.add_edge(n4, n6, 1, 0, DepKind::Flow);
    g.add_edge(n6, n7, 1, 0, DepKind::Control);
    g
}

#[test]
fn seed003_b_equals_a_times_26() {
    let m = machine("seed003");
    let g = seed003_graph(&m);
    let r = mii::compute(&m, &g).unwrap();
    // ALU: 2, 4, 5, 6 → 4 ops / 2 units = 2; MEM: 1, 3 → 2 / 1 = 2; BR 1.
    assert_eq!((r.res_mii, r.rec_mii, r.mii), (2, 1, 2));
    assert!(r.bottleneck == "alu" || r.bottleneck == "mem", "{}", r.bottleneck);
    // Every circuit (4→4, 5→5, 4→1→4, 5→3→5) has delay 1 over distance 1.
    assert!(!r.recurrence.is_empty());
    let out = sms::schedule(&m, &g, &r, &seed_sms()).unwrap();
    check_polished(&m, &g, &r, &out.schedule);
    verify(&m, &g, &out.schedule).unwrap();
    assert_eq!(out.schedule.ii, 2, "{:?}", out.attempts);
    assert!(out.attempts.is_empty());
    assert_eq!(out.schedule.time.iter().min(), Some(&0));
    // The branch sits in the kernel's last row.
    assert_eq!(out.schedule.row(6), 1);
    let p = regs::pressure(&m, &g, &out.schedule);
    assert!(p.max_live >= 1 && p.kernel_copies >= 1);
    eprintln!("seed003: {} stages={} order={:?} {:?}", show(&g, &out.schedule), out.schedule.stages(), names(&g, &out.order), p);
}

/// Seed 003, slide 21, class problem 2 (latencies ld 2, st 1, add 1,
/// cmpp 1, br 1; 1 ALU, 1 MEM, 1 BR):
///
/// ```text
/// 1 r1[-1] = load(r2[0])          4 r2[-1] = r2[0] + 4
/// 2 r3[-1] = r1[1] + r1[2]        5 p1[-1] = cmpp(r2[-1] < 100)
/// 3 store(r3[-1], r2[0])          remap r1, r2, r3
///                                 6 brct p1[-1] Loop
/// ```
///
/// Derivation. In DSA form `rX[-1]` written in iteration i is `rX[0]` in
/// iteration i+1, `rX[1]` in i+2 and `rX[2]` in i+3, so the flow edges are
/// 1→2 ⟨2,2⟩ and ⟨2,3⟩ (r1[1], r1[2]), 2→3 ⟨1,0⟩ (r3[-1]), 4→3 ⟨1,1⟩ and
/// 4→1 ⟨1,1⟩ (r2[0]), 4→4 ⟨1,1⟩, 4→5 ⟨1,0⟩ (r2[-1]), 5→6 ⟨1,0⟩; DSA form
/// has no anti or output dependences between iterations. The load and the
/// store of one iteration use the same address r2[0]: memory edge 1→3
/// ⟨0,0⟩ (the load reads before the store writes; later iterations use
/// other addresses).
///
/// - RecMII: the only circuit is 4→4, delay 1 over distance 1: RecMII = 1.
/// - ResMII: ALU runs 2, 4, 5 → 3 ops / 1 unit = 3; MEM runs 1, 3 → 2;
///   BR runs 6 → 1; 6 ops on 3 slots → 2. ResMII = 3 (the ALU).
/// - MII = max(3, 1) = 3.
#[test]
fn seed003_class_problem_2() {
    let m = machine("seed003_cp2");
    let mut g = LoopGraph::new();
    let n1 = op(&mut g, &m, "1", "ld", &[("r", 1)], Some("r"));
    let n2 = op(&mut g, &m, "2", "add", &[("r", 2)], Some("r"));
    let n3 = op(&mut g, &m, "3", "st", &[("r", 2)], None);
    let n4 = op(&mut g, &m, "4", "addi", &[("r", 1)], Some("r"));
    let n5 = op(&mut g, &m, "5", "cmpp", &[("r", 1)], Some("p"));
    let n6 = op(&mut g, &m, "6", "brct", &[("p", 1)], None);
    g.nodes[n6].pinned_row = Some(PinnedRow { from_end: m.control.delay_slots });
    g.add_edge(n1, n2, 2, 2, DepKind::Flow);
    g.add_edge(n1, n2, 2, 3, DepKind::Flow);
    g.add_edge(n2, n3, 1, 0, DepKind::Flow);
    g.add_edge(n4, n3, 1, 1, DepKind::Flow);
    g.add_edge(n4, n1, 1, 1, DepKind::Flow);
    g.add_edge(n4, n4, 1, 1, DepKind::Flow);
    g.add_edge(n4, n5, 1, 0, DepKind::Flow);
    g.add_edge(n5, n6, 1, 0, DepKind::Control);
    g.add_edge(n1, n3, 0, 0, DepKind::Memory);
    let r = mii::compute(&m, &g).unwrap();
    assert_eq!((r.res_mii, r.rec_mii, r.mii), (3, 1, 3));
    assert_eq!(r.bottleneck, "alu");
    assert_eq!(r.recurrence, vec![n4]);
    let out = sms::schedule(&m, &g, &r, &seed_sms()).unwrap();
    check_polished(&m, &g, &r, &out.schedule);
    verify(&m, &g, &out.schedule).unwrap();
    assert_eq!(out.schedule.ii, 3, "{:?}", out.attempts);
    eprintln!("class problem 2: {} order={:?}", show(&g, &out.schedule), names(&g, &out.order));
}

/// Seed 000 Fig. 2 (§3 and §4.4), reconstructed.
///
/// What the text states: 12 nodes, all edges of distance 0; a four-issue
/// machine with four fully pipelined units; MII = 4/1 = 4, set by the one
/// multiplier; the top-down order <n1, n2, n5, n8, n9, n3, n10, n6, n4, n11,
/// n12, n7> (critical path first), HRMS's order <n1, n3, n5, n6, n4, n7,
/// n8, n10, n11, n9, n2, n12> in which every node but the first has an
/// ordered neighbour, with n8 the neighbour of n2 and n10 that of n9 (n9
/// two cycles before n10: n9's latency is 2); n5 must issue two cycles after
/// n1 (n1's latency is 2) and shares the adder with n3; n11 shares the
/// multiplier with n6; SMS's order <n12, n11, n10, n8, n5, n6, n1, n2, n9,
/// n3, n4, n7>: n12 has the highest ASAP, the first eight after it are its
/// ancestors (by depth, then mobility), n3, n4, n7 its non-ancestors
/// (by height); n12 is placed at its ASAP, 10, which "once folded becomes
/// cycle 3 of stage 2"; n8 would go to "cycle 5" but the multiplier is
/// taken there by n11, so it moves up one cycle; n3 (and n8) are the nodes
/// that could not be placed next to their neighbours.
///
/// Inferred graph: n1 → {n3, n5, n6}; n5 → n8; n2 → n8; n8 → n10; n9 → n10;
/// n10 → n11; n6 → n11; n11 → n12; n3 → n4 → n7. Units: loads n1, n2, n9;
/// adds n3, n4, n5; multiplies n6, n8, n10, n11; stores n7, n12. Latencies:
/// load 2, add 2, multiply 2, store 1 (ASAP(n12) = 2+2+2+2+2 = 10). These
/// give exactly the three orders above (the top-down one is decreasing
/// height: 10, 8, 8, 6, 6, 4, 4, 4, 2, 2, 0, 0), and SMS's placement
/// reproduces the text's story: n12 at 10; n11 at 8; n10 at 6; n8 wants 4
/// (row 0, n11's) and moves to 3; the schedule then starts at n1 = −1, so
/// shifted to start at 0 (as the paper's figure) n12 is at 11 = stage 2,
/// row 3 ("cycle 3 of stage 2") and n8 wanted cycle 5 and got 4 — the
/// text's numbers are in the shifted frame. n3 wants two cycles after n1
/// but the adder is n5's there, so it takes the next cycle.
#[test]
fn seed000_fig2() {
    let m = machine("sms_fig2");
    let mut g = LoopGraph::new();
    let kinds = ["ld", "ld", "add", "add", "add", "mul", "st", "mul", "ld", "mul", "mul", "st"];
    let n: Vec<NodeId> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let reads: &[(&str, u32)] = if *k == "ld" { &[("r", 1)] } else { &[("r", 2)] };
            let writes = (*k != "st").then_some("r");
            op(&mut g, &m, &format!("n{}", i + 1), k, reads, writes)
        })
        .collect();
    let edges = [(1, 3), (1, 5), (1, 6), (5, 8), (2, 8), (8, 10), (9, 10), (10, 11), (6, 11), (11, 12), (3, 4), (4, 7)];
    for (a, b) in edges {
        g.add_flow(&m, n[a - 1], n[b - 1], 0);
    }
    let r = mii::compute(&m, &g).unwrap();
    assert_eq!((r.res_mii, r.rec_mii, r.mii), (4, 0, 4));
    assert_eq!(r.bottleneck, "mult");
    let t = node_times(&g, r.mii);
    assert_eq!(t.asap[n[11]], 10);
    assert_eq!(t.asap.iter().max(), Some(&10));
    // The top-down order of §3 is decreasing height.
    let top_down = [1, 2, 5, 8, 9, 3, 10, 6, 4, 11, 12, 7];
    for w in top_down.windows(2) {
        assert!(t.height[n[w[0] - 1]] >= t.height[n[w[1] - 1]], "n{} n{}", w[0], w[1]);
    }
    let ord = order::compute(&m, &g, &t, false);
    assert_eq!(ord.sets.len(), 1, "no recurrences: one set");
    assert_eq!(
        names(&g, &ord.order),
        ["n12", "n11", "n10", "n8", "n5", "n6", "n1", "n2", "n9", "n3", "n4", "n7"]
    );
    let out = sms::schedule(&m, &g, &r, &seed_sms()).unwrap();
    check_polished(&m, &g, &r, &out.schedule);
    verify(&m, &g, &out.schedule).unwrap();
    assert_eq!(out.schedule.ii, 4);
    assert_eq!(out.order, ord.order);
    let s = &out.schedule;
    let at = |k: usize| s.time[n[k - 1]];
    // Shifted frame: n1 at 0, n12 at 11 = stage 2, row 3.
    assert_eq!(at(1), 0);
    assert_eq!((at(12), s.stage(n[11]), s.row(n[11])), (11, 2, 3));
    // n8 wanted 5 (two before n10), where n11 holds the multiplier; it got 4.
    assert_eq!(at(10) - 2, 5);
    assert_eq!(s.row(n[10]), 5 % 4);
    assert_eq!(at(8), 4);
    // Every node but n8 and n3 (and n7, whose store unit n12 holds) sits next
    // to the neighbour it was placed against.
    assert_eq!(at(11), at(12) - 2);
    assert_eq!(at(3), at(1) + 3, "n3 one cycle later than n1's latency: the adder is n5's");
    let p = regs::pressure(&m, &g, s);
    eprintln!("fig2: {} MaxLive={} copies={}", show(&g, s), p.max_live, p.kernel_copies);
}

/// Seed 000 Fig. 8 (§4.4), reconstructed.
///
/// What the text states: 13 nodes A–M; four general-purpose fully
/// pipelined units, every latency 2; MII = 6; the sets S1 = {A, C, D, F}
/// ("the recurrence of highest RecMII, 3 nodes × 2 cycles / distance 1 =
/// 6"), S2 = {G, J, M, I} (a recurrence of 3 nodes × 2 / distance 2 = 3,
/// plus I, on the path from S1 to it), S3 = {B, E, H, K, L} (the rest); S1
/// orders as <F, C, D, A>; for S2 no predecessor of S1 is in S2 but I and
/// G are successors, so S2 goes top-down: <G, I, J, M>; for S3 the
/// predecessors of S1 ∪ S2 give a bottom-up sweep <H, E, B>, then a
/// top-down one <L, K>.
///
/// Inferred graph: S1 has four nodes but its recurrence three, so S1 is two
/// 3-node circuits of RecMII 6 through A and F: A → C → F and A → D → F
/// with F → A at distance 1. The second recurrence is G → J → M with
/// M → G at distance 2. F → G and D → I (the successors of S1 in S2), and
/// I → J (I on the path from S1 to the recurrence). G and I have the same
/// height, and I the larger mobility (ASAP 4 against G's 6, both ALAP 6),
/// so G comes first; C and D tie on everything (the text's "choose any"):
/// the lower index, C. B → E → H → M (the predecessors, found bottom-up
/// from M) and M → L → K (the successors). ResMII = ⌈13/4⌉ = 4, RecMII = 6.
#[test]
fn seed000_fig8() {
    let m = machine("sms_fig8");
    let mut g = LoopGraph::new();
    let letters = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M"];
    for l in letters {
        op(&mut g, &m, l, "op", &[("r", 2)], Some("r"));
    }
    let id = |s: &str| letters.iter().position(|&l| l == s).unwrap();
    let edges: [(&str, &str, u32); 14] = [
        ("A", "C", 0),
        ("A", "D", 0),
        ("C", "F", 0),
        ("D", "F", 0),
        ("F", "A", 1),
        ("G", "J", 0),
        ("J", "M", 0),
        ("M", "G", 2),
        ("F", "G", 0),
        ("D", "I", 0),
        ("I", "J", 0),
        ("B", "E", 0),
        ("E", "H", 0),
        ("H", "M", 0),
    ];
    for (a, b, d) in edges {
        g.add_flow(&m, id(a), id(b), d);
    }
    g.add_flow(&m, id("M"), id("L"), 0);
    g.add_flow(&m, id("L"), id("K"), 0);
    let r = mii::compute(&m, &g).unwrap();
    assert_eq!((r.res_mii, r.rec_mii, r.mii), (4, 6, 6));
    let mut rec = names(&g, &r.recurrence);
    rec.sort();
    assert!(rec == ["A", "C", "F"] || rec == ["A", "D", "F"], "{rec:?}");
    let t = node_times(&g, r.mii);
    let ord = order::compute(&m, &g, &t, false);
    assert_eq!(
        set_names(&g, &ord.sets),
        vec![vec!["A", "C", "D", "F"], vec!["G", "I", "J", "M"], vec!["B", "E", "H", "K", "L"]]
    );
    assert_eq!(ord.sets[0].rec_mii, Some(6));
    assert_eq!(ord.sets[1].rec_mii, Some(3));
    assert_eq!(ord.sets[2].rec_mii, None);
    assert_eq!(names(&g, &ord.order), ["F", "C", "D", "A", "G", "I", "J", "M", "H", "E", "B", "L", "K"]);
    let out = sms::schedule(&m, &g, &r, &seed_sms()).unwrap();
    check_polished(&m, &g, &r, &out.schedule);
    verify(&m, &g, &out.schedule).unwrap();
    assert_eq!(out.schedule.ii, 6, "{:?}", out.attempts);
    let p = regs::pressure(&m, &g, &out.schedule);
    eprintln!("fig8: {} MaxLive={} copies={}", show(&g, &out.schedule), p.max_live, p.kernel_copies);
}

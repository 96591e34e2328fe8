//! The memory system on small hand-written programs, on every shipped
//! machine: misses once per line, LRU eviction, the write policies, vector
//! accesses over several lines, strided and gathered lanes, per-function
//! attribution, `--ideal-memory` equivalence, on-chip memories, and what
//! a breakpoint shows of the caches (`cold_stall`).

use isa_tablegen::{Machine, WritePolicy};

use crate::testutil::*;
use crate::{Config, Outcome, Sim};

fn end(m: &Machine) -> String {
    format!("{}trap 0\n", "nop\n".repeat(m.max_latency() as usize))
}

fn cached() -> Config {
    Config { max_cycles: Some(10_000_000), ..Config::default() }
}

fn ideal() -> Config {
    Config { max_cycles: Some(10_000_000), ideal_memory: true, ..Config::default() }
}

/// Runs `prog` with the caches and with an ideal memory; both exit 0 with the
/// same registers, and the cached run's issue cycles are the ideal run's.
fn both<'m>(m: &'m Machine, prog: &str, data: &[(&str, &[u8])]) -> (Sim<'m>, Sim<'m>) {
    let (c, out) = run_cfg(m, prog, data, cached());
    assert_eq!(out, Outcome::Exit(0), "{}", m.name);
    let (i, out) = run_cfg(m, prog, data, ideal());
    assert_eq!(out, Outcome::Exit(0), "{}", m.name);
    for r in ["r4", "r5", "r6", "r7", "r8", "r9"] {
        assert_eq!(c.reg(r), i.reg(r), "{}: {r}", m.name);
    }
    assert_eq!(c.issue_cycle, i.cycle, "{}: the same issue cycles", m.name);
    assert_eq!(c.cycle, i.cycle + c.core.memsys.stall_total, "{}: cycles = issue + stall", m.name);
    assert_eq!(i.core.memsys.stall_total, 0);
    assert!(i.stats().caches.is_empty());
    (c, i)
}

fn l(m: &Machine, level: u32) -> &isa_tablegen::Cache {
    m.data_cache(level).unwrap_or_else(|| panic!("{}: no L{level}", m.name))
}

#[test]
fn a_sequential_scan_misses_once_per_line_in_its_function() {
    for m in machines() {
        let bytes = 4096u64;
        let prog = format!(
            "main:\n{{ li r5, buf ; li r6, {} }}\nloop:\n{{ ldw r7, r5, 0 ; addi r5, r5, 4 ; addi r6, r6, -1 }}\n\
             pgti p1, r6, 0\n(p1) br loop\n{}{}",
            bytes / 4,
            delay(&m),
            end(&m)
        );
        let data = vec![1u8; bytes as usize];
        let (c, i) = both(&m, &prog, &[("buf", &data)]);
        let (l1, l2) = (l(&m, 1), l(&m, 2));
        let (m1, m2) = (bytes / l1.line as u64, bytes / l2.line as u64);
        let s = c.stats();
        assert_eq!((s.caches[0].misses(), s.caches[0].hits()), (m1, bytes / 4 - m1), "{}", m.name);
        assert_eq!((s.caches[1].misses(), s.caches[1].hits()), (m2, m1 - m2), "{}", m.name);
        let stall = m1 * l1.miss as u64 + m2 * l2.miss as u64;
        assert_eq!(s.memory_stall_cycles, stall, "{}", m.name);
        assert_eq!((s.caches[0].counts.stall, s.caches[1].counts.stall), (m1 * l1.miss as u64, m2 * l2.miss as u64));
        assert_eq!(s.cycles, i.cycle + stall);
        assert_eq!(s.issue_cycles, i.cycle);
        let f = &s.functions[0];
        assert_eq!((f.name.as_str(), f.memory_stall_cycles), ("loop", stall), "{}", m.name);
        assert_eq!(f.cache[0], [bytes / 4 - m1, m1, m1 * l1.miss as u64]);
        let ideal_loop = i.stats().functions.iter().find(|f| f.name == "loop").unwrap().cycles;
        assert_eq!(f.cycles, ideal_loop + stall);
        let main = s.functions.iter().find(|f| f.name == "main").unwrap();
        assert_eq!((main.memory_stall_cycles, main.cache[0]), (0, [0, 0, 0]));
        let text = s.render();
        assert!(text.contains(&format!("memory stalls     {stall} (")), "{text}");
        let json = s.to_json();
        assert!(json.contains(&format!("\"memory_stall_cycles\": {stall},")), "{json}");
        assert!(
            json.contains(&format!(
                "\"name\": \"{}\", \"level\": 1, \"hits\": {}, \"misses\": {m1},",
                l1.name,
                bytes / 4 - m1
            )),
            "{json}"
        );
        // --strict runs the same program the same way.
        let (cs, out) = run_cfg(&m, &prog, &[("buf", &data)], Config { strict: true, ..cached() });
        assert_eq!((out, cs.cycle), (Outcome::Exit(0), c.cycle));
    }
}

#[test]
fn lru_keeps_as_many_lines_of_a_set_as_it_has_ways() {
    for m in machines() {
        let l1 = l(&m, 1).clone();
        let stride = (l1.sets() * l1.line) as u64; // same set, next tag
        let w = l1.ways as u64;
        let loads = |order: &[u64]| order.iter().map(|k| format!("ldw r7, r5, {}\n", k * stride)).collect::<String>();
        let data = vec![0u8; ((w + 2) * stride) as usize];
        // ways lines, then the first again: a hit.
        let fits: Vec<u64> = (0..w).chain([0]).collect();
        // ways + 1 lines, then the first again: evicted (least recently used).
        let spills: Vec<u64> = (0..=w).chain([0]).collect();
        // ways + 1 lines, the first touched again before the last: the second goes instead.
        let mut refresh: Vec<u64> = (0..w).collect();
        refresh.extend([0, w, 0]);
        for (order, misses) in [(fits, w), (spills, w + 2), (refresh, w + 1)] {
            let prog = format!("main:\nli r5, buf\n{}{}", loads(&order), end(&m));
            let (c, _) = both(&m, &prog, &[("buf", &data)]);
            let s = c.stats();
            assert_eq!(s.caches[0].misses(), misses, "{}: {order:?}", m.name);
            assert_eq!(s.caches[0].hits(), order.len() as u64 - misses, "{}: {order:?}", m.name);
        }
    }
}

#[test]
fn write_policies_decide_whether_a_store_miss_stalls_and_allocates() {
    for m in machines() {
        let (l1, l2) = (l(&m, 1).clone(), l(&m, 2).clone());
        let prog = format!("main:\nli r5, buf\nli r6, 7\nstw r6, r5, 0\nldw r7, r5, 0\n{}", end(&m));
        let (c, _) = both(&m, &prog, &[("buf", &[0u8; 64])]);
        let s = c.stats();
        let k = &s.caches[0].counts;
        assert_eq!(c.reg("r7"), Some(7));
        match l1.policy {
            WritePolicy::WriteBack => {
                // The store fetches the line; the load hits.
                assert_eq!((k.write_misses, k.read_hits, k.read_misses), (1, 1, 0), "{}", m.name);
                assert_eq!(s.memory_stall_cycles, (l1.miss + l2.miss) as u64, "{}", m.name);
            }
            WritePolicy::WriteThrough => {
                // The store goes on to L2 without stalling nor allocating in L1;
                // the load misses L1 and finds the line in L2.
                assert_eq!((k.write_misses, k.read_hits, k.read_misses), (1, 0, 1), "{}", m.name);
                assert_eq!(s.caches[1].counts.write_misses, 1);
                assert_eq!(s.memory_stall_cycles, l1.miss as u64, "{}", m.name);
            }
        }
    }
    assert!(machines().iter().any(|m| l(m, 1).policy == WritePolicy::WriteThrough), "a shipped machine writes through");
}

#[test]
fn vector_accesses_count_every_line_and_lanes_their_distinct_lines() {
    for m in machines() {
        let l1 = l(&m, 1).clone();
        let vbytes = m.vector_bytes() as u64;
        let lanes = vbytes / 4;
        let lines = |addrs: &mut dyn Iterator<Item = u64>| {
            let mut v: Vec<u64> = addrs.map(|a| a / l1.line as u64).collect();
            v.sort();
            v.dedup();
            v.len() as u64
        };
        let data = vec![0u8; 8192];
        // Aligned, then unaligned by one word (buf is 256-byte aligned).
        let cases = [
            ("vld v1, r5, 0\n", lines(&mut (0..vbytes))),
            ("vldu v1, r5, 4\n", lines(&mut (4..4 + vbytes))),
            ("li r6, 64\nnop\nvlds v1, r5, r6\n", lines(&mut (0..lanes).map(|i| i * 64))),
            ("viota v2\nvgath v1, r5, v2\n", lines(&mut (0..lanes).map(|i| i * 4))),
            ("vst v1, r5, 0\n", lines(&mut (0..vbytes))),
        ];
        for (body, want) in cases {
            let prog = format!("main:\nli r5, buf\n{body}{}", end(&m));
            let (c, _) = both(&m, &prog, &[("buf", &data)]);
            assert_eq!(c.stats().caches[0].misses(), want, "{}: {body}", m.name);
        }
    }
}

#[test]
fn onchip_memories_never_stall_and_refuse_units_that_do_not_reach_them() {
    for m in machines() {
        let Some(sm) = m.onchip_memories().iter().find(|o| o.name == "sm") else { continue };
        let prog = format!("main:\nli r5, {:#x}\nli r6, 9\nstw r6, r5, 0\nldw r7, r5, 0\n{}", sm.base, end(&m));
        let (c, _) = both(&m, &prog, &[]);
        assert_eq!(c.reg("r7"), Some(9));
        let s = c.stats();
        assert_eq!(s.memory_stall_cycles, 0);
        assert_eq!(s.onchip.iter().find(|(n, _)| n == "sm").map(|o| o.1), Some(2));
        // sm is the scalar unit's: a vector load from it is a fault, with or without caches.
        let prog = format!("main:\nli r5, {:#x}\nvld v1, r5, 0\n{}", sm.base, end(&m));
        for config in [cached(), ideal()] {
            let (_, out) = run_cfg(&m, &prog, &[], config);
            let msg = fault(&out);
            assert!(
                msg.starts_with(&format!(
                    "load at {:#x}: on-chip memory 'sm' is not reached by the unit of this operation",
                    sm.base
                )),
                "{}: {msg}",
                m.name
            );
        }
    }
}

#[test]
fn the_cycle_limit_counts_stall_cycles() {
    let m = &machines()[0];
    let prog = format!("main:\nli r5, buf\nldw r7, r5, 0\nldw r7, r5, 4096\n{}", end(m));
    let (free, _) = run_cfg(m, &prog, &[("buf", &[0u8; 8192])], cached());
    let limit = free.cycle - 1;
    let (c, out) = run_cfg(m, &prog, &[("buf", &[0u8; 8192])], Config { max_cycles: Some(limit), ..cached() });
    assert!(matches!(out, Outcome::CycleLimit(_)), "{out:?}");
    assert!(c.cycle >= limit && c.cycle < free.cycle, "{} of {}", c.cycle, free.cycle);
}

#[test]
fn a_breakpoint_shows_the_caches_and_the_run_goes_on_unchanged() {
    for m in machines() {
        let (l1, l2) = (l(&m, 1).clone(), l(&m, 2).clone());
        let far = 4 * l2.line.max(l1.line);
        let prog = format!(
            "main:\nli r5, buf\nli r6, 3\nldw r7, r5, 0\nsecond:\nldw r8, r5, {far}\nstw r6, r5, {}\n{}",
            2 * far,
            end(&m)
        );
        let data = vec![5u8; 3 * far as usize];
        for strict in [false, true] {
            let config = Config { strict, ..cached() };
            let (whole, out) = run_cfg(&m, &prog, &[("buf", &data)], config.clone());
            assert_eq!(out, Outcome::Exit(0), "{}", m.name);
            let mut sim = crate::testutil::build_sim(&m, &prog, &[("buf", &data)], config);
            let at = sim.prog.funcs.iter().find(|f| f.name == "second").unwrap().addr;
            sim.break_at(at).unwrap();
            assert!(sim.break_at(at + 1).is_err(), "{}: not a bundle start", m.name);
            assert_eq!(sim.run(), Outcome::Break(at), "{}", m.name);
            let base = sim.reg("r5").unwrap() as u32;
            let ms = &sim.core.memsys;
            // The first load brought its line into every level; the others are cold.
            assert_eq!(ms.cold_stall([(base, false), (base + 4, true)]), 0, "{}", m.name);
            assert_eq!(ms.cold_stall([(base + far, false)]), (l1.miss + l2.miss) as u64, "{}", m.name);
            // Two first-level lines of one cold second-level line: one L2 miss.
            if l2.line > l1.line {
                let two = [(base + far, false), (base + far + l1.line, false)];
                assert_eq!(ms.cold_stall(two), (2 * l1.miss + l2.miss) as u64, "{}", m.name);
            }
            // A line loaded and stored is loaded.
            let both = [(base + 2 * far, true), (base + 2 * far + 4, false)];
            assert_eq!(ms.cold_stall(both), (l1.miss + l2.miss) as u64, "{}", m.name);
            let store = match l1.policy {
                WritePolicy::WriteBack => (l1.miss + l2.miss) as u64,
                WritePolicy::WriteThrough => 0,
            };
            assert_eq!(ms.cold_stall([(base + 2 * far, true)]), store, "{}", m.name);
            assert_eq!(ms.line_size(), l1.line);
            // Going on: the same result at the same cycle as the run without a stop.
            assert_eq!(sim.run(), Outcome::Exit(0), "{}", m.name);
            assert_eq!((sim.cycle, sim.reg("r8")), (whole.cycle, whole.reg("r8")), "{}", m.name);
            assert_eq!(sim.reg("r8"), Some(0x0505_0505));
        }
    }
}

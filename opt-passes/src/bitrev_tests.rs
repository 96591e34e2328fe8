//! dsp-bitrev-vec on what dsp-reverse-carry makes of clang's -O2 IR of the
//! Gold–Rader bit reversal: the vector loop's lane arithmetic against the
//! bit-reversed counter (every size, every lane count), the loop built, and
//! the loops left alone with their reasons. `tests/c/bit_reverse_vec.c` and
//! `tests/c/bit_reverse.c` check the compiled result against the host at
//! every -O level on every machine.

use super::*;
use crate::revcarry::tests::BITREV;
use crate::testutil::TestModule;

/// `j` of the vector loop's lane `k` in step `i0` (a multiple of `lanes`):
/// `R | (brev32(k) >> ctlz(M))`, with `R` stepped by the closed form over
/// `M >> log2(lanes)` from 0, as the loop computes them.
fn lane_counters(walked: u32, lanes: u32, n: u32) -> Vec<(u32, u32)> {
    let closed = |j: u32, m: u32| {
        let a = j ^ m;
        let z = (a & m) | 1;
        a ^ (0x7fff_ffffu32 >> z.leading_zeros())
    };
    let shift = walked.leading_zeros().min(31);
    let mut out = Vec::new();
    let (mut i0, mut r) = (0u32, 0u32);
    while i0 < n {
        for k in 0..lanes {
            out.push((i0 + k, r | (k.reverse_bits() >> shift)));
        }
        r = closed(r, walked >> lanes.trailing_zeros());
        i0 += lanes;
    }
    out
}

#[test]
fn every_lane_gets_the_bit_reversed_index() {
    for lanes in [8u32, 16, 32] {
        for l in 1..=14u32 {
            let walked = (1u32 << l) - 1;
            let n = walked + 1;
            for (i, j) in lane_counters(walked, lanes, n) {
                if i < n {
                    assert_eq!(j, i.reverse_bits() >> (32 - l), "lanes {lanes}, L {l}, i {i}");
                }
            }
        }
    }
}

fn run_both(src: &str, isa: &str) -> (bool, Vec<Remark>, String) {
    let t = TestModule::parse(src);
    let m = isa_tablegen::Machine::load(isa).unwrap();
    let caps = Caps::new(&m);
    let (versioned, _) = crate::revcarry::run(t.m, &caps);
    assert!(versioned, "dsp-reverse-carry did not run:\n{}", t.text());
    let (changed, remarks) = run(t.m, &caps);
    let text = t.text();
    ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (changed, remarks, text)
}

#[test]
fn the_swaps_become_a_masked_vector_loop_in_front_of_the_scalar_one() {
    for (isa, lanes) in [("ftm", 16), ("ftm8", 8), ("ftm32", 32)] {
        let (changed, remarks, text) = run_both(BITREV, isa);
        assert!(changed, "{text}");
        assert_eq!(remarks.len(), 1, "{remarks:?}");
        assert_eq!(remarks[0].kind, RemarkKind::Passed, "{}", remarks[0].msg);
        assert!(remarks[0].msg.contains(&format!("{lanes} indices")), "{}", remarks[0].msg);
        // Two arrays: a masked load, a gather, a masked store and a scatter each.
        for what in ["@llvm.masked.load", "@llvm.masked.gather", "@llvm.masked.store", "@llvm.masked.scatter"] {
            assert_eq!(text.lines().filter(|l| l.contains(what) && !l.starts_with("declare")).count(), 2, "{what}:\n{text}");
        }
        // The guard, the vector loop stepping by the lane count, and the scalar loop kept.
        assert!(text.contains("o.cf.bitrev.guard:") && text.contains("o.cf.bitrev.vec:"), "{text}");
        assert!(text.contains(&format!("add nuw nsw i32 %bitrev.i, {lanes}")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("o.cf:")), "{text}");
        assert!(text.contains("!\"dsp.loop.independent\""), "the vector loop's iterations are independent:\n{text}");
    }
}

#[test]
fn loops_of_other_shapes_are_left_alone_with_reasons() {
    let cases = [
        // The counter starts at 2: j is not the bit-reversed i.
        (BITREV.replace("[ 1, %o.ph ]", "[ 2, %o.ph ]"), "does not start at 1"),
        // Not a swap: x[j] stored back at x[j].
        (BITREV.replace("store float %a, ptr %pj, align 4", "store float %bv, ptr %pj, align 4"), "not swaps"),
        // Arrays that may overlap.
        (BITREV.replace("ptr noalias %xr, ptr noalias %xi", "ptr %xr, ptr %xi"), "may overlap"),
        // The swap under i > j.
        (BITREV.replace("%lt = icmp slt i32 %i, %jn", "%lt = icmp sgt i32 %i, %jn"), "not under i < j"),
    ];
    for (src, why) in cases {
        let (changed, remarks, text) = run_both(&src, "ftm");
        assert!(!changed, "{text}");
        assert_eq!(remarks.len(), 1, "{remarks:?}");
        assert!(remarks[0].msg.contains(why), "{} should say {why}", remarks[0].msg);
    }
    // Without dsp-reverse-carry there is no closed form: nothing is tried.
    let t = TestModule::parse(BITREV);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &Caps::new(&m));
    assert!(!changed && remarks.is_empty(), "{remarks:?}");
}

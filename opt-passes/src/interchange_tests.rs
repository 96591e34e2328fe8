//! dsp-interchange on an FFT stage's nest (clang -O2's IR at the
//! vectorizer-start point) and on the nests it must leave alone; then
//! dsp-egg-isel on the interchanged loop.

use super::*;

/// `for (i = 0; i < n; i += len) for (j = 0; j < half; j++)` butterflies
/// of `x[i + j]` and `x[i + j + half]` with twiddles `w[j * step]`.
const STAGE: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @stage(ptr noalias %x, ptr noalias %w, i32 %n, i32 %len) {
entry:
  %half = ashr exact i32 %len, 1
  %step = udiv i32 %n, %len
  %some = icmp sgt i32 %half, 0
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %i.ph, label %done
i.ph:
  br label %i.h
i.h:
  %i = phi i32 [ 0, %i.ph ], [ %i1, %i.l ]
  br i1 %some, label %j.ph, label %i.l
j.ph:
  br label %j
j:
  %j0 = phi i32 [ 0, %j.ph ], [ %j1, %j ]
  %ws = mul nuw nsw i32 %j0, %step
  %pw = getelementptr inbounds float, ptr %w, i32 %ws
  %t = load float, ptr %pw, align 4
  %a = add nsw i32 %j0, %i
  %b = add nsw i32 %a, %half
  %pb = getelementptr inbounds float, ptr %x, i32 %b
  %xb = load float, ptr %pb, align 4
  %pa = getelementptr inbounds float, ptr %x, i32 %a
  %xa = load float, ptr %pa, align 4
  %tb = fmul float %t, %xb
  %d = fsub float %xa, %tb
  store float %d, ptr %pb, align 4
  %s = fadd float %xa, %tb
  store float %s, ptr %pa, align 4
  %j1 = add nuw nsw i32 %j0, 1
  %je = icmp eq i32 %j1, %half
  br i1 %je, label %j.x, label %j
j.x:
  br label %i.l
i.l:
  %i1 = add nsw i32 %i, %len
  %ic = icmp slt i32 %i1, %n
  br i1 %ic, label %i.h, label %done
done:
  ret void
}
"#;

fn run_on(ir: &str) -> (bool, Vec<Remark>, String) {
    crate::testutil::run_on_ftm(ir, |m, c| run(m, c, &Options::default()))
}

#[test]
fn an_fft_stage_is_interchanged_behind_its_guard() {
    let (changed, remarks, text) = run_on(STAGE);
    // (Its strips too: each strip's butterflies touch disjoint memory once
    // half is at least 16, which their guard checks.)
    assert!(changed && remarks.iter().any(|r| r.name == "InterchangedOrStripMined"), "{remarks:?}");
    assert!(text.contains("sm.guard:") && text.contains(crate::strip::STRIP_FULL), "{text}");
    // The guard (the step, the inner trip count against the 16 lanes, the
    // outer one, the span of x's bytes per outer iteration), then the j
    // loop around the t loop, marked independent; the original nest stays.
    crate::testutil::check_in_order(&text, &["nest.guard:", "sdiv i64", "ic.guard:", "icmp slt i64", "br i1", "ic.j:", "ic.t:", "mul i32", "load float", "store float", "!llvm.loop", "ic.jlatch:"]);
    assert!(text.contains(INDEPENDENT) && text.contains("i.h:") && text.contains("label %i.h.preheader"), "{text}");
    // The twiddle's index depends on j only: computed before the t loop.
    let tph = text.split("ic.tph:").nth(1).and_then(|r| r.split("ic.t:").next()).unwrap_or("");
    assert!(tph.contains("mul nuw nsw i32"), "{text}");
}

#[test]
fn the_interchanged_loop_is_vectorized_with_strided_accesses() {
    let t = crate::testutil::TestModule::parse(STAGE);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let caps = Caps::new(&m);
    assert!(run(t.m, &caps, &Options::default()).0);
    let (changed, remarks) = crate::eqsat::run(t.m, &caps, &crate::eqsat::Options::default());
    let text = t.text();
    ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(changed, "{remarks:?}");
    // x at the run-time stride len: strided loads and stores; w[j * step] one value, broadcast.
    assert!(text.contains("@llvm.experimental.vp.strided.load.v16f32") && text.contains("@llvm.experimental.vp.strided.store.v16f32"), "{remarks:?}\n{text}");
    // The vector loop is marked independent too (for the pipeliner).
    // (Egg's other vector loop, the original j loop's, has an overlap check instead.)
    let marked = text.split("\negg.vloop").skip(1).filter(|blk| blk.split("\n\n").next().unwrap_or("").lines().any(|l| l.contains("br i1") && l.contains("!llvm.loop"))).count();
    assert_eq!(marked, 1, "{text}");
}

#[test]
fn nests_it_cannot_prove_are_left_alone() {
    let cases = [
        // x may be reached through w.
        (STAGE.replace("ptr noalias %x, ptr noalias %w", "ptr %x, ptr %w"), "unknown origin"),
        // A sum carried by the inner loop.
        (
            STAGE.replace("%j0 = phi i32 [ 0, %j.ph ], [ %j1, %j ]", "%j0 = phi i32 [ 0, %j.ph ], [ %j1, %j ]\n  %acc = phi float [ 0.0, %j.ph ], [ %s, %j ]").replace("%s = fadd float %xa, %tb", "%s = fadd float %acc, %tb"),
            "carries values",
        ),
        // x loaded at another place after a store to it, in one iteration.
        (
            STAGE.replace("%s = fadd float %xa, %tb", "%a1 = add nsw i32 %a, 1\n  %pc = getelementptr inbounds float, ptr %x, i32 %a1\n  %xc = load float, ptr %pc, align 4\n  %s = fadd float %xc, %tb"),
            "loaded after a store",
        ),
        // A store at x[j], the same place in every outer iteration.
        (STAGE.replace("%pa = getelementptr inbounds float, ptr %x, i32 %a", "%pa = getelementptr inbounds float, ptr %x, i32 %j0"), "does not move forward alike"),
    ];
    for (ir, why) in cases {
        let (changed, remarks, _) = run_on(&ir);
        assert!(!changed || !remarks.iter().any(|r| r.name == "Interchanged"), "{why}: {remarks:?}");
        assert!(remarks.iter().any(|r| r.msg.contains(why)), "{why}: {remarks:?}");
    }
}

/// The guard compares one range per group of accesses that differ by a
/// constant: a load and a store of one element are one range, neighbours
/// widen it, a symbolic offset (an FFT's `x[b]`, `half` away) is its own.
#[test]
fn accesses_a_constant_apart_share_one_range() {
    let half = Poly::atom(0x1000 as LLVMValueRef);
    let at = |c: i64| Poly::constant(c);
    let accs = vec![
        (4, at(0), 4),
        (4, half.scaled(4), 4),
        (4, at(0), 4),
        (4, half.scaled(4).add(&at(8), 1), 4),
        (4, at(-4), 4),
        (8, at(0), 4),
    ];
    let groups = span_groups(&accs);
    assert_eq!(groups.len(), 3, "{groups:?}");
    assert_eq!((groups[0].0, groups[0].2, groups[0].3), (4, -4, 4));
    assert_eq!((groups[1].0, &groups[1].1, groups[1].2, groups[1].3), (4, &half.scaled(4), 0, 12));
    assert_eq!((groups[2].0, groups[2].2, groups[2].3), (8, 0, 4));
}

#[test]
fn with_flatten_the_nest_also_runs_as_it_is_marked_for_dsp_flatten() {
    let (changed, _, text) = crate::testutil::run_on_ftm(STAGE, |m, c| run(m, c, &Options { as_is: true, ..Options::default() }));
    assert!(changed, "{text}");
    // Its guard (the shared one, then the butterflies apart over the whole
    // j loop) comes before the strips' and falls back to the original; the
    // outer loop counted, the j loop marked independent, the outer latch
    // marked as a nest of independent iterations; then dsp-flatten takes it.
    crate::testutil::check_in_order(&text, &["ai.guard:", "br i1", "ai.t:", "mul i32", "ai.j:", "load float", "store float", "ai.tlatch:"]);
    assert!(text.contains("label %ai.tpre, label %i.h") || text.contains("label %ai.tpre, label %i.h.preheader"), "{text}");
    assert!(text.contains(crate::flatten::NEST_INDEPENDENT) && text.contains(INDEPENDENT), "{text}");
    let t = crate::testutil::TestModule::parse(&text);
    let (_, remarks) = crate::flatten::run(t.m);
    assert!(remarks.iter().any(|r| r.name == "Flattened"), "{remarks:?}");
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{}", t.text()));
}

#[test]
fn without_flatten_there_is_no_nest_as_it_is() {
    let (_, _, text) = run_on(STAGE);
    assert!(!text.contains("ai.guard:") && !text.contains("ai.t:"), "{text}");
}

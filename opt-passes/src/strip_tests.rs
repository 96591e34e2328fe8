//! dsp-interchange's strips on a stencil's row nest (clang -O2's IR at the
//! vectorizer-start point: the outer loop counting to its bound with
//! `icmp eq`), the nests they leave alone, and dsp-egg-isel's one masked
//! step per strip.

use crate::caps::Caps;
use crate::interchange::{run, Options, INDEPENDENT};
use crate::strip::STRIP;
use crate::wfv::Remark;

/// `for (r = 0; r < ow; r++) for (c = 0; c < ow; c++) y[r*ow + c] =
/// x[r*w + c] * k0 + x[r*w + c + 1] * k1 + x[(r+1)*w + c]` with `ow = w - 2`.
const ROWS: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @rows(ptr noalias readonly %x, ptr noalias writeonly %y, i32 %w, i32 %k0, i32 %k1) {
entry:
  %ow = add i32 %w, -2
  %go = icmp sgt i32 %w, 2
  br i1 %go, label %r.ph, label %done
r.ph:
  br label %r.h
r.h:
  %r = phi i32 [ 0, %r.ph ], [ %r1, %r.l ]
  %yrow = mul nsw i32 %r, %ow
  %py = getelementptr i32, ptr %y, i32 %yrow
  %xrow = mul nuw nsw i32 %r, %w
  %r1 = add nuw nsw i32 %r, 1
  %xrow1 = mul nuw nsw i32 %r1, %w
  br label %c
c:
  %c0 = phi i32 [ 0, %r.h ], [ %c1, %c ]
  %px = getelementptr i32, ptr %x, i32 %c0
  %pa = getelementptr i32, ptr %px, i32 %xrow
  %a = load i32, ptr %pa, align 4
  %ma = mul nsw i32 %a, %k0
  %pb = getelementptr i8, ptr %pa, i32 4
  %b = load i32, ptr %pb, align 4
  %mb = mul nsw i32 %b, %k1
  %s1 = add nsw i32 %ma, %mb
  %pc = getelementptr i32, ptr %px, i32 %xrow1
  %cc = load i32, ptr %pc, align 4
  %s2 = add nsw i32 %s1, %cc
  %pyc = getelementptr i32, ptr %py, i32 %c0
  store i32 %s2, ptr %pyc, align 4
  %c1 = add nuw nsw i32 %c0, 1
  %ce = icmp eq i32 %c1, %ow
  br i1 %ce, label %r.l, label %c
r.l:
  %re = icmp eq i32 %r1, %ow
  br i1 %re, label %done, label %r.h
done:
  ret void
}
"#;

fn run_on(ir: &str, opts: Options) -> (bool, Vec<Remark>, String) {
    let t = crate::testutil::TestModule::parse(ir);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &Caps::new(&m), &opts);
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (changed, remarks, text)
}

#[test]
fn a_row_nest_is_strip_mined_behind_its_guard() {
    let (changed, remarks, text) = run_on(ROWS, Options::default());
    assert!(changed && remarks.iter().any(|r| r.name == "StripMined" && r.msg.contains("strips of 16")), "{remarks:?}");
    // The shared guard (y's span per row against the row's run-time stride,
    // the trip counts), the strips' own, the strip loop, the row loop marked
    // independent around the strip's loop marked as a strip; the original
    // nest stays.
    crate::testutil::check_in_order(
        &text,
        &[
            "nest.guard:",
            "mul i64",
            "icmp sle i64",
            "sm.guard:",
            "br i1",
            "sm.strip:",
            "select i1",
            "sm.t:",
            "sm.j:",
            "load i32",
            "store i32",
            "!llvm.loop",
            "sm.tlatch:",
            "!llvm.loop",
            "sm.slatch:",
        ],
    );
    assert!(text.contains(STRIP) && text.contains(INDEPENDENT) && text.contains("r.h:"), "{text}");
}

#[test]
fn a_strip_becomes_one_masked_step_in_a_one_block_loop() {
    let t = crate::testutil::TestModule::parse(ROWS);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let caps = Caps::new(&m);
    assert!(run(t.m, &caps, &Options::default()).0);
    let (changed, remarks) = crate::eqsat::run(t.m, &caps, &crate::eqsat::Options::default());
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(changed && remarks.iter().any(|r| r.msg.contains("a strip of at most 16 iterations as one masked step")), "{remarks:?}");
    // The step: lanes below the strip's trip count, masked loads and a
    // masked store, then straight on to the row loop's latch.
    let step = text.split("egg.strip:").nth(1).and_then(|r| r.split("\n\n").next()).unwrap_or_else(|| panic!("{text}"));
    crate::testutil::check_in_order(step, &["icmp ult <16 x i32>", "llvm.masked.load", "llvm.masked.store", "br label %sm.tlatch"]);
    assert!(!step.contains("br i1"), "{step}");
}

#[test]
fn the_forms_have_their_own_switches() {
    let (_, remarks, text) = run_on(ROWS, Options { strips: false, ..Options::default() });
    assert!(remarks.iter().any(|r| r.msg.contains("-floop-strip-mine is off")) && !text.contains("sm.guard"), "{remarks:?}");
    let (changed, remarks, text) = run_on(ROWS, Options { interchange: false, ..Options::default() });
    assert!(changed && remarks.iter().any(|r| r.name == "StripMined") && !text.contains("ic.guard"), "{remarks:?}");
}

#[test]
fn nests_a_masked_step_cannot_do_are_left_alone() {
    let cases = [
        // y also at a column stride of two elements: not one vector per
        // strip, nor can a strip's iterations be shown apart.
        (
            ROWS.replace("  store i32 %s2, ptr %pyc, align 4", "  store i32 %s2, ptr %pyc, align 4\n  %c2 = shl nuw nsw i32 %c0, 1\n  %pyd = getelementptr i32, ptr %py, i32 %c2\n  store i32 %s1, ptr %pyd, align 4"),
            "element by element",
        ),
        // y's row start does not move with r.
        (ROWS.replace("%yrow = mul nsw i32 %r, %ow", "%yrow = mul nsw i32 %w, %ow"), "does not move forward alike"),
        // x may be y.
        (ROWS.replace("ptr noalias readonly %x, ptr noalias writeonly %y", "ptr %x, ptr %y"), "unknown origin"),
    ];
    for (ir, why) in cases {
        let (changed, remarks, _) = run_on(&ir, Options::default());
        assert!(!changed || !remarks.iter().any(|r| r.name == "StripMined"), "{why}: {remarks:?}");
        assert!(remarks.iter().any(|r| r.msg.contains(why)), "{why}: {remarks:?}");
    }
}

#[test]
fn independent_strided_strips_are_whole_steps() {
    // y at a column stride of two elements: each strip is whole (the
    // guard asks for a multiple of 16 columns) and independent (y's single
    // access moves 8 bytes a column), so egg makes one step with a strided
    // store and no mask.
    let ir = ROWS.replace("%pyc = getelementptr i32, ptr %py, i32 %c0", "%c2 = shl nuw nsw i32 %c0, 1\n  %pyc = getelementptr i32, ptr %py, i32 %c2");
    let t = crate::testutil::TestModule::parse(&ir);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let caps = Caps::new(&m);
    let (changed, remarks) = run(t.m, &caps, &Options::default());
    assert!(changed && remarks.iter().any(|r| r.name == "StripMined"), "{remarks:?}");
    let text = t.text();
    crate::testutil::check_in_order(&text, &["sm.guard:", "srem i64", "icmp eq i64", "sm.strip:"]);
    assert!(text.contains(crate::strip::STRIP_FULL) && text.contains(INDEPENDENT), "{text}");
    let (changed, remarks) = crate::eqsat::run(t.m, &caps, &crate::eqsat::Options::default());
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(changed && remarks.iter().any(|r| r.msg.contains("a strip of 16 iterations as one step")), "{remarks:?}");
    let step = text.split("egg.strip:").nth(1).and_then(|r| r.split("\n\n").next()).unwrap_or_else(|| panic!("{text}"));
    assert!(!step.contains("llvm.masked.load") && !step.contains("br i1"), "{step}");
}

//! dsp-flatten on a marked interchanged nest (an FFT stage after
//! dsp-interchange: `for (j < h) for (t < n)` with `x[t·len + j]`), the
//! nests it leaves alone, and the addresses it strength-reduces.

use crate::testutil::{check_in_order, run_pass_on, TestModule};

/// `for (j = 0; j < h; j++) { w = c[j]; for (t = 0; t < n; t++) x[t*len + j] *= w; }`,
/// its outer latch marked as dsp-interchange marks it (`MARK`), the twiddle
/// load from `LOADED`.
fn nest(mark: bool, loaded: &str) -> String {
    let md = if mark { ", !llvm.loop !0" } else { "" };
    format!(
        r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @f(ptr noalias %x, ptr noalias readonly %c, i32 %h, i32 %n, i32 %len) {{
entry:
  %go = icmp sgt i32 %h, 0
  br i1 %go, label %j.ph, label %done
j.ph:
  br label %j.h
j.h:
  %j = phi i32 [ 0, %j.ph ], [ %j1, %j.l ]
  %pw = getelementptr float, ptr {loaded}, i32 %j
  %w = load float, ptr %pw, align 4
  br label %t
t:
  %t0 = phi i32 [ 0, %j.h ], [ %t1, %t ]
  %row = mul i32 %t0, %len
  %at = add i32 %row, %j
  %p = getelementptr float, ptr %x, i32 %at
  %v = load float, ptr %p, align 4
  %m = fmul float %v, %w
  store float %m, ptr %p, align 4
  %t1 = add i32 %t0, 1
  %te = icmp eq i32 %t1, %n
  br i1 %te, label %j.l, label %t
j.l:
  %j1 = add i32 %j, 1
  %je = icmp eq i32 %j1, %h
  br i1 %je, label %done, label %j.h{md}
done:
  ret void
}}
!0 = distinct !{{!0, !1}}
!1 = !{{!"dsp.loop.nest.independent"}}
"#
    )
}

fn flatten(src: &str) -> (String, Vec<crate::wfv::Remark>) {
    let t = TestModule::parse(src);
    let (_, remarks) = super::run(t.m);
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("dsp-flatten produced invalid IR: {e}\n{text}"));
    (text, remarks)
}

#[test]
fn a_marked_nest_becomes_one_independent_loop_behind_a_guard() {
    let (text, remarks) = flatten(&nest(true, "%c"));
    assert!(remarks.iter().any(|r| r.name == "Flattened"), "{remarks:?}\n{text}");
    // The guard falls back to the nest; the flattened loop is one block,
    // marked independent, its counter running to T_O·T_I.
    check_in_order(&text, &["fl.guard:", "mul i64", "br i1", "label %fl.pre, label %j.h"]);
    let body = text.split("fl.body:").nth(1).expect("the flattened loop");
    let body = body.split("\n\n").next().unwrap_or(body);
    assert!(body.contains("select i1") && body.contains("load float") && body.contains("store float"), "{body}");
    assert!(body.contains("!llvm.loop"), "{body}");
    assert!(text.contains("!\"dsp.loop.independent\""), "{text}");
    // The data address is a pointer of its own, advanced by one row or,
    // when the inner loop wraps, back to the next column.
    assert!(body.contains("getelementptr i8, ptr %"), "{body}");
    // The original nest is still there.
    assert!(text.contains("t:") && text.contains("j.l:"), "{text}");
}

#[test]
fn unmarked_nests_are_left_alone() {
    let src = nest(false, "%c");
    let (text, remarks) = flatten(&src);
    assert!(remarks.is_empty() && !text.contains("fl.body"), "{remarks:?}\n{text}");
}

#[test]
fn a_nest_that_loads_around_its_inner_loop_what_it_stores_is_not_flattened() {
    let (text, remarks) = flatten(&nest(true, "%x"));
    assert!(!text.contains("fl.body"), "{text}");
    assert!(remarks.iter().any(|r| r.name == "NotFlattened" && r.msg.contains("loads memory the nest stores")), "{remarks:?}");
}

#[test]
fn the_pass_runs_by_name_in_a_pipeline() {
    let text = run_pass_on("dsp-flatten", &nest(true, "%c"), "ftm");
    assert!(text.contains("fl.body"), "{text}");
}

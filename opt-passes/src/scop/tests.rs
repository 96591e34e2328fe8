//! Detection's data on hand-written canonical IR: coefficient vectors of
//! bounds, domains and subscripts, schedules, arrays, and rejections.

use super::*;
use crate::ir;
use crate::testutil::TestModule;

/// for i in [0, n): for j in [i, n): A[i][j] = 2 * B[j - i]; a guard around each loop.
const TRIANGLE: &str = "
@A = global [64 x [64 x float]] zeroinitializer
@B = global [64 x float] zeroinitializer
declare void @g()
define void @f(i32 %n) {
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %outer.ph, label %exit
outer.ph:
  br label %outer
outer:
  %i = phi i32 [ 0, %outer.ph ], [ %i.next, %outer.latch ]
  %g2 = icmp slt i32 %i, %n
  br i1 %g2, label %inner.ph, label %outer.latch
inner.ph:
  br label %inner
inner:
  %j = phi i32 [ %i, %inner.ph ], [ %j.next, %inner ]
  %d = sub nsw i32 %j, %i
  %pb = getelementptr inbounds [64 x float], ptr @B, i32 0, i32 %d
  %b = load float, ptr %pb
  %m = fmul float %b, 2.0
  %pa = getelementptr inbounds [64 x [64 x float]], ptr @A, i32 0, i32 %i, i32 %j
  store float %m, ptr %pa
  %j.next = add nuw nsw i32 %j, 1
  %c = icmp ne i32 %j.next, %n
  br i1 %c, label %inner, label %inner.exit
inner.exit:
  br label %outer.latch
outer.latch:
  %i.next = add nuw nsw i32 %i, 1
  %c2 = icmp slt i32 %i.next, %n
  br i1 %c2, label %outer, label %exit
exit:
  ret void
}
define void @h(i32 %n, ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, ptr %p, i32 %i
  store float 0.0, ptr %q
  call void @g()
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 16
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
";

fn e(coeffs: &[i64], constant: i64) -> AffExpr {
    AffExpr { coeffs: coeffs.to_vec(), constant }
}

fn ge(coeffs: &[i64], constant: i64) -> Constraint {
    Constraint { expr: e(coeffs, constant), equality: false }
}

#[test]
fn triangle_as_data() {
    let t = TestModule::parse(TRIANGLE);
    let f = ir::defined_functions(t.m)[0];
    let r = detect_function(t.m, f);
    assert!(r.rejections.is_empty(), "{:?}", r.rejections);
    assert_eq!(r.scops.len(), 1);
    let s = &r.scops[0];
    assert_eq!((s.entry.as_str(), s.exit.as_str()), ("%entry", "%exit"));
    assert_eq!(s.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["%n"]);
    assert_eq!(s.loops.len(), 2);
    // Bounds over (enclosing iterators, n).
    assert_eq!((s.loops[0].lower.clone(), s.loops[0].upper.clone()), (vec![e(&[0], 0)], vec![e(&[1], -1)]));
    assert_eq!((s.loops[1].lower.clone(), s.loops[1].upper.clone()), (vec![e(&[1, 0], 0)], vec![e(&[0, 1], -1)]));
    assert_eq!((s.loops[1].parent, s.loops[0].children.clone(), s.loops[1].depth), (Some(0), vec![1], 1));
    assert_eq!(s.stmts.len(), 1);
    let st = &s.stmts[0];
    assert_eq!((st.loops.clone(), st.schedule.clone()), (vec![0, 1], vec![0, 0, 0]));
    // Over (i, j, n): the guards (the inner one repeats the outer loop's bound) and the bounds.
    assert_eq!(st.domain, vec![ge(&[0, 0, 1], -1), ge(&[1, 0, 0], 0), ge(&[-1, 0, 1], -1), ge(&[-1, 1, 0], 0), ge(&[0, -1, 1], -1)]);
    assert_eq!(st.accesses.len(), 2);
    let (rd, wr) = (&st.accesses[0], &st.accesses[1]);
    assert_eq!((rd.kind, s.arrays[rd.array].name.as_str(), rd.subscripts.clone(), rd.elem_size), (AccessKind::Read, "@B", vec![e(&[-1, 1, 0], 0)], 4));
    assert_eq!((wr.kind, s.arrays[wr.array].name.as_str(), wr.subscripts.clone()), (AccessKind::Write, "@A", vec![e(&[1, 0, 0], 0), e(&[0, 1, 0], 0)]));
    assert_eq!(s.arrays[wr.array].dims, vec![Some(64), Some(64)]);
    assert_eq!(s.arrays[rd.array].dims, vec![Some(64)]);
    assert!(s.may_alias.is_empty());
}

#[test]
fn impure_call_is_the_reason() {
    let t = TestModule::parse(TRIANGLE);
    let h = ir::defined_functions(t.m)[1];
    let r = detect_function(t.m, h);
    assert!(r.scops.is_empty());
    assert_eq!(r.rejections.len(), 1);
    assert_eq!(r.rejections[0].header, "%loop");
    assert_eq!(r.rejections[0].reason.kind, RejectKind::ImpureCall);
    assert_eq!(r.rejections[0].reason.msg, "call to @g may have side effects");
}

#[test]
fn printer_text_is_stable() {
    let t = TestModule::parse(TRIANGLE);
    let (text, remarks) = run(t.m);
    let expected = "function f: 1 scop(s), 0 rejected
scop 0 (%entry -> %exit)
  params: [n]
  arrays: B[64] 4B global; A[64][64] 4B global
  loop L0 at %outer depth 0: i0 >= 0; i0 <= n - 1
  loop L1 at %inner depth 1 in L0: i1 >= i0; i1 <= n - 1
  S0 at %inner loops [L0 L1] schedule [0 0 0]
    domain: n - 1 >= 0; i0 >= 0; -i0 + n - 1 >= 0; -i0 + i1 >= 0; -i1 + n - 1 >= 0
    read B[-i0 + i1] 4B
    write A[i0][i1] 4B
function h: 0 scop(s), 1 rejected
reject loop %loop impure-call: call to @g may have side effects
";
    assert_eq!(text, expected);
    assert_eq!(remarks.len(), 2);
    assert_eq!(remarks[1].name, "impure-call");
}

/// `&A[i][j]` plus 256 bytes is `A[i + 1][j]`; minus 4 is `A[i][j - 1]`.
#[test]
fn byte_offsets_carry_into_outer_dimensions() {
    let t = TestModule::parse(
        "
@A = global [64 x [64 x float]] zeroinitializer
define void @k() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds [64 x [64 x float]], ptr @A, i32 0, i32 %i, i32 %i
  %down = getelementptr inbounds i8, ptr %p, i32 256
  %left = getelementptr inbounds i8, ptr %p, i32 -4
  %x = load float, ptr %down
  store float %x, ptr %left
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ne i32 %i.next, 32
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
",
    );
    let f = ir::defined_functions(t.m)[0];
    let r = detect_function(t.m, f);
    assert_eq!(r.scops.len(), 1, "{:?}", r.rejections);
    let st = &r.scops[0].stmts[0];
    assert_eq!(st.domain, vec![ge(&[1], -1), ge(&[-1], 31)]);
    assert_eq!(st.accesses[0].subscripts, vec![e(&[1], 1), e(&[1], 0)]);
    assert_eq!(st.accesses[1].subscripts, vec![e(&[1], 0), e(&[1], -1)]);
}

/// An argument reached as `float (*)[8]` and as `float *`: both accesses linearized.
#[test]
fn two_shapes_of_one_argument_are_linearized() {
    let t = TestModule::parse(
        "
define void @k(ptr noalias %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %row = getelementptr inbounds [8 x float], ptr %p, i32 %i, i32 2
  %x = load float, ptr %row
  %flat = getelementptr inbounds float, ptr %p, i32 %i
  store float %x, ptr %flat
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ne i32 %i.next, 8
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
",
    );
    let f = ir::defined_functions(t.m)[0];
    let r = detect_function(t.m, f);
    assert_eq!(r.scops.len(), 1, "{:?}", r.rejections);
    let s = &r.scops[0];
    assert_eq!((s.arrays[0].dims.clone(), s.arrays[0].kind), (vec![None], ArrayKind::Argument { noalias: true }));
    assert_eq!(s.stmts[0].accesses[0].subscripts, vec![e(&[8], 2)]);
    assert_eq!(s.stmts[0].accesses[1].subscripts, vec![e(&[1], 0)]);
}

/// A loop that is not canonical (`i *= 2`): rejected, and its body is no
/// SCoP either (its header's phi is carried by that loop, and its latch
/// branches back to the body's first block).
#[test]
fn body_of_a_rejected_loop_is_not_a_scop_by_itself() {
    let t = TestModule::parse(
        "
@B = global [64 x float] zeroinitializer
define void @dbl(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i2, %loop ]
  %p = getelementptr inbounds [64 x float], ptr @B, i32 0, i32 %i
  store float 0.0, ptr %p
  %i2 = shl i32 %i, 1
  %c = icmp slt i32 %i2, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
",
    );
    let f = ir::defined_functions(t.m)[0];
    let r = detect_function(t.m, f);
    assert!(r.scops.is_empty(), "{:?}", r.scops);
    assert_eq!(r.rejections.len(), 1);
    assert_eq!(r.rejections[0].reason.kind, RejectKind::NonCanonicalLoop);
}

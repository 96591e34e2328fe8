//! Unit tests of `dsp-masked-tail` on LLVM's vectorized loop shapes.

use crate::testutil::{check_in_order, run_pass_on};

/// LLVM's vector loop of `y[i] += x[i]` (VF 16, one vector per
/// iteration), its middle block and scalar epilogue; `reduce` adds a sum.
fn vectorized(reduce: bool, interleave: u32) -> String {
    let step = 16 * interleave;
    let mut body = String::new();
    let mut acc_phi = String::new();
    for q in 0..interleave {
        let off = 64 * q;
        body += &format!(
            "  %px{q} = getelementptr inbounds i8, ptr %px, i32 {off}
  %vx{q} = load <16 x i32>, ptr %px{q}, align 4
  %py{q} = getelementptr inbounds i8, ptr %py, i32 {off}
  %vy{q} = load <16 x i32>, ptr %py{q}, align 4
  %s{q} = add <16 x i32> %vx{q}, %vy{q}
  store <16 x i32> %s{q}, ptr %py{q}, align 4
"
        );
    }
    let (middle, exit_phi) = if reduce {
        acc_phi = "  %acc = phi <16 x i32> [ zeroinitializer, %ph ], [ %acc.next, %body ]\n".into();
        body += "  %acc.next = add <16 x i32> %acc, %vx0\n";
        (
            "  %r = call i32 @llvm.vector.reduce.add.v16i32(<16 x i32> %acc.next)\n",
            "  %res = phi i32 [ %r, %middle ], [ 0, %scalar ]\n  ret i32 %res\n",
        )
    } else {
        ("", "  ret i32 0\n")
    };
    format!(
        "define i32 @f(ptr %x, ptr %y, i32 %n) {{
entry:
  %small = icmp ult i32 %n, {step}
  br i1 %small, label %scalar.ph, label %ph
ph:
  %nvec = and i32 %n, -{step}
  br label %body
body:
  %i = phi i32 [ 0, %ph ], [ %i.next, %body ]
{acc_phi}  %px = getelementptr inbounds i32, ptr %x, i32 %i
  %py = getelementptr inbounds i32, ptr %y, i32 %i
{body}  %i.next = add nuw i32 %i, {step}
  %done = icmp eq i32 %i.next, %nvec
  br i1 %done, label %middle, label %body, !llvm.loop !0
middle:
{middle}  %all = icmp eq i32 %n, %nvec
  br i1 %all, label %exit, label %scalar.ph
scalar.ph:
  %resume = phi i32 [ %nvec, %middle ], [ 0, %entry ]
  br label %scalar
scalar:
  %j = phi i32 [ %resume, %scalar.ph ], [ %j.next, %scalar ]
  %j.next = add i32 %j, 1
  %more = icmp ult i32 %j.next, %n
  br i1 %more, label %scalar, label %exit
exit:
{exit_phi}}}
declare i32 @llvm.vector.reduce.add.v16i32(<16 x i32>)
!0 = distinct !{{!0, !1}}
!1 = !{{!\"llvm.loop.isvectorized\", i32 1}}
"
    )
}

#[test]
fn the_remainder_is_one_masked_iteration_instead_of_the_scalar_loop() {
    let out = run_pass_on("dsp-masked-tail", &vectorized(false, 1), "ftm");
    check_in_order(
        &out,
        &[
            "middle:",
            "br i1 %all, label %exit, label %masked.tail",
            "masked.tail:",
            "icmp ult <16 x i32>",
            "@llvm.masked.load.v16i32.p0",
            "@llvm.masked.store.v16i32.p0",
            "br label %exit",
            "scalar.ph:",
            "phi i32 [ 0, %entry ]",
        ],
    );
    assert_eq!(out.matches("call <16 x i32> @llvm.masked.load").count(), 2, "{out}");
    assert_eq!(out.matches("call void @llvm.masked.store").count(), 1, "{out}");
    // Interleaved loops are left alone.
    assert!(!run_pass_on("dsp-masked-tail", &vectorized(false, 2), "ftm").contains("masked"));
}

#[test]
fn trip_counts_below_one_vector_run_as_the_tail_alone() {
    // A vector phi besides the index, so that the tail needs its initial value.
    let src = vectorized(false, 1)
        .replace("  %px = getelementptr inbounds i32, ptr %x, i32 %i\n", "  %v = phi <16 x i32> [ zeroinitializer, %ph ], [ %v.next, %body ]\n  %px = getelementptr inbounds i32, ptr %x, i32 %i\n")
        .replace("  %i.next = add nuw", "  %v.next = add <16 x i32> %v, %vx0\n  store <16 x i32> %v, ptr %py0, align 4\n  %i.next = add nuw");
    let out = run_pass_on("dsp-masked-tail", &src, "ftm");
    check_in_order(
        &out,
        &[
            "entry:",
            "icmp eq i32 %n, 0",
            "ph:",
            "icmp eq i32 %nvec, 0",
            "label %middle, label %body",
            "middle:",
            "phi <16 x i32> [ %v.next, %body ], [ zeroinitializer, %ph ]",
            "masked.tail:",
        ],
    );
}

#[test]
fn reductions_keep_inactive_lanes() {
    let out = run_pass_on("dsp-masked-tail", &vectorized(true, 1), "ftm");
    check_in_order(
        &out,
        &["br i1 %done, label %masked.tail, label %body", "masked.tail:", "@llvm.masked.load", "select <16 x i1>", "br label %middle", "middle:", "@llvm.vector.reduce.add.v16i32", "br label %exit"],
    );
}

#[test]
fn loops_with_division_or_not_marked_vectorized_are_left_alone() {
    let src = vectorized(false, 1).replace("%s0 = add <16 x i32>", "%s0 = sdiv <16 x i32>");
    assert!(!run_pass_on("dsp-masked-tail", &src, "ftm").contains("masked"));
    let src = vectorized(false, 1).replace(", !llvm.loop !0", "");
    assert!(!run_pass_on("dsp-masked-tail", &src, "ftm").contains("masked"));
    // A reversed load moves lanes away from their iterations.
    let rev: Vec<String> = (0..16).rev().map(|k| format!("i32 {k}")).collect();
    let src = vectorized(false, 1).replace(
        "%s0 = add <16 x i32> %vx0, %vy0",
        &format!("%r0 = shufflevector <16 x i32> %vx0, <16 x i32> poison, <16 x i32> <{}>\n  %s0 = add <16 x i32> %r0, %vy0", rev.join(", ")),
    );
    assert!(!run_pass_on("dsp-masked-tail", &src, "ftm").contains("masked"));
    // A reversed loop whose lane shuffles InstCombine cancelled: lanes in
    // memory order, iterations in the opposite one.
    let src = vectorized(false, 1)
        .replace("  %px = getelementptr inbounds i32, ptr %x, i32 %i", "  %ri = sub i32 100, %i\n  %px = getelementptr inbounds i32, ptr %x, i32 %ri")
        .replace("  %py = getelementptr inbounds i32, ptr %y, i32 %i", "  %py = getelementptr inbounds i32, ptr %y, i32 %ri");
    assert!(src.contains("%ri = sub"));
    assert!(!run_pass_on("dsp-masked-tail", &src, "ftm").contains("masked"));
}

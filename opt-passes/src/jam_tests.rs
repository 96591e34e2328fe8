//! dsp-unroll-jam on a matrix product's nest (clang -O2's IR) and on the
//! nests it must leave alone.

use super::*;

/// `z[i*n + j] = Σ_k x[i*n + k] * y[k*n + j]` (fused multiply-adds).
const MATMUL: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
declare float @llvm.fmuladd.f32(float, float, float)
define void @mm(ptr noalias %x, ptr noalias %y, ptr noalias %z, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %ph, label %done
ph:
  br label %i.h
i.h:
  %i = phi i32 [ %i1, %i.l ], [ 0, %ph ]
  %row = mul nuw nsw i32 %i, %n
  %xr = getelementptr float, ptr %x, i32 %row
  %zr = getelementptr float, ptr %z, i32 %row
  br label %j.h
j.h:
  %j = phi i32 [ 0, %i.h ], [ %j1, %j.l ]
  %yc = getelementptr float, ptr %y, i32 %j
  br label %k.h
k.h:
  %k = phi i32 [ 0, %j.h ], [ %k1, %k.h ]
  %s = phi float [ 0.000000e+00, %j.h ], [ %s1, %k.h ]
  %px = getelementptr float, ptr %xr, i32 %k
  %a = load float, ptr %px, align 4
  %kn = mul nuw nsw i32 %k, %n
  %py = getelementptr float, ptr %yc, i32 %kn
  %b = load float, ptr %py, align 4
  %s1 = call float @llvm.fmuladd.f32(float %a, float %b, float %s)
  %k1 = add nuw nsw i32 %k, 1
  %ke = icmp eq i32 %k1, %n
  br i1 %ke, label %j.l, label %k.h
j.l:
  %pz = getelementptr float, ptr %zr, i32 %j
  store float %s1, ptr %pz, align 4
  %j1 = add nuw nsw i32 %j, 1
  %je = icmp eq i32 %j1, %n
  br i1 %je, label %i.l, label %j.h
i.l:
  %i1 = add nuw nsw i32 %i, 1
  %ie = icmp eq i32 %i1, %n
  br i1 %ie, label %done, label %i.h
done:
  ret void
}
"#;

fn run_on(ir: &str) -> (bool, Vec<Remark>, String) {
    crate::testutil::run_on_ftm(ir, run)
}

#[test]
fn a_matrix_products_rows_are_jammed_by_the_mac_latency() {
    let (changed, remarks, text) = run_on(MATMUL);
    assert!(changed, "{remarks:?}");
    assert!(remarks.iter().any(|r| r.msg.contains("unrolled by 4 and jammed")), "{remarks:?}");
    // Four chains in the jammed inner loop, one in the original (the rest).
    assert_eq!(text.matches("call float @llvm.fmuladd.f32").count(), 5, "{text}");
    // The y loads are shared: one per jammed inner iteration, one in the original.
    assert_eq!(text.matches("load float").count(), 4 + 1 + 1 + 1, "{text}");
    assert!(text.contains("jam.guard") && text.contains("jam.rest"), "{text}");
}

fn refused(ir: &str, why: &str) {
    let (changed, remarks, _) = run_on(ir);
    assert!(!changed && remarks.iter().any(|r| r.msg.contains(why)), "expected '{why}': {remarks:?}");
}

#[test]
fn rows_that_overlap_are_not_jammed() {
    // z[i + j]: consecutive outer iterations store into each other's row.
    refused(&MATMUL.replace("%zr = getelementptr float, ptr %z, i32 %row", "%zr = getelementptr float, ptr %z, i32 %i"), "may overlap");
}

#[test]
fn a_load_of_the_stored_array_elsewhere_is_not_jammed() {
    // y is z: the k loop reads rows the other copies store.
    refused(&MATMUL.replace("%yc = getelementptr float, ptr %y, i32 %j", "%yc = getelementptr float, ptr %z, i32 %j"), "is loaded where the nest may store");
}

#[test]
fn pointers_that_may_alias_are_not_jammed() {
    refused(&MATMUL.replace("ptr noalias %x, ptr noalias %y, ptr noalias %z", "ptr %x, ptr %y, ptr %z"), "pointer of unknown origin");
}

#[test]
fn inner_bounds_depending_on_the_outer_counter_are_not_jammed() {
    // A triangular nest: the middle loop runs to i.
    refused(&MATMUL.replace("%je = icmp eq i32 %j1, %n", "%je = icmp eq i32 %j1, %i"), "depends on the outer counter");
}

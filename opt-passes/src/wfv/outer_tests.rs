//! Unit tests of outer-loop vectorization: which nests qualify, and the code made.

use super::*;
use crate::testutil::TestModule;

/// `z[j] = sum_k x[k] * y[k*n + j]`, the sum a strict float chain.
const NEST: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @mm(ptr noalias %x, ptr noalias %y, ptr noalias %z, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %jpre, label %exit
jpre:
  br label %j
j:
  %jv = phi i32 [ 0, %jpre ], [ %jn, %jlatch ]
  %yj = getelementptr float, ptr %y, i32 %jv
  br label %k
k:
  %kv = phi i32 [ 0, %j ], [ %kn, %k ]
  %s = phi float [ 0.0, %j ], [ %s1, %k ]
  %xa = getelementptr float, ptr %x, i32 %kv
  %xv = load float, ptr %xa
  %row = mul i32 %kv, %n
  %ya = getelementptr float, ptr %yj, i32 %row
  %yv = load float, ptr %ya
  %p = fmul float %xv, %yv
  %s1 = fadd float %s, %p
  ;INNER
  %kn = add i32 %kv, 1
  %kc = icmp slt i32 %kn, %n
  br i1 %kc, label %k, label %jlatch
jlatch:
  %za = getelementptr float, ptr %z, i32 %jv
  store float %s1, ptr %za
  %jn = add i32 %jv, 1
  %jc = icmp slt i32 %jn, %n
  br i1 %jc, label %j, label %exit ;LOOPMD
exit:
  ret void
}
"#;

fn run_on(ir: &str) -> (bool, Vec<Remark>, String) {
    crate::testutil::run_on_ftm(ir, |m, c| run(m, c, false))
}

#[test]
fn a_strict_reduction_nest_runs_sixteen_outer_iterations_side_by_side() {
    let (changed, remarks, text) = run_on(NEST);
    assert!(changed, "{remarks:?}");
    // The inner loop carries a sum: four groups side by side first, then one.
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("64, then 16 iterations")), "{remarks:?}");
    assert!(text.contains("phi <64 x float>"), "{text}");
    // The sum is a vector phi; x[k] is one scalar load, broadcast; y and z whole vectors.
    assert!(text.contains("phi <16 x float>"), "{text}");
    assert!(text.contains("load <16 x float>") && text.contains("store <16 x float>"), "{text}");
    assert!(text.contains("fadd <16 x float>"), "{text}");
    // The scalar loop stays for the remainder.
    assert!(text.contains("fadd float"), "{text}");
    assert!(remarks.iter().any(|r| r.msg.contains("remainder in the scalar loop")), "{remarks:?}");
}

#[test]
fn with_masked_tails_the_remainder_is_one_masked_step() {
    let (changed, remarks, text) = crate::testutil::run_on_ftm(NEST, |m, c| run(m, c, true));
    assert!(changed, "{remarks:?}");
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("64, then 16 iterations") && r.msg.contains("remainder in one masked step")), "{remarks:?}");
    // No scalar loop left: the rest of the columns load and store under a lane mask.
    assert!(!text.contains("fadd float"), "{text}");
    assert!(text.contains("@llvm.masked.load") && text.contains("@llvm.masked.store"), "{text}");
    assert!(text.contains("icmp ult <16 x i32>"), "{text}");
}

#[test]
fn pointers_that_may_alias_are_refused() {
    let (changed, remarks, _) = run_on(&NEST.replace("ptr noalias %z", "ptr %z").replace("ptr noalias %y", "ptr %y"));
    assert!(!changed);
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Missed && r.msg.contains("may overlap")), "{remarks:?}");
}

#[test]
fn writes_that_move_with_an_inner_counter_are_refused() {
    let inner = "%zk = getelementptr float, ptr %z, i32 %row\n  store float %s1, ptr %zk";
    let (changed, remarks, _) = run_on(&NEST.replace(";INNER", inner));
    assert!(!changed);
    assert!(remarks.iter().any(|r| r.msg.contains("may access the same memory")), "{remarks:?}");
}

#[test]
fn loops_marked_vectorize_disable_are_left_alone_silently() {
    let ir = NEST.replace(" ;LOOPMD", ", !llvm.loop !0") + "!0 = distinct !{!0, !1}\n!1 = !{!\"llvm.loop.vectorize.enable\", i1 false}\n";
    let (changed, remarks, _) = run_on(&ir);
    assert!(!changed && remarks.is_empty(), "{remarks:?}");
}

#[test]
fn affine_addresses_see_through_array_geps() {
    let t = TestModule::parse(
        r#"
target datalayout = "e-p:32:32-i64:64-n32"
@g = global [64 x [16 x float]] zeroinitializer
define void @f(i32 %i, i32 %n) {
entry:
  br label %h
h:
  %j = phi i32 [ 0, %entry ], [ %j1, %h ]
  %a = getelementptr [64 x [16 x float]], ptr @g, i32 0, i32 %i, i32 %j
  store float 1.0, ptr %a
  %j1 = add i32 %j, 1
  %c = icmp slt i32 %j1, %n
  br i1 %c, label %h, label %out
out:
  ret void
}
"#,
    );
    let f = unsafe { LLVMGetNamedFunction(t.m, c"f".as_ptr()) };
    let cfg = Cfg::new(f);
    let loops = cfg.loops();
    let body = Body { m: t.m, cfg: &cfg, l: &loops[0], iv: ir::instructions(cfg.blocks[1])[0] };
    let a = ir::instructions(cfg.blocks[1])[1];
    let (obj, off) = body.address(a, 8);
    assert!(matches!(obj, Obj::Global(_)));
    let (c, rest) = off.unwrap().split(body.iv);
    assert_eq!(c, 4, "4 bytes per j");
    assert_eq!(rest.terms, vec![(unsafe { LLVMGetParam(f, 0) } as usize, 64)], "64 bytes per i");
}

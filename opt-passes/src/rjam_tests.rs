//! dsp-reduction-jam on an autocorrelation's nest (clang -O2's IR at the
//! vectorizer-start point) and on the nests it must leave alone.

use super::*;

/// `for (k = 0; k < 16; k++) { s = 0; for (i = k; i < n; i++) s += x[i] * x[i - k]; r[k] = s; }`
const AUTOCORR: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @ac(ptr noalias %x, ptr noalias %r, i32 %n) {
entry:
  br label %k.h
k.h:
  %k = phi i32 [ 0, %entry ], [ %k1, %k.l ]
  %go = icmp slt i32 %k, %n
  br i1 %go, label %i.ph, label %k.l
i.ph:
  br label %i
i:
  %i0 = phi i32 [ %i1, %i ], [ %k, %i.ph ]
  %s = phi i32 [ %s1, %i ], [ 0, %i.ph ]
  %pa = getelementptr inbounds i32, ptr %x, i32 %i0
  %a = load i32, ptr %pa, align 4
  %d = sub nuw nsw i32 %i0, %k
  %pb = getelementptr inbounds i32, ptr %x, i32 %d
  %b = load i32, ptr %pb, align 4
  %p = mul nsw i32 %b, %a
  %s1 = add nsw i32 %p, %s
  %i1 = add nuw nsw i32 %i0, 1
  %ie = icmp eq i32 %i1, %n
  br i1 %ie, label %i.x, label %i
i.x:
  %sx = phi i32 [ %s1, %i ]
  br label %k.l
k.l:
  %v = phi i32 [ 0, %k.h ], [ %sx, %i.x ]
  %pr = getelementptr inbounds i32, ptr %r, i32 %k
  store i32 %v, ptr %pr, align 4
  %k1 = add nuw nsw i32 %k, 1
  %ke = icmp eq i32 %k1, 16
  br i1 %ke, label %done, label %k.h
done:
  ret void
}
"#;

fn run_on(ir: &str) -> (bool, Vec<Remark>, String) {
    crate::testutil::run_on_ftm(ir, run)
}

#[test]
fn an_autocorrelations_lags_are_jammed_after_peeling() {
    let (changed, remarks, text) = run_on(AUTOCORR);
    assert!(changed && remarks.iter().any(|r| r.name == "ReductionJam"), "{remarks:?}");
    // ftm: three multiply-add units, 4 lags side by side. The check (4 lags
    // left, each entering its loop, the shared start below n), the peeled
    // iterations (3 + 2 + 1 of the first three lags: 12 loads), the jammed
    // loop (x[i] once, x[i - k - u] per lag), the four stores in order.
    crate::testutil::check_in_order(&text, &["rjam.check:", "icmp sge", "icmp slt", "rjam.entry:", "rjam.inner:", "rjam.after:", "store i32", "store i32", "store i32", "store i32", "rjam.rest:"]);
    let entry = text.split("rjam.entry:").nth(1).and_then(|r| r.split("rjam.inner:").next()).unwrap_or("");
    assert_eq!(entry.matches("load i32").count(), 12, "{text}");
    // Each peeled iteration's `i - k` is a constant (0, 1 or 2): no
    // subtraction left, `x[i - k]` at a constant index.
    assert!(!entry.contains(" sub "), "{text}");
    for t in 0..3 {
        assert!(entry.contains(&format!("getelementptr inbounds i32, ptr %x, i32 {t}\n")), "x[{t}]: {text}");
    }
    let inner = text.split("rjam.inner:").nth(1).and_then(|r| r.split("rjam.after:").next()).unwrap_or("");
    assert_eq!(inner.matches("load i32").count(), 5, "{text}");
    assert_eq!(inner.matches(" phi ").count(), 5, "{text}");
}

#[test]
fn nests_it_cannot_prove_are_left_alone() {
    let cases = [
        // The results go where the loop loads.
        (AUTOCORR.replace("ptr noalias %x, ptr noalias %r", "ptr %x, ptr %r"), "unknown origin"),
        // The inner loop stores.
        (AUTOCORR.replace("%s1 = add nsw i32 %p, %s", "%s1 = add nsw i32 %p, %s\n  store i32 %s1, ptr %r, align 4"), "the inner loop stores"),
        // The inner loop starts at 2k.
        (AUTOCORR.replace("[ %k, %i.ph ]", "[ %k2, %i.ph ]").replace("br label %i\ni:", "%k2 = shl i32 %k, 1\n  br label %i\ni:"), "moves other than with the outer counter"),
        // A float sum.
        (AUTOCORR.replace("%s = phi i32 [ %s1, %i ], [ 0, %i.ph ]", "%s = phi float [ %s1, %i ], [ 0.0, %i.ph ]").replace("%s1 = add nsw i32 %p, %s", "%pf = sitofp i32 %p to float\n  %s1 = fadd float %pf, %s").replace("%sx = phi i32 [ %s1, %i ]", "%sx = phi float [ %s1, %i ]\n  %sxi = fptosi float %sx to i32").replace("[ %sx, %i.x ]", "[ %sxi, %i.x ]"), "other than integers"),
        // The sum starts from a value of the outer loop.
        (AUTOCORR.replace("[ 0, %i.ph ]", "[ %k, %i.ph ]"), "starts from a value of the outer loop"),
    ];
    for (ir, why) in cases {
        let (changed, remarks, _) = run_on(&ir);
        assert!(!changed || !remarks.iter().any(|r| r.name == "ReductionJam"), "{why}: {remarks:?}");
        assert!(remarks.iter().any(|r| r.msg.contains(why)), "{why}: {remarks:?}");
    }
}

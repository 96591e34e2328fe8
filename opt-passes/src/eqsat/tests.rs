//! The pass on small loops: what is lifted, what is refused, and the code made.

use super::*;
use crate::testutil::TestModule;

/// `out[k] = sum_i x[i] * x[i - k]` for one `k`: an integer reduction
/// whose result leaves the loop through the exit's phi.
const AUTOCORR: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @ac(ptr noalias %x, ptr noalias %out, i32 %k, i32 %n) {
entry:
  %c0 = icmp slt i32 %k, %n
  br i1 %c0, label %pre, label %exit
pre:
  br label %l
l:
  %i = phi i32 [ %k, %pre ], [ %i1, %l ]
  %s = phi i32 [ 0, %pre ], [ %s1, %l ]
  %pa = getelementptr i32, ptr %x, i32 %i
  %a = load i32, ptr %pa
  %j = sub i32 %i, %k
  %pb = getelementptr i32, ptr %x, i32 %j
  %b = load i32, ptr %pb
  %p = mul i32 %a, %b
  %s1 = add i32 %s, %p
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %l, label %done
done:
  %r = phi i32 [ %s1, %l ]
  store i32 %r, ptr %out
  br label %exit
exit:
  ret void
}
"#;

/// `y[i] = fma(a, x[i], y[i])`: strict floats, a fused multiply-add.
const SAXPY: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @saxpy(ptr noalias %x, ptr noalias %y, float %a, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %pre, label %exit
pre:
  br label %l
l:
  %i = phi i32 [ 0, %pre ], [ %i1, %l ]
  %px = getelementptr float, ptr %x, i32 %i
  %xv = load float, ptr %px
  %py = getelementptr float, ptr %y, i32 %i
  %yv = load float, ptr %py
  %r = call float @llvm.fma.f32(float %a, float %xv, float %yv)
  store float %r, ptr %py
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %l, label %exit
exit:
  ret void
}
declare float @llvm.fma.f32(float, float, float)
"#;

fn run_on(ir: &str) -> (bool, Vec<Remark>, String) {
    run_with(ir, &Options::default())
}

fn run_with(ir: &str, o: &Options) -> (bool, Vec<Remark>, String) {
    let t = TestModule::parse(ir);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &Caps::new(&m), o);
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (changed, remarks, text)
}

#[test]
fn an_integer_reduction_becomes_vector_loads_a_product_and_a_lane_order_sum() {
    // (Without masked tails: a vector loop of one vector per step follows
    // the interleaved one, and the original loop runs the rest.)
    let (changed, remarks, text) = run_with(AUTOCORR, &Options::parse("no-tail").unwrap());
    assert!(changed, "{remarks:?}");
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("16 iterations per step")), "{remarks:?}");
    assert!(text.contains("load <16 x i32>") && text.contains("mul <16 x i32>"), "{text}");
    // The sum is a vector accumulator, reduced once after the loop.
    assert!(text.contains("phi <16 x i32>") && text.contains("@llvm.vector.reduce.add.v16i32"), "{text}");
    // The original loop runs the rest, from where the vector loop stopped.
    assert!(text.contains("egg.rest.ph") && text.contains("egg.mid"), "{text}");
}

#[test]
fn a_sum_gets_as_many_accumulators_as_the_multiply_add_latency_asks_for() {
    // On ftm a step is two vector loads (one cycle on the two load/store
    // units) and a vmla of latency 3: three vectors per step would hide it,
    // at most MAX_INTERLEAVE (2) are made: two accumulators added up after
    // the loop; then one vector at a time, without a masked tail.
    assert_eq!(MAX_INTERLEAVE, 2);
    let (_, remarks, text) = run_with(AUTOCORR, &Options::parse("no-tail").unwrap());
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("32 iterations per step (2 vectors interleaved)")), "{remarks:?}");
    assert_eq!(text.matches("= phi <16 x i32>").count(), 2 + 2 + 2, "{text}");
    assert_eq!(text.matches("\negg.vloop").count(), 2, "{text}");
    // With masked tails, the rest is two masked steps of one vector (lanes
    // 0-15 and 16-31 of what is left, in one block) adding into the sum of
    // the two accumulators, reduced once after them: no second vector loop.
    let (_, remarks, text) = run_on(AUTOCORR);
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("32 iterations per step (2 vectors interleaved), the rest in 2 masked steps of 16")), "{remarks:?}");
    assert_eq!(text.matches("\negg.vloop").count(), 1, "{text}");
    assert_eq!(text.matches("\negg.tail").count(), 1, "{text}");
    let tail = text.split("\negg.tail:").nth(1).and_then(|t| t.split("\n\n").next()).unwrap_or_default();
    assert_eq!(tail.matches("call <16 x i32> @llvm.masked.load").count(), 2 * 2, "{text}");
    assert!(tail.contains("i32 16, i32 17,") && tail.contains("i32 30, i32 31>"), "the second step's lanes: {text}");
    // The join takes the accumulator from mid and from the tail, and reduces it.
    let join = text.split("\negg.join:").nth(1).and_then(|t| t.split("\n\n").next()).unwrap_or_default();
    assert!(join.lines().any(|l| l.contains("= phi <16 x i32>") && l.contains("%egg.mid") && l.contains("%egg.tail ")), "{text}");
    assert!(join.contains("@llvm.vector.reduce.add.v16i32"), "{text}");
    // A loop without a carried sum keeps one vector per step.
    let (_, remarks, _) = run_on(SAXPY);
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("16 iterations per step,")), "{remarks:?}");
}

#[test]
fn the_iterations_left_run_as_one_masked_step() {
    // saxpy: the rest of its iterations as one step with masked loads and
    // stores; the original loop is no longer reached.
    let (_, remarks, text) = run_on(SAXPY);
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("the rest in one masked step")), "{remarks:?}");
    assert!(text.contains("@llvm.masked.load.v16f32") && text.contains("@llvm.masked.store.v16f32"), "{text}");
    assert!(text.contains("egg.tail:") && text.contains("icmp ult <16 x i32>"), "{text}");
    // The sum of autocorr: its inactive lanes add 0. Its masked loads read
    // 0 there (a zero pass-through), so their product needs no select.
    let (_, _, text) = run_on(AUTOCORR);
    let tail = text.split("\negg.tail:").nth(1).and_then(|t| t.split("\n\n").next()).unwrap_or_default();
    assert!(tail.contains("@llvm.masked.load.v16i32") && tail.contains("<16 x i32> zeroinitializer)"), "{text}");
    assert!(!tail.contains("select <16 x i1>"), "{text}");
    // Without it (-fno-masked-tail), the original loop runs them.
    let (_, remarks, text) = run_with(SAXPY, &Options::parse("no-tail").unwrap());
    assert!(!text.contains("egg.tail:") && !remarks.iter().any(|r| r.msg.contains("masked step")), "{text}");
}

#[test]
fn a_fused_multiply_add_stays_fused() {
    let (changed, remarks, text) = run_on(SAXPY);
    assert!(changed, "{remarks:?}");
    assert!(text.contains("call <16 x float> @llvm.fma.v16f32"), "{text}");
    assert!(text.contains("store <16 x float>"), "{text}");
}

#[test]
fn pointers_that_may_alias_get_a_runtime_check() {
    // x and y not restrict: the vector loop runs when a step's 64 bytes of
    // x and of y do not meet (|y - x| >= 64), else the original loop.
    let (_, remarks, text) = run_on(&SAXPY.replace("ptr noalias %x, ptr noalias %y", "ptr %x, ptr %y"));
    assert!(text.contains("egg.vloop") && text.contains("ptrtoint"), "{remarks:?}\n{text}");
    assert!(text.contains("icmp sge i32") && text.contains("icmp sle i32"), "{text}");
    // (No masked tail behind a runtime check.)
    assert!(!text.contains("egg.tail:"), "{text}");
}

/// A butterfly: `x[i]` and `x[i + d]` replaced by their sum and difference,
/// `d` unknown: the two classes of `x` advance alike.
const BUTTERFLY: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @bf(ptr noalias %x, i32 %d, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %pre, label %exit
pre:
  br label %l
l:
  %i = phi i32 [ 0, %pre ], [ %i1, %l ]
  %pa = getelementptr float, ptr %x, i32 %i
  %a = load float, ptr %pa
  %j = add i32 %i, %d
  %pb = getelementptr float, ptr %x, i32 %j
  %b = load float, ptr %pb
  %s = fadd float %a, %b
  %t = fsub float %a, %b
  store float %s, ptr %pa
  store float %t, ptr %pb
  %i1 = add i32 %i, 1
  %e = icmp slt i32 %i1, %n
  br i1 %e, label %l, label %exit
exit:
  ret void
}
"#;

/// `x = x * 5 + 1; y[i] = z[i] * z[i] + z[i] * 3 + x`: a carried scalar
/// chain through the copies, beside vector work.
const RECURRENCE: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define i32 @lcg(ptr noalias %y, ptr noalias %z, i32 %seed, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %pre, label %exit
pre:
  br label %l
l:
  %i = phi i32 [ 0, %pre ], [ %i1, %l ]
  %x = phi i32 [ %seed, %pre ], [ %x1, %l ]
  %m = mul i32 %x, 5
  %x1 = add i32 %m, 1
  %pz = getelementptr i32, ptr %z, i32 %i
  %zv = load i32, ptr %pz
  %z2 = mul i32 %zv, %zv
  %z3 = mul i32 %zv, 3
  %zs = add i32 %z2, %z3
  %o = add i32 %zs, %x1
  %py = getelementptr i32, ptr %y, i32 %i
  store i32 %o, ptr %py
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %l, label %done
done:
  %r = phi i32 [ %x1, %l ]
  ret i32 %r
exit:
  ret i32 %seed
}
"#;

#[test]
fn a_carried_chain_through_the_copies_gets_no_masked_tail() {
    // A masked step would run all 16 copies of the chain: the original loop
    // runs the iterations left instead.
    let (_, remarks, text) = run_on(RECURRENCE);
    assert!(text.contains("egg.vloop"), "{remarks:?}");
    assert!(!text.contains("egg.tail:") && !remarks.iter().any(|r| r.msg.contains("masked step")), "{text}");
}

#[test]
fn loads_at_a_run_time_stride_become_strided_loads() {
    // y[i] = x[i * s]: one strided class, elements 0, s, 2s, ...: ftm's
    // strided load (a gather on a machine without one).
    let ir = SAXPY
        .replace("%px = getelementptr float, ptr %x, i32 %i", "%is = mul i32 %i, %s\n  %px = getelementptr float, ptr %x, i32 %is")
        .replace("float %a, i32 %n", "float %a, i32 %n, i32 %s");
    let (_, remarks, text) = run_on(&ir);
    assert!(text.contains("@llvm.experimental.vp.strided.load.v16f32"), "{remarks:?}\n{text}");
    assert!(!text.contains("egg.tail:"), "{text}");
    // A store at a run-time stride is refused.
    let ir = ir.replace("store float %r, ptr %py", "store float %r, ptr %px");
    let (_, remarks, text) = run_on(&ir);
    assert!(!text.contains("egg.vloop") && remarks.iter().any(|r| r.msg.contains("a store at a run-time stride")), "{remarks:?}");
}

#[test]
fn loads_at_a_constant_stride_become_strided_loads() {
    // y[i] = x[i * 7] (a matrix column) and x[n - i] (reversed): strided
    // classes of the constants 7 and -1, loaded with ftm's strided load.
    for (index, stride) in [("%is = mul i32 %i, 7", 7), ("%is = sub i32 %n, %i", -1)] {
        let ir = SAXPY.replace("%px = getelementptr float, ptr %x, i32 %i", &format!("{index}\n  %px = getelementptr float, ptr %x, i32 %is"));
        let (_, remarks, text) = run_on(&ir);
        assert!(text.contains("@llvm.experimental.vp.strided.load.v16f32"), "{remarks:?}\n{text}");
        assert!(text.contains(&format!("i32 {}", stride * 4)), "the stride in bytes: {text}");
    }
}

#[test]
fn stores_at_a_constant_stride_become_strided_stores() {
    // y[i * 5] = a * x[i] + y[i * 5] (a matrix column) and y[n - i]
    // (reversed): one vector store at the stride in bytes, no masked tail.
    for (index, stride) in [("%is = mul i32 %i, 5", 5), ("%is = sub i32 %n, %i", -1)] {
        let ir = SAXPY.replace("%py = getelementptr float, ptr %y, i32 %i", &format!("{index}\n  %py = getelementptr float, ptr %y, i32 %is"));
        let (_, remarks, text) = run_on(&ir);
        assert!(text.contains("@llvm.experimental.vp.strided.store.v16f32"), "{remarks:?}\n{text}");
        assert!(text.contains(&format!("i32 {}", stride * 4)), "the stride in bytes: {text}");
        assert!(!text.contains("egg.tail:"), "{text}");
    }
}

#[test]
fn one_array_at_an_unknown_distance_gets_a_runtime_check() {
    let (_, remarks, text) = run_on(BUTTERFLY);
    assert!(text.contains("egg.vloop"), "{remarks:?}\n{text}");
    // The two classes advance alike: their distance is 4·d whatever the
    // step, computed from d alone (no pointers, no counter), so that LICM
    // can hoist the check out of the loops around.
    let check = text.split("egg.overlap:").nth(1).and_then(|t| t.split("\n\n").next()).unwrap_or_else(|| panic!("{text}"));
    assert!(!check.contains("ptrtoint") && !check.contains("%i") && check.contains("%d"), "{check}");
    // A distance that changes from step to step is refused: x[2i], only
    // loaded, against x[i].
    let ir = BUTTERFLY.replace("%j = add i32 %i, %d", "%j = shl i32 %i, 1").replace("store float %t, ptr %pb", "store float %t, ptr %pa");
    let (_, remarks, text) = run_on(&ir);
    assert!(!text.contains("egg.vloop") && remarks.iter().any(|r| r.msg.contains("changes from step to step")), "{remarks:?}");
}

#[test]
fn pointers_computed_from_distinct_restrict_arguments_do_not_alias() {
    // Rows of two restrict arrays, computed before the loop (conv2d's x + r*w).
    let rows = |x: &str, y: &str| {
        SAXPY.replace("ptr noalias %x, ptr noalias %y", "ptr noalias %x0, ptr noalias %y0").replace(
            "entry:\n",
            &format!("entry:\n  %x = getelementptr float, ptr {x}, i32 %n\n  %y = getelementptr float, ptr {y}, i32 4\n"),
        )
    };
    let (_, remarks, text) = run_on(&rows("%x0", "%y0"));
    assert!(text.contains("egg.vloop"), "{remarks:?}");
    assert!(!text.contains("ptrtoint"), "{text}");
    // Two rows of one array: checked at run time.
    let (_, remarks, text) = run_on(&rows("%y0", "%y0"));
    assert!(text.contains("egg.vloop") && text.contains("ptrtoint"), "{remarks:?}");
}

#[test]
fn a_loop_carried_dependence_through_memory_is_refused() {
    // y[i] = y[i - 1] + x[i]: each iteration reads the element the previous one stored.
    let ir = SAXPY
        .replace("%py = getelementptr float, ptr %y, i32 %i\n  %yv = load float, ptr %py", "%im = sub i32 %i, 1\n  %pq = getelementptr float, ptr %y, i32 %im\n  %yv = load float, ptr %pq\n  %py = getelementptr float, ptr %y, i32 %i");
    let (_, remarks, text) = run_on(&ir);
    assert!(!text.contains("egg.vloop"), "{text}");
    assert!(remarks.iter().any(|r| r.msg.contains("two iterations access the same element")), "{remarks:?}");
}

#[test]
fn options_parse() {
    let o = Options::parse("limits=1000,5,20;no-coop;fast-math;no-ilp").unwrap();
    assert_eq!(o.limits.nodes, 1000);
    assert!(!o.cooperation && o.floats.reassociate && !o.ilp);
    assert!(Options::parse("bogus").is_err() && Options::parse("limits=1,2").is_err());
}

//! Unit tests of the vectorizer on small IR functions: attributes, the
//! linear order, variant names, and the generated vector code.

use super::*;
use crate::testutil::{check_in_order, TestModule};

const IR: &str = r#"
define i32 @f(i32 %x, i32 %k) "dsp-vec-function"="args(2) uniform(1) nomask" {
entry:
  %c = icmp sgt i32 %x, %k
  br i1 %c, label %then, label %else
then:
  %a = mul i32 %x, 3
  br label %join
else:
  %b = add i32 %k, 7
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %b, %else ]
  ret i32 %r
}

define i32 @g(i32 %x, i32 %n) "dsp-vec-function"="args(2) uniform(1) mask" {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  %y = phi i32 [ %x, %entry ], [ %y1, %l ]
  %e = icmp eq i32 %y, 1
  br i1 %e, label %out, label %l
l:
  %y1 = lshr i32 %y, 1
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %h, label %out
out:
  %r = phi i32 [ %i, %h ], [ %i1, %l ]
  ret i32 %r
}
"#;

#[test]
fn attributes_order_and_variants() {
    let t = TestModule::parse(IR);
    let f = unsafe { LLVMGetNamedFunction(t.m, c"f".as_ptr()) };
    let cfg = crate::cfg::Cfg::new(f);
    let region = vec![true; cfg.blocks.len()];
    let nest = linearize::Nest::new(&cfg, &region, None).unwrap();
    let mut args = HashMap::new();
    args.insert(unsafe { LLVMGetParam(f, 0) }, attrs::Attr::Varying);
    args.insert(unsafe { LLVMGetParam(f, 1) }, attrs::Attr::Uniform);
    let at = attrs::analyse(t.m, &cfg, &nest, &region, 0, &args, &[], Level::All);
    assert!(at.divergent() && at.div_causing[0]);
    assert!(at.by_all[0] && at.by_all[3] && !at.by_all[1] && at.blend[3] && at.rewire[1] && at.rewire[2]);
    let b = crate::ir::instructions(cfg.blocks[2])[0];
    assert_eq!(at.of(b), attrs::Attr::Uniform, "k + 7 is uniform");
    let order = linearize::order(&cfg, &nest, &region, 0, &[]);
    assert_eq!((order.len(), order[0], order[3]), (4, 0, 3), "entry first, join last: {order:?}");

    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &crate::caps::Caps::new(&m), &Options::default()).unwrap();
    assert!(changed);
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(text.contains("define <16 x i32> @_ZGVxN16vu_f(<16 x i32> %0, i32 %1)"), "{text}");
    assert!(text.contains("define <16 x i32> @_ZGVxM16vu_g(<16 x i32> %0, i32 %1, <16 x i32> %2)"), "{text}");
    assert!(!text.contains("_ZGVxM16vu_f") && !text.contains("_ZGVxN16vu_g"), "mask/nomask honoured");
    // The divergent loop runs while any lane is active; phis became selects.
    assert!(text.contains("llvm.vector.reduce.or.v16i1"), "{text}");
    assert!(text.contains("select <16 x i1>"), "{text}");
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Analysis && r.msg.contains("divergent branches")));
}

#[test]
fn mangling() {
    let d = dsp_vec_contract::parse_variants("args(3) uniform(0) linear(1:4) aligned(1:64) mask").unwrap();
    assert_eq!(variant::mangle(&d[0], true, 16, "f"), "_ZGVxM16ul4a64v_f");
    assert_eq!(variant::mangle(&d[0], false, 8, "f"), "_ZGVxN8ul4a64v_f");
}

/// A uniform branch (on `k`) and a divergent one (on `x`) guarding a load.
const LEVELS: &str = r#"
define i32 @h(i32 %x, i32 %k, ptr %p) "dsp-vec-function"="args(3) uniform(1,2) nomask" {
entry:
  %u = icmp sgt i32 %k, 0
  br i1 %u, label %pos, label %join0
pos:
  %k2 = mul i32 %k, 3
  br label %join0
join0:
  %kk = phi i32 [ %k2, %pos ], [ %k, %entry ]
  %c = icmp sgt i32 %x, %kk
  br i1 %c, label %then, label %join
then:
  %q = getelementptr i32, ptr %p, i32 %x
  %v = load i32, ptr %q
  %e = call i32 @ext(i32 %v)
  %w = add i32 %e, %x
  br label %join
join:
  %r = phi i32 [ %w, %then ], [ %x, %join0 ]
  ret i32 %r
}
declare i32 @ext(i32)
"#;

fn analysis_of(level: Level) -> (String, String) {
    analysis_with(Options { level, ..Options::default() })
}

fn analysis_with(opts: Options) -> (String, String) {
    let t = TestModule::parse(LEVELS);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &crate::caps::Caps::new(&m), &opts).unwrap();
    assert!(changed, "{remarks:?}");
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let a = remarks.iter().find(|r| r.kind == RemarkKind::Analysis).map(|r| r.msg.clone()).unwrap_or_default();
    (a, text)
}

#[test]
fn levels_naive_mem_and_all() {
    // All: the uniform branch stays a branch, the divergent one is
    // linearized, and the block with the call sits behind a branch on its mask.
    let (all, text) = analysis_of(Level::All);
    assert!(all.contains("1 divergent branches"), "{all}");
    assert!(all.contains("1 blocks behind branches on superword conditions"), "{all}");
    assert!(text.contains("wfv.boscc"), "{text}");
    // MEM: attributes, but every branch linearized, no superword branches.
    let (mem, text) = analysis_of(Level::Mem);
    assert!(mem.contains("2 divergent branches") && mem.contains("0 blocks behind"), "{mem}");
    assert!(!text.contains("wfv.boscc"), "{text}");
    // Naive: no value found uniform (the uniform parameters are still passed as scalars).
    let (naive, _) = analysis_of(Level::Naive);
    assert!(naive.contains("2 divergent branches") && naive.contains("1 gathers/scatters"), "{naive}");
    let uniform = |s: &str| s.split(": ").nth(1).and_then(|x| x.split(' ').next()).and_then(|n| n.parse::<usize>().ok()).unwrap_or(99);
    assert!(uniform(&naive) <= 2 && uniform(&naive) < uniform(&all), "{naive} / {all}");
}

/// Instance multiversioning (§2.2.2): behind the block's branch on its
/// mask, one active lane runs the block's scalar instructions (the call
/// once, its operands extracted at the lane the mask's lowest set bit
/// names), more run the vector version; the values meet in phis.
#[test]
fn one_active_lane_runs_the_scalar_version() {
    let (all, text) = analysis_with(Options::default());
    assert!(all.contains("(1 with a scalar version for one active lane)"), "{all}");
    check_in_order(&text, &["wfv.boscc", "and i16", "icmp eq i16", "wfv.mv.scalar", "@llvm.cttz.i16", "extractelement", "call i32 @ext(i32", "insertelement", "wfv.mv.vector", "wfv.mv.join", "phi <16 x i32>"]);
    let (off, text) = analysis_with(Options { multiversion: false, ..Options::default() });
    assert!(off.contains("(0 with a scalar version") && !text.contains("wfv.mv."), "{off}");
}

/// A `vec-function` loop calling `@sh`, which branches at its entry on its
/// varying argument with a loop on each side (`;STORE` marks where a store
/// in the callee can go).
const DIVERGENT: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
@flag = global i32 0
define float @sh(float %x, i32 %k) "dsp-vec-function"="args(2) uniform(1) nomask" {
entry:
  %c = fcmp ogt float %x, 5.000000e-01
  br i1 %c, label %t, label %f
t:
  %i = phi i32 [ 0, %entry ], [ %i1, %t ]
  %r = phi float [ %x, %entry ], [ %r1, %t ]
  %a = fmul float %r, 7.500000e-01
  %b = fadd float %a, 1.250000e-01
  %r1 = fmul float %b, %b
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %k
  br i1 %d, label %t, label %j
f:
  %u = phi i32 [ 0, %entry ], [ %u1, %f ]
  %s = phi float [ %x, %entry ], [ %s1, %f ]
  %e = fsub float %s, 2.500000e-01
  %g = fmul float %e, %e
  %s1 = fadd float %g, %s
  ;STORE
  %u1 = add i32 %u, 1
  %h = icmp slt i32 %u1, %k
  br i1 %h, label %f, label %j
j:
  %o = phi float [ %r1, %t ], [ %s1, %f ]
  ret float %o
}
define void @run(ptr noalias %in, ptr noalias %out, i32 %n, i32 %k) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %pre, label %exit
pre:
  br label %l
l:
  %i = phi i32 [ 0, %pre ], [ %i1, %l ]
  %pa = getelementptr float, ptr %in, i32 %i
  %x = load float, ptr %pa
  %y = call float @sh(float %x, i32 %k)
  %po = getelementptr float, ptr %out, i32 %i
  store float %y, ptr %po
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %l, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"dsp.vec_function.loop", !"simd"}
"#;

fn restructure_with(ir: &str, opts: Options) -> (Vec<Remark>, String) {
    let t = TestModule::parse(ir);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (_, remarks) = run(t.m, &crate::caps::Caps::new(&m), &opts).unwrap();
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (remarks, text)
}

#[test]
fn instances_are_regrouped_by_the_callees_entry_branch() {
    let (remarks, text) = restructure_with(DIVERGENT, Options::default());
    let passed = |r: &Remark, what: &str| r.kind == RemarkKind::Passed && r.msg.contains(what);
    assert!(remarks.iter().any(|r| passed(r, "restructured: instances regrouped by the branch at the entry of 'sh' in blocks of 64")), "{remarks:?}");
    // The classification is vectorized whole, the compaction scatters the
    // permutation, the loop over it gathers and scatters, and the rest of
    // the iterations stay in the original loop (vectorized too).
    assert_eq!(remarks.iter().filter(|r| passed(r, "vec-function loop vectorized")).count(), 2, "{remarks:?}");
    assert!(text.contains("wfv.perm") && text.contains("wfv.side") && text.contains("wfv.rs.compact"), "{text}");
    assert!(text.contains("call void @llvm.masked.scatter.v16i32"), "{text}");
    assert!(text.contains("call <16 x float> @llvm.masked.gather.v16f32"), "{text}");
    assert!(text.contains("call i32 @llvm.ctpop.i32"), "{text}");
    // Switched off: no regrouping.
    let (remarks, text) = restructure_with(DIVERGENT, Options { restructure: false, ..Options::default() });
    assert!(!text.contains("wfv.perm"), "{text}");
    assert!(!remarks.iter().any(|r| r.msg.contains("restructured")), "{remarks:?}");
}

#[test]
fn a_callee_that_writes_memory_is_not_regrouped() {
    let ir = DIVERGENT.replace(";STORE", "store i32 1, ptr @flag");
    let (remarks, text) = restructure_with(&ir, Options::default());
    assert!(!text.contains("wfv.perm"), "{text}");
    assert!(
        remarks.iter().any(|r| r.kind == RemarkKind::Missed && r.msg.contains("not restructured: 'sh' writes memory")),
        "{remarks:?}"
    );
}

/// A call done lane by lane keeps the callee's calling convention: LLVM
/// makes internal functions `fastcc`, and a call of another convention is
/// undefined (instcombine deletes it as unreachable).
#[test]
fn lane_by_lane_calls_keep_the_calling_convention() {
    let ir = r#"
define i32 @h(i32 %x) "dsp-vec-function"="args(1) nomask" {
entry:
  %c = icmp sgt i32 %x, 100
  br i1 %c, label %slow, label %join
slow:
  %e = call fastcc i32 @accurate(i32 %x)
  br label %join
join:
  %r = phi i32 [ %e, %slow ], [ %x, %entry ]
  ret i32 %r
}
define internal fastcc i32 @accurate(i32 %x) noinline {
  %y = mul i32 %x, %x
  store volatile i32 %y, ptr @sink
  ret i32 %y
}
@sink = global i32 0
"#;
    let t = TestModule::parse(ir);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &crate::caps::Caps::new(&m), &Options::default()).unwrap();
    assert!(changed, "{remarks:?}");
    let text = t.text();
    crate::ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let calls: Vec<&str> = text.lines().filter(|l| l.contains("@accurate(i32")).filter(|l| l.contains("call")).collect();
    assert!(calls.len() > 1, "the call is made lane by lane:\n{text}");
    assert!(calls.iter().all(|l| l.contains("call fastcc")), "{calls:?}");
}

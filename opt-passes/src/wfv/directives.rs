//! Reads the vectorization directives (seed 001 §3) back from IR: the
//! `"dsp-vec-function"` function attribute (§3.2–3.5, one
//! [`VecFunctionDecl`] per directive on the function) and the
//! `!{!"dsp.vec_function.loop", !"simd"|!"omp"}` property in a loop's
//! `llvm.loop` metadata (§3.1), as the clang plugin writes them at the
//! start of LLVM's pipeline (contract: `dsp-vec-contract`,
//! frontend-plugin/README.md). A malformed attribute, or one whose argument
//! count no longer matches the function (a pass changed its signature), is
//! an error naming the function.

use std::fmt;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMAttributeFunctionIndex;

pub use dsp_vec_contract::{
    Aligned, ContractError, Linear, LoopOrigin, MaskMode, Step, VecFunctionDecl, FN_ATTR, LOOP_PROPERTY,
};

use crate::cfg::Cfg;
use crate::ir;

/// A function with `vec-function` directives.
#[derive(Clone, Debug)]
pub struct VecFunction {
    pub function: LLVMValueRef,
    pub name: String,
    /// One per directive, in source order.
    pub variants: Vec<VecFunctionDecl>,
}

/// A loop whose calls are to be vectorized.
#[derive(Clone, Debug)]
pub struct VecLoop {
    pub function: LLVMValueRef,
    /// The terminators carrying the loop's `llvm.loop` metadata (its latches' branches).
    pub latches: Vec<LLVMValueRef>,
    pub origin: LoopOrigin,
    /// LLVM's loop vectorizer already made this loop (or its remainder).
    pub vectorized: bool,
    /// Found without a directive (`-fvec-function=auto`).
    pub auto: bool,
}

/// Everything the directives say about a module.
#[derive(Clone, Debug, Default)]
pub struct Directives {
    pub functions: Vec<VecFunction>,
    pub loops: Vec<VecLoop>,
}

impl Directives {
    /// The variants declared for the function called `name`.
    pub fn function(&self, name: &str) -> Option<&VecFunction> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// The IR breaks the contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveError {
    Malformed { function: String, error: ContractError },
    /// `args(N)` differs from the function's argument count.
    Signature { function: String, declared: u32, actual: u32 },
    /// A loop property with an unknown origin.
    LoopOrigin { function: String, origin: String },
}

impl fmt::Display for DirectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectiveError::Malformed { function, error } => write!(f, "function '{function}': {error}"),
            DirectiveError::Signature { function, declared, actual } => write!(
                f,
                "function '{function}': its vec-function directives name {declared} arguments but it has {actual} (its signature changed after the directives were attached)"
            ),
            DirectiveError::LoopOrigin { function, origin } => {
                write!(f, "function '{function}': loop property {LOOP_PROPERTY} with unknown origin '{origin}'")
            }
        }
    }
}

impl std::error::Error for DirectiveError {}

/// The directives of one function (a definition or a declaration); `None` without any.
pub fn function_directives(f: LLVMValueRef) -> Result<Option<Vec<VecFunctionDecl>>, DirectiveError> {
    let text = unsafe {
        let a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, FN_ATTR.as_ptr().cast(), FN_ATTR.len() as u32);
        if a.is_null() {
            return Ok(None);
        }
        let mut len = 0;
        let p = LLVMGetStringAttributeValue(a, &mut len);
        if p.is_null() {
            String::new()
        } else {
            String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len as usize)).into_owned()
        }
    };
    let function = ir::value_name(f);
    let variants = dsp_vec_contract::parse_variants(&text)
        .map_err(|error| DirectiveError::Malformed { function: function.clone(), error })?;
    let actual = unsafe { LLVMCountParams(f) };
    if let Some(v) = variants.iter().find(|v| v.args != actual) {
        return Err(DirectiveError::Signature { function, declared: v.args, actual });
    }
    Ok(Some(variants))
}

/// The operands of a metadata node (given as a value).
fn md_operands(md: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        if md.is_null() || LLVMIsAMDNode(md).is_null() {
            return Vec::new();
        }
        let n = LLVMGetMDNodeNumOperands(md) as usize;
        let mut ops = vec![std::ptr::null_mut(); n];
        LLVMGetMDNodeOperands(md, ops.as_mut_ptr());
        ops
    }
}

fn md_string(v: LLVMValueRef) -> Option<String> {
    if v.is_null() {
        return None;
    }
    unsafe {
        let mut len = 0;
        let p = LLVMGetMDString(v, &mut len);
        (!p.is_null()).then(|| String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len as usize)).into_owned())
    }
}

/// A loop ID's properties: its operands after the first, and the
/// properties of self-referential nodes among them (LLVM's
/// `makeFollowupLoopID` puts clang's follow-up loop ID there whole, so a
/// loop LLVM vectorized has its properties one level down). Follow-up
/// attributes (`llvm.loop.*.followup_*`) describe other loops: not entered.
fn loop_properties(id: LLVMValueRef) -> Vec<Vec<LLVMValueRef>> {
    let mut out = Vec::new();
    let mut todo = vec![id];
    let mut seen = vec![id];
    while let Some(node) = todo.pop() {
        for op in md_operands(node).into_iter().skip(1) {
            let inner = md_operands(op);
            match inner.first() {
                Some(&first) if first == op && !seen.contains(&op) => {
                    seen.push(op);
                    todo.push(op);
                }
                Some(&first) if first == op => {}
                Some(_) => out.push(inner),
                None => {}
            }
        }
    }
    out
}

/// The origin named by a loop ID's `dsp.vec_function.loop` property:
/// `Ok(None)` without one, `Err(name)` for an unknown origin.
fn loop_property(id: LLVMValueRef) -> Result<Option<LoopOrigin>, String> {
    for inner in loop_properties(id) {
        if inner.first().and_then(|&s| md_string(s)).as_deref() != Some(LOOP_PROPERTY) {
            continue;
        }
        let origin = inner.get(1).and_then(|&s| md_string(s)).unwrap_or_default();
        return LoopOrigin::from_name(&origin).map(Some).ok_or(origin);
    }
    Ok(None)
}

/// Whether a loop ID says LLVM vectorized the loop already (`llvm.loop.isvectorized`).
fn is_vectorized(id: LLVMValueRef) -> bool {
    loop_properties(id).iter().any(|p| {
        p.first().and_then(|&s| md_string(s)).as_deref() == Some("llvm.loop.isvectorized")
            && p.get(1).is_none_or(|&v| ir::const_u64(v) != Some(0))
    })
}

/// Whether the loop closed by `br` has the property `name` (`!{!"name", …}`
/// in its loop ID, follow-up IDs included).
pub fn has_loop_property(br: LLVMValueRef, name: &str) -> bool {
    let id = unsafe { LLVMGetMetadata(br, LLVMGetMDKindID(c"llvm.loop".as_ptr(), 9)) };
    !id.is_null() && loop_properties(id).iter().any(|p| p.first().and_then(|&s| md_string(s)).as_deref() == Some(name))
}

/// Whether the loop closed by `br` is marked `vectorize(disable)` or
/// `vectorize_width(1)` (`llvm.loop.vectorize.enable` false, width 1).
pub fn vectorization_disabled(br: LLVMValueRef) -> bool {
    let id = unsafe { LLVMGetMetadata(br, LLVMGetMDKindID(c"llvm.loop".as_ptr(), 9)) };
    if id.is_null() {
        return false;
    }
    loop_properties(id).iter().any(|p| {
        let v = p.get(1).and_then(|&v| ir::const_u64(v));
        match p.first().and_then(|&s| md_string(s)).as_deref() {
            Some("llvm.loop.vectorize.enable") => v == Some(0),
            Some("llvm.loop.vectorize.width") => v == Some(1),
            _ => false,
        }
    })
}

/// Whether the terminator `br` closes a `vec-function` loop, and from which directive.
pub fn loop_origin(br: LLVMValueRef) -> Option<LoopOrigin> {
    let id = unsafe { LLVMGetMetadata(br, LLVMGetMDKindID(c"llvm.loop".as_ptr(), 9)) };
    loop_property(id).ok().flatten()
}

/// Every function with directives (declarations too) and every marked loop.
pub fn read_module(m: LLVMModuleRef) -> Result<Directives, DirectiveError> {
    let mut d = Directives::default();
    let kind = unsafe { LLVMGetMDKindID(c"llvm.loop".as_ptr(), 9) };
    let mut f = unsafe { LLVMGetFirstFunction(m) };
    while !f.is_null() {
        if let Some(variants) = function_directives(f)? {
            d.functions.push(VecFunction { function: f, name: ir::value_name(f), variants });
        }
        // Latches are grouped by loop ID and header: LLVM's unroller copies
        // an inner loop with its ID, and each copy is a loop of its own.
        let mut ids: Vec<(LLVMValueRef, Option<usize>, usize)> = Vec::new();
        let mut cfg: Option<Cfg> = None;
        for b in ir::blocks(f) {
            let t = unsafe { LLVMGetBasicBlockTerminator(b) };
            if t.is_null() {
                continue;
            }
            let id = unsafe { LLVMGetMetadata(t, kind) };
            if id.is_null() {
                continue;
            }
            let g = cfg.get_or_insert_with(|| Cfg::new(f));
            let header = g.index.get(&b).and_then(|&bi| g.succs[bi].iter().copied().find(|&h| g.dominates(h, bi)));
            if let Some(&(_, _, at)) = ids.iter().find(|(i, h, _)| *i == id && *h == header) {
                d.loops[at].latches.push(t);
                continue;
            }
            let origin = loop_property(id)
                .map_err(|origin| DirectiveError::LoopOrigin { function: ir::value_name(f), origin })?;
            if let Some(origin) = origin {
                ids.push((id, header, d.loops.len()));
                d.loops.push(VecLoop { function: f, latches: vec![t], origin, vectorized: is_vectorized(id), auto: false });
            }
        }
        f = unsafe { LLVMGetNextFunction(f) };
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::TestModule;

    const IR: &str = r#"
declare i32 @ext(ptr, i32) "dsp-vec-function"="args(2) uniform(1) linear(0:4) aligned(0:64) nomask simdlen(16);args(2) uniform(1) mask"

define i32 @mandel(float %re, i32 %n) "dsp-vec-function"="args(2) uniform(1)" {
  ret i32 %n
}

define void @run(ptr %a, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %l1 ], [ %i2, %l2 ]
  %c = icmp eq i32 %i, 7
  br i1 %c, label %l1, label %l2
l1:
  %i1 = add i32 %i, 1
  %d1 = icmp ult i32 %i1, %n
  br i1 %d1, label %h, label %exit, !llvm.loop !0
l2:
  %i2 = add i32 %i, 2
  %d2 = icmp ult i32 %i2, %n
  br i1 %d2, label %h, label %mid, !llvm.loop !0
mid:
  br label %h2
h2:
  %j = phi i32 [ 0, %mid ], [ %j1, %h2 ]
  %j1 = add i32 %j, 1
  %e = icmp ult i32 %j1, %n
  br i1 %e, label %h2, label %exit, !llvm.loop !3
exit:
  ret void
}

!0 = distinct !{!0, !1, !2}
!1 = !{!"llvm.loop.mustprogress"}
!2 = !{!"dsp.vec_function.loop", !"simd"}
!3 = distinct !{!3, !4, !5}
!4 = !{!"llvm.loop.unroll.disable"}
!5 = !{!"llvm.loop.vectorize.followup_all", !6}
!6 = distinct !{!6, !2}
"#;

    /// A loop LLVM vectorized: clang's follow-up loop ID nested whole in the new one.
    const VECTORIZED: &str = r#"
define void @v(i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %l, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1, !5}
!1 = distinct !{!1, !2, !3, !4}
!2 = !{!"llvm.loop.parallel_accesses", !6}
!3 = !{!"llvm.loop.isvectorized"}
!4 = !{!"dsp.vec_function.loop", !"omp"}
!5 = !{!"llvm.loop.unroll.runtime.disable"}
!6 = distinct !{}
"#;

    #[test]
    fn reads_functions_and_loops() {
        let t = TestModule::parse(IR);
        let d = read_module(t.m).unwrap();
        assert_eq!(d.functions.len(), 2);
        let ext = d.function("ext").unwrap();
        assert_eq!(ext.variants.len(), 2);
        let v = &ext.variants[0];
        assert_eq!(v.uniform, vec![1]);
        assert_eq!(v.linear, vec![Linear { arg: 0, step: Step::Const(4) }]);
        assert_eq!(v.aligned, vec![Aligned { arg: 0, bytes: Some(64) }]);
        assert_eq!(v.mask, MaskMode::Unmasked);
        assert_eq!(v.simdlen, Some(16));
        assert_eq!(ext.variants[1].mask, MaskMode::Masked);
        assert_eq!(d.function("mandel").unwrap().variants[0].uniform, vec![1]);
        assert_eq!(d.loops.len(), 1, "one marked loop (two latches); not the one marked only in a follow-up");
        assert_eq!(d.loops[0].latches.len(), 2);
        assert_eq!(d.loops[0].origin, LoopOrigin::Simd);
        assert_eq!(loop_origin(d.loops[0].latches[1]), Some(LoopOrigin::Simd));
        assert!(!d.loops[0].vectorized);
        let t = TestModule::parse(VECTORIZED);
        let d = read_module(t.m).unwrap();
        assert_eq!(d.loops.len(), 1);
        assert_eq!(d.loops[0].origin, LoopOrigin::Omp);
        assert!(d.loops[0].vectorized);
    }

    /// LLVM's unroller copies an inner loop together with its loop ID:
    /// each copy is a loop of its own (DCT's vec-function loop, once per
    /// unrolled iteration of the loop around it, was vectorized only once).
    #[test]
    fn unrolled_copies_sharing_an_id_are_separate_loops() {
        let t = TestModule::parse(
            r#"
define void @u(i32 %n) {
entry:
  br label %a
a:
  %i = phi i32 [ 0, %entry ], [ %i1, %a ]
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %a, label %mid, !llvm.loop !0
mid:
  br label %b
b:
  %j = phi i32 [ 0, %mid ], [ %j1, %b ]
  %j1 = add i32 %j, 1
  %d = icmp ult i32 %j1, %n
  br i1 %d, label %b, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"dsp.vec_function.loop", !"simd"}
"#,
        );
        let d = read_module(t.m).unwrap();
        assert_eq!(d.loops.len(), 2);
        assert!(d.loops.iter().all(|l| l.latches.len() == 1));
    }

    #[test]
    fn broken_contracts_are_errors() {
        let t = TestModule::parse(r#"declare void @f(i32) "dsp-vec-function"="args(2) uniform(1)""#);
        assert_eq!(
            read_module(t.m).unwrap_err(),
            DirectiveError::Signature { function: "f".into(), declared: 2, actual: 1 }
        );
        let t = TestModule::parse(r#"declare void @g(i32) "dsp-vec-function"="args(1) vector""#);
        let e = read_module(t.m).unwrap_err();
        assert!(e.to_string().starts_with("function 'g': malformed \"dsp-vec-function\" attribute"), "{e}");
        let t = TestModule::parse(
            "define void @h() {\nentry:\n  br label %l\nl:\n  br label %l, !llvm.loop !0\n}\n!0 = distinct !{!0, !1}\n!1 = !{!\"dsp.vec_function.loop\", !\"cilk\"}\n",
        );
        assert_eq!(
            read_module(t.m).unwrap_err(),
            DirectiveError::LoopOrigin { function: "h".into(), origin: "cilk".into() }
        );
        let t = TestModule::parse("declare void @plain(i32)");
        let d = read_module(t.m).unwrap();
        assert!(d.functions.is_empty() && d.loops.is_empty());
    }
}

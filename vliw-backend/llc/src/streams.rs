//! Pointer streams merged after loop strength reduction. LSR asks the
//! target which offsets a memory operand can take; for vectors that are not
//! one of Hexagon's native HVX sizes its answer is "none", so an unrolled
//! or vectorized body that reads `x[i + k]` for sixteen constants `k` gets
//! sixteen pointer phis, each advanced every iteration: sixteen adds and
//! sixteen live registers where one pointer and sixteen immediates would do
//! (issue 9's "one pointer update per stream per kernel iteration").
//!
//! Here, for each loop header, pointer phis that start at constant byte
//! distances from one root value and advance by the same constant on the
//! back edge are one stream: every use of a follower becomes the leader
//! plus its distance (a constant-offset GEP that selection folds into the
//! load/store immediate, `dsp_isel::memory::address`), and the follower's
//! phi and increment are deleted. A follower whose increment is used by
//! anything but its phi is left alone.

use inkwell::module::Module as LlvmModule;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement, LLVMTargetDataRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// Followers farther than this from their leader stay streams of their own
/// (an immediate that large may not fit a memory operand).
const MAX_DISTANCE: i64 = 4096;

/// Merges the streams of every loop of `module`; the number of phis removed.
pub fn run(module: &LlvmModule) -> usize {
    let m = module.as_mut_ptr();
    let dl = unsafe { LLVMGetModuleDataLayout(m) };
    let mut merged = 0;
    let mut f = unsafe { LLVMGetFirstFunction(m) };
    while !f.is_null() {
        let mut b = unsafe { LLVMGetFirstBasicBlock(f) };
        while !b.is_null() {
            merged += merge_block(dl, b);
            b = unsafe { LLVMGetNextBasicBlock(b) };
        }
        f = unsafe { LLVMGetNextFunction(f) };
    }
    merged
}

/// A pointer phi `p = phi [init, outside], [gep p, step, back edge]`.
struct Stream {
    phi: LLVMValueRef,
    next: LLVMValueRef,
    root: LLVMValueRef,
    offset: i64,
    step: i64,
}

fn merge_block(dl: LLVMTargetDataRef, header: LLVMBasicBlockRef) -> usize {
    let mut streams = Vec::new();
    let mut i = unsafe { LLVMGetFirstInstruction(header) };
    while !i.is_null() && unsafe { LLVMGetInstructionOpcode(i) } == LLVMOpcode::LLVMPHI {
        if let Some(s) = stream(dl, i) {
            streams.push(s);
        }
        i = unsafe { LLVMGetNextInstruction(i) };
    }
    let first_non_phi = i;
    if streams.len() < 2 || first_non_phi.is_null() {
        return 0;
    }
    // Groups in the order of their first phi in the block (not by the
    // root's address, which changes from run to run: the code would too).
    let mut groups: Vec<((LLVMValueRef, i64), Vec<Stream>)> = Vec::new();
    for s in streams {
        match groups.iter_mut().find(|g| g.0 == (s.root, s.step)) {
            Some(g) => g.1.push(s),
            None => groups.push(((s.root, s.step), vec![s])),
        }
    }
    let mut merged = 0;
    for (_, mut g) in groups {
        if g.len() < 2 {
            continue;
        }
        g.sort_by_key(|s| s.offset);
        let leader = g[0].phi;
        let lead_offset = g[0].offset;
        for s in &g[1..] {
            let d = s.offset - lead_offset;
            if d > MAX_DISTANCE || only_user(s.next) != Some(s.phi) {
                continue;
            }
            unsafe {
                let ctx = LLVMGetTypeContext(LLVMTypeOf(s.phi));
                let i8t = LLVMInt8TypeInContext(ctx);
                let i32t = LLVMInt32TypeInContext(ctx);
                let b = LLVMCreateBuilderInContext(ctx);
                LLVMPositionBuilderBefore(b, first_non_phi);
                let mut idx = [LLVMConstInt(i32t, d as u64, 1)];
                let at = LLVMBuildGEP2(b, i8t, leader, idx.as_mut_ptr(), 1, c"stream".as_ptr());
                LLVMDisposeBuilder(b);
                LLVMReplaceAllUsesWith(s.phi, at);
                // The follower's increment now feeds nothing but its dead phi.
                LLVMInstructionEraseFromParent(s.phi);
                LLVMInstructionEraseFromParent(s.next);
            }
            merged += 1;
        }
    }
    merged
}

/// `phi` as a stream: two incoming values, one of them a constant-offset
/// GEP of `phi` itself (the increment), the other anything else (the start).
fn stream(dl: LLVMTargetDataRef, phi: LLVMValueRef) -> Option<Stream> {
    unsafe {
        if LLVMGetTypeKind(LLVMTypeOf(phi)) != LLVMTypeKind::LLVMPointerTypeKind || LLVMCountIncoming(phi) != 2 {
            return None;
        }
        let (a, b) = (LLVMGetIncomingValue(phi, 0), LLVMGetIncomingValue(phi, 1));
        let is_step = |v: LLVMValueRef| !LLVMIsAGetElementPtrInst(v).is_null() && LLVMGetOperand(v, 0) == phi;
        let (init, next) = match (is_step(a), is_step(b)) {
            (false, true) => (a, b),
            (true, false) => (b, a),
            _ => return None,
        };
        let step = gep_offset(dl, next)?;
        let (root, offset) = root_offset(dl, init, 0)?;
        Some(Stream { phi, next, root, offset, step })
    }
}

/// `p` as a root value plus a constant byte offset (through constant-offset GEPs).
fn root_offset(dl: LLVMTargetDataRef, p: LLVMValueRef, depth: u32) -> Option<(LLVMValueRef, i64)> {
    unsafe {
        let is_gep = !LLVMIsAGetElementPtrInst(p).is_null()
            || (!LLVMIsAConstantExpr(p).is_null() && LLVMGetConstOpcode(p) == LLVMOpcode::LLVMGetElementPtr);
        if depth < 16 && is_gep {
            if let Some(off) = gep_offset(dl, p) {
                let (r, o) = root_offset(dl, LLVMGetOperand(p, 0), depth + 1)?;
                return Some((r, o.checked_add(off)?));
            }
        }
        Some((p, 0))
    }
}

/// The constant byte offset a GEP adds to its base, if all its indices are constants.
fn gep_offset(dl: LLVMTargetDataRef, g: LLVMValueRef) -> Option<i64> {
    unsafe {
        let n = LLVMGetNumOperands(g) as u32;
        let mut ty = LLVMGetGEPSourceElementType(g);
        let mut off: i64 = 0;
        for k in 1..n {
            let idx = LLVMGetOperand(g, k);
            if LLVMIsAConstantInt(idx).is_null() {
                return None;
            }
            let c = LLVMConstIntGetSExtValue(idx);
            if k == 1 {
                off = off.checked_add(c.checked_mul(LLVMABISizeOfType(dl, ty) as i64)?)?;
                continue;
            }
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    off = off.checked_add(LLVMOffsetOfElement(dl, ty, c as u32) as i64)?;
                    ty = LLVMStructGetTypeAtIndex(ty, c as u32);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    ty = LLVMGetElementType(ty);
                    off = off.checked_add(c.checked_mul(LLVMABISizeOfType(dl, ty) as i64)?)?;
                }
                _ => return None,
            }
        }
        Some(off)
    }
}

/// The single user of `v`, if it has exactly one use.
fn only_user(v: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let u = LLVMGetFirstUse(v);
        if u.is_null() || !LLVMGetNextUse(u).is_null() {
            return None;
        }
        Some(LLVMGetUser(u))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    /// Three streams over `x` (at 0, 2 and 6 bytes) and one over `y`, all
    /// advancing 32 bytes: the `x` streams become one.
    const IR: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @f(ptr noalias %x, ptr noalias %y, i32 %n) {
entry:
  %x2 = getelementptr i8, ptr %x, i32 2
  %x6 = getelementptr i16, ptr %x, i32 3
  br label %loop
loop:
  %c = phi i32 [ %n, %entry ], [ %c1, %loop ]
  %p0 = phi ptr [ %x, %entry ], [ %n0, %loop ]
  %p2 = phi ptr [ %x2, %entry ], [ %n2, %loop ]
  %p6 = phi ptr [ %x6, %entry ], [ %n6, %loop ]
  %q = phi ptr [ %y, %entry ], [ %nq, %loop ]
  %a = load <16 x i16>, ptr %p0
  %b = load <16 x i16>, ptr %p2
  %d = load <16 x i16>, ptr %p6
  %s = add <16 x i16> %a, %b
  %t = add <16 x i16> %s, %d
  store <16 x i16> %t, ptr %q
  %n0 = getelementptr i8, ptr %p0, i32 32
  %n2 = getelementptr i8, ptr %p2, i32 32
  %n6 = getelementptr i8, ptr %p6, i32 32
  %nq = getelementptr i8, ptr %q, i32 32
  %c1 = sub i32 %c, 1
  %more = icmp ne i32 %c1, 0
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
"#;

    #[test]
    fn streams_over_one_base_become_one_pointer_with_offsets() {
        let ctx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(IR.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap();
        assert_eq!(run(&module), 2);
        module.verify().unwrap();
        let text = module.print_to_string().to_string();
        assert_eq!(text.matches(" = phi ptr").count(), 2, "{text}");
        assert!(text.contains("getelementptr i8, ptr %p0, i32 2") && text.contains("getelementptr i8, ptr %p0, i32 6"), "{text}");
        assert!(text.contains("load <16 x i16>, ptr %p0"), "{text}");
    }
}

//! Pointer streams merged after loop strength reduction. LSR asks the
//! target which offsets a memory operand can take; for vectors that are not
//! one of Hexagon's native HVX sizes its answer is "none", so an unrolled
//! or vectorized body that reads `x[i + k]` for sixteen constants `k` gets
//! sixteen pointer phis, each advanced every iteration: sixteen adds and
//! sixteen live registers where one pointer and sixteen immediates would do
//! (issue 9's "one pointer update per stream per kernel iteration").
//!
//! Here, for each loop header, pointer phis that start at constant byte
//! distances from one root value and advance by the same amount on the
//! back edge (a constant, or the same value: an outer loop stepping by a
//! row) are one stream: every use of a follower becomes the
//! leader plus its distance (a constant-offset GEP that selection folds into
//! the load/store immediate, `dsp_isel::memory::address`), and the
//! follower's phi and increment are deleted. A follower whose increment is
//! used by anything but its phi is left alone. Merging an outer loop's
//! streams makes the inner loop's starts constant distances apart, so the
//! pass repeats until nothing merges (a 2-D stencil's taps: one pointer per
//! row instead of one per tap).

use inkwell::module::Module as LlvmModule;
use isa_tablegen::Machine;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement, LLVMPointerSize, LLVMTargetDataRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// The farthest byte distance a follower may be from its leader: the
/// largest immediate offset every memory instruction of `m` takes (the
/// smallest of their offset operands' upper bounds, from the `.isa`), so the
/// distance folds into the access instead of costing an add. 0 when a
/// memory instruction has no immediate offset.
pub fn reach(m: &Machine) -> i64 {
    use isa_tablegen::SemOp;
    let memory = |op: SemOp| {
        // Strided accesses take a stride, not an offset, second: not these.
        matches!(op, SemOp::Load | SemOp::Store | SemOp::VLoad | SemOp::VStore | SemOp::VLoadU | SemOp::VStoreU)
    };
    m.instrs
        .iter()
        .filter(|i| memory(i.sem.op))
        .map(|i| i.sem.args.get(1).and_then(|a| i.operands.get(a.0)).and_then(|o| o.kind.imm_range()).map_or(0, |(_, hi)| hi))
        .min()
        .unwrap_or(0)
}

/// Merges the streams of every loop of `module` whose followers are at most
/// `reach` bytes from their leader ([`reach`]); the number of phis removed.
pub fn run(module: &LlvmModule, reach: i64) -> usize {
    let m = module.as_mut_ptr();
    let dl = unsafe { LLVMGetModuleDataLayout(m) };
    let mut merged = 0;
    let mut f = unsafe { LLVMGetFirstFunction(m) };
    while !f.is_null() {
        loop {
            let mut round = 0;
            let mut b = unsafe { LLVMGetFirstBasicBlock(f) };
            while !b.is_null() {
                round += merge_block(dl, b, reach);
                b = unsafe { LLVMGetNextBasicBlock(b) };
            }
            merged += round;
            if round == 0 {
                break;
            }
        }
        f = unsafe { LLVMGetNextFunction(f) };
    }
    merged
}

/// What a stream advances by each iteration: constant bytes, or a
/// loop-invariant index value times an element size.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Bytes(i64),
    Scaled(LLVMValueRef, u64),
}

/// A pointer phi `p = phi [init, outside], [gep p, step, back edge]`.
struct Stream {
    phi: LLVMValueRef,
    next: LLVMValueRef,
    root: Root,
    offset: i64,
    step: Step,
}

fn merge_block(dl: LLVMTargetDataRef, header: LLVMBasicBlockRef, reach: i64) -> usize {
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
    let mut groups: Vec<((Root, Step), Vec<Stream>)> = Vec::new();
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
            if d > reach || only_user(s.next) != Some(s.phi) {
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
        let step = match gep_offset(dl, next) {
            Some(bytes) => Step::Bytes(bytes),
            None if LLVMGetNumOperands(next) == 2 => {
                // Two streams stepping by the same SSA value move alike:
                // both increments dominate the back edge and see the value
                // of the same iteration, whether or not it is invariant.
                let idx = LLVMGetOperand(next, 1);
                Step::Scaled(idx, LLVMABISizeOfType(dl, LLVMGetGEPSourceElementType(next)))
            }
            None => return None,
        };
        let (root, offset) = root_offset(dl, init, 0)?;
        Some(Stream { phi, next, root, offset, step })
    }
}

/// Where a stream starts, up to a constant: a pointer value, optionally
/// plus a variable index times an element size (`gep T, base, x + c` is
/// `Root { base, index: Some((x, size of T)) }` at `c * size` bytes).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Root {
    base: LLVMValueRef,
    index: Option<(LLVMValueRef, u64)>,
}

/// `v` as a value plus a constant (through adds and subtracts of constants).
fn value_plus_const(v: LLVMValueRef, depth: u32) -> Option<(LLVMValueRef, i64)> {
    unsafe {
        if depth < 16 && !LLVMIsABinaryOperator(v).is_null() {
            let op = LLVMGetInstructionOpcode(v);
            let (a, b) = (LLVMGetOperand(v, 0), LLVMGetOperand(v, 1));
            let c = |x: LLVMValueRef| (!LLVMIsAConstantInt(x).is_null()).then(|| LLVMConstIntGetSExtValue(x));
            let step = match (op, c(a), c(b)) {
                (LLVMOpcode::LLVMAdd, _, Some(k)) => Some((a, k)),
                (LLVMOpcode::LLVMAdd, Some(k), None) => Some((b, k)),
                (LLVMOpcode::LLVMSub, _, Some(k)) => Some((a, k.checked_neg()?)),
                _ => None,
            };
            if let Some((x, k)) = step {
                let (r, o) = value_plus_const(x, depth + 1)?;
                return Some((r, o.checked_add(k)?));
            }
        }
        Some((v, 0))
    }
}

/// `p` as a root plus a constant byte offset (through constant-offset
/// GEPs, and one GEP by a variable index plus a constant).
fn root_offset(dl: LLVMTargetDataRef, p: LLVMValueRef, depth: u32) -> Option<(Root, i64)> {
    unsafe {
        let is_gep = !LLVMIsAGetElementPtrInst(p).is_null()
            || (!LLVMIsAConstantExpr(p).is_null() && LLVMGetConstOpcode(p) == LLVMOpcode::LLVMGetElementPtr);
        let plain = Root { base: p, index: None };
        if depth < 16 && is_gep {
            if let Some(off) = gep_offset(dl, p) {
                let (r, o) = root_offset(dl, LLVMGetOperand(p, 0), depth + 1)?;
                return Some((r, o.checked_add(off)?));
            }
            // gep T, base, x + c with an index as wide as a pointer (so the
            // address arithmetic wraps alike either way).
            let idx = LLVMGetOperand(p, 1);
            let wide = LLVMGetTypeKind(LLVMTypeOf(idx)) == LLVMTypeKind::LLVMIntegerTypeKind
                && LLVMGetIntTypeWidth(LLVMTypeOf(idx)) == 8 * LLVMPointerSize(dl);
            if LLVMGetNumOperands(p) == 2 && wide {
                let (base, boff) = root_offset(dl, LLVMGetOperand(p, 0), depth + 1)?;
                if base.index.is_none() {
                    let size = LLVMABISizeOfType(dl, LLVMGetGEPSourceElementType(p));
                    let (x, c) = value_plus_const(idx, 0)?;
                    let off = boff.checked_add(c.checked_mul(i64::try_from(size).ok()?)?)?;
                    return Some((Root { base: base.base, index: Some((x, size)) }, off));
                }
            }
        }
        Some((plain, 0))
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

    /// A 2-D stencil after LSR: the outer loop's row pointers start at
    /// `x + (w + c)` bytes for c = 0, 4, 8 and step by the same row size
    /// `%row`; the inner loop's taps start at them. The outer streams
    /// become one, and then the inner ones do.
    const NESTED: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @g(ptr noalias %x, ptr noalias %y, i32 %w, i32 %row, i32 %n) {
entry:
  %w4 = add i32 %w, 4
  %w8 = add i32 %w, 8
  %s0 = getelementptr i8, ptr %x, i32 %w
  %s4 = getelementptr i8, ptr %x, i32 %w4
  %s8 = getelementptr i8, ptr %x, i32 %w8
  br label %outer
outer:
  %o = phi i32 [ %n, %entry ], [ %o1, %latch ]
  %r0 = phi ptr [ %s0, %entry ], [ %r0n, %latch ]
  %r4 = phi ptr [ %s4, %entry ], [ %r4n, %latch ]
  %r8 = phi ptr [ %s8, %entry ], [ %r8n, %latch ]
  br label %inner
inner:
  %c = phi i32 [ %n, %outer ], [ %c1, %inner ]
  %p0 = phi ptr [ %r0, %outer ], [ %n0, %inner ]
  %p4 = phi ptr [ %r4, %outer ], [ %n4, %inner ]
  %p8 = phi ptr [ %r8, %outer ], [ %n8, %inner ]
  %a = load <16 x i32>, ptr %p0
  %b = load <16 x i32>, ptr %p4
  %d = load <16 x i32>, ptr %p8
  %s = add <16 x i32> %a, %b
  %t = add <16 x i32> %s, %d
  store <16 x i32> %t, ptr %y
  %n0 = getelementptr i8, ptr %p0, i32 64
  %n4 = getelementptr i8, ptr %p4, i32 64
  %n8 = getelementptr i8, ptr %p8, i32 64
  %c1 = sub i32 %c, 1
  %more = icmp ne i32 %c1, 0
  br i1 %more, label %inner, label %latch
latch:
  %r0n = getelementptr i8, ptr %r0, i32 %row
  %r4n = getelementptr i8, ptr %r4, i32 %row
  %r8n = getelementptr i8, ptr %r8, i32 %row
  %o1 = sub i32 %o, 1
  %again = icmp ne i32 %o1, 0
  br i1 %again, label %outer, label %exit
exit:
  ret void
}
"#;

    #[test]
    fn row_streams_of_a_nest_become_one_pointer_per_loop() {
        let ctx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(NESTED.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap();
        assert_eq!(run(&module, 4096), 4);
        module.verify().unwrap();
        let text = module.print_to_string().to_string();
        assert_eq!(text.matches(" = phi ptr").count(), 2, "{text}");
        assert!(text.contains("getelementptr i8, ptr %p0, i32 4") && text.contains("getelementptr i8, ptr %p0, i32 8"), "{text}");
    }

    /// Streams whose steps are different values stay apart.
    #[test]
    fn streams_stepping_by_different_values_stay_apart() {
        let ctx = Context::create();
        let ir = NESTED.replace("%r8n = getelementptr i8, ptr %r8, i32 %row", "%r8n = getelementptr i8, ptr %r8, i32 %w");
        let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap();
        assert_eq!(run(&module, 4096), 2);
        module.verify().unwrap();
        let text = module.print_to_string().to_string();
        assert_eq!(text.matches(" = phi ptr").count(), 4, "{text}");
    }

    #[test]
    fn streams_over_one_base_become_one_pointer_with_offsets() {
        let ctx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(IR.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap();
        assert_eq!(run(&module, 4096), 2);
        module.verify().unwrap();
        let text = module.print_to_string().to_string();
        assert_eq!(text.matches(" = phi ptr").count(), 2, "{text}");
        assert!(text.contains("getelementptr i8, ptr %p0, i32 2") && text.contains("getelementptr i8, ptr %p0, i32 6"), "{text}");
        assert!(text.contains("load <16 x i16>, ptr %p0"), "{text}");
        // A machine whose memory operands reach 4 bytes keeps the stream 6 bytes away.
        let buf = MemoryBuffer::create_from_memory_range_copy(IR.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap();
        assert_eq!(run(&module, 4), 1);
        assert_eq!(module.print_to_string().to_string().matches(" = phi ptr").count(), 3);
    }

    #[test]
    fn the_reach_is_the_isas_memory_offset_range() {
        // Every shipped machine's loads and stores take a signed 32-bit offset.
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            assert_eq!(reach(&m), i32::MAX as i64, "{name}");
        }
    }
}

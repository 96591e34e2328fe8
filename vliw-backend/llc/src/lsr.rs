//! Loop strength reduction before selection: LLVM's `loop-reduce` pass (the
//! IR pass `llc` runs in its own codegen pipeline, `TargetPassConfig::
//! addIRPasses`), so that induction-variable addresses (`base + i * size`,
//! a shift and an add per access and iteration) become pointer increments:
//! one pointer per stream, advanced by a constant each iteration, with the
//! accesses of an unrolled body at constant offsets from it, which
//! instruction selection folds into the load/store immediate
//! (`dsp_isel`'s `address`).
//!
//! LSR asks the target which addressing modes are legal and what a register
//! costs. Without a target machine LLVM's default answers that a base plus
//! an immediate is not an addressing mode, which defeats the point; the
//! pass therefore runs with a target machine for the module's own triple
//! (`dspcc` compiles for `hexagon-unknown-elf`, whose memory operands, like
//! ours, take a register plus an immediate). When that target is not in the
//! LLVM library the pass runs without one.
//!
//! It runs before `counted_loops` (as in `llc`, where hardware-loop passes
//! come after LSR): the counter phi is then not an induction variable LSR
//! could rewrite.

use std::ffi::{CStr, CString};

use inkwell::module::Module as LlvmModule;
use llvm_sys::error::LLVMDisposeErrorMessage;
use llvm_sys::target::{
    LLVMInitializeHexagonTarget, LLVMInitializeHexagonTargetInfo, LLVMInitializeHexagonTargetMC,
};
use llvm_sys::target_machine::{
    LLVMCodeGenOptLevel, LLVMCodeModel, LLVMCreateTargetMachine, LLVMDisposeTargetMachine,
    LLVMGetTargetFromTriple, LLVMRelocMode, LLVMTargetMachineRef, LLVMTargetRef,
};

/// The pass pipeline: `canon-freeze` then `loop-reduce` on every loop, as
/// `llc` runs them.
pub const PIPELINE: &str = "function(canon-freeze,loop-mssa(loop-reduce))";

/// A target machine for `triple`, if LLVM has the target.
fn target_machine(triple: &CStr) -> Option<LLVMTargetMachineRef> {
    // SAFETY: the initializers are idempotent; the triple is a valid C
    // string; on failure LLVMGetTargetFromTriple sets an error message that
    // is freed here.
    unsafe {
        if triple.to_bytes().starts_with(b"hexagon") {
            LLVMInitializeHexagonTargetInfo();
            LLVMInitializeHexagonTarget();
            LLVMInitializeHexagonTargetMC();
        }
        let mut target: LLVMTargetRef = std::ptr::null_mut();
        let mut err: *mut std::os::raw::c_char = std::ptr::null_mut();
        if LLVMGetTargetFromTriple(triple.as_ptr(), &mut target, &mut err) != 0 {
            if !err.is_null() {
                LLVMDisposeErrorMessage(err);
            }
            return None;
        }
        let empty = c"";
        let tm = LLVMCreateTargetMachine(
            target,
            triple.as_ptr(),
            empty.as_ptr(),
            empty.as_ptr(),
            LLVMCodeGenOptLevel::LLVMCodeGenLevelDefault,
            LLVMRelocMode::LLVMRelocStatic,
            LLVMCodeModel::LLVMCodeModelDefault,
        );
        (!tm.is_null()).then_some(tm)
    }
}

/// The module's target triple.
fn triple_of(module: &LlvmModule) -> CString {
    let t = module.get_triple();
    CString::new(t.as_str().to_bytes()).unwrap_or_default()
}

/// Runs loop strength reduction on every loop of `module`.
pub fn run(module: &LlvmModule) -> Result<(), String> {
    let tm = target_machine(&triple_of(module));
    let result = crate::passes::run(module, PIPELINE, tm.unwrap_or(std::ptr::null_mut()), "loop strength reduction");
    if let Some(tm) = tm {
        // SAFETY: created by target_machine and no longer used.
        unsafe { LLVMDisposeTargetMachine(tm) };
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    /// `y[i] = x[i] + y[i]` indexed by `i`: after LSR the accesses walk
    /// pointers and no address is a shifted index.
    const INDEXED: &str = r#"
target datalayout = "e-m:e-p:32:32:32-a:0-n16:32-i64:64:64-i32:32:32-i16:16:16-i1:8:8-f32:32:32-f64:64:64-v32:32:32-v64:64:64-v512:512:512-v1024:1024:1024-v2048:2048:2048"
target triple = "hexagon-unknown-unknown-elf"
define void @add(ptr noalias %x, ptr noalias %y, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %px = getelementptr inbounds i32, ptr %x, i32 %i
  %py = getelementptr inbounds i32, ptr %y, i32 %i
  %a = load i32, ptr %px
  %b = load i32, ptr %py
  %s = add i32 %a, %b
  store i32 %s, ptr %py
  %i1 = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"#;

    #[test]
    fn indexed_accesses_become_pointer_increments() {
        let ctx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(INDEXED.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap();
        run(&module).unwrap();
        let text = module.print_to_string().to_string();
        let body = &text[text.find("loop").unwrap()..];
        // Pointer phis (or a pointer walked with a byte offset), no `i32 %i` index GEPs left.
        assert!(body.contains("phi ptr"), "{body}");
        assert!(!body.contains("ptr %x, i32 %i"), "{body}");
        module.verify().unwrap();
    }
}

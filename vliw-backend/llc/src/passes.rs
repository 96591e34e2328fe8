//! Running an LLVM pass pipeline (new pass manager syntax) on a module
//! through the C API's `LLVMRunPasses`, optionally with a target machine,
//! with LLVM's error turned into a message; the module is verified
//! afterwards in debug builds. Used by [`crate::lsr`] and
//! [`crate::counted_loops`].

use std::ffi::{CStr, CString};

use inkwell::module::Module as LlvmModule;
use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMGetErrorMessage};
use llvm_sys::target_machine::LLVMTargetMachineRef;
use llvm_sys::transforms::pass_builder::{
    LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMPassBuilderOptionsSetVerifyEach,
    LLVMRunPasses,
};

/// Runs `pipeline` on `module`; `tm` is a target machine the caller owns
/// (null: none). `what` names the passes in error messages.
pub(crate) fn run(module: &LlvmModule, pipeline: &str, tm: LLVMTargetMachineRef, what: &str) -> Result<(), String> {
    let passes = CString::new(pipeline).map_err(|e| format!("internal: pass pipeline: {e}"))?;
    // SAFETY: the module pointer is live for the borrow of `module`; the
    // options are created and disposed here; `tm` is null (accepted by
    // LLVMRunPasses) or a live target machine of the caller's.
    let err = unsafe {
        let options = LLVMCreatePassBuilderOptions();
        LLVMPassBuilderOptionsSetVerifyEach(options, i32::from(cfg!(debug_assertions)));
        let err = LLVMRunPasses(module.as_mut_ptr(), passes.as_ptr(), tm, options);
        LLVMDisposePassBuilderOptions(options);
        err
    };
    if !err.is_null() {
        // SAFETY: LLVMGetErrorMessage consumes the error and returns a
        // C string that LLVMDisposeErrorMessage frees.
        let msg = unsafe {
            let raw = LLVMGetErrorMessage(err);
            let msg = CStr::from_ptr(raw).to_string_lossy().into_owned();
            LLVMDisposeErrorMessage(raw);
            msg
        };
        return Err(format!("LLVM {what} ({pipeline}): {msg}"));
    }
    if cfg!(debug_assertions) {
        module
            .verify()
            .map_err(|e| format!("internal: the module is invalid after the {what}: {}", e.to_string().trim_end()))?;
    }
    Ok(())
}

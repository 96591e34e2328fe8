//! The plugin's C entry points. `opt -load-pass-plugin` and clang's
//! `-fpass-plugin` call `llvmGetPassPluginInfo`, which is defined here (so the
//! cdylib exports it) and points LLVM at `dsp_register_callbacks` in the C++
//! shim (`shim/plugin.cpp`). The shim registers our pass names with the pass
//! builder's pipeline parser and adds `dsp-prepare` at the optimizer-last
//! extension point; when LLVM runs one of our passes the shim calls
//! [`dsp_run_pass`] with the module, which we borrow and never dispose.

use std::ffi::{c_char, c_void, CStr};

use inkwell::llvm_sys::prelude::LLVMModuleRef;

/// `llvm::PassPluginLibraryInfo` (llvm/Passes/PassPlugin.h), field for field.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_callbacks: unsafe extern "C" fn(*mut c_void),
}

/// `LLVM_PLUGIN_API_VERSION` of LLVM 19.
const LLVM_PLUGIN_API_VERSION: u32 = 1;

extern "C" {
    /// In shim/plugin.cpp: `void dsp_register_callbacks(llvm::PassBuilder &)`.
    fn dsp_register_callbacks(pass_builder: *mut c_void);
    /// In shim/plugin.cpp: an optimization remark of pass `pass` at a
    /// function or instruction (kind 0 passed, 1 missed, 2 analysis).
    fn dsp_remark(at: inkwell::llvm_sys::prelude::LLVMValueRef, pass: *const c_char, kind: i32, name: *const c_char, msg: *const c_char);
}

/// Hands remarks of pass `pass` to LLVM's diagnostic handler (clang prints
/// them for `-Rpass=wfv` …).
pub fn emit_remarks(pass: &str, remarks: &[crate::wfv::Remark]) {
    use crate::wfv::RemarkKind;
    let pass = std::ffi::CString::new(pass).unwrap_or_default();
    for r in remarks {
        let kind = match r.kind {
            RemarkKind::Passed => 0,
            RemarkKind::Missed => 1,
            RemarkKind::Analysis => 2,
        };
        let name = std::ffi::CString::new(r.name).unwrap_or_default();
        let msg = std::ffi::CString::new(r.msg.replace('\0', " ")).unwrap_or_default();
        unsafe { dsp_remark(r.at, pass.as_ptr(), kind, name.as_ptr(), msg.as_ptr()) };
    }
}

/// The plugin's entry point, looked up by name by LLVM's `PassPlugin::Load`.
#[no_mangle]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: LLVM_PLUGIN_API_VERSION,
        plugin_name: c"dsp-opt-passes".as_ptr(),
        plugin_version: c"0.1".as_ptr(),
        register_callbacks: dsp_register_callbacks,
    }
}

/// Whether `name` is one of our passes (the shim's pipeline-parsing callback asks).
///
/// # Safety
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dsp_is_pass(name: *const c_char) -> bool {
    if name.is_null() {
        return false;
    }
    let name = CStr::from_ptr(name).to_string_lossy();
    crate::pass_by_name(&name).is_some()
}

/// Runs pass `name` on `module` for the machine `isa` (empty: `$DSP_ISA`, then
/// the default machine). Returns whether the module changed. An error (a
/// machine that does not load, an internal failure) is printed and ends the
/// process with status 1: a half-lowered module must not reach the backend.
///
/// # Safety
/// `name` and `isa` are NUL-terminated strings (or null); `module` is a live
/// module that LLVM owns for the duration of the call.
#[no_mangle]
pub unsafe extern "C" fn dsp_run_pass(
    name: *const c_char,
    module: LLVMModuleRef,
    isa: *const c_char,
) -> bool {
    let (name, isa) = (text(name), text(isa));
    guarded(&name, || crate::run_named(&name, module, &isa))
}

/// A C string's text (empty for null).
///
/// # Safety
/// `p` is null or NUL-terminated.
unsafe fn text(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// `run`'s result; an error or a panic is printed and ends the process
/// with status 1 (a half-lowered module must not reach the backend).
fn guarded(name: &str, run: impl FnOnce() -> Result<bool, String> + std::panic::UnwindSafe) -> bool {
    match std::panic::catch_unwind(run) {
        Ok(Ok(changed)) => changed,
        Ok(Err(msg)) => {
            eprintln!("dsp-opt-passes: error: {name}: {msg}");
            std::process::exit(1);
        }
        Err(_) => {
            eprintln!("dsp-opt-passes: error: {name}: internal error (see the message above)");
            std::process::exit(1);
        }
    }
}

/// Runs pass `name` on the one function `function` (the shim's function
/// passes at the vectorizer-start point: only `dsp-egg-isel` has a
/// function form). Errors as [`dsp_run_pass`].
///
/// # Safety
/// As [`dsp_run_pass`]; `function` is a live function that LLVM owns.
#[no_mangle]
pub unsafe extern "C" fn dsp_run_function_pass(
    name: *const c_char,
    function: inkwell::llvm_sys::prelude::LLVMValueRef,
    isa: *const c_char,
) -> bool {
    let (name, isa) = (text(name), text(isa));
    guarded(&name, || crate::run_named_on_function(&name, function, &isa))
}

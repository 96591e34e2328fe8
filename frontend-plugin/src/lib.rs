//! dsp-frontend-plugin: the clang-19 plugin for the function-level
//! vectorization directives of seed 001 §3 (`#pragma simd vec-function`,
//! `#pragma simd declare vec-function …`, and OpenMP's `declare simd` /
//! `simd` read from clang's own attributes). The C++ shim
//! (`shim/plugin.cpp`) registers the pragma handler, collects tokens, finds
//! the loop or function each directive precedes, reports diagnostics and
//! attaches the result to the IR; everything about the clauses is here:
//! [`parse`] (syntax, constant steps), [`resolve`] (names to parameter
//! indices, the checks, the attribute text), [`ffi`] (the C ABI). The IR
//! contract itself is the `dsp-vec-contract` crate (see README.md).

pub mod ffi;
pub mod parse;
pub mod resolve;

extern "C" {
    /// In shim/plugin.cpp: referenced so that the linker keeps the shim's
    /// object (and its static plugin registrations) in the shared object.
    fn dsp_fp_shim_anchor() -> u32;
}

/// The shim's plugin API version (keeps the shim linked in).
pub fn shim_version() -> u32 {
    // SAFETY: a C function without arguments or state.
    unsafe { dsp_fp_shim_anchor() }
}

#[used]
static SHIM_ANCHOR: unsafe extern "C" fn() -> u32 = dsp_fp_shim_anchor;

//! The C ABI the C++ shim (`shim/plugin.cpp`) calls (seed 001 §3): tokens of
//! a directive in, an opaque [`Outcome`] out — a diagnostic at a token, a
//! loop directive, parsed clauses, clauses resolved against a function's
//! parameters, or the attribute text for the LLVM function. The shim owns
//! each outcome until it passes it to [`dsp_fp_free`]. No call unwinds into
//! C++: a panic becomes a diagnostic.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use dsp_vec_contract::VecFunctionDecl;

use crate::parse::{parse, Clauses, Diag, Dialect, Parsed, TokKind, Token};
use crate::resolve::{render, resolve, Param, ParamKind};

/// A token as the shim passes it: `kind` 0 identifier/keyword, 1 number,
/// 2 punctuation, 3 other; `text` its spelling (not NUL-terminated).
#[repr(C)]
pub struct RawToken {
    pub kind: u32,
    pub text: *const c_char,
    pub len: usize,
}

/// A parameter: `kind` 0 integer, 1 pointer (to `pointee_size` bytes), 2 floating, 3 other.
#[repr(C)]
pub struct RawParam {
    pub name: *const c_char,
    pub len: usize,
    pub kind: u32,
    pub pointee_size: u64,
}

/// What a call produced.
pub enum Outcome {
    /// An error at token `Diag::token` (`usize::MAX`: at the declaration).
    Diag(Diag),
    Loop,
    Declare(Clauses),
    Resolved(VecFunctionDecl),
    Text(String),
}

/// [`dsp_fp_kind`]'s answers.
pub const KIND_DIAG: u32 = 0;
pub const KIND_LOOP: u32 = 1;
pub const KIND_DECLARE: u32 = 2;
pub const KIND_RESOLVED: u32 = 3;
pub const KIND_TEXT: u32 = 4;

/// # Safety
/// `p` points to `len` bytes (or `len` is 0).
unsafe fn text<'a>(p: *const c_char, len: usize) -> std::borrow::Cow<'a, str> {
    if p.is_null() || len == 0 {
        return "".into();
    }
    String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len))
}

fn boxed(f: impl FnOnce() -> Outcome) -> *mut Outcome {
    let o = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Outcome::Diag(Diag { token: usize::MAX, message: "internal error in the directive parser".into() })
    });
    Box::into_raw(Box::new(o))
}

/// Parses a directive: `dialect` 0 = the tokens after `#pragma simd`, 1 =
/// an OpenMP `declare simd` clause list.
///
/// # Safety
/// `toks` points to `n` tokens whose texts are valid for the call.
#[no_mangle]
pub unsafe extern "C" fn dsp_fp_parse(dialect: u32, toks: *const RawToken, n: usize) -> *mut Outcome {
    let raw: &[RawToken] = if toks.is_null() { &[] } else { std::slice::from_raw_parts(toks, n) };
    let toks: Vec<Token> = raw
        .iter()
        .map(|t| {
            let kind = match t.kind {
                0 => TokKind::Ident,
                1 => TokKind::Number,
                2 => TokKind::Punct,
                _ => TokKind::Other,
            };
            Token { kind, text: text(t.text, t.len).into_owned() }
        })
        .collect();
    let dialect = if dialect == 1 { Dialect::Omp } else { Dialect::Simd };
    boxed(|| match parse(dialect, &toks) {
        Ok(Parsed::Loop) => Outcome::Loop,
        Ok(Parsed::Declare(c)) => Outcome::Declare(c),
        Err(d) => Outcome::Diag(d),
    })
}

/// Resolves a [`KIND_DECLARE`] outcome against `function(params)`.
///
/// # Safety
/// `o` is a live outcome; the strings and `params` (`n` of them) are valid for the call.
#[no_mangle]
pub unsafe extern "C" fn dsp_fp_resolve(
    o: *const Outcome,
    function: *const c_char,
    function_len: usize,
    params: *const RawParam,
    n: usize,
) -> *mut Outcome {
    let raw: &[RawParam] = if params.is_null() { &[] } else { std::slice::from_raw_parts(params, n) };
    let params: Vec<Param> = raw
        .iter()
        .map(|p| Param {
            name: text(p.name, p.len).into_owned(),
            kind: match p.kind {
                0 => ParamKind::Integer,
                1 => ParamKind::Pointer { pointee_size: p.pointee_size.max(1) },
                2 => ParamKind::Float,
                _ => ParamKind::Other,
            },
        })
        .collect();
    let function = text(function, function_len).into_owned();
    let o = o.as_ref();
    boxed(|| match o {
        Some(Outcome::Declare(c)) => match resolve(c, &function, &params) {
            Ok(d) => Outcome::Resolved(d),
            Err(d) => Outcome::Diag(d),
        },
        _ => Outcome::Diag(Diag { token: usize::MAX, message: "internal error: resolving a non-declaration".into() }),
    })
}

/// The attribute text for `n` [`KIND_RESOLVED`] outcomes of one function
/// whose LLVM function has `ir_args` arguments, the parameters starting at `offset`.
///
/// # Safety
/// `os` points to `n` live outcomes.
#[no_mangle]
pub unsafe extern "C" fn dsp_fp_render(os: *const *const Outcome, n: usize, offset: u32, ir_args: u32) -> *mut Outcome {
    let raw: &[*const Outcome] = if os.is_null() { &[] } else { std::slice::from_raw_parts(os, n) };
    let decls: Option<Vec<VecFunctionDecl>> = raw
        .iter()
        .map(|&o| match o.as_ref() {
            Some(Outcome::Resolved(d)) => Some(d.clone()),
            _ => None,
        })
        .collect();
    boxed(|| {
        let r = decls.ok_or_else(|| "internal error: rendering an unresolved directive".to_string());
        match r.and_then(|d| render(&d, offset, ir_args)) {
            Ok(t) => Outcome::Text(t),
            Err(m) => Outcome::Diag(Diag { token: usize::MAX, message: m }),
        }
    })
}

/// Which outcome `o` is (`KIND_*`).
///
/// # Safety
/// `o` is a live outcome.
#[no_mangle]
pub unsafe extern "C" fn dsp_fp_kind(o: *const Outcome) -> u32 {
    match o.as_ref() {
        None | Some(Outcome::Diag(_)) => KIND_DIAG,
        Some(Outcome::Loop) => KIND_LOOP,
        Some(Outcome::Declare(_)) => KIND_DECLARE,
        Some(Outcome::Resolved(_)) => KIND_RESOLVED,
        Some(Outcome::Text(_)) => KIND_TEXT,
    }
}

/// A diagnostic's token index and message, or a text outcome's text (token
/// `usize::MAX`); false for other outcomes. The string lives as long as `o`.
///
/// # Safety
/// `o` is a live outcome; the out-pointers are writable.
#[no_mangle]
pub unsafe extern "C" fn dsp_fp_message(o: *const Outcome, token: *mut usize, msg: *mut *const c_char, len: *mut usize) -> bool {
    let (t, s) = match o.as_ref() {
        Some(Outcome::Diag(d)) => (d.token, d.message.as_str()),
        Some(Outcome::Text(s)) => (usize::MAX, s.as_str()),
        _ => return false,
    };
    *token = t;
    *msg = s.as_ptr().cast();
    *len = s.len();
    true
}

/// Frees an outcome.
///
/// # Safety
/// `o` came from this module and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn dsp_fp_free(o: *mut Outcome) {
    if !o.is_null() {
        drop(Box::from_raw(o));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(kind: u32, s: &'static str) -> RawToken {
        RawToken { kind, text: s.as_ptr().cast(), len: s.len() }
    }

    #[test]
    fn through_the_c_abi() {
        let toks = [
            tok(0, "declare"), tok(0, "vec"), tok(2, "-"), tok(0, "function"),
            tok(0, "uniform"), tok(2, "("), tok(0, "n"), tok(2, ")"),
        ];
        unsafe {
            let p = dsp_fp_parse(0, toks.as_ptr(), toks.len());
            assert_eq!(dsp_fp_kind(p), KIND_DECLARE);
            let params = [RawParam { name: "x".as_ptr().cast(), len: 1, kind: 2, pointee_size: 0 }];
            let bad = dsp_fp_resolve(p, "f".as_ptr().cast(), 1, params.as_ptr(), 1);
            assert_eq!(dsp_fp_kind(bad), KIND_DIAG);
            let (mut t, mut m, mut l) = (0usize, std::ptr::null(), 0usize);
            assert!(dsp_fp_message(bad, &mut t, &mut m, &mut l));
            assert_eq!(t, 6);
            assert_eq!(text(m, l), "'n' is not a parameter of 'f'");
            let params = [
                RawParam { name: "x".as_ptr().cast(), len: 1, kind: 2, pointee_size: 0 },
                RawParam { name: "n".as_ptr().cast(), len: 1, kind: 0, pointee_size: 0 },
            ];
            let good = dsp_fp_resolve(p, "f".as_ptr().cast(), 1, params.as_ptr(), 2);
            assert_eq!(dsp_fp_kind(good), KIND_RESOLVED);
            let list = [good as *const Outcome];
            let r = dsp_fp_render(list.as_ptr(), 1, 0, 2);
            assert_eq!(dsp_fp_kind(r), KIND_TEXT);
            assert!(dsp_fp_message(r, &mut t, &mut m, &mut l));
            assert_eq!(text(m, l), "args(2) uniform(1)");
            for o in [p, bad, good, r] {
                dsp_fp_free(o);
            }
        }
    }
}

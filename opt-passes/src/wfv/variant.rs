//! Vector variants of `vec-function` functions (seed 001 §2.1, §3.2–3.5):
//! their names, signatures and bodies.
//!
//! Names follow the vector-function ABI's mangling:
//! `_ZGV` `x` (our ISA letter) `M`|`N` (masked or not) LANES, one token per
//! parameter — `v` vector, `u` uniform, `l`STEP linear (bytes for
//! pointers, as the directive contract gives it), followed by `a`BYTES when
//! aligned — then `_` and the scalar name: `_ZGVxN16vu_mandel`,
//! `_ZGVxM16l4a64v_f`. Vector parameters and results are `<LANES x T>`,
//! uniform and linear ones stay scalar (a linear one is lane 0's value),
//! and a masked variant takes the mask last as `<LANES x i32>` (nonzero:
//! active).

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMLinkage, LLVMTypeKind};

use super::attrs::{self, Attr};
use super::linearize::{self, Nest};
use super::mask::{self, Cx, Mask};
use super::widen::{Callee, Emitter, Region, VVal, R};
use crate::cfg::Cfg;
use crate::ir;
use dsp_vec_contract::{Step, VecFunctionDecl};

/// What generating one variant found (for remarks).
#[derive(Default, Debug, Clone)]
pub struct Stats {
    pub uniform: usize,
    pub consecutive: usize,
    pub varying: usize,
    pub divergent_branches: usize,
    pub by_all: usize,
    pub blend: usize,
    pub loops: usize,
    pub vector_calls: usize,
    pub lane_calls: usize,
    pub gathers: usize,
    pub boscc: usize,
    pub multiversioned: usize,
}

/// Whether a vector of `t` may be a parameter or result of a variant (32-bit lanes).
fn abi_ok(t: LLVMTypeRef) -> bool {
    unsafe {
        match LLVMGetTypeKind(t) {
            LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(t) == 32,
            LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMPointerTypeKind => true,
            _ => false,
        }
    }
}

/// The mangled name of a variant.
pub fn mangle(decl: &VecFunctionDecl, masked: bool, lanes: u32, name: &str) -> String {
    let mut s = format!("_ZGVx{}{lanes}", if masked { 'M' } else { 'N' });
    for k in 0..decl.args {
        if decl.uniform.contains(&k) {
            s.push('u');
        } else if let Some(l) = decl.linear.iter().find(|l| l.arg == k) {
            match l.step {
                Step::Const(1) => s.push('l'),
                Step::Const(c) if c < 0 => s.push_str(&format!("ln{}", -c)),
                Step::Const(c) => s.push_str(&format!("l{c}")),
                Step::Arg(j) => s.push_str(&format!("ls{j}")),
            }
        } else {
            s.push('v');
        }
        if let Some(a) = decl.aligned.iter().find(|a| a.arg == k) {
            s.push_str(&format!("a{}", a.bytes.unwrap_or(0)));
        }
    }
    format!("{s}_{name}")
}

/// Why `f` cannot have a variant for `decl` at `lanes`, if it cannot.
pub fn refuse(f: LLVMValueRef, decl: &VecFunctionDecl, lanes: u32) -> Option<String> {
    unsafe {
        if LLVMCountBasicBlocks(f) == 0 {
            return Some("it is not defined in this translation unit".into());
        }
        let kind = LLVMGetEnumAttributeKindForName(c"optnone".as_ptr(), 7);
        if !LLVMGetEnumAttributeAtIndex(f, inkwell::llvm_sys::LLVMAttributeFunctionIndex, kind).is_null() {
            return Some("it is compiled without optimization (optnone)".into());
        }
    }
    refuse_declaration(f, decl, lanes)
}

/// Why no variant of `f` (declared, perhaps defined elsewhere) can exist for
/// `decl` at `lanes`: the checks of its signature and clauses.
pub fn refuse_declaration(f: LLVMValueRef, decl: &VecFunctionDecl, lanes: u32) -> Option<String> {
    unsafe {
        if LLVMIsFunctionVarArg(LLVMGlobalGetValueType(f)) != 0 {
            return Some("it is variadic".into());
        }
    }
    if let Some(n) = decl.simdlen.filter(|&n| n != lanes) {
        return Some(format!("simdlen({n}) differs from the machine's {lanes} lanes"));
    }
    if decl.linear.iter().any(|l| matches!(l.step, Step::Arg(_))) {
        return Some("a linear step given by a parameter is not supported".into());
    }
    let fty = unsafe { LLVMGlobalGetValueType(f) };
    let ret = unsafe { LLVMGetReturnType(fty) };
    if unsafe { LLVMGetTypeKind(ret) } != LLVMTypeKind::LLVMVoidTypeKind && !abi_ok(ret) {
        return Some("its result is not a 32-bit integer, float or pointer".into());
    }
    for k in 0..decl.args {
        let p = unsafe { LLVMGetParam(f, k) };
        let t = unsafe { LLVMTypeOf(p) };
        let vector = !decl.uniform.contains(&k) && !decl.linear.iter().any(|l| l.arg == k);
        if vector && !abi_ok(t) || !vector && !super::widen::scalar_ok(t) {
            return Some(format!("parameter {} is not a 32-bit integer, float or pointer", k + 1));
        }
    }
    None
}

/// Declares the variant function (no body yet).
pub fn declare(cx: &Cx, f: LLVMValueRef, decl: &VecFunctionDecl, masked: bool, name: &str) -> LLVMValueRef {
    unsafe {
        let fty = LLVMGlobalGetValueType(f);
        let ret = LLVMGetReturnType(fty);
        let vret = if LLVMGetTypeKind(ret) == LLVMTypeKind::LLVMVoidTypeKind { ret } else { cx.vty(ret) };
        let mut params: Vec<LLVMTypeRef> = (0..decl.args)
            .map(|k| {
                let t = LLVMTypeOf(LLVMGetParam(f, k));
                if decl.uniform.contains(&k) || decl.linear.iter().any(|l| l.arg == k) {
                    t
                } else {
                    cx.vty(t)
                }
            })
            .collect();
        if masked {
            params.push(cx.vty(cx.i32()));
        }
        let vty = LLVMFunctionType(vret, params.as_mut_ptr(), params.len() as u32, 0);
        let cname = std::ffi::CString::new(name).unwrap_or_default();
        // A variant of a function defined elsewhere, declared on an earlier try.
        let known = LLVMGetNamedFunction(cx.m, cname.as_ptr());
        if !known.is_null() && LLVMCountBasicBlocks(known) == 0 && LLVMCountBasicBlocks(f) == 0 {
            return known;
        }
        let vf = LLVMAddFunction(cx.m, cname.as_ptr(), vty);
        let linkage = LLVMGetLinkage(f);
        if matches!(linkage, LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage) {
            LLVMSetLinkage(vf, LLVMLinkage::LLVMInternalLinkage);
        }
        let nounwind = LLVMGetEnumAttributeKindForName(c"nounwind".as_ptr(), 8);
        LLVMAddAttributeAtIndex(vf, inkwell::llvm_sys::LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cx.ctx, nounwind, 0));
        vf
    }
}

/// Builds the body of variant `vf` of `f`.
pub fn generate(cx: &Cx, f: LLVMValueRef, decl: &VecFunctionDecl, masked: bool, vf: LLVMValueRef, variants: &HashMap<LLVMValueRef, Vec<Callee>>) -> R<Stats> {
    let cfg = Cfg::new(f);
    let region: Vec<bool> = (0..cfg.blocks.len()).map(|b| cfg.reachable(b)).collect();
    let nest = Nest::new(&cfg, &region, None)?;
    let mut args = HashMap::new();
    for k in 0..decl.args {
        let p = unsafe { LLVMGetParam(f, k) };
        let a = if decl.uniform.contains(&k) {
            Attr::Uniform
        } else if let Some(l) = decl.linear.iter().find(|l| l.arg == k) {
            match l.step {
                Step::Const(s) => Attr::Linear(s),
                Step::Arg(_) => Attr::Varying,
            }
        } else {
            Attr::Varying
        };
        args.insert(p, a);
    }
    let at = attrs::analyse(cx.m, &cfg, &nest, &region, 0, &args, &[], cx.level);
    let order = linearize::order(&cfg, &nest, &region, 0, &[]);
    let r = Region { cfg: &cfg, nest: &nest, attrs: &at, blocks: region.clone(), entry: 0, exits: Vec::new() };
    let mut e = Emitter::new(cx, vf, &r, variants, false);
    for k in 0..decl.args {
        let p = unsafe { LLVMGetParam(f, k) };
        let np = unsafe { LLVMGetParam(vf, k) };
        let v = match args[&p] {
            Attr::Uniform => VVal::Uni(np),
            Attr::Linear(s) => VVal::Lin { base: np, stride: s },
            Attr::Varying => VVal::Vec(np),
        };
        e.map.insert(p, v);
    }
    for a in &decl.aligned {
        let bytes = a.bytes.unwrap_or(cx.lanes * 4);
        e.aligned.push((unsafe { LLVMGetParam(vf, a.arg) }, bytes));
    }
    let entry = e.new_block("entry");
    e.at_end(entry);
    let m = if masked { mask::from_arg(cx, e.b, unsafe { LLVMGetParam(vf, decl.args) }) } else { Mask::All };
    let void = unsafe { LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(f))) } == LLVMTypeKind::LLVMVoidTypeKind;
    if at.divergent() {
        e.emit_linear(&order, m, entry)?;
        e.finish_returns(void);
    } else {
        e.emit_cfg(&order, m, entry)?;
    }
    let mut st = Stats { vector_calls: e.vector_calls, lane_calls: e.lane_calls, gathers: e.gathers, boscc: e.boscc, multiversioned: e.multiversioned, loops: nest.loops.len(), ..Default::default() };
    for (&v, &a) in &at.values {
        if unsafe { LLVMIsAInstruction(v).is_null() && LLVMIsAArgument(v).is_null() } || unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) } == LLVMTypeKind::LLVMVoidTypeKind {
            continue;
        }
        match a {
            Attr::Uniform => st.uniform += 1,
            Attr::Linear(_) => st.consecutive += 1,
            Attr::Varying => st.varying += 1,
        }
    }
    st.divergent_branches = at.div_causing.iter().filter(|&&d| d).count();
    st.by_all = at.by_all.iter().filter(|&&d| d).count();
    st.blend = at.blend.iter().filter(|&&d| d).count();
    let _ = ir::value_name(f);
    Ok(st)
}

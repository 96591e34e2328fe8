//! Automatic candidates for function-level vectorization
//! (`-fvec-function=auto`, the seed's future work): without directives, an
//! innermost loop that calls functions defined in the module becomes a
//! `vec-function` loop, and each callee gets a variant, when running the
//! loop's iterations side by side is provably the same as running them in
//! order: the loop's own accesses pass [`super::outer::independent`] (each
//! written object touched only at the counter's own slot), and the callees
//! write no memory (and cannot read what the loop writes: it stores only
//! through `restrict` pointers or to its own stack).
//!
//! A variant's clauses come from the call: an argument invariant in the
//! loop is `uniform`, the counter itself `linear`, anything else a vector;
//! a call that not every iteration makes needs the masked variant. The cost
//! model is in [`super::run`]: a found variant that would call anything
//! lane by lane is dropped.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use super::directives::{Directives, LoopOrigin, VecFunction, VecLoop};
use super::{Remark, RemarkKind};
use crate::cfg::Cfg;
use crate::ir;
use dsp_vec_contract::{Linear, MaskMode, Step, VecFunctionDecl};

/// Loops and functions found, and why others were not.
#[derive(Default)]
pub struct Found {
    pub functions: Vec<VecFunction>,
    pub loops: Vec<VecLoop>,
    pub remarks: Vec<Remark>,
}

/// Finds the candidates of `m` that directives `d` do not already name.
pub fn find(m: LLVMModuleRef, d: &Directives) -> Found {
    let mut found = Found::default();
    for f in ir::defined_functions(m) {
        if ir::value_name(f).starts_with("_ZGV") {
            continue;
        }
        let cfg = Cfg::new(f);
        let loops = cfg.loops();
        for l in &loops {
            if l.latches.len() != 1 || loops.iter().any(|q| q.header != l.header && l.contains(q.header)) {
                continue;
            }
            let latch_term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[l.latches[0]]) };
            if d.loops.iter().any(|x| x.latches.contains(&latch_term)) {
                continue;
            }
            let calls: Vec<(usize, LLVMValueRef, LLVMValueRef)> = (0..cfg.blocks.len())
                .filter(|&b| l.contains(b))
                .flat_map(|b| ir::instructions(cfg.blocks[b]).into_iter().map(move |i| (b, i)))
                .filter(|&(_, i)| ir::opcode(i) == O::LLVMCall)
                .filter_map(|(b, i)| {
                    let g = unsafe { LLVMGetCalledValue(i) };
                    let defined = unsafe { !LLVMIsAFunction(g).is_null() && LLVMCountBasicBlocks(g) > 0 };
                    (defined && g != f && ir::called_intrinsic(i).is_none()).then_some((b, i, g))
                })
                .collect();
            if calls.is_empty() {
                continue;
            }
            let missed = |why: String| Remark { kind: RemarkKind::Missed, at: latch_term, name: "NoCandidate", msg: format!("loop not vectorized automatically: {why}") };
            if let Some(&(_, i, g)) = calls.iter().find(|&&(_, i, _)| !super::attrs::is_pure_call(i) && !super::outer::only_reads(i)) {
                let _ = i;
                found.remarks.push(missed(format!("it calls '{}', which may write memory", ir::value_name(g))));
                continue;
            }
            if let Err(why) = super::outer::independent(m, f, cfg.blocks[l.header], true) {
                found.remarks.push(missed(why));
                continue;
            }
            let iv = ir::instructions(cfg.blocks[l.header])[0];
            let inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() } && cfg.index.get(&unsafe { LLVMGetInstructionParent(v) }).is_some_and(|&b| l.contains(b));
            let latch = l.latches[0];
            for &(b, call, g) in &calls {
                let nargs = unsafe { LLVMCountParams(g) };
                let mut decl = VecFunctionDecl { args: nargs, uniform: vec![], linear: vec![], aligned: vec![], mask: MaskMode::Unmasked, simdlen: None };
                for k in 0..nargs {
                    let a = unsafe { LLVMGetOperand(call, k) };
                    if a == iv {
                        decl.linear.push(Linear { arg: k, step: Step::Const(1) });
                    } else if !inside(a) {
                        decl.uniform.push(k);
                    }
                }
                if !cfg.dominates(b, latch) {
                    decl.mask = MaskMode::Masked;
                }
                let name = ir::value_name(g);
                match found.functions.iter_mut().find(|v| v.function == g) {
                    Some(v) if v.variants.contains(&decl) => {}
                    Some(v) => v.variants.push(decl),
                    None => found.functions.push(VecFunction { function: g, name, variants: vec![decl] }),
                }
            }
            found.loops.push(VecLoop { function: f, latches: vec![latch_term], origin: LoopOrigin::Simd, vectorized: false, auto: true });
        }
    }
    found
}

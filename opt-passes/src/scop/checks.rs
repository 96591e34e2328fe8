//! The instruction checks of a SCoP's blocks: no side effects other than
//! its modelled loads and stores (calls only to functions or intrinsics
//! that touch no memory: `memory(none)`, as `llvm.fmuladd` is; debug,
//! lifetime and assume intrinsics are ignored), no volatile or atomic
//! accesses, and phis and values used outside their block only when they
//! are affine (recomputed) or data (modelled as scalars by
//! [`super::scalars`]): a loaded pointer or a pointer phi is rejected.

use std::collections::HashSet;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMAtomicOrdering;
use inkwell::llvm_sys::LLVMOpcode as O;
use inkwell::llvm_sys::LLVMTypeKind as K;

use super::affine::Ctx;
use super::scalars::is_data;
use super::print::value_ref;
use super::structure::Shape;
use super::{Reject, RejectKind};
use crate::ir;

/// Whether a call touches no memory (its callee or the call is `memory(none)`,
/// or it is an intrinsic without effect on the model).
fn pure_call(call: LLVMValueRef) -> bool {
    if let Some(name) = ir::called_intrinsic(call) {
        let ignored = ["llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias.scope.decl"];
        if ignored.iter().any(|p| name.starts_with(p)) {
            return true;
        }
    }
    unsafe {
        let kind = LLVMGetEnumAttributeKindForName(c"memory".as_ptr(), 6);
        let fn_index = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        let none = |a: LLVMAttributeRef| !a.is_null() && LLVMGetEnumAttributeValue(a) == 0;
        if none(LLVMGetCallSiteEnumAttribute(call, fn_index, kind)) {
            return true;
        }
        let callee = LLVMGetCalledValue(call);
        !callee.is_null() && !LLVMIsAFunction(callee).is_null() && none(LLVMGetEnumAttributeAtIndex(callee, fn_index, kind))
    }
}

/// The callee's name for messages.
fn callee_name(call: LLVMValueRef) -> String {
    let callee = unsafe { LLVMGetCalledValue(call) };
    if callee.is_null() || unsafe { LLVMIsAFunction(callee).is_null() } {
        "an indirect callee".to_string()
    } else {
        format!("@{}", ir::value_name(callee))
    }
}

fn type_kind(v: LLVMValueRef) -> K {
    unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) }
}

/// Checks the instructions of block `blk`; `headers` are the headers of
/// the region's loops.
pub fn block(shape: &Shape, ctx: &Ctx, blk: usize, headers: &HashSet<usize>) -> Result<(), Reject> {
    let bb = shape.cfg.blocks[blk];
    for i in ir::instructions(bb) {
        let name = || value_ref(i);
        match ir::opcode(i) {
            O::LLVMPHI => {
                // Induction variables, secondary ones, copies of affine
                // values, and data phis (modelled as scalars).
                // A header whose loop is not in the region (its induction
                // variable is not one of ours): its phis are not scalars of
                // the region, they are carried by a loop around it.
                let foreign_header = shape.loops.contains_key(&blk) && !headers.contains(&blk);
                let ok = ctx.eval(i).is_ok() || (is_data(ctx, i) && !foreign_header);
                if !ok {
                    let what = if shape.loops.contains_key(&blk) { "carried by a loop outside the region" } else { "merges values from several paths or out of a loop" };
                    return Err(Reject::new(RejectKind::ScalarDependence, i, format!("phi {} {what} and is not data (a pointer or a non-affine index)", name())));
                }
                continue;
            }
            O::LLVMCall if !pure_call(i) => {
                return Err(Reject::new(RejectKind::ImpureCall, i, format!("call to {} may have side effects", callee_name(i))));
            }
            O::LLVMLoad | O::LLVMStore => unsafe {
                if LLVMGetVolatile(i) != 0 || LLVMGetOrdering(i) != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                    return Err(Reject::new(RejectKind::VolatileOrAtomic, i, format!("volatile or atomic access {}", name())));
                }
            },
            O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence => {
                return Err(Reject::new(RejectKind::VolatileOrAtomic, i, format!("atomic operation {}", name())));
            }
            O::LLVMAlloca | O::LLVMInvoke | O::LLVMVAArg | O::LLVMCallBr | O::LLVMLandingPad | O::LLVMIndirectBr | O::LLVMSwitch | O::LLVMUnreachable => {
                return Err(Reject::new(RejectKind::Unsupported, i, format!("instruction {} ({:?})", name(), ir::opcode(i))));
            }
            _ => {}
        }
        // Data values must not leave their block.
        let escapes = ir::users(i).into_iter().any(|u| unsafe { LLVMGetInstructionParent(u) } != bb);
        if !escapes {
            continue;
        }
        // Data values are modelled as scalars; addresses are recomputed.
        let ok = match type_kind(i) {
            K::LLVMPointerTypeKind => ir::opcode(i) != O::LLVMLoad,
            K::LLVMVoidTypeKind => true,
            _ => is_data(ctx, i) || ir::opcode(i) == O::LLVMICmp || ctx.eval(i).is_ok() || super::bounds::eval_bound(ctx, i).is_ok(),
        };
        if !ok {
            return Err(Reject::new(RejectKind::ScalarDependence, i, format!("value {} is used outside its block and is not data (a loaded pointer?)", name())));
        }
    }
    Ok(())
}

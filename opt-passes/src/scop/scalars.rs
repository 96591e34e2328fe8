//! Scalars as zero-dimensional arrays (Polly's scalar accesses), so that a
//! data value flowing from one statement (block) to another is a
//! dependence the polyhedral model sees:
//!
//! - a **phi** that is not affine (a reduction `s = phi [0, pre], [s + x,
//!   latch]`, a value merged after an `if`, a value leaving a loop through
//!   LCSSA) is the array `%s.phi`: its block's statement reads it first,
//!   each predecessor in the region writes it last (the incoming value);
//!   an incoming value from outside the region is a live-in, no write;
//! - a **value** (integer that is not affine, float, vector) defined in one
//!   block and used in another block of the region, or after the region
//!   (by anything there, a phi too: a live-out), is the array `%v`: its
//!   block writes it, each other block using it reads it (a phi of the
//!   region uses its incoming value in the incoming block).
//!
//! Pointers are not modelled (a loaded pointer used elsewhere is rejected
//! by [`super::checks`]); compares feed branches, which are conditions.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;
use inkwell::llvm_sys::LLVMTypeKind as K;

use super::affine::Ctx;
use super::structure::Shape;
use super::AccessKind;
use crate::ir;

/// A scalar access: of which value, as phi or value array, where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalarAccess {
    pub kind: AccessKind,
    /// The phi (for a phi array) or the value.
    pub value: LLVMValueRef,
    pub is_phi: bool,
    /// Debug: the instruction that makes the access (the phi, the
    /// definition, the user, or the predecessor's terminator).
    pub inst: LLVMValueRef,
}

/// Whether `v` is a data value to model (not an affine integer, a pointer or a compare).
pub fn is_data(ctx: &Ctx, v: LLVMValueRef) -> bool {
    match unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) } {
        K::LLVMIntegerTypeKind => ir::opcode_of(v) != Some(O::LLVMICmp) && ctx.eval(v).is_err(),
        K::LLVMFloatTypeKind | K::LLVMDoubleTypeKind | K::LLVMHalfTypeKind | K::LLVMBFloatTypeKind | K::LLVMVectorTypeKind => true,
        _ => false,
    }
}

fn block_of(shape: &Shape, i: LLVMValueRef) -> Option<usize> {
    shape.cfg.index.get(&unsafe { LLVMGetInstructionParent(i) }).copied()
}

/// The scalar accesses of each block of the region (`inside`), by block:
/// phi reads, then value reads, then value writes, then phi writes, each
/// in instruction order.
pub fn accesses(shape: &Shape, ctx: &Ctx, inside: &[bool]) -> Vec<Vec<ScalarAccess>> {
    let n = shape.cfg.blocks.len();
    let (mut phi_reads, mut reads, mut writes, mut phi_writes) = (vec![Vec::new(); n], vec![Vec::new(); n], vec![Vec::new(); n], vec![Vec::new(); n]);
    for b in (0..n).filter(|&b| inside[b]) {
        for v in ir::instructions(shape.cfg.blocks[b]) {
            if !is_data(ctx, v) {
                continue;
            }
            let acc = |kind, value, is_phi, inst| ScalarAccess { kind, value, is_phi, inst };
            if ir::opcode(v) == O::LLVMPHI {
                phi_reads[b].push(acc(AccessKind::Read, v, true, v));
                for k in 0..unsafe { LLVMCountIncoming(v) } {
                    let pred = unsafe { LLVMGetIncomingBlock(v, k) };
                    if let Some(&p) = shape.cfg.index.get(&pred) {
                        let w = acc(AccessKind::Write, v, true, unsafe { LLVMGetBasicBlockTerminator(pred) });
                        if inside[p] && !phi_writes[p].contains(&w) {
                            phi_writes[p].push(w);
                        }
                    }
                }
            }
            // Where `v` is used: a phi uses it in the incoming block.
            let mut used_in = Vec::new();
            for u in ir::users(v) {
                if !block_of(shape, u).is_some_and(|x| inside[x]) {
                    used_in.push((None, u)); // after the region: a live-out
                } else if ir::opcode_of(u) == Some(O::LLVMPHI) {
                    for k in 0..unsafe { LLVMCountIncoming(u) } {
                        if unsafe { LLVMGetIncomingValue(u, k) } == v {
                            used_in.push((shape.cfg.index.get(&unsafe { LLVMGetIncomingBlock(u, k) }).copied(), u));
                        }
                    }
                } else {
                    used_in.push((block_of(shape, u), u));
                }
            }
            let mut escapes = false;
            for (ub, u) in used_in {
                match ub {
                    Some(ub) if ub == b => {}
                    Some(ub) if inside[ub] => {
                        escapes = true;
                        let r = acc(AccessKind::Read, v, false, u);
                        if !reads[ub].iter().any(|x: &ScalarAccess| x.value == v) {
                            reads[ub].push(r);
                        }
                    }
                    _ => escapes = true,
                }
            }
            if escapes {
                writes[b].push(acc(AccessKind::Write, v, false, v));
            }
        }
    }
    (0..n)
        .map(|b| {
            let mut all = std::mem::take(&mut phi_reads[b]);
            all.append(&mut reads[b]);
            all.append(&mut writes[b]);
            all.append(&mut phi_writes[b]);
            all
        })
        .collect()
}

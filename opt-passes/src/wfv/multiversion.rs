//! Instance multiversioning (seed 001 §2.2.2): a linearized block that is
//! often entered by a single active instance gets a scalar version beside
//! its vector one. Behind the block's branch on superword condition
//! (§2.2.1), a second test asks whether exactly one lane of its mask is
//! active; if so, that lane's index is found (the mask's lowest set bit),
//! the values the block reads are extracted at that lane, the block's
//! original scalar instructions run on them (an unmasked scalar store, a
//! plain scalar call instead of a per-lane call sequence or a gather and a
//! masked scatter), and each value it makes is inserted back at that lane
//! of an otherwise unused vector. Other lanes of those vectors are never
//! read: every later use is masked by, or lies in a block whose mask is
//! within, the block's mask. With two or more lanes active the vector
//! version runs as before. Switch: `-f[no-]vec-function-multiversion`
//! (the pass parameter `no-multiversion`).

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate;
use inkwell::llvm_sys::LLVMOpcode as O;
use inkwell::llvm_sys::LLVMTypeKind;

use super::mask::Mask;
use super::widen::{nm, Emitter, VVal, R};
use crate::ir;

/// Whether block `bb` can have a scalar version: every instruction clones
/// as itself (no allocas, no intrinsics that carry metadata operands).
pub fn eligible(bb: LLVMBasicBlockRef) -> bool {
    ir::instructions(bb).into_iter().all(|i| {
        let op = ir::opcode(i);
        op != O::LLVMAlloca
            && !(op == O::LLVMCall && ir::called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.dbg.") || n.starts_with("llvm.lifetime.")))
    })
}

impl Emitter<'_> {
    /// Emits block `b` under mask `m` (some lane active) as a branch
    /// between its scalar version (exactly one lane active) and its vector
    /// version, joined; the map then holds the joined values.
    pub fn body_multiversioned(&mut self, b: usize, m: Mask) -> R<()> {
        let cx = self.cx;
        let Mask::V(mv) = m else { return self.body(b, m) };
        let bits_ty = unsafe { LLVMIntTypeInContext(cx.ctx, cx.lanes) };
        let bits = unsafe { LLVMBuildBitCast(self.b, mv, bits_ty, nm()) };
        // One lane: bits & (bits - 1) == 0 (bits is not zero here).
        let one = unsafe {
            let less = LLVMBuildSub(self.b, bits, LLVMConstInt(bits_ty, 1, 0), nm());
            let low = LLVMBuildAnd(self.b, bits, less, nm());
            LLVMBuildICmp(self.b, LLVMIntPredicate::LLVMIntEQ, low, LLVMConstNull(bits_ty), nm())
        };
        let scalar = self.new_block("wfv.mv.scalar");
        let vector = self.new_block("wfv.mv.vector");
        unsafe { LLVMBuildCondBr(self.b, one, scalar, vector) };
        // The scalar version.
        self.at_end(scalar);
        let tz = super::widen::intrinsic(cx, self.b, "llvm.cttz", &[bits_ty], &[bits, unsafe { LLVMConstInt(cx.i1(), 1, 0) }]);
        let idx = unsafe { LLVMBuildZExtOrBitCast(self.b, tz, cx.i32(), nm()) };
        let mut local: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        let block = self.r.cfg.blocks[b];
        for i in ir::instructions(block) {
            if ir::opcode(i) == O::LLVMPHI || unsafe { !LLVMIsATerminatorInst(i).is_null() } {
                continue;
            }
            let n = unsafe { LLVMGetNumOperands(i) } as u32;
            let mut ops = Vec::with_capacity(n as usize);
            for k in 0..n {
                let v = unsafe { LLVMGetOperand(i, k) };
                ops.push(self.scalar_operand(v, b, idx, &local)?);
            }
            let c = self.clone_scalar(i, &ops);
            local.insert(i, c);
        }
        let scalar_end = self.cur();
        // The vector version, and each value the block made in the form the
        // vector path has it (materialized before its branch).
        self.at_end(vector);
        self.body(b, m)?;
        let mut made: Vec<(LLVMValueRef, LLVMValueRef, bool)> = Vec::new();
        for i in ir::instructions(block) {
            let (Some(&v), Some(_)) = (self.map.get(&i), local.get(&i)) else { continue };
            let t = unsafe { LLVMTypeOf(i) };
            if unsafe { LLVMGetTypeKind(t) } == LLVMTypeKind::LLVMVoidTypeKind {
                continue;
            }
            match v {
                VVal::Uni(u) => made.push((i, u, true)),
                other => {
                    let x = self.vector(other, t);
                    made.push((i, x, false));
                }
            }
        }
        let vector_end = self.cur();
        let join = self.new_block("wfv.mv.join");
        self.br(join);
        // The scalar path's values: uniform ones as they are, the others
        // inserted at the active lane.
        self.at_end(scalar_end);
        let mut scalar_side = Vec::with_capacity(made.len());
        for &(i, _, uni) in &made {
            let s = local[&i];
            scalar_side.push(if uni {
                s
            } else {
                unsafe { LLVMBuildInsertElement(self.b, LLVMGetPoison(cx.vty(LLVMTypeOf(i))), s, idx, nm()) }
            });
        }
        let scalar_last = self.cur();
        self.br(join);
        self.at_end(join);
        for (&(i, vs, uni), &ss) in made.iter().zip(&scalar_side) {
            let phi = unsafe {
                let p = LLVMBuildPhi(self.b, LLVMTypeOf(vs), nm());
                let mut vals = [vs, ss];
                let mut bbs = [vector_end, scalar_last];
                LLVMAddIncoming(p, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2);
                p
            };
            self.map.insert(i, if uni { VVal::Uni(phi) } else { VVal::Vec(phi) });
        }
        self.multiversioned += 1;
        Ok(())
    }

    /// The scalar that lane `idx` of `v` holds in block `b`.
    fn scalar_operand(&mut self, v: LLVMValueRef, b: usize, idx: LLVMValueRef, local: &HashMap<LLVMValueRef, LLVMValueRef>) -> R<LLVMValueRef> {
        if let Some(&s) = local.get(&v) {
            return Ok(s);
        }
        let is_value = unsafe { LLVMIsAInstruction(v).is_null() && LLVMIsAArgument(v).is_null() };
        if is_value && !self.map.contains_key(&v) {
            // Constants, globals, functions, metadata: themselves.
            return Ok(v);
        }
        let x = self.operand(v, b)?;
        let t = unsafe { LLVMTypeOf(v) };
        Ok(match x {
            VVal::Uni(s) => s,
            VVal::Vec(vec) => unsafe { LLVMBuildExtractElement(self.b, vec, idx, nm()) },
            VVal::Lin { .. } => {
                let vec = self.vector(x, t);
                unsafe { LLVMBuildExtractElement(self.b, vec, idx, nm()) }
            }
        })
    }
}


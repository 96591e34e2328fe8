//! Memory accesses of vectorized code (seed 001 §2.1.4): a consecutive
//! address (`Lin` with the element's size as step) of a 32-bit element
//! becomes one vector load or store (an unmasked load of narrower integers
//! too: the machine's narrow loads extend them into 32-bit lanes), `llvm.masked.load/store` under a mask
//! (the guarded store: inactive lanes write nothing, isel's `vloadm` /
//! `vstorem`), aligned to the `alignment` clause when the address is the
//! aligned parameter itself; a uniform address a scalar load (branched
//! around when no lane may be active); a byte or half-word load elsewhere a
//! 32-bit gather of the words holding them; anything else a gather or scatter,
//! lane by lane in lane order (so the last active instance's store wins, as
//! when the instances run one after the other), each lane branched around
//! when inactive. Volatile and atomic accesses are refused.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMTypeKind};

use super::mask::{self, Mask};
use super::widen::{intrinsic, nm, Emitter, VVal, R};

/// Whether vectors of `t` are in the machine's vector registers as they are (32-bit lanes).
fn native_elem(t: LLVMTypeRef) -> bool {
    unsafe {
        match LLVMGetTypeKind(t) {
            LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(t) == 32,
            LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMPointerTypeKind => true,
            _ => false,
        }
    }
}

/// The bytes of an 8- or 16-bit integer type.
fn narrow_int(t: LLVMTypeRef) -> Option<u32> {
    unsafe {
        match LLVMGetTypeKind(t) {
            LLVMTypeKind::LLVMIntegerTypeKind => match LLVMGetIntTypeWidth(t) {
                8 => Some(1),
                16 => Some(2),
                _ => None,
            },
            _ => None,
        }
    }
}

fn store_size(e: &Emitter, t: LLVMTypeRef) -> i64 {
    unsafe { inkwell::llvm_sys::target::LLVMStoreSizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(e.cx.m), t) as i64 }
}

fn check(i: LLVMValueRef) -> R<()> {
    unsafe {
        if LLVMGetVolatile(i) != 0 {
            return Err("a volatile access".into());
        }
        if LLVMGetOrdering(i) != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
            return Err("an atomic access".into());
        }
    }
    Ok(())
}

impl Emitter<'_> {
    /// The alignment of a vector access at `base`: the `alignment` clause's when `base` is that parameter.
    fn vector_align(&self, base: LLVMValueRef, scalar_align: u32) -> u32 {
        self.aligned.iter().find(|(p, _)| *p == base).map(|&(_, a)| a.max(scalar_align)).unwrap_or(scalar_align)
    }

    pub fn load(&mut self, i: LLVMValueRef, bi: usize, m: Mask) -> R<()> {
        check(i)?;
        let ty = unsafe { LLVMTypeOf(i) };
        if !super::widen::scalar_ok(ty) {
            return Err("a load of an unsupported type".into());
        }
        let align = unsafe { LLVMGetAlignment(i) };
        let p = self.operand(unsafe { LLVMGetOperand(i, 0) }, bi)?;
        let cx = self.cx;
        let v = match p {
            VVal::Uni(ptr) => {
                let v = if m == Mask::All {
                    self.scalar_load(ty, ptr, align)
                } else {
                    // Branch around it when no lane is active.
                    let any = mask::any(cx, self.b, m);
                    let then = self.new_block("uload");
                    let next = self.new_block("uload.next");
                    let before = self.cur();
                    unsafe { LLVMBuildCondBr(self.b, any, then, next) };
                    self.at_end(then);
                    let l = self.scalar_load(ty, ptr, align);
                    self.br(next);
                    self.at_end(next);
                    unsafe {
                        let phi = LLVMBuildPhi(self.b, ty, nm());
                        let mut vals = [LLVMGetPoison(ty), l];
                        let mut bbs = [before, then];
                        LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2);
                        phi
                    }
                };
                VVal::Uni(v)
            }
            VVal::Lin { base, stride } if stride == store_size(self, ty) && (native_elem(ty) || (narrow_int(ty).is_some() && m == Mask::All)) => {
                let vt = cx.vty(ty);
                let a = self.vector_align(base, align);
                VVal::Vec(match m {
                    Mask::All => unsafe {
                        let l = LLVMBuildLoad2(self.b, vt, base, nm());
                        LLVMSetAlignment(l, a);
                        l
                    },
                    Mask::V(mv) => {
                        let args = [base, unsafe { LLVMConstInt(cx.i32(), a as u64, 0) }, mv, unsafe { LLVMConstNull(vt) }];
                        intrinsic(cx, self.b, "llvm.masked.load", &[vt, unsafe { LLVMTypeOf(base) }], &args)
                    }
                })
            }
            _ if cx.gather && native_elem(ty) && align >= 4 => {
                // The machine's gather: inactive lanes read nothing of theirs.
                self.gathers += 1;
                let pt = unsafe { LLVMTypeOf(LLVMGetOperand(i, 0)) };
                let ptrs = self.vector(p, pt);
                let vt = cx.vty(ty);
                let args = [ptrs, unsafe { LLVMConstInt(cx.i32(), align as u64, 0) }, m.value(cx), unsafe { LLVMGetPoison(vt) }];
                VVal::Vec(intrinsic(cx, self.b, "llvm.masked.gather", &[vt, unsafe { LLVMTypeOf(ptrs) }], &args))
            }
            _ if cx.gather && narrow_int(ty).is_some_and(|bytes| align >= bytes) => {
                // A byte or half-word: the machine's 32-bit gather of the
                // aligned words holding them (an aligned word around a
                // readable element is readable: no memory is protected in
                // smaller units), then each lane's element shifted down and
                // truncated (little-endian): four constant shifts and a
                // select by the address's low bits, as the machine shifts
                // vectors by scalars only.
                self.gathers += 1;
                let pt = unsafe { LLVMTypeOf(LLVMGetOperand(i, 0)) };
                let ptrs = self.vector(p, pt);
                VVal::Vec(self.narrow_gather(ptrs, ty, m))
            }
            _ => {
                self.gathers += 1;
                let pt = unsafe { LLVMTypeOf(LLVMGetOperand(i, 0)) };
                let r = self.per_lane(m, true, Some(ty), &mut |e, k| {
                    let q = e.lane(p, pt, k);
                    Ok(Some(e.scalar_load(ty, q, align)))
                })?;
                VVal::Vec(r.ok_or("internal: gather without result")?)
            }
        };
        self.map.insert(i, v);
        Ok(())
    }

    /// Lanes of `ptrs` (`<lanes x ptr>`) loaded as `ty` (i8 or i16) through
    /// 32-bit gathers of their aligned words.
    fn narrow_gather(&mut self, ptrs: LLVMValueRef, ty: LLVMTypeRef, m: Mask) -> LLVMValueRef {
        let cx = self.cx;
        unsafe {
            let i32v = cx.vty(cx.i32());
            let k = |v: u64| cx.splat_const(LLVMConstInt(cx.i32(), v, 0));
            let addr = LLVMBuildPtrToInt(self.b, ptrs, i32v, nm());
            let word = LLVMBuildAnd(self.b, addr, k(!3u32 as u64), nm());
            let wptrs = LLVMBuildIntToPtr(self.b, word, LLVMTypeOf(ptrs), nm());
            let args = [wptrs, LLVMConstInt(cx.i32(), 4, 0), m.value(cx), LLVMGetPoison(i32v)];
            let words = intrinsic(cx, self.b, "llvm.masked.gather", &[i32v, LLVMTypeOf(wptrs)], &args);
            let low = LLVMBuildAnd(self.b, addr, k(3), nm());
            let mut v = words;
            for byte in 1..4u64 {
                let shifted = LLVMBuildLShr(self.b, words, k(8 * byte), nm());
                let at = LLVMBuildICmp(self.b, inkwell::llvm_sys::LLVMIntPredicate::LLVMIntEQ, low, k(byte), nm());
                v = LLVMBuildSelect(self.b, at, shifted, v, nm());
            }
            LLVMBuildTrunc(self.b, v, cx.vty(ty), nm())
        }
    }

    fn scalar_load(&mut self, ty: LLVMTypeRef, p: LLVMValueRef, align: u32) -> LLVMValueRef {
        unsafe {
            let l = LLVMBuildLoad2(self.b, ty, p, nm());
            LLVMSetAlignment(l, align);
            l
        }
    }

    pub fn store(&mut self, i: LLVMValueRef, bi: usize, m: Mask) -> R<()> {
        check(i)?;
        let (val, ptr) = unsafe { (LLVMGetOperand(i, 0), LLVMGetOperand(i, 1)) };
        let ty = unsafe { LLVMTypeOf(val) };
        if !super::widen::scalar_ok(ty) {
            return Err("a store of an unsupported type".into());
        }
        let align = unsafe { LLVMGetAlignment(i) };
        let v = self.operand(val, bi)?;
        let p = self.operand(ptr, bi)?;
        let cx = self.cx;
        match (p, v) {
            (VVal::Uni(q), VVal::Uni(s)) => {
                // Every active instance stores the same value: once, if any.
                if m == Mask::All {
                    self.scalar_store(s, q, align);
                } else {
                    let any = mask::any(cx, self.b, m);
                    let then = self.new_block("ustore");
                    let next = self.new_block("ustore.next");
                    unsafe { LLVMBuildCondBr(self.b, any, then, next) };
                    self.at_end(then);
                    self.scalar_store(s, q, align);
                    self.br(next);
                    self.at_end(next);
                }
            }
            (VVal::Lin { base, stride }, _) if stride == store_size(self, ty) && native_elem(ty) => {
                let vv = self.vector(v, ty);
                let a = self.vector_align(base, align);
                match m {
                    Mask::All => unsafe {
                        let s = LLVMBuildStore(self.b, vv, base);
                        LLVMSetAlignment(s, a);
                    },
                    Mask::V(mv) => {
                        let args = [vv, base, unsafe { LLVMConstInt(cx.i32(), a as u64, 0) }, mv];
                        intrinsic(cx, self.b, "llvm.masked.store", &[cx.vty(ty), unsafe { LLVMTypeOf(base) }], &args);
                    }
                }
            }
            _ if cx.scatter && native_elem(ty) && align >= 4 => {
                // The machine's scatter, lanes in order (the last one wins, as in scalar code).
                self.gathers += 1;
                let pt = unsafe { LLVMTypeOf(ptr) };
                let (ptrs, vv) = (self.vector(p, pt), self.vector(v, ty));
                let args = [vv, ptrs, unsafe { LLVMConstInt(cx.i32(), align as u64, 0) }, m.value(cx)];
                intrinsic(cx, self.b, "llvm.masked.scatter", &[cx.vty(ty), unsafe { LLVMTypeOf(ptrs) }], &args);
            }
            _ => {
                self.gathers += 1;
                let pt = unsafe { LLVMTypeOf(ptr) };
                self.per_lane(m, true, None, &mut |e, k| {
                    let q = e.lane(p, pt, k);
                    let s = e.lane(v, ty, k);
                    e.scalar_store(s, q, align);
                    Ok(None)
                })?;
            }
        }
        Ok(())
    }

    fn scalar_store(&mut self, v: LLVMValueRef, p: LLVMValueRef, align: u32) {
        unsafe {
            let s = LLVMBuildStore(self.b, v, p);
            LLVMSetAlignment(s, align);
        }
    }
}

//! The address classes' pointers at a vector step, and the distance between
//! two classes that egg's run-time overlap checks compare
//! ([`super::rewrite`]): only the offset terms the two classes do not
//! share, so that the distance of `x[i + j]` and `x[i + j + h]` is `4h`,
//! which depends on no counter, and LICM hoists the check out of the loops
//! around (an FFT stage's rows pay it once, not once per row).

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use super::Emitter;
use crate::wfv::widen::nm;

type V = LLVMValueRef;

impl Emitter<'_> {
    /// The address classes' pointers for the step starting at counter `iv0`.
    pub(super) fn pointers(&self, iv0: V, iv: V, ind: &HashMap<V, V>) -> Vec<V> {
        unsafe {
            let i8t = LLVMInt8TypeInContext(LLVMGetModuleContext(self.m));
            let at = |v| self.at_step(v, iv0, iv, ind);
            self.lifted
                .classes
                .iter()
                .map(|cl| {
                    let mut idx = [self.offset(cl.c, &cl.terms, &cl.prods, &at)];
                    LLVMBuildGEP2(self.b, i8t, cl.base, idx.as_mut_ptr(), 1, nm())
                })
                .collect()
        }
    }

    /// Class `b`'s pointer minus class `a`'s at the first step (bytes,
    /// wrapping like the pointers themselves): the bases' difference plus
    /// the offset terms the two classes do not share.
    pub(super) fn distance(&self, a: usize, b: usize, iv0: V, iv: V, ind: &HashMap<V, V>) -> V {
        let (ca, cb) = (&self.lifted.classes[a], &self.lifted.classes[b]);
        unsafe {
            let off = self.offset(cb.c.wrapping_sub(ca.c), &difference(&cb.terms, &ca.terms), &difference(&cb.prods, &ca.prods), &|v| {
                self.at_step(v, iv0, iv, ind)
            });
            if ca.base == cb.base {
                return off;
            }
            let pa = LLVMBuildPtrToInt(self.b, ca.base, self.pty, nm());
            let pb = LLVMBuildPtrToInt(self.b, cb.base, self.pty, nm());
            LLVMBuildAdd(self.b, LLVMBuildSub(self.b, pb, pa, nm()), off, nm())
        }
    }

    /// `v` at the step starting at counter `iv0` (the counter's start, an
    /// induction's start, else `v` itself), as a pointer-sized integer.
    fn at_step(&self, v: V, iv0: V, iv: V, ind: &HashMap<V, V>) -> V {
        let val = if v == iv { iv0 } else { ind.get(&v).copied().unwrap_or(v) };
        unsafe { LLVMBuildIntCast2(self.b, val, self.pty, 1, nm()) }
    }

    /// `c + Σ coeff·v + Σ coeff·u·t` in bytes, each value read through `at`.
    fn offset(&self, c: i64, terms: &[(V, i64)], prods: &[((V, V), i64)], at: &dyn Fn(V) -> V) -> V {
        let b = self.b;
        unsafe {
            let k = |x: i64| LLVMConstInt(self.pty, x as u64, 1);
            let mut off = k(c);
            for &(v, coeff) in terms {
                off = LLVMBuildAdd(b, off, LLVMBuildMul(b, at(v), k(coeff), nm()), nm());
            }
            for &((u, t), coeff) in prods {
                let p = LLVMBuildMul(b, at(u), at(t), nm());
                off = LLVMBuildAdd(b, off, LLVMBuildMul(b, p, k(coeff), nm()), nm());
            }
            off
        }
    }
}

/// The coefficients of `b` minus those of `a`, per key, the nonzero ones in
/// the order the keys first appear (the same code on every run).
fn difference<K: PartialEq + Copy>(b: &[(K, i64)], a: &[(K, i64)]) -> Vec<(K, i64)> {
    let mut out: Vec<(K, i64)> = Vec::new();
    for (&(key, coeff), sign) in b.iter().map(|t| (t, 1i64)).chain(a.iter().map(|t| (t, -1i64))) {
        let c = sign.wrapping_mul(coeff);
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some(t) => t.1 = t.1.wrapping_add(c),
            None => out.push((key, c)),
        }
    }
    out.retain(|t| t.1 != 0);
    out
}

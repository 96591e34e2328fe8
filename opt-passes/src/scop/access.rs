//! The address of a load or store as an array access: a base pointer (a
//! global or a pointer argument) and one affine subscript per dimension.
//!
//! A GEP chain is followed from the base outwards. A GEP's first index
//! steps over whole objects of its source type, each further index into an
//! array type is one more dimension (`[N x [M x float]]` gives two,
//! sized `N` and `M`; a global's leading `0` is dropped). A later GEP
//! whose source type is the element type reached so far adds its first
//! index to the last subscript (a global reached through one of its rows
//! or elements gets its whole shape first); any other GEP (`i8` offsets that
//! instcombine makes of constant parts, …) is turned into a byte offset
//! and added to the last subscript when the element size divides it.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;
use inkwell::llvm_sys::LLVMTypeKind as K;

use super::affine::{Aff, Ctx, NotAffine};
use crate::wfv::attrs::{gep_scales, GepIndex};

/// A decomposed address.
pub struct Addr {
    pub base: LLVMValueRef,
    /// Subscripts, outermost first.
    pub subs: Vec<Aff>,
    /// Dimension sizes (`None`: unbounded).
    pub dims: Vec<Option<u64>>,
}

/// Why an address is not an array access.
pub enum AddrError {
    NotAffine(NotAffine),
    /// The base is not a global or an argument, or the GEPs are not understood.
    Base(LLVMValueRef),
}

fn size_of(m: LLVMModuleRef, ty: LLVMTypeRef) -> i64 {
    unsafe { inkwell::llvm_sys::target::LLVMABISizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m), ty) as i64 }
}

/// The address `p` in module `m` as an access.
///
/// `access_size` is the bytes loaded or stored: a one-dimensional access
/// whose GEPs step over another size (`i8` offsets) is counted in elements
/// of that size when they divide.
pub fn decompose(m: LLVMModuleRef, ctx: &Ctx, p: LLVMValueRef, access_size: u64) -> Result<Addr, AddrError> {
    let mut geps = Vec::new();
    let mut base = p;
    for _ in 0..32 {
        if unsafe { !LLVMIsAGetElementPtrInst(base).is_null() } || unsafe { !LLVMIsAConstantExpr(base).is_null() && LLVMGetConstOpcode(base) == O::LLVMGetElementPtr } {
            geps.push(base);
            base = unsafe { LLVMGetOperand(base, 0) };
        } else {
            break;
        }
    }
    let is_global = unsafe { !LLVMIsAGlobalVariable(base).is_null() };
    let is_arg = unsafe { !LLVMIsAArgument(base).is_null() };
    if !is_global && !is_arg {
        return Err(AddrError::Base(base));
    }
    let mut subs: Vec<Aff> = Vec::new();
    let mut dims: Vec<Option<u64>> = Vec::new();
    // The type the last subscript steps over (None: nothing yet).
    let mut cur: Option<LLVMTypeRef> = None;
    for &g in geps.iter().rev() {
        let src = unsafe { LLVMGetGEPSourceElementType(g) };
        let n = unsafe { LLVMGetNumOperands(g) } as u32;
        let idx = |k: u32| ctx.eval(unsafe { LLVMGetOperand(g, k) }).map_err(AddrError::NotAffine);
        let same = cur.is_some_and(|c| c == src);
        if cur.is_none() || same {
            let first = idx(1)?;
            if !subs.is_empty() {
                add_to_last(&mut subs, &dims, &first).ok_or(AddrError::Base(g))?;
            } else if let Some(sizes) = is_global.then(|| global_prefix(base, src)).flatten() {
                // A global reached through one of its rows (`ey[0][j]` as
                // `getelementptr [N x float], @ey, 0, j`): its full shape.
                subs = vec![Aff::constant(0); sizes.len()];
                dims = sizes.into_iter().map(Some).collect();
                add_to_last(&mut subs, &dims, &first).ok_or(AddrError::Base(g))?;
            } else {
                subs.push(first);
                dims.push(None);
            }
            let mut ty = src;
            for k in 2..n {
                let kind = unsafe { LLVMGetTypeKind(ty) };
                if kind != K::LLVMArrayTypeKind {
                    return Err(AddrError::Base(g));
                }
                dims.push(Some(unsafe { LLVMGetArrayLength2(ty) }));
                subs.push(idx(k)?);
                ty = unsafe { LLVMGetElementType(ty) };
            }
            cur = Some(ty);
        } else {
            // A byte offset added to the last subscript.
            let Some(c) = cur else { return Err(AddrError::Base(g)) };
            let mut off = Aff::default();
            for (k, s) in gep_scales(m, g).into_iter().enumerate() {
                let term = match s {
                    GepIndex::Scale(x) => idx(k as u32 + 1)?.scale(x),
                    GepIndex::Field(x) => Some(Aff::constant(x)),
                    GepIndex::Unknown => None,
                };
                off = term.and_then(|t| off.add(&t, 1)).ok_or(AddrError::Base(g))?;
            }
            let elems = off.div_exact(size_of(m, c)).ok_or(AddrError::Base(g))?;
            add_to_last(&mut subs, &dims, &elems).ok_or(AddrError::Base(g))?;
        }
    }
    if subs.is_empty() {
        subs.push(Aff::constant(0));
        dims.push(None);
    }
    if let (Some(c), 1) = (cur, subs.len()) {
        let size = size_of(m, c);
        if size != access_size as i64 && size > 0 {
            let bytes = subs[0].scale(size).ok_or(AddrError::Base(p))?;
            subs[0] = bytes.div_exact(access_size as i64).ok_or(AddrError::Base(p))?;
        }
    }
    // A global's leading subscript is always 0 (the object itself).
    if is_global && subs.len() > 1 && subs[0].as_const() == Some(0) && dims[0].is_none() {
        subs.remove(0);
        dims.remove(0);
    }
    Ok(Addr { base, subs, dims })
}

/// When `ty` is an element type nested in the array type of `global`, the
/// sizes of the array dimensions above it (`[4 x [8 x float]]` and
/// `float`: `[4, 8]`; and `[8 x float]`: `[4]`).
fn global_prefix(global: LLVMValueRef, ty: LLVMTypeRef) -> Option<Vec<u64>> {
    let mut t = unsafe { LLVMGlobalGetValueType(global) };
    let mut sizes = Vec::new();
    while t != ty {
        if unsafe { LLVMGetTypeKind(t) } != K::LLVMArrayTypeKind || sizes.len() > 16 {
            return None;
        }
        sizes.push(unsafe { LLVMGetArrayLength2(t) });
        t = unsafe { LLVMGetElementType(t) };
    }
    (!sizes.is_empty()).then_some(sizes)
}

/// Adds `elems` elements to the last subscript, carrying into outer
/// dimensions what is a multiple of an inner dimension's size (a constant
/// by truncating division, a coefficient when the size divides it): `&A[i][j]`
/// plus 64 floats in `float A[N][64]` is `A[i + 1][j]`, not `A[i][j + 64]`,
/// so that equal addresses have equal subscripts.
fn add_to_last(subs: &mut [Aff], dims: &[Option<u64>], elems: &Aff) -> Option<()> {
    let mut rest = elems.clone();
    for d in (0..subs.len()).rev() {
        let size = match dims[d] {
            Some(n) if d > 0 && n > 0 => n as i64,
            _ => {
                subs[d] = subs[d].add(&rest, 1)?;
                return Some(());
            }
        };
        // Truncating: `A[i][j - 1]` stays as it is.
        let mut stay = Aff::constant(rest.c % size);
        let mut carry = Aff::constant(rest.c / size);
        for (&t, &x) in &rest.terms {
            if x % size == 0 {
                carry.terms.insert(t, x / size);
            } else {
                stay.terms.insert(t, x);
            }
        }
        subs[d] = subs[d].add(&stay, 1)?;
        if carry == Aff::default() {
            return Some(());
        }
        rest = carry;
    }
    Some(())
}

//! Masks (seed 001 §2.1.1): which instances are active. A mask is either
//! `All` (every instance the region was entered with, in an unmasked
//! variant: known at compile time, so stores stay plain vector stores) or a
//! `<lanes x i1>` value. Edge masks are `mask(block) & condition`, entry
//! masks the `or` of the incoming edge masks; loop headers get a phi of the
//! entering mask and the latch's continue mask (built in `widen`). In a
//! masked variant the caller's mask arrives as a `<lanes x i32>` argument
//! (lane active when nonzero: the ABI passes no `i1` vectors) and the entry
//! mask is its compare with zero.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate;

/// The module, its context and the lane count: what building vectors needs.
pub struct Cx {
    pub m: LLVMModuleRef,
    pub ctx: LLVMContextRef,
    pub lanes: u32,
    /// The analyses and optimizations to use.
    pub level: super::Level,
    /// The machine gathers and scatters 32-bit elements (else lane by lane).
    pub gather: bool,
    pub scatter: bool,
    /// Branches on superword conditions around linearized blocks (level All).
    pub boscc: bool,
    /// The machine has a lane-wise fused multiply-add of `f32`
    /// (`llvm.fma` widens to a vector `llvm.fma`; else lane by lane).
    pub vector_fma: bool,
    /// Instance multiversioning behind branches on superword conditions
    /// (§2.2.2: a scalar version of a block for a single active lane).
    pub multiversion: bool,
}

impl Cx {
    /// With the machine's gather and scatter.
    pub fn for_machine(m: LLVMModuleRef, lanes: u32, caps: &crate::caps::Caps) -> Cx {
        use isa_tablegen::{SemOp, Ty};
        let vf32 = crate::ir::Shape { bits: 32, lanes: Some(lanes), float: true };
        Cx {
            gather: caps.has_any(SemOp::Gather, Ty::I32),
            scatter: caps.has_any(SemOp::Scatter, Ty::I32),
            vector_fma: caps.has(SemOp::Mac, vf32, crate::caps::Sign::Signed),
            ..Cx::new(m, lanes)
        }
    }

    pub fn new(m: LLVMModuleRef, lanes: u32) -> Cx {
        Cx { m, ctx: unsafe { LLVMGetModuleContext(m) }, lanes, level: super::Level::All, gather: false, scatter: false, boscc: true, vector_fma: false, multiversion: true }
    }
    pub fn vty(&self, t: LLVMTypeRef) -> LLVMTypeRef {
        unsafe { LLVMVectorType(t, self.lanes) }
    }
    pub fn i1(&self) -> LLVMTypeRef {
        unsafe { LLVMInt1TypeInContext(self.ctx) }
    }
    pub fn i32(&self) -> LLVMTypeRef {
        unsafe { LLVMInt32TypeInContext(self.ctx) }
    }
    pub fn mask_ty(&self) -> LLVMTypeRef {
        self.vty(self.i1())
    }
    /// A splat of the constant `c`.
    pub fn splat_const(&self, c: LLVMValueRef) -> LLVMValueRef {
        let mut v = vec![c; self.lanes as usize];
        unsafe { LLVMConstVector(v.as_mut_ptr(), self.lanes) }
    }
    pub fn ones(&self) -> LLVMValueRef {
        self.splat_const(unsafe { LLVMConstInt(self.i1(), 1, 0) })
    }
    pub fn zeros(&self) -> LLVMValueRef {
        unsafe { LLVMConstNull(self.mask_ty()) }
    }
    /// `<0, step, 2*step, …>` of integer type `t`.
    pub fn steps(&self, t: LLVMTypeRef, step: i64) -> LLVMValueRef {
        let mut v: Vec<LLVMValueRef> =
            (0..self.lanes).map(|k| unsafe { LLVMConstInt(t, (k as i64).wrapping_mul(step) as u64, 1) }).collect();
        unsafe { LLVMConstVector(v.as_mut_ptr(), self.lanes) }
    }
}

/// A mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mask {
    All,
    V(LLVMValueRef),
}

impl Mask {
    /// The mask as a value.
    pub fn value(self, cx: &Cx) -> LLVMValueRef {
        match self {
            Mask::All => cx.ones(),
            Mask::V(v) => v,
        }
    }
}

fn name() -> *const std::ffi::c_char {
    c"".as_ptr()
}

/// `a & b`.
pub fn and(b: LLVMBuilderRef, x: Mask, y: Mask) -> Mask {
    match (x, y) {
        (Mask::All, m) | (m, Mask::All) => m,
        (Mask::V(p), Mask::V(q)) => Mask::V(unsafe { LLVMBuildAnd(b, p, q, name()) }),
    }
}

/// `a | b`.
pub fn or(b: LLVMBuilderRef, x: Mask, y: Mask) -> Mask {
    match (x, y) {
        (Mask::All, _) | (_, Mask::All) => Mask::All,
        (Mask::V(p), Mask::V(q)) => Mask::V(unsafe { LLVMBuildOr(b, p, q, name()) }),
    }
}

/// `m & !c` for a vector condition `c`.
pub fn and_not(cx: &Cx, b: LLVMBuilderRef, m: Mask, c: LLVMValueRef) -> Mask {
    let n = unsafe { LLVMBuildXor(b, c, cx.ones(), name()) };
    and(b, m, Mask::V(n))
}

/// `m` where the uniform `i1` condition `c` holds (`want`), else no lane.
pub fn and_uniform(cx: &Cx, b: LLVMBuilderRef, m: Mask, c: LLVMValueRef, want: bool) -> Mask {
    let mv = m.value(cx);
    let (t, f) = if want { (mv, cx.zeros()) } else { (cx.zeros(), mv) };
    Mask::V(unsafe { LLVMBuildSelect(b, c, t, f, name()) })
}

/// Whether any lane of `m` is active (an `i1`), by `llvm.vector.reduce.or`.
pub fn any(cx: &Cx, b: LLVMBuilderRef, m: Mask) -> LLVMValueRef {
    match m {
        Mask::All => unsafe { LLVMConstInt(cx.i1(), 1, 0) },
        Mask::V(v) => crate::wfv::widen::intrinsic(cx, b, "llvm.vector.reduce.or", &[cx.mask_ty()], &[v]),
    }
}

/// The mask argument of a masked variant (`<lanes x i32>`) as a mask.
pub fn from_arg(cx: &Cx, b: LLVMBuilderRef, arg: LLVMValueRef) -> Mask {
    let z = unsafe { LLVMConstNull(cx.vty(cx.i32())) };
    Mask::V(unsafe { LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntNE, arg, z, name()) })
}

/// A mask as the `<lanes x i32>` argument of a masked variant (1 active, 0 not).
pub fn to_arg(cx: &Cx, b: LLVMBuilderRef, m: Mask) -> LLVMValueRef {
    let one = cx.splat_const(unsafe { LLVMConstInt(cx.i32(), 1, 0) });
    let zero = unsafe { LLVMConstNull(cx.vty(cx.i32())) };
    match m {
        Mask::All => one,
        Mask::V(v) => unsafe { LLVMBuildSelect(b, v, one, zero, name()) },
    }
}

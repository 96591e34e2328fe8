//! `dsp-vector-fdiv`: vector `f32` division and square root on a machine
//! whose divide/square-root unit is scalar only (ftm's `sdiv`), by
//! Newton–Raphson iteration on the multiply-accumulate units with an exact
//! final correction, correctly rounded and bit-identical lane for lane to
//! the scalar `div.f32`/`sqrt.f32` instructions (NaN payloads, signed zeros,
//! infinities, subnormal operands and results included). Without it the
//! backend divides lane by lane on the one non-pipelined divider: 16
//! extractions, 16 divisions of 8 busy cycles and a reload per vector.
//!
//! Division `a / b` (Markstein's method, "IA-64 and Elementary Functions",
//! 2000, ch. 8, with an explicit rounding test in place of his final-step
//! theorem):
//! 1. the significands `ma, mb ∈ [1, 2)` (subnormal operands normalized by
//!    2^24 first) and the exponent difference `E`;
//! 2. `y ≈ 1/mb`: the linear start 24/17 − 8/17·mb (error ≤ 1/17), three
//!    iterations `y += y·(1 − mb·y)` (4 → 8 → 16 → 32 bits);
//! 3. `q = ma·y`, one correction `q += (ma − mb·q)·y`;
//! 4. the exact residual `r = ma − mb·q` (one fused multiply-add; exact as
//!    `q` is within an ulp) against half an ulp of `q` times `mb` decides
//!    whether the correctly rounded quotient is `q`, its successor or its
//!    predecessor (ties to even);
//! 5. the result is `q·2^E` by exponent arithmetic; below the normal range
//!    the quotient truncated to 24 bits and the residual's sticky bit are
//!    rounded once at the subnormal position (no double rounding); above it,
//!    infinity;
//! 6. special operands (0, ∞, NaN) take the product `a·t(b)`, with
//!    `t(b)` = ±∞ for ±0, ±0 for ±∞, `b` itself for a NaN and ±1 otherwise
//!    (±1 too when `a` is a NaN: which of two NaNs a product keeps is not
//!    defined):
//!    the machine's own multiplier then gives what its divider would (the
//!    first NaN operand quietened, 0/0 and ∞/∞ as 0·∞, the default NaN).
//!
//! Square root: the significand `m ∈ [1, 4)` (the exponent made even),
//! `y ≈ 1/√m` from the bit-pattern start 0x5f3759df − bits/2 (error ≤ 3.5%)
//! and three iterations `y += y/2·(1 − m·y²)`, `s = m·y` corrected once,
//! then rounded exactly: `m − s²` is exact, and `s` moves up when it exceeds
//! `s·ulp(s)`, down when it is at most `−s·ulp(s)` (a square root is never
//! a tie). Special operands take `x·1` (±0, +∞, NaNs quietened) or `0·∞`
//! (the default NaN, for negative ones).
//!
//! The algorithm was checked against the host's `divss`/`sqrtss` on every
//! `f32` for the square root and on 4·10^8 operand pairs (random, special,
//! near overflow and underflow, all-ones significands) for the division;
//! the tests here run both on the simulator against the scalar instructions.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate::*;
use inkwell::llvm_sys::LLVMOpcode as O;
use inkwell::llvm_sys::LLVMRealPredicate::*;

use isa_tablegen::SemOp;

use crate::caps::{Caps, Sign};
use crate::ir::{self, Builder, Shape};
use crate::wfv::{Remark, RemarkKind};

/// Expands every vector `f32` division and `llvm.sqrt` the machine cannot
/// do with one instruction but can with its fused multiply-add; returns
/// whether anything changed, and a remark per expansion.
pub fn run(m: LLVMModuleRef, caps: &Caps) -> (bool, Vec<Remark>) {
    let mut remarks = Vec::new();
    let mut changed = false;
    let mut divs = Vec::new();
    let mut sqrts = Vec::new();
    for f in ir::defined_functions(m) {
        for b in ir::blocks(f) {
            for i in ir::instructions(b) {
                let Some(shape) = f32_vector(i) else { continue };
                if ir::opcode(i) == O::LLVMFDiv {
                    divs.push((i, shape));
                } else if ir::called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.sqrt.")) {
                    sqrts.push((i, shape));
                }
            }
        }
    }
    for (i, shape) in divs {
        if caps.has(SemOp::Div, shape, Sign::Signed) || !usable(caps, shape) {
            continue;
        }
        let e = Expander::before(i);
        let r = e.div(unsafe { LLVMGetOperand(i, 0) }, unsafe { LLVMGetOperand(i, 1) });
        remarks.extend(remark(r, "division", shape));
        ir::replace(i, r);
        changed = true;
    }
    for (i, shape) in sqrts {
        if caps.has(SemOp::Sqrt, shape, Sign::Signed) || !usable(caps, shape) {
            continue;
        }
        let e = Expander::before(i);
        let r = e.sqrt(ir::arg(i, 0));
        remarks.extend(remark(r, "square root", shape));
        ir::replace(i, r);
        changed = true;
    }
    ir::drop_unused_declarations(m, &["llvm.sqrt."]);
    (changed, remarks)
}

/// The remark for an expansion whose result is `r` (anchored at it: the
/// expanded instruction is deleted; none when `r` folded to a constant).
fn remark(r: LLVMValueRef, what: &str, shape: Shape) -> Option<Remark> {
    if unsafe { LLVMIsAInstruction(r) }.is_null() {
        return None;
    }
    Some(Remark {
        kind: RemarkKind::Passed,
        at: r,
        name: "VectorFdiv",
        msg: format!(
            "{}-lane float {what} computed on the vector units (Newton-Raphson, exactly rounded) instead of lane by lane on the scalar divider",
            shape.lanes.unwrap_or(1)
        ),
    })
}

/// `i`'s shape if it produces a vector of `f32`.
fn f32_vector(i: LLVMValueRef) -> Option<Shape> {
    let s = ir::shape(unsafe { LLVMTypeOf(i) })?;
    (s.float && s.bits == 32 && s.lanes.is_some()).then_some(s)
}

/// Whether the machine has what the expansion needs on vectors of this
/// shape: fused multiply-add, multiply and add of `f32`, and lane-wise
/// 32-bit integer addition and masking (shifts by a constant and selects
/// every machine with vectors has).
fn usable(caps: &Caps, shape: Shape) -> bool {
    let int = Shape { float: false, ..shape };
    [SemOp::Mac, SemOp::Mul, SemOp::Add].iter().all(|&op| caps.has(op, shape, Sign::Signed))
        && [SemOp::Add, SemOp::And].iter().all(|&op| caps.has(op, int, Sign::Any))
}

/// Builds the expansion before one instruction.
struct Expander {
    b: Builder,
    m: LLVMModuleRef,
    /// `<N x float>` and `<N x i32>`.
    fty: LLVMTypeRef,
    ity: LLVMTypeRef,
}

impl Expander {
    fn before(i: LLVMValueRef) -> Expander {
        let fty = unsafe { LLVMTypeOf(i) };
        Expander { b: Builder::before(i), m: ir::module_of(i), fty, ity: ir::int_like(fty, 32) }
    }

    fn k(&self, v: u32) -> LLVMValueRef {
        ir::const_int(self.ity, v as u64)
    }
    fn kf(&self, v: f32) -> LLVMValueRef {
        unsafe { LLVMConstBitCast(self.k(v.to_bits()), self.fty) }
    }
    fn as_int(&self, x: LLVMValueRef) -> LLVMValueRef {
        self.b.bitcast(x, self.ity)
    }
    fn as_float(&self, x: LLVMValueRef) -> LLVMValueRef {
        self.b.bitcast(x, self.fty)
    }
    fn fmul(&self, a: LLVMValueRef, c: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildFMul(self.b.raw(), a, c, c"".as_ptr()) }
    }
    fn fadd(&self, a: LLVMValueRef, c: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildFAdd(self.b.raw(), a, c, c"".as_ptr()) }
    }
    fn fsub(&self, a: LLVMValueRef, c: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildFSub(self.b.raw(), a, c, c"".as_ptr()) }
    }
    /// `a·c + d` rounded once.
    fn fma(&self, a: LLVMValueRef, c: LLVMValueRef, d: LLVMValueRef) -> LLVMValueRef {
        self.b.call_intrinsic(self.m, "llvm.fma", &[self.fty], &[a, c, d]).expect("llvm.fma is an LLVM intrinsic")
    }
    fn icmp(&self, p: inkwell::llvm_sys::LLVMIntPredicate, a: LLVMValueRef, c: LLVMValueRef) -> LLVMValueRef {
        self.b.icmp(p, a, c)
    }
    fn fcmp(&self, p: inkwell::llvm_sys::LLVMRealPredicate, a: LLVMValueRef, c: LLVMValueRef) -> LLVMValueRef {
        self.b.fcmp(p, a, c)
    }
    fn sel(&self, c: LLVMValueRef, a: LLVMValueRef, d: LLVMValueRef) -> LLVMValueRef {
        self.b.select(c, a, d)
    }
    /// `a / b`, lane by lane, as `div.f32` rounds it.
    fn div(&self, a: LLVMValueRef, bv: LLVMValueRef) -> LLVMValueRef {
        let (bl, k) = (&self.b, |v: u32| self.k(v));
        let ai = self.as_int(a);
        let bi = self.as_int(bv);
        let inf = k(0x7f80_0000);
        let ax = bl.and(ai, k(0x7fff_ffff));
        let bx = bl.and(bi, k(0x7fff_ffff));
        // Special operands (0, ∞, NaN): a·t(b) answers as the divider does,
        // with t(b) = b with 0 and ∞ swapped, and 1 when a is a NaN.
        let swap = bl.or(self.icmp(LLVMIntEQ, bx, k(0)), self.icmp(LLVMIntEQ, bx, inf));
        let t = self.sel(swap, bl.xor(bi, inf), bi);
        let t = self.sel(self.icmp(LLVMIntUGT, ax, inf), k(0x3f80_0000), t);
        let spec = self.fmul(a, self.as_float(t));
        // Significands in [1, 2) (the divisor's negated) and the exponent
        // difference; subnormal operands scaled by 2^24 (their exponent
        // field then below 1).
        let norm = |x| {
            let sub = self.icmp(LLVMIntULT, x, k(0x0080_0000));
            let scaled = bl.sub(self.as_int(self.fmul(self.as_float(x), self.kf(16_777_216.0))), k(24 << 23));
            self.sel(sub, scaled, x)
        };
        let an = norm(ax);
        let bn = norm(bx);
        let e = bl.sub(bl.ashr(an, k(23)), bl.ashr(bn, k(23)));
        let frac = k(0x007f_ffff);
        let ma = self.as_float(bl.or(bl.and(an, frac), k(0x3f80_0000)));
        let nmb = self.as_float(bl.or(bl.and(bn, frac), k(0xbf80_0000)));
        let one = self.kf(1.0);
        let mut y = self.fma(self.kf(8.0 / 17.0), nmb, self.kf(24.0 / 17.0));
        for _ in 0..3 {
            let err = self.fma(nmb, y, one);
            y = self.fma(y, err, y);
        }
        let q = self.fmul(ma, y);
        let r = self.fma(nmb, q, ma);
        let q = self.fma(r, y, q);
        // Exact rounding: the residual r = ma − mb·q against mb·ulp(q)/2
        // (a quarter ulp below a power of two). A quotient of two floats
        // is never a midpoint, so there are no ties.
        let r = self.fma(nmb, q, ma);
        let qi = self.as_int(q);
        let sign_bit = k(0x8000_0000);
        let neg_half_ulp = bl.or(bl.sub(bl.and(qi, k(0xff80_0000)), k(24 << 23)), sign_bit);
        let h = self.fmul(nmb, self.as_float(neg_half_ulp));
        let pow2 = self.icmp(LLVMIntEQ, bl.and(qi, frac), k(0));
        let below = self.sel(pow2, bl.sub(neg_half_ulp, k(1 << 23)), neg_half_ulp);
        let nh_below = self.fmul(nmb, self.as_float(bl.xor(below, sign_bit)));
        let adj = self.sel(self.fcmp(LLVMRealOGT, r, h), k(1), self.sel(self.fcmp(LLVMRealOLT, r, nh_below), k(u32::MAX), k(0)));
        let qi = bl.add(qi, adj);
        let e_res = bl.add(bl.lshr(qi, k(23)), e);
        let normal = bl.add(qi, bl.shl(e, k(23)));
        // Below the normal range: q·2^(E+149) rounded to an integer once
        // is the pattern. Coarse midpoints lie on q's grid and the exact
        // quotient within half an ulp of q, so only a q exactly on a
        // midpoint needs the residual's sign instead of ties-to-even.
        let rc = self.fma(nmb, self.as_float(qi), ma);
        let zexp = bl.add(e_res, k(149));
        let tiny = self.icmp(LLVMIntSLT, zexp, k(100));
        let zexp = self.sel(tiny, k(100), zexp);
        let z = self.as_float(bl.or(bl.and(qi, frac), bl.shl(zexp, k(23))));
        let magic = self.kf(8_388_608.0);
        let t = self.fadd(z, magic);
        let d = self.fsub(z, self.fsub(t, magic));
        let zero = self.kf(0.0);
        let tie_up = bl.and(self.fcmp(LLVMRealOEQ, d, self.kf(0.5)), self.fcmp(LLVMRealOGT, rc, zero));
        let tie_down = bl.and(self.fcmp(LLVMRealOEQ, d, self.kf(-0.5)), self.fcmp(LLVMRealOLT, rc, zero));
        let fix = self.sel(tie_up, k(1), self.sel(tie_down, k(u32::MAX), k(0)));
        let sub_r = bl.add(bl.sub(self.as_int(t), k(0x4b00_0000)), fix);
        let sub_r = self.sel(tiny, k(0), sub_r);
        let finite = self.sel(self.icmp(LLVMIntSGE, e_res, k(255)), inf, normal);
        let res = self.sel(self.icmp(LLVMIntSLE, e_res, k(0)), sub_r, finite);
        let res = bl.or(res, bl.and(bl.xor(ai, bi), sign_bit));
        // Tested last: a mask live through the whole expansion would hold
        // one of the machine's few mask registers.
        let special = bl.or(self.is_special(ax), self.is_special(bx));
        self.sel(special, spec, self.as_float(res))
    }

    /// Whether the pattern without sign `x` is 0, ∞ or a NaN.
    fn is_special(&self, x: LLVMValueRef) -> LLVMValueRef {
        self.icmp(LLVMIntUGE, self.b.add(x, self.k(0xffff_ffff)), self.k(0x7f7f_ffff))
    }

    /// `sqrt(a)`, lane by lane, as `sqrt.f32` rounds it.
    fn sqrt(&self, a: LLVMValueRef) -> LLVMValueRef {
        let (bl, k) = (&self.b, |v: u32| self.k(v));
        let ai = self.as_int(a);
        // Positive subnormals (and +0) scaled by 2^24; negative patterns are
        // replaced below.
        let sub = self.icmp(LLVMIntULT, ai, k(0x0080_0000));
        let scaled = bl.sub(self.as_int(self.fmul(a, self.kf(16_777_216.0))), k(24 << 23));
        let an = self.sel(sub, scaled, ai);
        let e = bl.sub(bl.ashr(an, k(23)), k(127));
        let odd = bl.and(e, k(1));
        let mi = bl.or(bl.and(an, k(0x007f_ffff)), bl.shl(bl.add(odd, k(127)), k(23)));
        let m = self.as_float(mi);
        let nm = self.as_float(bl.or(mi, k(0x8000_0000)));
        let half_e = bl.ashr(bl.sub(e, odd), k(1));
        let one = self.kf(1.0);
        let mut y = self.as_float(bl.sub(k(0x5f37_59df), bl.lshr(mi, k(1))));
        for _ in 0..3 {
            let t = self.fmul(nm, y);
            let err = self.fma(t, y, one);
            y = self.fma(self.fmul(y, self.kf(0.5)), err, y);
        }
        // s ≈ √m and −s, corrected once; then r' = s² − m exactly.
        let s = self.fmul(m, y);
        let ns = self.fmul(nm, y);
        let r = self.fma(ns, s, m);
        let s = self.fma(r, self.fmul(y, self.kf(0.5)), s);
        let ns = self.fma(r, self.fmul(y, self.kf(-0.5)), ns);
        let nr = self.fma(s, s, nm);
        let si = self.as_int(s);
        let ulp = self.as_float(bl.shl(bl.sub(bl.lshr(si, k(23)), k(23)), k(23)));
        let su = self.fmul(s, ulp);
        let nsu = self.fmul(ns, ulp);
        // Up when m − s² > s·ulp, down when m − s² ≤ −s·ulp.
        let adj = self.sel(self.fcmp(LLVMRealOLT, nr, nsu), k(1), self.sel(self.fcmp(LLVMRealOGE, nr, su), k(u32::MAX), k(0)));
        let res = self.as_float(bl.add(bl.add(si, bl.shl(half_e, k(23))), adj));
        // Special operands (±0, +∞, NaN, negative): x·1 is the answer
        // (NaNs quietened), and 0·∞ (the default NaN) for a negative x.
        let special = self.is_special(ai);
        let negative = self.icmp(LLVMIntULT, bl.add(ai, k(0x7fff_ffff)), k(0x7f80_0000));
        let u = self.sel(negative, self.kf(0.0), a);
        let t = self.sel(negative, self.kf(f32::INFINITY), self.kf(1.0));
        self.sel(special, self.fmul(u, t), res)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    const IR: &str = r#"
declare <16 x float> @llvm.sqrt.v16f32(<16 x float>)
define <16 x float> @f(<16 x float> %a, <16 x float> %b, float %x, float %y) {
  %q = fdiv <16 x float> %a, %b
  %r = call <16 x float> @llvm.sqrt.v16f32(<16 x float> %q)
  %s = fdiv float %x, %y
  %v = insertelement <16 x float> %r, float %s, i32 0
  ret <16 x float> %v
}
"#;

    #[test]
    fn vector_division_and_square_root_become_multiply_adds() {
        let out = run_pass_on("dsp-vector-fdiv", IR, "ftm");
        assert!(!out.contains("fdiv <16 x float>") && !out.contains("@llvm.sqrt.v16f32("), "{out}");
        assert!(out.contains("fdiv float %x, %y"), "scalar division stays: {out}");
        assert!(out.contains("@llvm.fma.v16f32"), "{out}");
    }

    #[test]
    fn kept_where_the_machine_divides_vectors_or_lacks_a_fused_multiply_add() {
        let no_fma = machine_without(&["mac.f32"]);
        let out = run_pass_on("dsp-vector-fdiv", IR, no_fma.path());
        assert!(out.contains("fdiv <16 x float>") && out.contains("@llvm.sqrt.v16f32("), "{out}");
    }
}

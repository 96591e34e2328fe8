//! Divisors known to be powers of two though not constant (an FFT's
//! `n / len` with `len` doubling from 2): such a division selects a count
//! of trailing zeros and shifts, not the divider. LLVM's
//! `isKnownToBeAPowerOfTwo` reasons the same way on recurrences; its
//! instruction combiner rewrites only divisors of the form `1 << k`.
//!
//! A divisor of zero is undefined behaviour, so "a power of two or zero"
//! is enough; a signed division needs the sign bit clear as well
//! ([`Sign::Clear`]). A value is one ([`Sign::Any`]) when it is
//! - such a constant, or `shl` (any flags), `lshr`, `mul`, `zext` or
//!   `select c, p, q` of such values (powers of two times powers of two
//!   stay powers of two modulo 2^w, or become zero);
//! - a phi of such values, assumed of itself while its incoming values are
//!   checked (a loop's `len <<= 1`): every value it takes is one of the
//!   others or a step of them.
//!
//! With the sign bit clear: such a constant; `shl nsw`/`mul nsw` of such
//! values (a result reaching the sign bit would be poison); `sext` of one;
//! `zext` of any from a narrower type; phis as above. Either way,
//! `select (x > 0), x, q` (or `sext`/`zext` of `x` in that arm) needs only
//! `x` a power of two or zero, with any bits: the arm is taken only when
//! `x` is positive.

use inkwell::llvm_sys::LLVMOpcode as Op;

use crate::llvm::{IntPred, TyKind, V};

/// What is known of the divisor's sign bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// A power of two or zero, any bit.
    Any,
    /// A power of two or zero below the sign bit.
    Clear,
}

/// How deep the definitions are followed.
const DEPTH: u32 = 8;

/// Whether `v` is known to be a power of two or zero (or poison), with
/// its sign bit clear when `sign` is [`Sign::Clear`].
pub fn power_of_two_or_zero(v: V, sign: Sign) -> bool {
    known(v, sign, DEPTH, &mut Vec::new())
}

fn known(v: V, sign: Sign, depth: u32, phis: &mut Vec<(V, Sign)>) -> bool {
    if let Some((x, bits)) = v.const_int() {
        let pow2 = x == 0 || x.is_power_of_two();
        return pow2 && (sign == Sign::Any || x < 1u64 << (bits - 1));
    }
    if depth == 0 {
        return false;
    }
    let d = depth - 1;
    let bits = |x: V| match x.ty().kind() {
        TyKind::Int(w) => w,
        _ => 0,
    };
    match (v.opcode(), sign) {
        (Some(Op::LLVMShl), Sign::Any) | (Some(Op::LLVMLShr), Sign::Any) => known(v.operand(0), sign, d, phis),
        (Some(Op::LLVMShl), Sign::Clear) => v.nsw() && known(v.operand(0), sign, d, phis),
        (Some(Op::LLVMMul), _) => {
            (sign == Sign::Any || v.nsw()) && known(v.operand(0), sign, d, phis) && known(v.operand(1), sign, d, phis)
        }
        (Some(Op::LLVMZExt), Sign::Any) => known(v.operand(0), Sign::Any, d, phis),
        (Some(Op::LLVMZExt), Sign::Clear) => {
            let narrower = bits(v.operand(0)) < bits(v);
            known(v.operand(0), if narrower { Sign::Any } else { Sign::Clear }, d, phis)
        }
        (Some(Op::LLVMSExt), _) => known(v.operand(0), Sign::Clear, d, phis),
        (Some(Op::LLVMSelect), _) => {
            let yes = match positive_arm(v.operand(0), v.operand(1)) {
                Some(x) => known(x, Sign::Any, d, phis),
                None => known(v.operand(1), sign, d, phis),
            };
            yes && known(v.operand(2), sign, d, phis)
        }
        (Some(Op::LLVMPHI), _) => {
            if phis.contains(&(v, sign)) {
                return true;
            }
            phis.push((v, sign));
            let all = v.incoming().into_iter().all(|(x, _)| known(x, sign, d, phis));
            phis.pop();
            all
        }
        _ => false,
    }
}

/// For `select c, t, _` with `c` = `x > 0` (signed) and `t` = `x` or its
/// `sext`/`zext`: `x`, whose sign bit is then clear in `t`.
fn positive_arm(c: V, t: V) -> Option<V> {
    if c.opcode() != Some(Op::LLVMICmp) || c.icmp_pred() != IntPred::LLVMIntSGT || c.operand(1).const_int().map(|x| x.0) != Some(0) {
        return None;
    }
    let x = c.operand(0);
    let same = t == x || (matches!(t.opcode(), Some(Op::LLVMSExt) | Some(Op::LLVMZExt)) && t.operand(0) == x);
    same.then_some(x)
}

//! Element-wise semantics of the vocabulary (`SemOp` × `Ty`) as plain
//! functions on raw register bits.
//!
//! Every operand arrives as the raw bits of a register (or an immediate), and
//! the function reads the low `ty.bits()` bits as its element type. A result
//! comes back as the element's bits, zero-extended to 64; the caller extends it
//! to the destination's width by the result type's signedness. Compares return
//! 0 or 1. The decoder picks one function pointer per operation once, so the
//! run loop never dispatches on the type again.

use isa_tablegen::{SemOp, Ty};

/// Why an element operation could not produce a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluTrap {
    DivideByZero,
}

/// One element-wise operation: `(x, y, z)` are the semantics' arguments in order.
pub type AluFn = fn(u64, u64, u64) -> Result<u64, AluTrap>;

/// A value in transit through a conversion.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    Int(i128),
    F32(f32),
    F64(f64),
}

/// An element type of the vocabulary, as a Rust type.
pub trait Elem: Copy + PartialOrd {
    const BITS: u32;
    const SIGNED: bool;
    const FLOAT: bool;
    fn from_bits(x: u64) -> Self;
    fn to_bits(self) -> u64;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn mulhi(self, o: Self) -> Self;
    fn div(self, o: Self) -> Result<Self, AluTrap>;
    fn rem(self, o: Self) -> Result<Self, AluTrap>;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn min(self, o: Self) -> Self;
    fn max(self, o: Self) -> Self;
    fn mac(self, b: Self, c: Self) -> Self;
    fn sqrt(self) -> Self;
    fn is_nan(self) -> bool;
    fn to_val(self) -> Val;
    fn from_val(v: Val) -> Self;
}

macro_rules! int_elem {
    ($t:ty, $u:ty, $wide:ty, $signed:literal) => {
        impl Elem for $t {
            const BITS: u32 = <$t>::BITS;
            const SIGNED: bool = $signed;
            const FLOAT: bool = false;
            #[inline(always)]
            fn from_bits(x: u64) -> Self {
                x as $u as $t
            }
            #[inline(always)]
            fn to_bits(self) -> u64 {
                self as $u as u64
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            #[inline(always)]
            fn mulhi(self, o: Self) -> Self {
                ((self as $wide * o as $wide) >> <$t>::BITS) as $t
            }
            #[inline(always)]
            fn div(self, o: Self) -> Result<Self, AluTrap> {
                if o == 0 {
                    Err(AluTrap::DivideByZero)
                } else {
                    Ok(self.wrapping_div(o))
                }
            }
            #[inline(always)]
            fn rem(self, o: Self) -> Result<Self, AluTrap> {
                if o == 0 {
                    Err(AluTrap::DivideByZero)
                } else {
                    Ok(self.wrapping_rem(o))
                }
            }
            #[inline(always)]
            fn neg(self) -> Self {
                self.wrapping_neg()
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn abs(self) -> Self {
                if self < 0 as $t {
                    self.wrapping_neg()
                } else {
                    self
                }
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                Ord::min(self, o)
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                Ord::max(self, o)
            }
            #[inline(always)]
            fn mac(self, b: Self, c: Self) -> Self {
                self.wrapping_mul(b).wrapping_add(c)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn sqrt(self) -> Self {
                // Integer square root, rounded down; negative inputs give 0.
                if self < 0 as $t {
                    0
                } else {
                    (self as u64).isqrt() as $t
                }
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                false
            }
            #[inline(always)]
            fn to_val(self) -> Val {
                Val::Int(self as i128)
            }
            #[inline(always)]
            fn from_val(v: Val) -> Self {
                match v {
                    Val::Int(i) => i as $t,
                    // Rust's float-to-int `as` truncates, saturates and maps NaN to 0.
                    Val::F32(f) => f as $t,
                    Val::F64(f) => f as $t,
                }
            }
        }
    };
}

int_elem!(i8, u8, i16, true);
int_elem!(u8, u8, u16, false);
int_elem!(i16, u16, i32, true);
int_elem!(u16, u16, u32, false);
int_elem!(i32, u32, i64, true);
int_elem!(u32, u32, u64, false);
int_elem!(i64, u64, i128, true);
int_elem!(u64, u64, u128, false);

macro_rules! float_elem {
    ($t:ty, $u:ty, $variant:ident) => {
        impl Elem for $t {
            const BITS: u32 = <$u>::BITS;
            const SIGNED: bool = false;
            const FLOAT: bool = true;
            #[inline(always)]
            fn from_bits(x: u64) -> Self {
                <$t>::from_bits(x as $u)
            }
            #[inline(always)]
            fn to_bits(self) -> u64 {
                <$t>::to_bits(self) as u64
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            #[inline(always)]
            fn mulhi(self, o: Self) -> Self {
                // No double-width float product: the product itself.
                self * o
            }
            #[inline(always)]
            fn div(self, o: Self) -> Result<Self, AluTrap> {
                Ok(self / o)
            }
            #[inline(always)]
            fn rem(self, o: Self) -> Result<Self, AluTrap> {
                Ok(self % o)
            }
            #[inline(always)]
            fn neg(self) -> Self {
                -self
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                // IEEE minNum: a NaN operand yields the other; -0 < +0.
                if self.is_nan() {
                    o
                } else if o.is_nan() {
                    self
                } else if self == o {
                    if self.is_sign_negative() { self } else { o }
                } else if self < o {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                if self.is_nan() {
                    o
                } else if o.is_nan() {
                    self
                } else if self == o {
                    if self.is_sign_negative() { o } else { self }
                } else if self > o {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn mac(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn to_val(self) -> Val {
                Val::$variant(self)
            }
            #[inline(always)]
            fn from_val(v: Val) -> Self {
                match v {
                    Val::Int(i) => i as $t,
                    Val::F32(f) => f as $t,
                    Val::F64(f) => f as $t,
                }
            }
        }
    };
}

float_elem!(f32, u32, F32);
float_elem!(f64, u64, F64);

#[inline(always)]
fn width_mask<T: Elem>() -> u64 {
    if T::BITS >= 64 {
        u64::MAX
    } else {
        (1u64 << T::BITS) - 1
    }
}

/// Sign-extends (signed types) the low `BITS` of `x` to 64 bits.
#[inline(always)]
fn extend<T: Elem>(x: u64) -> u64 {
    let sh = 64 - T::BITS;
    if T::SIGNED {
        (((x << sh) as i64) >> sh) as u64
    } else {
        (x << sh) >> sh
    }
}

fn add<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).add(T::from_bits(y)).to_bits())
}
fn sub<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).sub(T::from_bits(y)).to_bits())
}
fn mul<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).mul(T::from_bits(y)).to_bits())
}
fn mulhi<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).mulhi(T::from_bits(y)).to_bits())
}
fn div<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).div(T::from_bits(y))?.to_bits())
}
fn rem<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).rem(T::from_bits(y))?.to_bits())
}
fn neg<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).neg().to_bits())
}
fn abs<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).abs().to_bits())
}
fn min<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).min(T::from_bits(y)).to_bits())
}
fn max<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).max(T::from_bits(y)).to_bits())
}
fn mac<T: Elem>(x: u64, y: u64, z: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).mac(T::from_bits(y), T::from_bits(z)).to_bits())
}
fn sqrt<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(T::from_bits(x).sqrt().to_bits())
}
fn mov<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(x & width_mask::<T>())
}
fn and<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(x & y & width_mask::<T>())
}
fn or<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((x | y) & width_mask::<T>())
}
fn xor<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((x ^ y) & width_mask::<T>())
}
fn not<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(!x & width_mask::<T>())
}
fn shl<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((x << (y % T::BITS as u64)) & width_mask::<T>())
}
fn shr<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    let n = y % T::BITS as u64;
    let v = extend::<T>(x);
    let r = if T::SIGNED { ((v as i64) >> n) as u64 } else { v >> n };
    Ok(r & width_mask::<T>())
}
fn clz<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    let v = x & width_mask::<T>();
    Ok((v.leading_zeros() - (64 - T::BITS)) as u64)
}
fn ctz<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    let v = x & width_mask::<T>();
    Ok(if v == 0 { T::BITS as u64 } else { v.trailing_zeros() as u64 })
}
fn popcnt<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((x & width_mask::<T>()).count_ones() as u64)
}
fn bswap<T: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((x & width_mask::<T>()).swap_bytes() >> (64 - T::BITS))
}
fn eq<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x) == T::from_bits(y)) as u64)
}
fn ne<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x) != T::from_bits(y)) as u64)
}
fn lt<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x) < T::from_bits(y)) as u64)
}
fn le<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x) <= T::from_bits(y)) as u64)
}
fn gt<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x) > T::from_bits(y)) as u64)
}
fn ge<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x) >= T::from_bits(y)) as u64)
}
fn unord<T: Elem>(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((T::from_bits(x).is_nan() || T::from_bits(y).is_nan()) as u64)
}
fn select<T: Elem>(x: u64, y: u64, z: u64) -> Result<u64, AluTrap> {
    Ok(if x != 0 { y } else { z } & width_mask::<T>())
}
fn cvt<S: Elem, D: Elem>(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(D::from_val(S::from_bits(x).to_val()).to_bits())
}
fn pack(x: u64, y: u64, _: u64) -> Result<u64, AluTrap> {
    Ok((x & 0xffff_ffff) | (y << 32))
}
fn hi(x: u64, _: u64, _: u64) -> Result<u64, AluTrap> {
    Ok(x >> 32)
}

macro_rules! by_ty {
    ($ty:expr, $f:ident) => {
        match $ty {
            Ty::I8 => $f::<i8> as AluFn,
            Ty::U8 => $f::<u8>,
            Ty::I16 => $f::<i16>,
            Ty::U16 => $f::<u16>,
            Ty::I32 => $f::<i32>,
            Ty::U32 => $f::<u32>,
            Ty::I64 => $f::<i64>,
            Ty::U64 => $f::<u64>,
            Ty::F32 => $f::<f32>,
            Ty::F64 => $f::<f64>,
        }
    };
}

fn cvt_from<S: Elem>(to: Ty) -> AluFn {
    match to {
        Ty::I8 => cvt::<S, i8>,
        Ty::U8 => cvt::<S, u8>,
        Ty::I16 => cvt::<S, i16>,
        Ty::U16 => cvt::<S, u16>,
        Ty::I32 => cvt::<S, i32>,
        Ty::U32 => cvt::<S, u32>,
        Ty::I64 => cvt::<S, i64>,
        Ty::U64 => cvt::<S, u64>,
        Ty::F32 => cvt::<S, f32>,
        Ty::F64 => cvt::<S, f64>,
    }
}

fn cvt_fn(from: Ty, to: Ty) -> AluFn {
    match from {
        Ty::I8 => cvt_from::<i8>(to),
        Ty::U8 => cvt_from::<u8>(to),
        Ty::I16 => cvt_from::<i16>(to),
        Ty::U16 => cvt_from::<u16>(to),
        Ty::I32 => cvt_from::<i32>(to),
        Ty::U32 => cvt_from::<u32>(to),
        Ty::I64 => cvt_from::<i64>(to),
        Ty::U64 => cvt_from::<u64>(to),
        Ty::F32 => cvt_from::<f32>(to),
        Ty::F64 => cvt_from::<f64>(to),
    }
}

/// The element function of an ALU operation, or `None` for operations that are
/// not element-wise (memory, cross-lane, control).
///
/// `ty` is the operation's type (`I32` when it has none); `ty2` the second type
/// of `cvt`.
pub fn alu_fn(op: SemOp, ty: Ty, ty2: Ty) -> Option<AluFn> {
    Some(match op {
        SemOp::Mov | SemOp::Broadcast => by_ty!(ty, mov),
        SemOp::Add | SemOp::ReduceAdd | SemOp::AllReduceAdd => by_ty!(ty, add),
        SemOp::Sub => by_ty!(ty, sub),
        SemOp::Mul => by_ty!(ty, mul),
        SemOp::MulHi => by_ty!(ty, mulhi),
        SemOp::Div => by_ty!(ty, div),
        SemOp::Rem => by_ty!(ty, rem),
        SemOp::Neg => by_ty!(ty, neg),
        SemOp::Abs => by_ty!(ty, abs),
        SemOp::Min | SemOp::ReduceMin | SemOp::AllReduceMin => by_ty!(ty, min),
        SemOp::Max | SemOp::ReduceMax | SemOp::AllReduceMax => by_ty!(ty, max),
        SemOp::Mac => by_ty!(ty, mac),
        SemOp::Sqrt => by_ty!(ty, sqrt),
        SemOp::And => by_ty!(ty, and),
        SemOp::Or => by_ty!(ty, or),
        SemOp::Xor => by_ty!(ty, xor),
        SemOp::Not => by_ty!(ty, not),
        SemOp::Shl => by_ty!(ty, shl),
        SemOp::Shr => by_ty!(ty, shr),
        SemOp::Clz => by_ty!(ty, clz),
        SemOp::Ctz => by_ty!(ty, ctz),
        SemOp::Popcnt => by_ty!(ty, popcnt),
        SemOp::Bswap => by_ty!(ty, bswap),
        SemOp::Eq => by_ty!(ty, eq),
        SemOp::Ne => by_ty!(ty, ne),
        SemOp::Lt => by_ty!(ty, lt),
        SemOp::Le => by_ty!(ty, le),
        SemOp::Gt => by_ty!(ty, gt),
        SemOp::Ge => by_ty!(ty, ge),
        SemOp::Unord => by_ty!(ty, unord),
        SemOp::Select => by_ty!(ty, select),
        SemOp::Cvt => cvt_fn(ty, ty2),
        SemOp::Pack => pack,
        SemOp::Hi => hi,
        _ => return None,
    })
}

/// Type and signedness of an operation's result: what its bits are extended
/// from when written to a wider register. `None`: a 0/1 truth value (compares)
/// or already full width (`pack`, `hi`).
pub fn result_ty(op: SemOp, ty: Ty, ty2: Ty) -> Option<Ty> {
    match op {
        SemOp::Eq
        | SemOp::Ne
        | SemOp::Lt
        | SemOp::Le
        | SemOp::Gt
        | SemOp::Ge
        | SemOp::Unord
        | SemOp::Clz
        | SemOp::Ctz
        | SemOp::Popcnt
        | SemOp::Pack
        | SemOp::Hi => None,
        SemOp::Cvt => Some(ty2),
        _ => Some(ty),
    }
}

/// Whether `op` is a compare (its result is a truth value).
pub fn is_compare(op: SemOp) -> bool {
    matches!(op, SemOp::Eq | SemOp::Ne | SemOp::Lt | SemOp::Le | SemOp::Gt | SemOp::Ge | SemOp::Unord)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: SemOp, ty: Ty, x: u64, y: u64, z: u64) -> u64 {
        alu_fn(op, ty, ty).unwrap()(x, y, z).unwrap()
    }
    fn f32b(f: f32) -> u64 {
        f.to_bits() as u64
    }
    fn f64b(f: f64) -> u64 {
        f.to_bits()
    }

    #[test]
    fn integer_wrap_and_mulhi() {
        assert_eq!(run(SemOp::Add, Ty::I32, 0x7fff_ffff, 1, 0), 0x8000_0000);
        assert_eq!(run(SemOp::Sub, Ty::U32, 0, 1, 0), 0xffff_ffff);
        assert_eq!(run(SemOp::Mul, Ty::I32, 0x10000, 0x10000, 0), 0);
        assert_eq!(run(SemOp::MulHi, Ty::I32, 0xffff_ffff, 0xffff_ffff, 0), 0); // -1*-1 = 1
        assert_eq!(run(SemOp::MulHi, Ty::U32, 0xffff_ffff, 0xffff_ffff, 0), 0xffff_fffe);
        assert_eq!(run(SemOp::MulHi, Ty::U64, u64::MAX, u64::MAX, 0), u64::MAX - 1);
        assert_eq!(run(SemOp::MulHi, Ty::I64, u64::MAX, 2, 0), u64::MAX);
        assert_eq!(run(SemOp::Add, Ty::I8, 0x7f, 1, 0), 0x80);
        assert_eq!(run(SemOp::Neg, Ty::I32, 0x8000_0000, 0, 0), 0x8000_0000);
        assert_eq!(run(SemOp::Abs, Ty::I32, 0xffff_fff6, 0, 0), 10);
        assert_eq!(run(SemOp::Abs, Ty::I32, 0x8000_0000, 0, 0), 0x8000_0000);
        assert_eq!(run(SemOp::Mac, Ty::I32, 3, 4, 0xffff_ffff), 11);
    }

    #[test]
    fn division() {
        let div = alu_fn(SemOp::Div, Ty::I32, Ty::I32).unwrap();
        assert_eq!(div(7, 0, 0), Err(AluTrap::DivideByZero));
        assert_eq!(div(0x8000_0000, 0xffff_ffff, 0), Ok(0x8000_0000));
        assert_eq!(div((-7i32) as u32 as u64, 2, 0), Ok((-3i32) as u32 as u64));
        let rem = alu_fn(SemOp::Rem, Ty::I32, Ty::I32).unwrap();
        assert_eq!(rem(0x8000_0000, 0xffff_ffff, 0), Ok(0));
        assert_eq!(rem((-7i32) as u32 as u64, 2, 0), Ok((-1i32) as u32 as u64));
        assert_eq!(rem(7, 0, 0), Err(AluTrap::DivideByZero));
        assert_eq!(run(SemOp::Div, Ty::U32, 0xffff_fffe, 2, 0), 0x7fff_ffff);
        assert_eq!(run(SemOp::Rem, Ty::U64, 10, 3, 0), 1);
        // Float division by zero does not fault.
        assert_eq!(run(SemOp::Div, Ty::F32, f32b(1.0), f32b(0.0), 0), f32b(f32::INFINITY));
    }

    #[test]
    fn shifts_mod_width_and_bits() {
        assert_eq!(run(SemOp::Shl, Ty::I32, 1, 33, 0), 2);
        assert_eq!(run(SemOp::Shr, Ty::I32, 0x8000_0000, 31, 0), 0xffff_ffff);
        assert_eq!(run(SemOp::Shr, Ty::U32, 0x8000_0000, 31, 0), 1);
        assert_eq!(run(SemOp::Shr, Ty::I32, 0x8000_0000, 32, 0), 0x8000_0000);
        assert_eq!(run(SemOp::Shl, Ty::I64, 1, 64 + 63, 0), 1 << 63);
        assert_eq!(run(SemOp::Shr, Ty::I64, 1 << 63, 63, 0), u64::MAX);
        assert_eq!(run(SemOp::Clz, Ty::I32, 1, 0, 0), 31);
        assert_eq!(run(SemOp::Clz, Ty::I32, 0, 0, 0), 32);
        assert_eq!(run(SemOp::Ctz, Ty::I32, 0, 0, 0), 32);
        assert_eq!(run(SemOp::Ctz, Ty::I64, 1 << 40, 0, 0), 40);
        assert_eq!(run(SemOp::Popcnt, Ty::I32, 0xffff_ffff_ffff, 0, 0), 32);
        assert_eq!(run(SemOp::Bswap, Ty::I32, 0x1122_3344, 0, 0), 0x4433_2211);
        assert_eq!(run(SemOp::Bswap, Ty::I16, 0x1122, 0, 0), 0x2211);
        assert_eq!(run(SemOp::Not, Ty::U32, 0, 0, 0), 0xffff_ffff);
    }

    #[test]
    fn signed_unsigned_compares() {
        let m1 = 0xffff_ffffu64;
        assert_eq!(run(SemOp::Lt, Ty::I32, m1, 0, 0), 1);
        assert_eq!(run(SemOp::Lt, Ty::U32, m1, 0, 0), 0);
        assert_eq!(run(SemOp::Ge, Ty::U32, m1, 0, 0), 1);
        assert_eq!(run(SemOp::Le, Ty::I64, 5, 5, 0), 1);
        assert_eq!(run(SemOp::Gt, Ty::I8, 0x80, 0x7f, 0), 0);
        assert_eq!(run(SemOp::Min, Ty::I32, m1, 3, 0), m1);
        assert_eq!(run(SemOp::Min, Ty::U32, m1, 3, 0), 3);
        assert_eq!(run(SemOp::Max, Ty::U32, m1, 3, 0), m1);
    }

    #[test]
    fn float_nan_inf_negzero() {
        let nan = f32b(f32::NAN);
        let one = f32b(1.0);
        assert_eq!(run(SemOp::Eq, Ty::F32, nan, nan, 0), 0);
        assert_eq!(run(SemOp::Ne, Ty::F32, nan, one, 0), 1);
        assert_eq!(run(SemOp::Lt, Ty::F32, nan, one, 0), 0);
        assert_eq!(run(SemOp::Ge, Ty::F32, nan, one, 0), 0);
        assert_eq!(run(SemOp::Unord, Ty::F32, one, nan, 0), 1);
        assert_eq!(run(SemOp::Unord, Ty::F32, one, one, 0), 0);
        assert_eq!(run(SemOp::Min, Ty::F32, nan, one, 0), one);
        assert_eq!(run(SemOp::Max, Ty::F32, one, nan, 0), one);
        assert_eq!(run(SemOp::Min, Ty::F32, f32b(0.0), f32b(-0.0), 0), f32b(-0.0));
        assert_eq!(run(SemOp::Max, Ty::F32, f32b(-0.0), f32b(0.0), 0), f32b(0.0));
        assert_eq!(run(SemOp::Eq, Ty::F32, f32b(0.0), f32b(-0.0), 0), 1);
        assert_eq!(run(SemOp::Neg, Ty::F32, f32b(0.0), 0, 0), f32b(-0.0));
        assert_eq!(run(SemOp::Abs, Ty::F64, f64b(-0.0), 0, 0), f64b(0.0));
        assert_eq!(
            run(SemOp::Add, Ty::F64, f64b(f64::INFINITY), f64b(f64::NEG_INFINITY), 0) & 0x7ff8_0000_0000_0000,
            0x7ff8_0000_0000_0000
        );
        assert_eq!(run(SemOp::Sqrt, Ty::F64, f64b(2.0), 0, 0), f64b(2f64.sqrt()));
        assert!(f32::from_bits(run(SemOp::Sqrt, Ty::F32, f32b(-1.0), 0, 0) as u32).is_nan());
        assert_eq!(run(SemOp::Sub, Ty::F32, f32b(0.0), f32b(0.0), 0), f32b(0.0));
    }

    #[test]
    fn fused_mac_differs_from_separate() {
        // a*b = 1 - 2^-46 exactly needs more than 24 bits: the separate product
        // rounds to 1.0 and the sum to 0, the fused one keeps the low part.
        let a = 1.0f32 + f32::EPSILON;
        let b = 1.0f32 - f32::EPSILON;
        let c = -1.0f32;
        let fused = run(SemOp::Mac, Ty::F32, f32b(a), f32b(b), f32b(c));
        let sep_p = run(SemOp::Mul, Ty::F32, f32b(a), f32b(b), 0);
        let separate = run(SemOp::Add, Ty::F32, sep_p, f32b(c), 0);
        assert_eq!(f32::from_bits(fused as u32), a.mul_add(b, c));
        assert_ne!(fused, separate);
        assert_eq!(f32::from_bits(separate as u32), 0.0);
    }

    #[test]
    fn conversions() {
        let c = |from, to, x| alu_fn(SemOp::Cvt, from, to).unwrap()(x, 0, 0).unwrap();
        assert_eq!(c(Ty::F32, Ty::I32, f32b(3e10)), 0x7fff_ffff);
        assert_eq!(c(Ty::F32, Ty::I32, f32b(-3e10)), 0x8000_0000);
        assert_eq!(c(Ty::F32, Ty::I32, f32b(f32::NAN)), 0);
        assert_eq!(c(Ty::F32, Ty::I32, f32b(-2.9)), (-2i32) as u32 as u64);
        assert_eq!(c(Ty::F32, Ty::U32, f32b(-2.9)), 0);
        assert_eq!(c(Ty::F64, Ty::U64, f64b(1e30)), u64::MAX);
        assert_eq!(c(Ty::F64, Ty::I64, f64b(f64::NEG_INFINITY)), i64::MIN as u64);
        assert_eq!(c(Ty::I32, Ty::F32, 0xffff_ffff), f32b(-1.0));
        assert_eq!(c(Ty::U32, Ty::F32, 0xffff_ffff), f32b(4294967296.0));
        assert_eq!(c(Ty::U64, Ty::F32, u64::MAX), f32b(u64::MAX as f32));
        assert_eq!(c(Ty::I8, Ty::I32, 0x80), 0xffff_ff80);
        assert_eq!(c(Ty::U8, Ty::U32, 0x1ff), 0xff);
        assert_eq!(c(Ty::I64, Ty::I32, 0x1_2345_6789), 0x2345_6789);
        assert_eq!(c(Ty::I32, Ty::I64, 0xffff_ffff), u64::MAX);
        assert_eq!(c(Ty::F64, Ty::F32, f64b(1e300)), f32b(f32::INFINITY));
        assert_eq!(c(Ty::F32, Ty::F64, f32b(0.1)), f64b(0.1f32 as f64));
    }

    #[test]
    fn select_pack_hi() {
        assert_eq!(run(SemOp::Select, Ty::I32, 1, 5, 6), 5);
        assert_eq!(run(SemOp::Select, Ty::I32, 0, 5, 6), 6);
        assert_eq!(alu_fn(SemOp::Pack, Ty::I32, Ty::I32).unwrap()(0x1_2222_2222, 0x3333_3333, 0), Ok(0x3333_3333_2222_2222));
        assert_eq!(alu_fn(SemOp::Hi, Ty::I32, Ty::I32).unwrap()(0x3333_3333_2222_2222, 0, 0), Ok(0x3333_3333));
    }
}

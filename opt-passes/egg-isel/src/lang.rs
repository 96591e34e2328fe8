//! The vector DSL (seed 004 §2.2, after Diospyros): an egg [`egg::Language`]
//! of scalar arithmetic (and integer bit operations) on input array
//! elements, vectors of the machine's
//! lane count built lane by lane (`Vec`), element-wise vector arithmetic,
//! the scalar–vector cooperation operations (broadcast, vector with a scalar
//! operand, reduction, lane extract), lane shuffles, contiguous and strided vector loads, and a `List`
//! of the program's outputs.
//!
//! A program has one element type ([`Elem`]: 32-bit integers that wrap, or
//! IEEE single precision), so the nodes carry none. Constants are `Num`s:
//! integers, or the bits of a float.

use egg::{define_language, Id, Symbol};

define_language! {
    pub enum VecLang {  // The DSL's nodes.
        // Scalars.
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        "neg" = Neg(Id),
        "mac" = Mac([Id; 3]),  // `(mac a b c)`: `a * b + c` (floats: fused, one rounding).
        // Integer bit operations; a shift's amount is taken modulo 32.
        "&" = And([Id; 2]),
        "|" = Or([Id; 2]),
        "^" = Xor([Id; 2]),
        "<<" = Shl([Id; 2]),
        ">>" = AShr([Id; 2]),  // arithmetic
        ">>>" = LShr([Id; 2]),  // logical
        "arg" = Arg(Id),  // `(arg s)`: the scalar input named `s` (a loop invariant, a carried value).
        "get" = Get([Id; 2]),  // `(get A i)`: element `i` (a `Num`) of input array `A` (a `Symbol`).
        "ReduceAdd" = ReduceAdd(Id),  // `(ReduceAdd v)`: the lanes of `v` summed in lane order.
        "Extract" = Extract([Id; 2]),  // `(Extract v k)`: lane `k` (a `Num`) of `v`.
        // Vectors of `lanes` elements.
        "Vec" = Vec(Box<[Id]>),  // `(Vec e0 … e(lanes-1))`: a vector built from scalars.
        "VecAdd" = VecAdd([Id; 2]),
        "VecSub" = VecSub([Id; 2]),
        "VecMul" = VecMul([Id; 2]),
        "VecNeg" = VecNeg(Id),
        "VecAnd" = VecAnd([Id; 2]),
        "VecOr" = VecOr([Id; 2]),
        "VecXor" = VecXor([Id; 2]),
        "VecShlS" = VecShlS([Id; 2]),  // `(VecShlS v s)`: every lane shifted by the scalar `s`.
        "VecAShrS" = VecAShrS([Id; 2]),
        "VecLShrS" = VecLShrS([Id; 2]),
        "VecMAC" = VecMac([Id; 3]),  // `(VecMAC a b c)`: `a * b + c` lane by lane (floats: fused).
        "VecAddS" = VecAddS([Id; 2]),  // `(VecAddS v s)`: `v + s` in every lane (a scalar operand).
        "VecMulS" = VecMulS([Id; 2]),  // `(VecMulS v s)`: `v * s` in every lane.
        "VecMACS" = VecMacS([Id; 3]),  // `(VecMACS v s c)`: `v * s + c` lane by lane (floats: fused).
        "Broadcast" = Broadcast(Id),
        "Insert" = Insert([Id; 3]),  // `(Insert v s k)`: `v` with lane `k` (a `Num`) replaced by `s`.  // `(Broadcast s)`: `s` in every lane.
        "VecLoad" = VecLoad([Id; 2]),  // `(VecLoad A i)`: elements `i … i + lanes - 1` of `A`.
        "VecLoadS" = VecLoadS([Id; 2]),  // `(VecLoadS A i)`: the same of a strided array (element k `k × stride` apart in memory).
        "Shuffle" = Shuffle(Box<[Id]>),  // `(Shuffle v i0 … i(lanes-1))`: lane k is lane `ik` (a `Num`) of `v`.
        "List" = List(Box<[Id]>),  // The program's outputs, in order (scalars or vectors).
        Num(i64),
        Symbol(Symbol),
    }
}

/// The element type of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// 32-bit two's complement integers; arithmetic wraps.
    I32,
    /// IEEE binary32, round to nearest even.
    F32,
}

/// Whether a node makes a vector (else a scalar, a constant, a name or the list).
pub fn is_vector(n: &VecLang) -> bool {
    use VecLang::*;
    matches!(n, Vec(_) | Insert(_) | VecAdd(_) | VecSub(_) | VecMul(_) | VecNeg(_) | VecAnd(_) | VecOr(_) | VecXor(_) | VecShlS(_) | VecAShrS(_) | VecLShrS(_) | VecMac(_) | VecAddS(_) | VecMulS(_) | VecMacS(_) | Broadcast(_) | VecLoad(_) | VecLoadS(_) | Shuffle(_))
}

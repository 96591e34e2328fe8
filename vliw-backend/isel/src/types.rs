//! LLVM types → the shapes values take in machine registers.
//!
//! Scalars live in one register: `i1` in the predicate file, integers up to
//! the narrowest integer file's width in it (narrow integers "any-extended":
//! their upper bits are undefined and extended where an operation needs
//! them), wider integers up to 64 bits in the 64-bit file, floats in the file
//! holding their type (or, on a machine without floating point, in the
//! integer file of their width). A vector type whose elements are 32-bit and
//! whose lane count is a multiple of the machine's 32-bit vector lanes lives
//! in vector registers (`i1` vectors in lane masks); every other vector is
//! scalarized, one register per lane. Aggregates are lists of their
//! elements. All of it is read from the machine.

use isa_tablegen::{Machine, RegFileId, Ty};

use crate::llvm::{TyKind, T};

/// A scalar type as selection sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sc {
    I1,
    Int(u32),
    F32,
    F64,
    Ptr,
}

impl Sc {
    pub fn bits(self) -> u32 {
        match self {
            Sc::I1 => 1,
            Sc::Int(b) => b,
            Sc::F32 | Sc::Ptr => 32,
            Sc::F64 => 64,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Sc::F32 | Sc::F64)
    }
    /// The vocabulary type of the value as stored in memory (integers by size).
    pub fn mem_ty(self) -> Option<Ty> {
        Some(match self {
            Sc::F32 => Ty::F32,
            Sc::F64 => Ty::F64,
            _ => match self.bits() {
                1..=8 => Ty::I8,
                9..=16 => Ty::I16,
                17..=32 => Ty::I32,
                33..=64 => Ty::I64,
                _ => return None,
            },
        })
    }
    /// Vocabulary type for integer arithmetic on the register (I32 or I64), signed or not.
    pub fn arith_ty(self, signed: bool) -> Ty {
        match (self.bits() > 32, signed) {
            (false, true) => Ty::I32,
            (false, false) => Ty::U32,
            (true, true) => Ty::I64,
            (true, false) => Ty::U64,
        }
    }
    /// The vocabulary type of the register holding it (floats by their type).
    pub fn reg_ty(self) -> Ty {
        match self {
            Sc::F32 => Ty::F32,
            Sc::F64 => Ty::F64,
            _ => self.arith_ty(true),
        }
    }
}

/// The scalar kind of an LLVM type, if it is a scalar.
pub fn scalar(t: T) -> Result<Option<Sc>, String> {
    Ok(match t.kind() {
        TyKind::Int(1) => Some(Sc::I1),
        TyKind::Int(b) if b <= 64 => Some(Sc::Int(b)),
        TyKind::Int(b) if b > 128 => return Err(format!("{b}-bit integers are not supported (at most 128 bits)")),
        TyKind::Int(b) => return Err(format!("{b}-bit integers are only supported in registers as bit-field units")),
        TyKind::F32 => Some(Sc::F32),
        TyKind::F64 => Some(Sc::F64),
        TyKind::Ptr => Some(Sc::Ptr),
        TyKind::Other(s) => return Err(format!("type '{s}' is not supported")),
        _ => None,
    })
}

/// The register file of a scalar.
pub fn file_of(m: &Machine, sc: Sc) -> Result<RegFileId, String> {
    let f = match sc {
        Sc::I1 => m.predicate_file(),
        Sc::F32 => m.scalar_file(Ty::F32).or_else(|| m.scalar_file(Ty::I32)),
        Sc::F64 => m.scalar_file(Ty::F64).or_else(|| m.scalar_file(Ty::I64)),
        _ if sc.bits() <= 32 => m.scalar_file(Ty::I32),
        _ => m.scalar_file(Ty::I64),
    };
    f.ok_or_else(|| match sc {
        Sc::I1 => "the machine has no predicate register file".to_string(),
        _ => format!("the machine has no register file for {}-bit values", sc.bits()),
    })
}

/// How a value of an LLVM type is held.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Void,
    Scalar(Sc),
    /// A vector in `chunks` registers of `file` (a vector file, or a mask file for i1).
    Native {
        elem: Sc,
        lanes: u32,
        chunks: u32,
        file: RegFileId,
    },
    /// A vector held as one scalar register per lane.
    Lanes {
        elem: Sc,
        lanes: u32,
    },
    /// A struct or array: its element types.
    Agg(Vec<T>),
    /// An integer wider than 64 bits (bitfield storage units): 32-bit parts,
    /// least significant first, in the 32-bit integer file.
    Wide {
        bits: u32,
        parts: u32,
    },
}

/// The machine's lane count for 32-bit vectors and its vector file.
pub fn vector32(m: &Machine) -> Option<(u32, RegFileId)> {
    let lanes = m.vector_lanes(32)?;
    Some((lanes, m.vector_file(lanes, 32)?))
}

pub fn shape(m: &Machine, t: T) -> Result<Shape, String> {
    Ok(match t.kind() {
        TyKind::Void => Shape::Void,
        TyKind::Vector(e, n) => {
            let elem = scalar(e)?.ok_or_else(|| format!("vector type '{}' is not supported", t.print()))?;
            if let Some((ml, vf)) = vector32(m) {
                let native_elem = matches!(elem, Sc::Int(32) | Sc::F32 | Sc::Ptr | Sc::I1);
                if native_elem && n % ml == 0 && n > 0 {
                    let file = if elem == Sc::I1 { m.mask_file(vf) } else { Some(vf) };
                    if let Some(file) = file {
                        return Ok(Shape::Native { elem, lanes: n, chunks: n / ml, file });
                    }
                }
            }
            Shape::Lanes { elem, lanes: n }
        }
        TyKind::Int(b) if b > 64 && b <= 128 => Shape::Wide { bits: b, parts: b.div_ceil(32) },
        TyKind::Struct(ts) => Shape::Agg(ts),
        TyKind::Array(e, n) => {
            if n > 4096 {
                return Err(format!("array value of {n} elements in registers is not supported"));
            }
            Shape::Agg(vec![e; n as usize])
        }
        _ => match scalar(t)? {
            Some(sc) => Shape::Scalar(sc),
            None => return Err(format!("type '{}' is not supported", t.print())),
        },
    })
}

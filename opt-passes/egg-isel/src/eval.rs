//! An interpreter of the DSL: the reference the rules are checked against
//! (both sides of every rule evaluated on random inputs, lane by lane,
//! bit for bit) and the meaning the lowering must keep.

use std::collections::HashMap;

use egg::{Id, RecExpr, Symbol};

use crate::lang::{Elem, VecLang};

/// A value: a scalar or a vector, as raw 32-bit patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    S(u32),
    V(Vec<u32>),
    /// A constant index or an array name (operands of `get`, `VecLoad`, `Extract`).
    Num(i64),
    Name(Symbol),
    List(Vec<Val>),
}

/// The inputs: each array's elements as raw bits; a scalar input `(arg s)`
/// is element 0 of the array named `s`.
pub type Inputs = HashMap<Symbol, Vec<u32>>;

/// Evaluates `e` (its last node is the root) for element type `elem` and `lanes` lanes.
pub fn eval(e: &RecExpr<VecLang>, elem: Elem, lanes: usize, inputs: &Inputs) -> Result<Val, String> {
    let mut vals: Vec<Val> = Vec::with_capacity(e.len());
    for (_, n) in e.items() {
        let v = node(n, elem, lanes, inputs, &vals)?;
        vals.push(v);
    }
    vals.pop().ok_or_else(|| "an empty program".into())
}

/// Shifts by the amount modulo 32 (the vocabulary's `shl`/`shr`).
fn shl(a: u32, b: u32) -> u32 {
    a.wrapping_shl(b & 31)
}
fn ashr(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}
fn lshr(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

fn bin(elem: Elem, op: fn(i32, i32) -> i32, fop: fn(f32, f32) -> f32, a: u32, b: u32) -> u32 {
    match elem {
        Elem::I32 => op(a as i32, b as i32) as u32,
        Elem::F32 => fop(f32::from_bits(a), f32::from_bits(b)).to_bits(),
    }
}

fn add(elem: Elem, a: u32, b: u32) -> u32 {
    bin(elem, i32::wrapping_add, |x, y| x + y, a, b)
}
fn sub(elem: Elem, a: u32, b: u32) -> u32 {
    bin(elem, i32::wrapping_sub, |x, y| x - y, a, b)
}
fn mul(elem: Elem, a: u32, b: u32) -> u32 {
    bin(elem, i32::wrapping_mul, |x, y| x * y, a, b)
}
fn neg(elem: Elem, a: u32) -> u32 {
    match elem {
        Elem::I32 => (a as i32).wrapping_neg() as u32,
        Elem::F32 => a ^ 0x8000_0000,
    }
}
/// `a * b + c`, fused for floats (the machines' `mac`).
fn mac(elem: Elem, a: u32, b: u32, c: u32) -> u32 {
    match elem {
        Elem::I32 => add(elem, mul(elem, a, b), c),
        Elem::F32 => f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c)).to_bits(),
    }
}

fn node(n: &VecLang, elem: Elem, lanes: usize, inputs: &Inputs, vals: &[Val]) -> Result<Val, String> {
    use VecLang as L;
    let get = |id: Id| &vals[usize::from(id)];
    let s = |id: Id| match get(id) {
        Val::S(x) => Ok(*x),
        Val::Num(k) => Ok(*k as u32),
        v => Err(format!("a scalar expected, not {v:?}")),
    };
    let v = |id: Id| match get(id) {
        Val::V(x) if x.len() == lanes => Ok(x.clone()),
        v => Err(format!("a vector of {lanes} lanes expected, not {v:?}")),
    };
    let num = |id: Id| match get(id) {
        Val::Num(k) => Ok(*k),
        v => Err(format!("a constant expected, not {v:?}")),
    };
    let name = |id: Id| match get(id) {
        Val::Name(x) => Ok(*x),
        v => Err(format!("an array name expected, not {v:?}")),
    };
    let element = |a: Symbol, i: i64| -> Result<u32, String> {
        let arr = inputs.get(&a).ok_or_else(|| format!("no input array '{a}'"))?;
        usize::try_from(i).ok().and_then(|i| arr.get(i)).copied().ok_or_else(|| format!("'{a}'[{i}] is out of bounds"))
    };
    let lanewise = |a: Vec<u32>, b: Vec<u32>, f: &dyn Fn(u32, u32) -> u32| Val::V(a.into_iter().zip(b).map(|(x, y)| f(x, y)).collect());
    Ok(match n {
        L::Num(k) => Val::Num(*k),
        L::Symbol(x) => Val::Name(*x),
        L::Add([a, b]) => Val::S(add(elem, s(*a)?, s(*b)?)),
        L::Sub([a, b]) => Val::S(sub(elem, s(*a)?, s(*b)?)),
        L::Mul([a, b]) => Val::S(mul(elem, s(*a)?, s(*b)?)),
        L::Neg(a) => Val::S(neg(elem, s(*a)?)),
        L::Mac([a, b, c]) => Val::S(mac(elem, s(*a)?, s(*b)?, s(*c)?)),
        L::And([a, b]) => Val::S(s(*a)? & s(*b)?),
        L::Or([a, b]) => Val::S(s(*a)? | s(*b)?),
        L::Xor([a, b]) => Val::S(s(*a)? ^ s(*b)?),
        L::Shl([a, b]) => Val::S(shl(s(*a)?, s(*b)?)),
        L::AShr([a, b]) => Val::S(ashr(s(*a)?, s(*b)?)),
        L::LShr([a, b]) => Val::S(lshr(s(*a)?, s(*b)?)),
        L::Arg(a) => Val::S(element(name(*a)?, 0)?),
        L::Get([a, i]) => Val::S(element(name(*a)?, num(*i)?)?),
        L::ReduceAdd(a) => {
            let x = v(*a)?;
            Val::S(x[1..].iter().fold(x[0], |acc, &y| add(elem, acc, y)))
        }
        L::Extract([a, k]) => {
            let x = v(*a)?;
            let k = usize::try_from(num(*k)?).map_err(|_| "a negative lane")?;
            Val::S(*x.get(k).ok_or("a lane out of range")?)
        }
        L::Vec(es) => {
            if es.len() != lanes {
                return Err(format!("a Vec of {} elements on {lanes} lanes", es.len()));
            }
            Val::V(es.iter().map(|&e| s(e)).collect::<Result<_, _>>()?)
        }
        L::VecAdd([a, b]) => lanewise(v(*a)?, v(*b)?, &|x, y| add(elem, x, y)),
        L::VecSub([a, b]) => lanewise(v(*a)?, v(*b)?, &|x, y| sub(elem, x, y)),
        L::VecMul([a, b]) => lanewise(v(*a)?, v(*b)?, &|x, y| mul(elem, x, y)),
        L::VecNeg(a) => Val::V(v(*a)?.into_iter().map(|x| neg(elem, x)).collect()),
        L::VecAnd([a, b]) => lanewise(v(*a)?, v(*b)?, &|x, y| x & y),
        L::VecOr([a, b]) => lanewise(v(*a)?, v(*b)?, &|x, y| x | y),
        L::VecXor([a, b]) => lanewise(v(*a)?, v(*b)?, &|x, y| x ^ y),
        L::VecShlS([a, b]) => {
            let y = s(*b)?;
            Val::V(v(*a)?.into_iter().map(|x| shl(x, y)).collect())
        }
        L::VecAShrS([a, b]) => {
            let y = s(*b)?;
            Val::V(v(*a)?.into_iter().map(|x| ashr(x, y)).collect())
        }
        L::VecLShrS([a, b]) => {
            let y = s(*b)?;
            Val::V(v(*a)?.into_iter().map(|x| lshr(x, y)).collect())
        }
        L::VecMac([a, b, c]) => {
            let (a, b, c) = (v(*a)?, v(*b)?, v(*c)?);
            Val::V((0..lanes).map(|k| mac(elem, a[k], b[k], c[k])).collect())
        }
        L::VecAddS([a, b]) => {
            let y = s(*b)?;
            Val::V(v(*a)?.into_iter().map(|x| add(elem, x, y)).collect())
        }
        L::VecMulS([a, b]) => {
            let y = s(*b)?;
            Val::V(v(*a)?.into_iter().map(|x| mul(elem, x, y)).collect())
        }
        L::VecMacS([a, b, c]) => {
            let (a, y, c) = (v(*a)?, s(*b)?, v(*c)?);
            Val::V((0..lanes).map(|k| mac(elem, a[k], y, c[k])).collect())
        }
        L::Broadcast(a) => Val::V(vec![s(*a)?; lanes]),
        L::Insert([a, x, k]) => {
            let mut v = v(*a)?;
            let k = usize::try_from(num(*k)?).ok().filter(|&k| k < lanes).ok_or("a lane out of range")?;
            v[k] = s(*x)?;
            Val::V(v)
        }
        L::VecLoad([a, i]) | L::VecLoadS([a, i]) => {
            let (a, i) = (name(*a)?, num(*i)?);
            Val::V((0..lanes as i64).map(|k| element(a, i + k)).collect::<Result<_, _>>()?)
        }
        L::Shuffle(xs) => {
            let (src, idx) = xs.split_first().ok_or("a shuffle without a vector")?;
            let src = v(*src)?;
            if idx.len() != lanes {
                return Err("a shuffle of the wrong width".into());
            }
            // The vocabulary's shuffle: lane k is lane (index mod lanes).
            Val::V(idx.iter().map(|&k| num(k).map(|k| src[k.rem_euclid(lanes as i64) as usize])).collect::<Result<_, _>>()?)
        }
        L::List(es) => Val::List(es.iter().map(|&e| get(e).clone()).collect()),
    })
}
